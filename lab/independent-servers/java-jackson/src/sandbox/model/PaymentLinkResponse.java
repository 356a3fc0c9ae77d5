package sandbox.model;

public class PaymentLinkResponse {
    public String token;
    public String url;

    public PaymentLinkResponse() {}

    public PaymentLinkResponse(String token, String url) {
        this.token = token;
        this.url = url;
    }
}
