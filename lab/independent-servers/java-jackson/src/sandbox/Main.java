package sandbox;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Entry point: reads the environment, seeds the store and starts the HTTP server on 127.0.0.1:$PORT. */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        // Avoid Nagle/delayed-ACK stalls on keep-alive connections.
        System.setProperty("sun.net.httpserver.nodelay", "true");

        Config config = Config.fromEnvironment();
        // Jackson's defaults, but one: a float is not truncated into an integer field (a fractional amount would be
        // accepted as another amount).
        ObjectMapper mapper = new ObjectMapper().configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false);
        Store store = new Store(config);
        Callbacks callbacks = new Callbacks(config.callbacks(), mapper);
        Service service = new Service(store, config, callbacks);

        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(48, 48, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(null, r, "http-worker-" + n.incrementAndGet(), 4L << 20);
                    t.setDaemon(true);
                    return t;
                });

        HttpServer server = HttpServer.create(
                new InetSocketAddress(InetAddress.getByName("127.0.0.1"), config.port()), 512);
        server.createContext("/", new Api(mapper, store, service, config));
        server.setExecutor(executor);
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            executor.shutdownNow();
        }));
        System.err.println("payment sandbox listening on http://127.0.0.1:" + config.port() + "/v1"
                + " (defect=" + config.defect() + ", callbacks=" + (config.callbacks() ? "on" : "off") + ")");
    }
}
