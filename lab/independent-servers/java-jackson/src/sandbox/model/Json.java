package sandbox.model;

/** Timestamp pattern shared by every response class (ISO 8601, UTC, millisecond precision). */
public final class Json {
    public static final String DATE_TIME = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
    public static final String UTC = "UTC";
    private Json() {}
}
