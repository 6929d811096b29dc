// The IBM JDBC benchmark worker: runs the bench scenarios with the same SQL as the Python
// workers and speaks the same line protocol (bench/lineproto.py): one command per line on
// stdin ("op key=value ...", values percent-encoded), one JSON object per line on stdout.
//
// Compiled at run time by bench/run.py against the cached IBM jar (never committed):
//   javac -cp jdbc-15.0.0.1.jar -d BUILD bench/jdbc/BenchJdbc.java
//   java -cp BUILD:jdbc-15.0.0.1.jar BenchJdbc
//
// Wall time: System.nanoTime(). Client CPU: the whole JVM's CPU time, summed over every thread
// in /proc/self/task/*/schedstat (nanoseconds; JIT and GC threads count, as they do for a real
// application). OperatingSystemMXBean#getProcessCpuTime would do, but it counts in 10 ms clock
// ticks on Linux. Threads of the concurrent scenario live from setup to teardown, so none dies
// inside a measured round. The orchestrator runs warm-up rounds first (not counted).
// Usage is the ordinary JDBC pattern: prepareStatement per operation (the IBM driver has no
// statement cache), getObject for every column, executeBatch for executemany. The Arrow
// benches (bench/arrow_bench.py, bench/arrow_partition_bench.py --jdbc) use two kinds of their
// own: "columns" reads every row through the typed getter of its column's java.sql.Types into
// column arrays (Spark's JDBC source reads with those getters; fetch_arrow_table keeps columns),
// and "partitioned" runs one such read per range, each on its own connection and thread (Spark's
// partitionColumn/numPartitions).

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

public final class BenchJdbc {

    private static final String ALPHA = "abcdefghijklmnopqrstuvwxyz";

    /** A timed body; returns extra JSON fields ("key": value, ...) without braces. */
    @FunctionalInterface
    interface Body {
        String run() throws Exception;
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final List<Connection> conns = new ArrayList<>();
    private ExecutorService pool;
    private Body body;

    // ------------------------------------------------------------------------------ helpers

    static String url(String host, int port, String db) {
        StringBuilder sb = new StringBuilder("jdbc:informix-sqli://").append(host).append(':')
                .append(port);
        if (db != null && !db.isEmpty()) {
            sb.append('/').append(db);
        }
        return sb.append(":INFORMIXSERVER=informix;user=informix;password=in4mix").toString();
    }

