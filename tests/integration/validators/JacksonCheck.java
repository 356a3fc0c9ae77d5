import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Jackson's ObjectMapper with its defaults (readTree, as a Spring or JAX-RS body reader calls it) on texts read from
 * stdin, one JSON-encoded string per line; prints one JSON line per text: {"read": false} or {"read": true, "value":
 * ...}. Its default FAIL_ON_TRAILING_TOKENS is false: text after the first value is left unread.
 */
public class JacksonCheck {
    public static void main(String[] args) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String text = mapper.readValue(line, String.class);
            try {
                System.out.println("{\"read\":true,\"value\":" + mapper.writeValueAsString(mapper.readTree(text)) + "}");
            } catch (Exception error) {
                System.out.println("{\"read\":false}");
            }
        }
    }
}
