package sandbox.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Body of POST /v1/transactions/{mode}. The reference types "token" as an integer in this
 * payload but the token operation returns a string; tokens are digit strings, and a String
 * field accepts both shapes through Jackson's default scalar coercion.
 */
public class SendTransactionRequest {
    public String token;
    @JsonProperty("phone_number")
    public PhoneNumberPayload phoneNumber;
}
