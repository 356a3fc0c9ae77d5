package sandbox.model;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Date;

public class CustomerResponse {
    public long id;
    public String email;
    public String firstname;
    public String lastname;
    @JsonProperty("phone_number")
    public PhoneNumberResponse phoneNumber;
    @JsonProperty("created_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date createdAt;
    @JsonProperty("updated_at")
    @JsonFormat(shape = JsonFormat.Shape.STRING, pattern = Json.DATE_TIME, timezone = Json.UTC)
    public Date updatedAt;
}
