package sandbox;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import sandbox.Config.Defect;
import sandbox.Entities.Account;
import sandbox.Entities.Transaction;
import sandbox.model.CreateCustomerRequest;
import sandbox.model.CreateTransactionRequest;
import sandbox.model.ErrorResponse;
import sandbox.model.SendTransactionRequest;

/** The single HTTP handler: authentication, routing, JSON binding and error mapping. */
final class Api implements HttpHandler {
    static final int MAX_BODY = 1 << 20;        // 1 MiB
    static final int MAX_DEPTH = 1000;          // same limits Jackson 2.15+ applies by default
    static final int MAX_NUMBER_LENGTH = 1000;

    private final ObjectMapper mapper;
    private final Store store;
    private final Service service;
    private final Config config;

    Api(ObjectMapper mapper, Store store, Service service, Config config) {
        this.mapper = mapper;
        this.store = store;
        this.service = service;
        this.config = config;
    }

    /** A response to write: status, JSON-serializable body (or null), extra header. */
    private record Reply(int status, Object body, String allow) {
        static Reply of(int status, Object body) { return new Reply(status, body, null); }
    }

    @Override
    public void handle(HttpExchange ex) {
        try {
            Reply reply;
            try {
                reply = dispatch(ex);
            } catch (ApiException e) {
                reply = error(e);
            } catch (StackOverflowError e) {
                reply = error(new ApiException(400, "invalid_json", "Request body is nested too deeply"));
            } catch (Exception e) {
                System.err.println("unexpected error on " + ex.getRequestMethod() + " " + ex.getRequestURI() + ": " + e);
                e.printStackTrace();
                reply = error(new ApiException(500, "internal_error", "Internal server error"));
            }
            write(ex, reply);
        } catch (Throwable t) {
            System.err.println("failed to answer " + ex.getRequestURI() + ": " + t);
        } finally {
            ex.close();
        }
    }

    private Reply dispatch(HttpExchange ex) throws IOException {
        String method = ex.getRequestMethod().toUpperCase();
        if (method.equals("HEAD")) {
            method = "GET";
        }
        byte[] body = readBody(ex);
        String path = ex.getRequestURI().getRawPath();
        if (path == null) {
            path = "/";
        }
        if (path.startsWith("/pay/")) {
            return checkoutPage(method, path.substring(5));
        }
        if (!path.startsWith("/v1/")) {
            throw new ApiException(404, "not_found", "No such endpoint");
        }
        Account account = authenticate(ex.getRequestHeaders());
        String[] seg = path.substring(4).split("/", -1);

        switch (seg[0]) {
            case "customers":
                if (seg.length == 1) {
                    requireMethod(method, "POST");
                    CreateCustomerRequest req = bind(body, CreateCustomerRequest.class);
                    return Reply.of(201, service.createCustomer(account, req));
                }
                if (seg.length == 2) {
                    requireMethod(method, "DELETE");
                    service.deleteCustomer(account, seg[1]);
                    return Reply.of(204, null);
                }
                break;
            case "transactions":
                if (seg.length == 1) {
                    requireMethod(method, "POST");
                    CreateTransactionRequest req = bind(body, CreateTransactionRequest.class);
                    return Reply.of(201, service.createTransaction(account, req));
                }
                if (seg.length == 2 && !seg[1].isEmpty()) {
                    requireMethod(method, "POST");
                    SendTransactionRequest req = bind(body, SendTransactionRequest.class);
                    return Reply.of(200, service.send(account, seg[1], req));
                }
                if (seg.length == 3 && seg[2].equals("token")) {
                    requireMethod(method, "POST");
                    return Reply.of(200, service.token(account, seg[1], baseUrl(ex)));
                }
                break;
            case "balances":
                if (seg.length == 2) {
                    requireMethod(method, "GET");
                    return Reply.of(200, service.balance(account, seg[1]));
                }
                break;
            case "currencies":
                if (seg.length == 2) {
                    requireMethod(method, "GET");
                    return Reply.of(200, service.currency(account, seg[1]));
                }
                break;
            default:
                break;
        }
        throw new ApiException(404, "not_found", "No such endpoint");
    }

