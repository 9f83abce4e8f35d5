package temporalgraph;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;

/**
 * A Neo4j Community DBMS, embedded in this process, with its Bolt connector on 127.0.0.1: a real
 * server the official drivers reach, without Docker or a Neo4j install.
 *
 * <pre>java -cp ... temporalgraph.Neo4jServer --data DIR [--port N] [--user U] [--password P]
 *                                    [--no-auth] [--page-cache 256m] [--ready-file F]</pre>
 *
 * Once the database answers and Bolt completes a protocol handshake, the ready lines
 * (NEO4J_URI=..., NEO4J_USER=..., NEO4J_PASSWORD=...) are printed and written to the ready file.
 * SIGTERM (or Ctrl-C) shuts the DBMS down cleanly; the ready file is removed on the way out.
 */
public final class Neo4jServer {
    private static final String HOST = "127.0.0.1";

    public static void main(String[] argv) {
        try {
            run(parse(argv));
        } catch (Exception e) {
            // The DBMS's own threads would keep the JVM alive: a failure must end the process
            // (the shutdown hook stops the DBMS) so that the starting script sees it.
            System.err.println("neo4j-server: " + e);
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(Map<String, String> args) throws Exception {
        Path data = Path.of(required(args, "data")).toAbsolutePath();
        int port = Integer.parseInt(args.getOrDefault("port", "0"));
        if (port == 0) {
            port = freePort();
        }
        boolean auth = !args.containsKey("no-auth");
        String user = args.getOrDefault("user", "neo4j");
        String password = args.getOrDefault("password", "");
        if (auth && password.isEmpty()) {
            password = randomPassword();
        }
        if (auth && password.length() < 8) {
            throw new IllegalArgumentException("--password: Neo4j needs at least 8 characters");
        }
        Path readyFile = args.containsKey("ready-file") ? Path.of(args.get("ready-file")) : null;

        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(data)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(HOST, port))
                .setConfig(GraphDatabaseSettings.auth_enabled, auth)
                .setConfig(GraphDatabaseSettings.pagecache_memory, bytes(args.getOrDefault("page-cache", "256m")))
                .setConfig(GraphDatabaseSettings.memory_transaction_global_max_size,
                        bytes(args.getOrDefault("transaction-memory", "1g")))
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                dbms.shutdown();
            } finally {
                if (readyFile != null) {
                    try {
                        Files.deleteIfExists(readyFile);
                    } catch (IOException ignored) {
                        // the process is ending; a stale ready file names a dead pid, which the script checks
                    }
                }
                stopped.countDown();
            }
        }, "neo4j-shutdown"));

        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        waitUntil(() -> db.isAvailable(1000), Duration.ofMinutes(5), "the database did not become available");
        if (auth) {
            setPassword(dbms, user, password);
        }
        final int boltPort = port;
        waitUntil(() -> boltAnswers(boltPort), Duration.ofMinutes(2), "Bolt did not accept a handshake");

        String ready = "NEO4J_URI=bolt://" + HOST + ":" + port + "\n"
                + "NEO4J_USER=" + (auth ? user : "") + "\n"
                + "NEO4J_PASSWORD=" + (auth ? password : "") + "\n";
        if (readyFile != null) {
            Path partial = readyFile.resolveSibling(readyFile.getFileName() + ".partial");
            Files.writeString(partial, ready, StandardCharsets.UTF_8);
            Files.move(partial, readyFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.print(ready);
        System.out.flush();
        stopped.await();
    }

    /** The initial user gets the given password with no change required (the driver cannot change it). */
    private static void setPassword(DatabaseManagementService dbms, String user, String password) {
        GraphDatabaseService system = dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        boolean exists = system.executeTransactionally(
                "SHOW USERS YIELD user WHERE user = $user RETURN count(*) AS n", Map.of("user", user),
                result -> ((Number) result.next().get("n")).longValue() > 0);
        String command = exists
                ? "ALTER USER " + quoted(user) + " SET PASSWORD $password CHANGE NOT REQUIRED"
                : "CREATE USER " + quoted(user) + " SET PASSWORD $password CHANGE NOT REQUIRED";
        try {
            system.executeTransactionally(command, Map.of("password", password));
        } catch (RuntimeException e) {
            // A restart on the same data with the same password: it is already set.
            if (!String.valueOf(e.getMessage()).contains("cannot be the same")) {
                throw e;
            }
        }
    }

    /** A user name as a Cypher identifier: only plain names are accepted. */
    private static String quoted(String user) {
        if (!user.matches("[A-Za-z][A-Za-z0-9_]{0,63}")) {
            throw new IllegalArgumentException("--user: letters, digits and _ only, starting with a letter");
        }
        return "`" + user + "`";
    }

    /** True when the port speaks Bolt: the server agrees to one of the versions offered. */
    private static boolean boltAnswers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getByName(HOST), port), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {
                (byte) 0x60, (byte) 0x60, (byte) 0xB0, (byte) 0x17,  // the Bolt magic preamble
                0, 0, 4, 5, 0, 0, 0, 5, 0, 0, 4, 4, 0, 0, 0, 4,      // 5.4, 5.0, 4.4, 4.0
            });
            out.flush();
            int version = new DataInputStream(socket.getInputStream()).readInt();
            return version != 0;
        } catch (IOException e) {
            return false;
        }
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void waitUntil(Check check, Duration limit, String failure) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(failure + " within " + limit.toSeconds() + " s");
            }
            Thread.sleep(100);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }

    private static String randomPassword() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** "256m", "1g", "512k" or plain bytes. */
    private static long bytes(String size) {
        String s = size.trim().toLowerCase();
        long unit = switch (s.isEmpty() ? ' ' : s.charAt(s.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1L;
        };
        return Long.parseLong(unit == 1L ? s : s.substring(0, s.length() - 1)) * unit;
    }

    private static Map<String, String> parse(String[] argv) {
        Map<String, String> args = new HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + a);
            }
            String name = a.substring(2);
            if (name.equals("no-auth")) {
                args.put(name, "");
            } else if (i + 1 < argv.length) {
                args.put(name, argv[++i]);
            } else {
                throw new IllegalArgumentException(a + " needs a value");
            }
        }
        return args;
    }

    private static String required(Map<String, String> args, String name) {
        String value = args.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    private Neo4jServer() {
    }
}
