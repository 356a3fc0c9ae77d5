package sandbox.model;

/** "currency": {"iso": "XOF"} in the transaction-creation payload. */
public class CurrencyPayload {
    public String iso;
}
