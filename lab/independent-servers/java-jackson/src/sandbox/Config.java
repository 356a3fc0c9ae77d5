package sandbox;

import java.util.Locale;

/** Settings read from the environment. */
record Config(int port, String secretKey, String secondSecretKey, Defect defect, boolean callbacks) {

    enum Defect {
        NONE, AMOUNT_PLUS_ONE, NO_AUTH, DELETE_500, DROP_CALLBACK_QUERY;

        static Defect parse(String value) {
            if (value == null || value.isBlank()) {
                return NONE;
            }
            switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "amount-plus-one": return AMOUNT_PLUS_ONE;
                case "no-auth": return NO_AUTH;
                case "delete-500": return DELETE_500;
                case "drop-callback-query": return DROP_CALLBACK_QUERY;
                default:
                    System.err.println("WARNING: unknown DEFECT '" + value + "', running without planted defect");
                    return NONE;
            }
        }
    }

    static Config fromEnvironment() {
        int port = 8080;
        String p = System.getenv("PORT");
        if (p != null && !p.isBlank()) {
            port = Integer.parseInt(p.trim());
        }
        String key1 = envOr("SECRET_KEY", "sk_sandbox_account1");
        String key2 = envOr("SECOND_SECRET_KEY", "sk_sandbox_account2");
        Defect defect = Defect.parse(System.getenv("DEFECT"));
        String cb = System.getenv("CALLBACKS");
        boolean callbacks = cb != null && cb.trim().equalsIgnoreCase("on");
        return new Config(port, key1, key2, defect, callbacks);
    }

    private static String envOr(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? fallback : v;
    }
}
