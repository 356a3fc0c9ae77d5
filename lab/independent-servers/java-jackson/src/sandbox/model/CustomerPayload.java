package sandbox.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/** "customer" object of the transaction-creation payload (an existing customer may be given by id alone). */
public class CustomerPayload {
    public Long id;
    public String email;
    public String firstname;
    public String lastname;
    @JsonProperty("phone_number")
    public PhoneNumberPayload phoneNumber;
}
