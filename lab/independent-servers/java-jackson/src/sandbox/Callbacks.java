package sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import sandbox.model.TransactionResponse;

/**
 * Outbound transaction-update notifications. Only active with CALLBACKS=on; with any other value
 * (the harness always uses CALLBACKS=off) no outbound request is ever made.
 */
final class Callbacks {
    private final boolean enabled;
    private final ObjectMapper mapper;
    private final HttpClient client;

    Callbacks(boolean enabled, ObjectMapper mapper) {
        this.enabled = enabled;
        this.mapper = mapper;
        this.client = enabled
                ? HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
                : null;
    }

    void transactionUpdated(TransactionResponse transaction) {
        if (!enabled || transaction.callbackUrl == null) {
            return;
        }
        try {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("name", "transaction." + transaction.status);
            event.put("entity", transaction);
            byte[] body = mapper.writeValueAsBytes(event);
            HttpRequest request = HttpRequest.newBuilder(URI.create(transaction.callbackUrl))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .exceptionally(e -> null);
        } catch (Exception e) {
            System.err.println("callback to " + transaction.callbackUrl + " not sent: " + e);
        }
    }
}
