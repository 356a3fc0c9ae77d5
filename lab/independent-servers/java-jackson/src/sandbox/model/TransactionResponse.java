package sandbox.model;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Date;

/** Transaction as returned by creation: exactly the fields listed by the reference. */
public class TransactionResponse {
    public long id;
    public String reference;
    public long amount;
    public String description;
    @JsonProperty("callback_url")
    public String callbackUrl;
    public String status;
    @JsonProperty("created_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date createdAt;
    @JsonProperty("updated_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date updatedAt;
}