    static String json(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    static String num(double v) {
        return String.format(Locale.ROOT, "%.9g", v);
    }

    /** Row i of the 5-column shape; the same values as bench/scenarios.py row5(). */
    static void bindRow5(PreparedStatement ps, int i) throws SQLException {
        ps.setInt(1, i);
        ps.setString(2, String.format("name%07d", i) + ALPHA.substring(0, i % 27));
        ps.setInt(3, (int) (((long) i * 7919) % 100003));
        ps.setDouble(4, i * 0.25);
        ps.setString(5, String.format("e%03d", i % 997) + ALPHA.substring(0, i % 13));
    }

    static int[] ints(String csv) {
        if (csv == null || csv.isEmpty()) {
            return new int[0];
        }
        return Arrays.stream(csv.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    /** prepare, bind, executeQuery, materialise every row (as fetchall does); returns rows. */
    static int fetchAll(Connection c, String sql, int[] params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setInt(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int ncol = rs.getMetaData().getColumnCount();
                List<Object[]> rows = new ArrayList<>();
                while (rs.next()) {
                    Object[] row = new Object[ncol];
                    for (int k = 0; k < ncol; k++) {
                        row[k] = rs.getObject(k + 1);
                    }
                    rows.add(row);
                }
                return rows.size();
            }
        }
    }

    /**
     * One result column held the way a columnar reader holds it: primitives in an array (int
     * for SMALLINT/INTEGER and DATE as epoch days, long, double), objects (BigDecimal, String,
     * anything else) in an Object[]; a null flag per row. What Spark's JDBC source reads with
     * (JdbcUtils.makeGetters: the getter of the column's java.sql.Types), kept as
     * fetch_arrow_table keeps its columns.
     */
    static final class Col {
        final int kind;  // 0 int, 1 long, 2 double, 3 date (epoch day), 4 BigDecimal, 5 String, 6 Object
        int[] ints;
        long[] longs;
        double[] doubles;
        Object[] objs;
        boolean[] nulls = new boolean[1024];

        Col(int sqlType) {
            kind = switch (sqlType) {
                case java.sql.Types.SMALLINT, java.sql.Types.INTEGER, java.sql.Types.TINYINT -> 0;
                case java.sql.Types.BIGINT -> 1;
                case java.sql.Types.FLOAT, java.sql.Types.DOUBLE, java.sql.Types.REAL -> 2;
                case java.sql.Types.DATE -> 3;
                case java.sql.Types.DECIMAL, java.sql.Types.NUMERIC -> 4;
                case java.sql.Types.CHAR, java.sql.Types.VARCHAR, java.sql.Types.NCHAR,
                        java.sql.Types.NVARCHAR, java.sql.Types.LONGVARCHAR -> 5;
                default -> 6;
            };
            switch (kind) {
                case 0, 3 -> ints = new int[1024];
                case 1 -> longs = new long[1024];
                case 2 -> doubles = new double[1024];
                default -> objs = new Object[1024];
            }
        }

        void read(ResultSet rs, int pos, int row) throws SQLException {
            if (row == nulls.length) {
                int n = row * 2;
                nulls = Arrays.copyOf(nulls, n);
                if (ints != null) {
                    ints = Arrays.copyOf(ints, n);
                } else if (longs != null) {
                    longs = Arrays.copyOf(longs, n);
                } else if (doubles != null) {
                    doubles = Arrays.copyOf(doubles, n);
                } else {
                    objs = Arrays.copyOf(objs, n);
                }
            }
            switch (kind) {
                case 0 -> ints[row] = rs.getInt(pos);
                case 1 -> longs[row] = rs.getLong(pos);
                case 2 -> doubles[row] = rs.getDouble(pos);
                case 3 -> {
                    java.sql.Date d = rs.getDate(pos);
                    ints[row] = d == null ? 0 : (int) d.toLocalDate().toEpochDay();
                }
                case 4 -> objs[row] = rs.getBigDecimal(pos);
                case 5 -> objs[row] = rs.getString(pos);
                default -> objs[row] = rs.getObject(pos);
            }
            nulls[row] = rs.wasNull();
        }
    }

    /** prepare, bind, executeQuery, every row read into columns by typed getters (Col);
     *  returns the row count. */
    static int fetchColumns(Connection c, String sql, int[] params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setInt(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                java.sql.ResultSetMetaData md = rs.getMetaData();
                int ncol = md.getColumnCount();
                Col[] cols = new Col[ncol];
                for (int k = 0; k < ncol; k++) {
                    cols[k] = new Col(md.getColumnType(k + 1));
                }
                int n = 0;
                while (rs.next()) {
                    for (int k = 0; k < ncol; k++) {
                        cols[k].read(rs, k + 1, n);
                    }
                    n++;
                }
                return n;
            }
        }
    }

    static long statusKb(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
            }
        }
        return -1;
    }

