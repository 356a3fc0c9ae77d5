package sandbox.model;

/**
 * Phone number object as sent by clients, both inside a transaction's customer
 * (where the reference types "number" as a number) and in the send-transaction
 * payload (where it is a string). Declared as String: Jackson's default scalar
 * coercion turns a JSON integer into its decimal text.
 */
public class PhoneNumberPayload {
    public String number;
    public String country;
}
