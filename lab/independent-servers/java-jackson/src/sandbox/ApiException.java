package sandbox;

/** An error that is answered to the client with the given status and JSON error body. */
public class ApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final String field;

    public ApiException(int status, String code, String message) {
        this(status, code, message, null);
    }

    public ApiException(int status, String code, String message, String field) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.field = field;
    }

    public int status() { return status; }
    public String code() { return code; }
    public String field() { return field; }

    public static ApiException notFound(String what) {
        return new ApiException(404, "not_found", what + " not found");
    }

    public static ApiException invalid(String field, String message) {
        return new ApiException(400, "invalid_request", field + ": " + message, field);
    }
}