    private static void requireMethod(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw new MethodNotAllowed(allowed);
        }
    }

    /** 405 carrying the Allow header value. */
    private static final class MethodNotAllowed extends ApiException {
        final String allow;
        MethodNotAllowed(String allow) {
            super(405, "method_not_allowed", "Method not allowed; allowed: " + allow);
            this.allow = allow;
        }
    }

    // ---------------------------------------------------------- authentication

    private Account authenticate(Headers headers) {
        String header = headers.getFirst("Authorization");
        if (header == null) {
            if (config.defect() == Defect.NO_AUTH) {
                return store.account(1);
            }
            throw new ApiException(401, "unauthorized", "No valid secret key provided");
        }
        String value = header.trim();
        int space = indexOfWhitespace(value);
        if (space > 0 && value.substring(0, space).equalsIgnoreCase("Bearer")) {
            Account account = store.accountForKey(value.substring(space).trim());
            if (account != null) {
                return account;
            }
        }
        throw new ApiException(401, "unauthorized", "No valid secret key provided");
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------ JSON binding

    private <T> T bind(byte[] body, Class<T> type) {
        if (body.length == 0) {
            throw new ApiException(400, "invalid_json", "Request body is required (a JSON object)");
        }
        T value;
        try {
            checkLimits(body);
            value = mapper.readValue(body, type);
        } catch (UnrecognizedPropertyException e) {
            String field = path(e);
            throw new ApiException(400, "unknown_field", "Unknown field '" + field + "'", field);
        } catch (InvalidFormatException e) {
            String field = path(e);
            throw new ApiException(400, "invalid_type", "Field '" + field + "' has an invalid value", field);
        } catch (MismatchedInputException e) {
            String field = path(e);
            if (field.isEmpty()) {
                throw new ApiException(400, "invalid_json", "Request body must be a JSON object");
            }
            throw new ApiException(400, "invalid_type", "Field '" + field + "' has the wrong type", field);
        } catch (JsonMappingException e) {
            String field = path(e);
            throw new ApiException(400, "invalid_type",
                    field.isEmpty() ? "Request body could not be mapped" : "Field '" + field + "' has an invalid value",
                    field.isEmpty() ? null : field);
        } catch (InputCoercionException e) {
            String field = currentName(e);
            throw new ApiException(400, "invalid_type",
                    "Numeric value out of range" + (field == null ? "" : " for field '" + field + "'"), field);
        } catch (JsonProcessingException e) {
            throw new ApiException(400, "invalid_json", "Request body is not valid JSON");
        } catch (IOException e) {
            throw new ApiException(400, "invalid_json", "Request body is not valid JSON");
        }
        if (value == null) {
            throw new ApiException(400, "invalid_json", "Request body must be a JSON object");
        }
        return value;
    }

    /** Rejects bodies whose first JSON value nests deeper than MAX_DEPTH or holds over-long numbers. */
    private void checkLimits(byte[] body) throws IOException {
        try (JsonParser p = mapper.getFactory().createParser(body)) {
            int depth = 0;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    if (++depth > MAX_DEPTH) {
                        throw new ApiException(400, "invalid_json", "Request body is nested too deeply");
                    }
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    depth--;
                } else if ((t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT)
                        && p.getTextLength() > MAX_NUMBER_LENGTH) {
                    throw new ApiException(400, "invalid_json", "Number too long");
                }
                if (depth == 0) {
                    return; // the first root value is complete; trailing content is left to the mapper
                }
            }
        }
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    private static String currentName(StreamReadException e) {
        try {
            JsonParser p = e.getProcessor();
            return p == null ? null : p.getParsingContext().getCurrentName();
        } catch (RuntimeException ignored) {
            return null;
        }
    }

    // ------------------------------------------------------------------- I/O

    private static byte[] readBody(HttpExchange ex) throws IOException {
        InputStream in = ex.getRequestBody();
        byte[] buf = new byte[8192];
        int len = 0;
        int n;
        while ((n = in.read(buf, len, buf.length - len)) > 0) {
            len += n;
            if (len > MAX_BODY) {
                throw new ApiException(413, "payload_too_large", "Request body exceeds " + MAX_BODY + " bytes");
            }
            if (len == buf.length) {
                buf = Arrays.copyOf(buf, Math.min(buf.length * 2, MAX_BODY + 1));
            }
        }
        return Arrays.copyOf(buf, len);
    }

    private static String baseUrl(HttpExchange ex) {
        String host = ex.getRequestHeaders().getFirst("Host");
        if (host == null || host.isBlank() || !host.matches("[A-Za-z0-9.:\\[\\]-]+")) {
            host = "127.0.0.1:" + ex.getLocalAddress().getPort();
        }
        return "http://" + host;
    }

    private Reply checkoutPage(String method, String token) {
        Transaction t = service.transactionByToken(token);
        if (!method.equals("GET") || t == null) {
            throw new ApiException(404, "not_found", "No such payment link");
        }
        String html;
        synchronized (t) {
            html = "<!doctype html><title>Sandbox checkout</title><p>Sandbox payment page for transaction "
                    + t.id + " (" + t.amount + "), status " + t.status + ".</p>";
        }
        return Reply.of(200, new HtmlBody(html));
    }

    private record HtmlBody(String html) {}

    private static Reply error(ApiException e) {
        String allow = e instanceof MethodNotAllowed m ? m.allow : null;
        return new Reply(e.status(), new ErrorResponse(e.status(), e.code(), e.getMessage(), e.field()), allow);
    }

    private void write(HttpExchange ex, Reply reply) throws IOException {
        Headers h = ex.getResponseHeaders();
        byte[] bytes;
        if (reply.body() == null || reply.status() == 204) {
            bytes = new byte[0];
        } else if (reply.body() instanceof HtmlBody html) {
            bytes = html.html().getBytes(StandardCharsets.UTF_8);
            h.set("Content-Type", "text/html; charset=utf-8");
        } else {
            bytes = mapper.writeValueAsBytes(reply.body());
            h.set("Content-Type", "application/json");
        }
        if (reply.status() == 401) {
            h.set("WWW-Authenticate", "Bearer");
        }
        if (reply.allow() != null) {
            h.set("Allow", reply.allow());
        }
        boolean head = ex.getRequestMethod().equalsIgnoreCase("HEAD");
        if (bytes.length == 0 || head) {
            ex.sendResponseHeaders(reply.status(), -1);
            return;
        }
        ex.sendResponseHeaders(reply.status(), bytes.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(bytes);
        }
    }
}