    /** Minor page faults of the whole process so far (/proc/self/stat, field 10), or -1. */
    static long minorFaults() {
        try {
            String s = Files.readString(Path.of("/proc/self/stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[7]);  // fields from 3 on: state is f[0], minflt (10) f[7]
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** CPU nanoseconds of every live thread of this process; the OS bean's ticks if unreadable. */
    static long processCpuNs() {
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    String s = Files.readString(t.resolve("schedstat"));
                    total += Long.parseLong(s.substring(0, s.indexOf(' ')));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            return OS.getProcessCpuTime();
        }
        return total;
    }

    static boolean resetPeak() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------------------ commands

    String setup(Map<String, String> f) throws Exception {
        teardown();
        String kind = f.get("kind");
        String host = f.getOrDefault("host", "127.0.0.1");
        int port = Integer.parseInt(f.getOrDefault("port", "0"));
        String db = f.getOrDefault("db", "");
        String sql = f.getOrDefault("sql", "");
        int[] params = ints(f.get("params"));
        int rows = Integer.parseInt(f.getOrDefault("rows", "0"));
        int inner = Integer.parseInt(f.getOrDefault("inner", "1"));
        boolean autocommit = !"0".equals(f.getOrDefault("autocommit", "1"));
        int threads = Integer.parseInt(f.getOrDefault("threads", "0"));
        String u = url(host, port, db);

        switch (kind) {
            case "codec" -> {
                return "{\"ok\": false, \"unsupported\": \"codec micro-benchmarks are Python-only\"}";
            }
            case "pool" -> {
                return "{\"ok\": false, \"unsupported\": "
                        + json("plain IBM JDBC has no connection pool (applications add one)") + "}";
            }
            case "connect" -> {
                body = () -> {
                    for (int i = 0; i < inner; i++) {
                        DriverManager.getConnection(u).close();
                    }
                    return "\"ops\": " + inner;
                };
                return "{\"ok\": true}";
            }
            case "swarm" -> {
                if ("1".equals(f.get("aio"))) {
                    return "{\"ok\": false, \"unsupported\": " + json("JDBC has no asyncio API") + "}";
                }
                return setupSwarm(u, sql, params, inner, threads);
            }
            case "concurrent" -> {
                ExecutorService ex = connectAll(u, threads);
                int perThread = Math.max(1, inner / threads);
                body = () -> {
                    List<Future<Integer>> fs = new ArrayList<>();
                    for (int k = 0; k < threads; k++) {
                        Connection ck = conns.get(k);
                        fs.add(ex.submit(() -> {
                            int n = 0;
                            for (int i = 0; i < perThread; i++) {
                                n += fetchAll(ck, sql, params);
                            }
                            return n;
                        }));
                    }
                    int total = 0;
                    for (Future<Integer> fut : fs) {
                        total += fut.get();
                    }
                    return "\"ops\": " + perThread * threads + ", \"rows\": " + total;
                };
                startAll(ex, threads);
                return "{\"ok\": true}";
            }
            case "partitioned" -> {
                // Spark's JDBC source with partitionColumn/numPartitions: one statement (its
                // own range) per partition, each on its own connection and thread; slice k
                // reads sql<k> with params<k> from host<k>:port<k> (default: host, port).
                int n = threads;
                List<String> urls = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    urls.add(url(f.getOrDefault("host" + k, host),
                            Integer.parseInt(f.getOrDefault("port" + k, String.valueOf(port))), db));
                }
                for (String uk : urls) {
                    conns.add(DriverManager.getConnection(uk));
                }
                pool = Executors.newFixedThreadPool(n);
                ExecutorService ex = pool;
                body = () -> {
                    List<Future<Integer>> fs = new ArrayList<>();
                    for (int k = 0; k < n; k++) {
                        Connection ck = conns.get(k);
                        String sk = f.get("sql" + k);
                        int[] pk = ints(f.get("params" + k));
                        fs.add(ex.submit(() -> fetchColumns(ck, sk, pk)));
                    }
                    int total = 0;
                    for (Future<Integer> fut : fs) {
                        total += fut.get();
                    }
                    return "\"ops\": 1, \"rows\": " + total;
                };
                startAll(ex, n);
                return "{\"ok\": true}";
            }
            default -> {
            }
        }

        Connection c = DriverManager.getConnection(u);
        c.setAutoCommit(autocommit);
        conns.add(c);
        switch (kind) {
            case "query" -> body = () -> {
                int n = 0;
                for (int i = 0; i < inner; i++) {
                    n += fetchAll(c, sql, params);
                }
                return "\"ops\": " + inner + ", \"rows\": " + n;
            };
            case "columns" -> body = () -> {
                int n = 0;
                for (int i = 0; i < inner; i++) {
                    n += fetchColumns(c, sql, params);
                }
                return "\"ops\": " + inner + ", \"rows\": " + n;
            };
            case "latency" -> body = () -> {
                double[] lat = new double[inner];
                for (int i = 0; i < inner; i++) {
                    long t0 = System.nanoTime();
                    fetchAll(c, sql, params);
                    lat[i] = (System.nanoTime() - t0) / 1e9;
                }
                Arrays.sort(lat);
                return "\"ops\": " + inner + ", \"p50\": " + num(pct(lat, 50)) + ", \"p99\": "
                        + num(pct(lat, 99)) + ", \"max\": " + num(lat[lat.length - 1]);
            };
            case "insert" -> body = () -> {
                for (int i = 0; i < inner; i++) {
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        bindRow5(ps, i);
                        ps.executeUpdate();
                    }
                }
                if (!autocommit) {
                    c.commit();
                }
                return "\"ops\": " + inner;
            };
            case "executemany" -> body = () -> {
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    for (int i = 0; i < rows; i++) {
                        bindRow5(ps, i);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                if (!autocommit) {
                    c.commit();
                }
                return "\"ops\": 1, \"rows\": " + rows;
            };
            case "stream" -> body = () -> {
                System.gc();
                long before = statusKb("VmRSS") * 1024;
                boolean reset = resetPeak();
                int n = 0;
                try (PreparedStatement ps = c.prepareStatement(sql);
                     ResultSet rs = ps.executeQuery()) {
                    int ncol = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int k = 0; k < ncol; k++) {
                            rs.getObject(k + 1);
                        }
                        n++;
                    }
                }
                long peak = statusKb("VmHWM") * 1024;
                return "\"ops\": 1, \"rows\": " + n + ", \"rss_before\": " + before
                        + ", \"peak_rss\": " + peak + ", \"peak_growth\": "
                        + (reset ? String.valueOf(peak - before) : "null");
            };
            default -> {
                return "{\"ok\": false, \"error\": " + json("unknown kind " + kind) + "}";
            }
        }
        return "{\"ok\": true}";
    }

