// Debezium's Informix connector (io.debezium:debezium-connector-informix) reading
// ifxwire-server through Debezium's embedded engine (the Engine API of debezium-api), with a
// file offset store and a file schema history: no Kafka broker.  test_debezium.py runs it.
//
// Usage: java -cp <classpath> DebeziumCheck host port servername user password database table
//        workdir phase snapshot-mode expected-events
// phase "first": start the engine (snapshot-mode: initial or no_data), wait for the snapshot's
//   read events, then make changes over a plain JDBC connection and print the change events.
// phase "restart": make changes while no engine runs, then start the engine again from the
//   offsets stored in workdir and print what it streams.
// Each event is printed as "EVENT <op> <table> before=<json> after=<json>" as it arrives; the
// program stops the engine (which flushes the offsets) after expected-events data events
// (r, c, u, d) or 60 s
// and prints "DONE".

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class DebeziumCheck {
    private static final Pattern OP = Pattern.compile("\"op\":\"(\\w)\"");
    private static final Pattern TABLE = Pattern.compile("\"table\":\"([^\"]*)\"");
    private static final Pattern BEFORE = Pattern.compile("\"before\":(null|\\{[^}]*\\})");
    private static final Pattern AFTER = Pattern.compile("\"after\":(null|\\{[^}]*\\})");

    private static String group(Pattern p, String s) {
        Matcher m = p.matcher(s);
        return m.find() ? m.group(1) : "?";
    }

    public static void main(String[] a) throws Exception {
        String host = a[0], port = a[1], server = a[2], user = a[3], password = a[4];
        String db = a[5], table = a[6];
        Path work = Path.of(a[7]);
        String phase = a[8], mode = a[9];
        int expected = Integer.parseInt(a[10]);

        Properties p = new Properties();
        p.setProperty("name", "ifxwire-debezium");
        p.setProperty("connector.class", "io.debezium.connector.informix.InformixConnector");
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
        p.setProperty("offset.storage.file.filename", work.resolve("offsets.dat").toString());
        p.setProperty("offset.flush.interval.ms", "0");
        p.setProperty("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        p.setProperty("schema.history.internal.file.filename", work.resolve("history.dat").toString());
        p.setProperty("database.hostname", host);
        p.setProperty("database.port", port);
        p.setProperty("database.user", user);
        p.setProperty("database.password", password);
        p.setProperty("database.dbname", db);
        p.setProperty("driver.INFORMIXSERVER", server);
        p.setProperty("topic.prefix", "ifx");
        p.setProperty("table.include.list", ".*\\." + table);
        p.setProperty("snapshot.mode", mode);
        p.setProperty("cdc.timeout", "1");
        // Full-row logging stays on while the engine is stopped, so what happens meanwhile is
        // logged and streamed at the restart (true turns it off at close: changes are lost).
        p.setProperty("cdc.stop.logging.on.close", "false");
        p.setProperty("decimal.handling.mode", "string");
        p.setProperty("converter.schemas.enable", "false");
        p.setProperty("key.converter.schemas.enable", "false");
        p.setProperty("value.converter.schemas.enable", "false");

        String url = "jdbc:informix-sqli://" + host + ":" + port + "/" + db + ":INFORMIXSERVER="
            + server + ";user=" + user + ";password=" + password;
        if (phase.equals("restart")) {
            change(url, "INSERT INTO " + table + " VALUES (5, 'five', 5.50)",
                   "UPDATE " + table + " SET name = 'FOUR' WHERE id = 4");
        }

        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        BlockingQueue<String> failure = new LinkedBlockingQueue<>();
        DebeziumEngine<ChangeEvent<String, String>> engine = DebeziumEngine.create(Json.class)
            .using(p)
            .using((success, message, error) -> {
                if (!success) {
                    failure.add(message + (error == null ? "" : ": " + error));
                }
            })
            .notifying(record -> {
                if (record.value() != null) {
                    events.add(record.value());
                }
            })
            .build();
        ExecutorService exec = Executors.newSingleThreadExecutor();
        exec.execute(engine);

        long deadline = System.currentTimeMillis() + 60_000;
        int seen = 0;
        boolean changed = !phase.equals("first");
        while (seen < expected && System.currentTimeMillis() < deadline) {
            String err = failure.poll();
            if (err != null) {
                System.out.println("FAILED " + err.replace('\n', ' '));
                break;
            }
            String v = events.poll(200, TimeUnit.MILLISECONDS);
            if (v == null) {
                continue;
            }
            String op = group(OP, v);
            if (op.equals("?")) {
                System.out.println("OTHER " + v.substring(0, Math.min(v.length(), 160)));
                continue;
            }
            seen++;
            System.out.println("EVENT " + op + " " + group(TABLE, v) + " before="
                               + group(BEFORE, v) + " after=" + group(AFTER, v));
            System.out.flush();
            // The snapshot's rows are read ("r"); then the changes are made, once.
            if (!changed && op.equals("r") && seen == 2) {
                changed = true;
                Thread.sleep(500);
                change(url,
                       "INSERT INTO " + table + " VALUES (3, 'three', 3.25)",
                       "UPDATE " + table + " SET price = 9.75, name = 'uno' WHERE id = 1",
                       "DELETE FROM " + table + " WHERE id = 2",
                       "INSERT INTO " + table + " VALUES (4, 'four', 4.00)");
            }
        }
        engine.close();
        exec.shutdown();
        exec.awaitTermination(30, TimeUnit.SECONDS);
        String err = failure.poll();
        if (err != null) {
            System.out.println("FAILED " + err.replace('\n', ' '));
        }
        System.out.println("DONE");
        System.exit(0);
    }

    private static void change(String url, String... sql) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }
}
