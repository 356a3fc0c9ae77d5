package sandbox.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Body of POST /v1/customers (not in the reference; required by the harness contract). */
public class CreateCustomerRequest {
    public String email;
    public String firstname;
    public String lastname;
    @JsonProperty("phone_number")
    public PhoneNumberPayload phoneNumber;
}
