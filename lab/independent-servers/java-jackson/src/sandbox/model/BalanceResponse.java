package sandbox.model;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Date;

public class BalanceResponse {
    public long id;
    public long amount;
    public String mode;
    @JsonProperty("account_id")
    public long accountId;
    @JsonProperty("created_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date createdAt;
    @JsonProperty("updated_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date updatedAt;
}
