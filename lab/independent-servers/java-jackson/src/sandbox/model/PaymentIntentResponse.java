package sandbox.model;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Date;

/** Payment intent returned (inside an array) by POST /v1/transactions/{mode}. */
public class PaymentIntentResponse {
    public String reference;
    public long amount;
    public String status;
    @JsonProperty("currency_id")
    public long currencyId;
    public String mode;
    @JsonProperty("last_error_code")
    public String lastErrorCode;
    @JsonProperty("created_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date createdAt;
    @JsonProperty("updated_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date updatedAt;
    @JsonProperty("approved_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date approvedAt;
    @JsonProperty("canceled_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date canceledAt;
    @JsonProperty("deleted_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date deletedAt;
    @JsonProperty("payment_method_id")
    public long paymentMethodId;
    @JsonProperty("transaction_key")
    public String transactionKey;
    @JsonProperty("account_id")
    public long accountId;
}
