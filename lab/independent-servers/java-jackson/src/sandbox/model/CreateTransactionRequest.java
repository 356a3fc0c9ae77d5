package sandbox.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** Body of POST /v1/transactions. */
public class CreateTransactionRequest {
    public String description;
    public long amount;
    public CurrencyPayload currency;
    @JsonProperty("callback_url")
    public String callbackUrl;
    @JsonProperty("custom_metadata")
    public Map<String, Object> customMetadata;
    public CustomerPayload customer;
    public String mode;
}
