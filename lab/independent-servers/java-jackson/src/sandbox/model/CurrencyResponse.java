package sandbox.model;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Date;
import java.util.List;

public class CurrencyResponse {
    public long id;
    public String name;
    public List<String> modes;
    public String prefix;
    public String suffix;
    @JsonProperty("account_id")
    public long accountId;
    @JsonProperty("created_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date createdAt;
    @JsonProperty("updated_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date updatedAt;
    @JsonProperty("default")
    public boolean isDefault;
}