    /** Many connections, one pool thread each, every query timed (bench/swarm.py's threads). */
    String setupSwarm(String u, String sql, int[] params, int inner, int threads) throws Exception {
        ExecutorService ex = connectAll(u, threads);
        int perThread = Math.max(1, inner / threads);
        body = () -> {
            List<Future<double[]>> fs = new ArrayList<>();
            for (int k = 0; k < threads; k++) {
                Connection ck = conns.get(k);
                fs.add(ex.submit(() -> {
                    double[] lat = new double[perThread + 1];
                    int n = 0;
                    for (int i = 0; i < perThread; i++) {
                        long t0 = System.nanoTime();
                        n += fetchAll(ck, sql, params);
                        lat[i] = (System.nanoTime() - t0) / 1e9;
                    }
                    lat[perThread] = n;  // the row count rides in the last slot
                    return lat;
                }));
            }
            double[] all = new double[perThread * threads];
            long rows = 0;
            for (int k = 0; k < threads; k++) {
                double[] lat = fs.get(k).get();
                System.arraycopy(lat, 0, all, k * perThread, perThread);
                rows += (long) lat[perThread];
            }
            Arrays.sort(all);
            return "\"ops\": " + perThread * threads + ", \"rows\": " + rows + ", \"p50\": "
                    + num(pct(all, 50)) + ", \"p99\": " + num(pct(all, 99)) + ", \"max\": "
                    + num(all[all.length - 1]);
        };
        startAll(ex, threads);
        return "{\"ok\": true}";
    }

    /** One connection per thread and the fixed pool that runs them (kept for teardown). */
    ExecutorService connectAll(String u, int threads) throws SQLException {
        for (int i = 0; i < threads; i++) {
            conns.add(DriverManager.getConnection(u));
        }
        pool = Executors.newFixedThreadPool(threads);
        return pool;
    }

    /** Start every pool thread now, so none is born inside a measured round. */
    static void startAll(ExecutorService ex, int threads) throws Exception {
        List<Future<?>> warm = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            warm.add(ex.submit(() -> {
                Thread.sleep(20);
                return null;
            }));
        }
        for (Future<?> w : warm) {
            w.get();
        }
    }

    static double pct(double[] sorted, double q) {
        int k = (int) Math.round(q / 100 * sorted.length + 0.5) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, k))];
    }

    String round() throws Exception {
        if (body == null) {
            return "{\"ok\": false, \"error\": \"round before setup\"}";
        }
        long f0 = minorFaults();
        long c0 = processCpuNs();
        long t0 = System.nanoTime();
        String extra = body.run();
        long t1 = System.nanoTime();
        long c1 = processCpuNs();
        long f1 = minorFaults();
        String faults = f0 < 0 || f1 < 0 ? "" : "\"minflt\": " + (f1 - f0) + ", ";
        return "{\"ok\": true, \"wall\": " + num((t1 - t0) / 1e9) + ", \"cpu\": "
                + num((c1 - c0) / 1e9) + ", " + faults + extra + "}";
    }

    void teardown() {
        for (Connection c : conns) {
            try {
                c.close();
            } catch (SQLException e) {
                System.err.println("BenchJdbc: close failed: " + e);
            }
        }
        conns.clear();
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
        body = null;
    }

    static Map<String, String> fields(String[] words) {
        Map<String, String> f = new HashMap<>();
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq > 0) {
                f.put(words[i].substring(0, eq),
                        URLDecoder.decode(words[i].substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return f;
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);  // keep driver chatter off the protocol channel
        Class.forName("com.informix.jdbc.IfxDriver");
        BenchJdbc w = new BenchJdbc();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            if (words.length == 0 || words[0].isEmpty()) {
                continue;
            }
            String reply;
            try {
                switch (words[0]) {
                    case "hello" -> {
                        java.sql.Driver d = DriverManager.getDriver("jdbc:informix-sqli://x:1/x");
                        reply = "{\"ok\": true, \"driver\": \"jdbc\", \"version\": "
                                + json(d.getMajorVersion() + "." + d.getMinorVersion() + " ("
                                + System.getProperty("ifxbench.jar", "?") + ")")
                                + ", \"pool\": " + json("plain IBM JDBC has no connection pool")
                                + ", \"java\": " + json(System.getProperty("java.version")) + "}";
                    }
                    case "setup" -> reply = w.setup(fields(words));
                    case "round" -> reply = w.round();
                    case "teardown" -> {
                        w.teardown();
                        reply = "{\"ok\": true}";
                    }
                    case "quit" -> {
                        w.teardown();
                        out.println("{\"ok\": true}");
                        return;
                    }
                    default -> reply = "{\"ok\": false, \"error\": " + json("unknown command " + words[0]) + "}";
                }
            } catch (Throwable t) {
                t.printStackTrace();
                reply = "{\"ok\": false, \"error\": " + json(t.toString()) + "}";
            }
            out.println(reply);
        }
    }
}
