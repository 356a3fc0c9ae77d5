package sandbox.model;

/** Error body: {"error": {"status": 404, "code": "not_found", "message": "...", "field": null}}. */
public class ErrorResponse {
    public ErrorDetail error;

    public ErrorResponse() {}

    public ErrorResponse(int status, String code, String message, String field) {
        this.error = new ErrorDetail();
        this.error.status = status;
        this.error.code = code;
        this.error.message = message;
        this.error.field = field;
    }

    public static class ErrorDetail {
        public int status;
        public String code;
        public String message;
        public String field;
    }
}
