package sandbox.model;

public class PhoneNumberResponse {
    public String number;
    public String country;

    public PhoneNumberResponse() {}

    public PhoneNumberResponse(String number, String country) {
        this.number = number;
        this.country = country;
    }
}
