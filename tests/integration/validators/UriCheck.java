import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Java's java.net.URI (RFC 2396) on the URLs read from stdin, one per line: parsed, an http(s) scheme, a server
 * authority with a host (what code that takes a callback URL with new URI(...) then getHost() relies on). Prints the
 * URLs refused, one JSON string per line (the values hold no quote or backslash: they are safe URLs).
 */
public class UriCheck {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<String> refused = new ArrayList<>();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isEmpty()) continue;
            try {
                URI uri = new URI(line).parseServerAuthority();
                String scheme = uri.getScheme();
                if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                    refused.add(line + "\t" + "no http(s) scheme or no host");
                }
            } catch (URISyntaxException error) {
                refused.add(line + "\t" + error.getReason());
            }
        }
        for (String entry : refused) System.out.println(entry);
    }
}
