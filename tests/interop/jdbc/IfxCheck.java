// IBM Informix JDBC interop checks against an Informix-compatible server (ifxwire-server).
//
// Single-file Java 17 program; needs only the IBM driver jar (com.ibm.informix:jdbc) on the
// class path.  Compiled and run by tests/interop/conftest.py, or by hand:
//
//   javac -cp jdbc-15.0.0.1.jar -d /tmp/ifxcheck tests/interop/jdbc/IfxCheck.java
//   java -Duser.language=en -Duser.country=US -cp /tmp/ifxcheck:jdbc-15.0.0.1.jar IfxCheck \
//        host=127.0.0.1 port=9088 server=informix database=ifxcheck_x \
//        user=informix password=in4mix [props=DB_LOCALE=en_US.819] [timeout=60] [create=no]
//        [check ...]
//   java -cp ... IfxCheck --list          (prints the registered check names, one per line)
//   java -cp ... IfxCheck --list-on-demand   (checks that run only when named, see below)
//
// Every check runs independently (own connections, own tables, own try/catch, own timeout) and
// prints exactly one line:  "CHECK <name> PASS"  or  "CHECK <name> FAIL <one-line reason>".
// The run ends with "DONE".  The first check, create_database, creates the logged database
// named by database= that all other checks use; it runs even when a subset of checks is named,
// unless create=no is given (for a database prepared by someone else, e.g. by the Python driver
// in a cross-client check).
//
// On-demand checks (ON_DEMAND, e.g. xclient_read_types) run only when named: they need tables
// another client prepared, so a default run never includes them and --list does not print them.
// tests/interop/test_cross_client.py names them and keeps its list equal to --list-on-demand.
//
// Adding a check: add one reg(...) line in registerChecks() (or a case to one of the case
// tables) and add its name to CHECKS in tests/interop/test_jdbc.py; test_jdbc.py verifies the
// two lists agree.

import com.informix.jdbc.IfmxResultSetMetaData;
import com.informix.jdbc.IfmxStatement;
import com.informix.lang.IntervalDF;
import com.informix.lang.IntervalYM;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.CallableStatement;
import java.sql.ParameterMetaData;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

public final class IfxCheck {

    // ------------------------------------------------------------------------------------------
    // Configuration and registry
    // ------------------------------------------------------------------------------------------

    /** Connection settings taken from the command line. */
    record Config(String host, int port, String server, String database, String user,
                  String password, String props, int timeoutSeconds) {

        /** URL with a database ("" = no database) and the given credentials. */
        String url(String db, String user, String password) {
            StringBuilder sb = new StringBuilder("jdbc:informix-sqli://")
                    .append(host).append(':').append(port);
            if (!db.isEmpty()) {
                sb.append('/').append(db);
            }
            sb.append(":INFORMIXSERVER=").append(server);
            if (user != null) {
                sb.append(";user=").append(user);
            }
            if (password != null) {
                sb.append(";password=").append(password);
            }
            if (!props.isEmpty()) {
                sb.append(';').append(props);
            }
            return sb.toString();
        }
    }

    /** A check body. Throwing anything means FAIL; returning normally means PASS. */
    @FunctionalInterface
    interface Body {
        void run(Ctx ctx) throws Exception;
    }

    record Check(String name, int timeoutSeconds, Body body) {}

    private static final Map<String, Check> REGISTRY = new LinkedHashMap<>();

    /** Register a check with the default timeout. */
    static void reg(String name, Body body) {
        reg(name, 0, body);
    }

    /** Register a check; timeoutSeconds 0 means "use the run's default". */
    static void reg(String name, int timeoutSeconds, Body body) {
        if (REGISTRY.put(name, new Check(name, timeoutSeconds, body)) != null) {
            throw new IllegalStateException("duplicate check " + name);
        }
    }

    /** Per-check context: opens connections and closes them all when the check ends. */
    static final class Ctx {
        final Config cfg;
        private final List<Connection> opened = new ArrayList<>();

        Ctx(Config cfg) {
            this.cfg = cfg;
        }

        /** New connection to the check database (autocommit on, the JDBC default). */
        Connection db() throws SQLException {
            return open(cfg.url(cfg.database(), cfg.user(), cfg.password()));
        }

        /** New connection without a database. */
        Connection noDb() throws SQLException {
            return open(cfg.url("", cfg.user(), cfg.password()));
        }

        Connection open(String url) throws SQLException {
            Connection c = DriverManager.getConnection(url);
            synchronized (opened) {
                opened.add(c);
            }
            return c;
        }

        Connection open(String url, Properties props) throws SQLException {
            Connection c = DriverManager.getConnection(url, props);
            synchronized (opened) {
                opened.add(c);
            }
            return c;
        }

        void closeAll() {
            synchronized (opened) {
                for (Connection c : opened) {
                    try {
                        c.close();
                    } catch (Throwable ignored) {
                        // best effort
                    }
                }
                opened.clear();
            }
        }
    }

    /** A failed expectation; its message is the whole reason. */
    static final class CheckFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CheckFailed(String message) {
            super(message);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Main
    // ------------------------------------------------------------------------------------------

    public static void main(String[] args) throws Exception {
        registerChecks();
        registerCrossClientChecks();
        Map<String, String> opts = new LinkedHashMap<>();
        List<String> selected = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--list")) {
                REGISTRY.keySet().forEach(System.out::println);
                return;
            }
            if (a.equals("--list-on-demand")) {
                ON_DEMAND.keySet().forEach(System.out::println);
                return;
            }
            int eq = a.indexOf('=');
            if (eq > 0) {
                opts.put(a.substring(0, eq), a.substring(eq + 1));
            } else {
                selected.add(a);
            }
        }
        Config cfg = new Config(
                opts.getOrDefault("host", "127.0.0.1"),
                Integer.parseInt(opts.getOrDefault("port", "9088")),
                opts.getOrDefault("server", "informix"),
                opts.getOrDefault("database", "ifxcheck_" + Long.toHexString(System.nanoTime())),
                opts.getOrDefault("user", "informix"),
                opts.getOrDefault("password", "in4mix"),
                opts.getOrDefault("props", ""),
                Integer.parseInt(opts.getOrDefault("timeout", "60")));
        DriverManager.setLoginTimeout(Math.min(cfg.timeoutSeconds(), 30));

        List<String> names = new ArrayList<>();
        if (!opts.getOrDefault("create", "yes").equals("no")) {
            names.add("create_database");
        }
        if (selected.isEmpty()) {
            REGISTRY.keySet().stream().filter(n -> !n.equals("create_database")).forEach(names::add);
        } else {
            selected.stream().filter(n -> !n.equals("create_database")).forEach(names::add);
        }

        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "check");
            t.setDaemon(true);
            return t;
        });
        for (String name : names) {
            Check check = REGISTRY.containsKey(name) ? REGISTRY.get(name) : ON_DEMAND.get(name);
            if (check == null) {
                report(name, "unknown check name");
                continue;
            }
            report(name, runOne(pool, cfg, check));
        }
        System.out.println("DONE");
        System.out.flush();
        // Hung checks may still hold daemon threads and sockets; do not wait for them.
        System.exit(0);
    }

    /** Runs one check in its own thread with a timeout; returns null on PASS, else the reason. */
    private static String runOne(ExecutorService pool, Config cfg, Check check) {
        Ctx ctx = new Ctx(cfg);
        AtomicReference<Thread> worker = new AtomicReference<>();
        Future<?> f = pool.submit(() -> {
            worker.set(Thread.currentThread());
            check.body().run(ctx);
            return null;
        });
        int timeout = check.timeoutSeconds() > 0 ? check.timeoutSeconds() : cfg.timeoutSeconds();
        try {
            f.get(timeout, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return describe(e.getCause());
        } catch (TimeoutException e) {
            Thread t = worker.get();
            String where = "";
            if (t != null) {
                StringBuilder sb = new StringBuilder();
                // Driver and check frames only: where in the protocol the client is waiting.
                int shown = 0;
                for (StackTraceElement fr : t.getStackTrace()) {
                    String cls = fr.getClassName();
                    if (shown < 6 && (cls.startsWith("com.informix") || cls.startsWith("IfxCheck"))) {
                        sb.append(shown++ == 0 ? " at " : " < ").append(shortFrame(fr));
                    }
                }
                where = sb.toString();
            }
            f.cancel(true);
            return "timeout after " + timeout + "s (no reply from server?)" + where;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            if (f.isDone()) {
                ctx.closeAll();
            } else {
                // The worker is stuck inside the driver; close its sockets from a helper
                // thread so a blocked close() cannot stall the remaining checks.
                Thread closer = new Thread(ctx::closeAll, "closer");
                closer.setDaemon(true);
                closer.start();
            }
        }
    }

    private static void report(String name, String failure) {
        if (failure == null) {
            System.out.println("CHECK " + name + " PASS");
        } else {
            String line = failure.replaceAll("[\\r\\n\\t]+", " ").trim();
            if (line.isEmpty()) {
                line = "(no reason)";
            }
            if (line.length() > 1500) {
                line = line.substring(0, 1500) + "...";
            }
            System.out.println("CHECK " + name + " FAIL " + line);
        }
        System.out.flush();
    }

    /** One-line description of an exception: class, SQLCode, SQLState, message, cause, frame. */
    static String describe(Throwable t) {
        if (t instanceof CheckFailed) {
            return t.getMessage();
        }
        StringBuilder sb = new StringBuilder(t.getClass().getName());
        if (t instanceof SQLException e) {
            sb.append(" SQLCode=").append(e.getErrorCode()).append(" SQLState=").append(e.getSQLState());
        }
        sb.append(": ").append(t.getMessage());
        Throwable c = t.getCause();
        if (c != null && c != t) {
            sb.append(" | cause ").append(c.getClass().getName());
            if (c instanceof SQLException ce) {
                sb.append(" SQLCode=").append(ce.getErrorCode());
            }
            sb.append(": ").append(c.getMessage());
        }
        if (t instanceof SQLException e && e.getNextException() != null) {
            SQLException n = e.getNextException();
            sb.append(" | next SQLCode=").append(n.getErrorCode()).append(": ").append(n.getMessage());
        }
        // Where it happened: the innermost frame plus the check's own frame.
        StackTraceElement[] st = t.getStackTrace();
        if (st.length > 0) {
            sb.append(" at ").append(shortFrame(st[0]));
            for (StackTraceElement e : st) {
                if (e.getClassName().startsWith("IfxCheck")) {
                    sb.append(" via ").append(shortFrame(e));
                    break;
                }
            }
        }
        return sb.toString();
    }

    private static String shortFrame(StackTraceElement e) {
        String cls = e.getClassName();
        cls = cls.substring(cls.lastIndexOf('.') + 1);
        return cls + "." + e.getMethodName() + ":" + e.getLineNumber();
    }

    // ------------------------------------------------------------------------------------------
    // Assertion and SQL helpers
    // ------------------------------------------------------------------------------------------

    static CheckFailed fail(String msg) {
        return new CheckFailed(msg);
    }

    static void check(boolean cond, String msg) {
        if (!cond) {
            throw fail(msg);
        }
    }

    static String show(Object o) {
        if (o == null) {
            return "null";
        }
        if (o instanceof String s) {
            return "'" + (s.length() > 80 ? s.substring(0, 80) + "...(len " + s.length() + ")" : s) + "'";
        }
        if (o instanceof int[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof long[] a) {
            return Arrays.toString(a);
        }
        return o + " (" + o.getClass().getSimpleName() + ")";
    }

    /** Exact equality; BigDecimal compares by value (scale-insensitive), arrays element-wise. */
    static boolean same(Object exp, Object act) {
        if (exp instanceof BigDecimal e && act instanceof BigDecimal a) {
            return e.compareTo(a) == 0;
        }
        if (exp instanceof int[] e && act instanceof int[] a) {
            return Arrays.equals(e, a);
        }
        if (exp instanceof byte[] e && act instanceof byte[] a) {
            return Arrays.equals(e, a);
        }
        if (exp instanceof List<?> e && act instanceof List<?> a) {
            if (e.size() != a.size()) {
                return false;
            }
            for (int i = 0; i < e.size(); i++) {
                if (!same(e.get(i), a.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(exp, act);
    }

    static void eq(String what, Object exp, Object act) {
        if (!same(exp, act)) {
            throw fail(what + ": expected " + show(exp) + " but got " + show(act));
        }
    }

    @FunctionalInterface
    interface SqlAction {
        void run() throws Exception;
    }

    /** Runs action, requires an SQLException whose getErrorCode() is one of codes. */
    static SQLException expectError(String what, SqlAction action, int... codes) throws Exception {
        try {
            action.run();
        } catch (SQLException e) {
            for (int c : codes) {
                if (e.getErrorCode() == c) {
                    return e;
                }
            }
            throw fail(what + ": expected SQLCode " + Arrays.toString(codes) + " but got "
                    + describe(e));
        }
        throw fail(what + ": expected SQLCode " + Arrays.toString(codes) + " but it succeeded");
    }

    /** Runs action, requires any SQLException (client-side errors included). */
    static SQLException expectAnyError(String what, SqlAction action) throws Exception {
        try {
            action.run();
        } catch (SQLException e) {
            return e;
        }
        throw fail(what + ": expected an SQLException but it succeeded");
    }

    static int update(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    /** All rows of a query, each row as a list of getObject values. */
    static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return drain(rs);
        }
    }

    static List<List<Object>> drain(ResultSet rs) throws SQLException {
        int n = rs.getMetaData().getColumnCount();
        List<List<Object>> out = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                row.add(rs.getObject(i));
            }
            out.add(row);
        }
        return out;
    }

    /** A query that must return exactly one row with one column; returns it as a long. */
    static long scalarLong(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            check(rs.next(), "no row from: " + sql);
            long v = rs.getLong(1);
            check(!rs.wasNull(), "NULL from: " + sql);
            check(!rs.next(), "more than one row from: " + sql);
            return v;
        }
    }

    static long count(Connection c, String table) throws SQLException {
        return scalarLong(c, "SELECT COUNT(*) FROM " + table);
    }

    /** The connection still answers a trivial query (used after provoked errors). */
    static void stillUsable(Connection c) throws SQLException {
        eq("SELECT 1 after the error", 1L, scalarLong(c, "SELECT 1 FROM systables WHERE tabid = 1"));
    }

    // ------------------------------------------------------------------------------------------
    // Type tables shared by select_types, select_nulls and metadata
    // ------------------------------------------------------------------------------------------

    @FunctionalInterface
    interface Reader {
        Object read(ResultSet rs, int col) throws SQLException;
    }

    static final int ANY = Integer.MIN_VALUE;

    /**
     * A column for select_types: DDL type, SQL literal, expected Informix type code(s) from
     * DESCRIBE, expected java.sql.Types (ANY = not checked), DESCRIBE encoded length, a reader
     * using the natural getter and the exact expected value it must return.
     */
    record Col(String name, String ddl, String literal, int[] ifxTypes, int jdbcType, int encLen,
               Reader reader, Object expected) {}

    static int[] ifx(int... codes) {
        return codes;
    }

    static final String LONG_TEXT = "lvarchar-" + "0123456789abcdefghijklmnopqrstuvwxyz".repeat(8);

    static String intervalDF(Object o) {
        if (!(o instanceof IntervalDF d)) {
            return "not an IntervalDF: " + show(o);
        }
        return d.getSeconds() + "s " + d.getNanoSeconds() + "ns q=0x"
                + Integer.toHexString(d.getQualifier() & 0xFFFF) + " '" + d + "'";
    }

    static String intervalYM(Object o) {
        if (!(o instanceof IntervalYM y)) {
            return "not an IntervalYM: " + show(o);
        }
        return y.getMonths() + "m q=0x" + Integer.toHexString(y.getQualifier() & 0xFFFF) + " '" + y + "'";
    }

    static final List<Col> COLS = List.of(
            new Col("c_smallint", "SMALLINT", "-12345", ifx(1), Types.SMALLINT, 2,
                    ResultSet::getShort, (short) -12345),
            new Col("c_integer", "INTEGER", "2147483647", ifx(2), Types.INTEGER, 4,
                    ResultSet::getInt, 2147483647),
            new Col("c_int8", "INT8", "-1234567890123", ifx(17), Types.BIGINT, 10,
                    ResultSet::getLong, -1234567890123L),
            new Col("c_bigint", "BIGINT", "9223372036854775807", ifx(52), Types.BIGINT, 8,
                    ResultSet::getLong, 9223372036854775807L),
            new Col("c_smallfloat", "SMALLFLOAT", "3.25", ifx(4), Types.REAL, 4,
                    ResultSet::getFloat, 3.25f),
            new Col("c_float", "FLOAT", "2.718281828459045", ifx(3), Types.DOUBLE, 8,
                    ResultSet::getDouble, 2.718281828459045),
            new Col("c_decimal", "DECIMAL(10,2)", "123456.78", ifx(5), Types.DECIMAL, 0x0A02,
                    ResultSet::getBigDecimal, new BigDecimal("123456.78")),
            new Col("c_decneg", "DECIMAL(12,4)", "-1234.5678", ifx(5), Types.DECIMAL, 0x0C04,
                    ResultSet::getBigDecimal, new BigDecimal("-1234.5678")),
            new Col("c_decfloat", "DECIMAL(16)", "3.14159265358979", ifx(5), Types.DECIMAL, 0x10FF,
                    ResultSet::getBigDecimal, new BigDecimal("3.14159265358979")),
            new Col("c_money", "MONEY(8,2)", "99.50", ifx(8), Types.DECIMAL, 0x0802,
                    ResultSet::getBigDecimal, new BigDecimal("99.50")),
            new Col("c_char", "CHAR(10)", "'abc'", ifx(0), Types.CHAR, 10,
                    ResultSet::getString, "abc       "),
            new Col("c_nchar", "NCHAR(10)", "'nchar'", ifx(15), Types.CHAR, 10,
                    ResultSet::getString, "nchar     "),
            new Col("c_varchar", "VARCHAR(20)", "'hello world'", ifx(13), Types.VARCHAR, 20,
                    ResultSet::getString, "hello world"),
            new Col("c_nvarchar", "NVARCHAR(20)", "'nvarchar value'", ifx(16), Types.VARCHAR, 20,
                    ResultSet::getString, "nvarchar value"),
            new Col("c_lvarchar", "LVARCHAR(2000)", "'" + LONG_TEXT + "'", ifx(43, 40), ANY, 2000,
                    ResultSet::getString, LONG_TEXT),
            new Col("c_date", "DATE", "'2024-02-29'", ifx(7), Types.DATE, 4,
                    (rs, i) -> String.valueOf(rs.getDate(i)), "2024-02-29"),
            new Col("c_dt_s", "DATETIME YEAR TO SECOND",
                    "DATETIME(2024-02-29 13:45:59) YEAR TO SECOND", ifx(10), Types.TIMESTAMP, 0x0E0A,
                    ResultSet::getTimestamp, Timestamp.valueOf("2024-02-29 13:45:59")),
            new Col("c_dt_f3", "DATETIME YEAR TO FRACTION(3)",
                    "DATETIME(2024-02-29 13:45:59.123) YEAR TO FRACTION(3)", ifx(10), Types.TIMESTAMP,
                    0x110D, ResultSet::getTimestamp, Timestamp.valueOf("2024-02-29 13:45:59.123")),
            new Col("c_dt_hs", "DATETIME HOUR TO SECOND", "DATETIME(13:45:59) HOUR TO SECOND",
                    ifx(10), ANY, 0x066A, ResultSet::getString, "13:45:59"),
            new Col("c_intv_ds", "INTERVAL DAY(3) TO SECOND", "INTERVAL(12 03:04:05) DAY(3) TO SECOND",
                    ifx(14), ANY, 0x094A, (rs, i) -> intervalDF(rs.getObject(i)),
                    "1047845s 0ns q=0x94a '12 03:04:05'"),
            new Col("c_intv_ym", "INTERVAL YEAR TO MONTH", "INTERVAL(5-03) YEAR TO MONTH",
                    ifx(14), ANY, 0x0602, (rs, i) -> intervalYM(rs.getObject(i)), "63m q=0x602 '5-03'"),
            new Col("c_boolean", "BOOLEAN", "'t'", ifx(45, 41), Types.BOOLEAN, 1,
                    ResultSet::getBoolean, true));

    static String createTableSql(String table, List<Col> cols) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(table).append(" (");
        for (int i = 0; i < cols.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(cols.get(i).name()).append(' ').append(cols.get(i).ddl());
        }
        return sb.append(')').toString();
    }

    static String columnList(List<Col> cols) {
        return String.join(", ", cols.stream().map(Col::name).toList());
    }

    /**
     * A prepared-parameter case: column type, setter for the value, reader (natural getter) and
     * the exact expected value; nullType is the java.sql.Types used for setNull.
     */
    record Param(String name, String ddl, Binder binder, Reader reader, Object expected, int nullType) {}

    @FunctionalInterface
    interface Binder {
        void bind(PreparedStatement ps, int idx) throws SQLException;
    }

    static final String LVARCHAR_3000 = "L".repeat(1000) + "m".repeat(1000) + "N".repeat(1000);

    static final List<Param> PARAMS = List.of(
            new Param("smallint", "SMALLINT", (p, i) -> p.setShort(i, (short) -12345),
                    ResultSet::getShort, (short) -12345, Types.SMALLINT),
            new Param("integer", "INTEGER", (p, i) -> p.setInt(i, -2147483647),
                    ResultSet::getInt, -2147483647, Types.INTEGER),
            new Param("int8", "INT8", (p, i) -> p.setLong(i, -1234567890123L),
                    ResultSet::getLong, -1234567890123L, Types.BIGINT),
            new Param("bigint", "BIGINT", (p, i) -> p.setLong(i, Long.MAX_VALUE),
                    ResultSet::getLong, Long.MAX_VALUE, Types.BIGINT),
            new Param("smallfloat", "SMALLFLOAT", (p, i) -> p.setFloat(i, -3.25f),
                    ResultSet::getFloat, -3.25f, Types.REAL),
            new Param("float", "FLOAT", (p, i) -> p.setDouble(i, -2.718281828459045e-5),
                    ResultSet::getDouble, -2.718281828459045e-5, Types.DOUBLE),
            new Param("decimal", "DECIMAL(10,2)", (p, i) -> p.setBigDecimal(i, new BigDecimal("-12345.67")),
                    ResultSet::getBigDecimal, new BigDecimal("-12345.67"), Types.DECIMAL),
            new Param("decimal_float", "DECIMAL(16)",
                    (p, i) -> p.setBigDecimal(i, new BigDecimal("3.14159265358979")),
                    ResultSet::getBigDecimal, new BigDecimal("3.14159265358979"), Types.DECIMAL),
            // A DECIMAL declared without precision is DECIMAL(16) floating, whose 10-byte
            // field keeps 9 base-100 pairs: every double comes back as written (issue 23).
            new Param("decimal_double", "DECIMAL", (p, i) -> p.setDouble(i, 4.9393689715768056E45),
                    ResultSet::getDouble, 4.9393689715768056E45, Types.DOUBLE),
            new Param("decimal_large", "DECIMAL(32,10)",
                    (p, i) -> p.setBigDecimal(i, new BigDecimal("1234567890123456789012.3456789012")),
                    ResultSet::getBigDecimal, new BigDecimal("1234567890123456789012.3456789012"),
                    Types.DECIMAL),
            new Param("money", "MONEY(8,2)", (p, i) -> p.setBigDecimal(i, new BigDecimal("99.50")),
                    ResultSet::getBigDecimal, new BigDecimal("99.50"), Types.DECIMAL),
            new Param("char", "CHAR(10)", (p, i) -> p.setString(i, "abc"),
                    ResultSet::getString, "abc       ", Types.CHAR),
            new Param("nchar", "NCHAR(10)", (p, i) -> p.setString(i, "nchar"),
                    ResultSet::getString, "nchar     ", Types.CHAR),
            new Param("varchar", "VARCHAR(50)", (p, i) -> p.setString(i, "hello world"),
                    ResultSet::getString, "hello world", Types.VARCHAR),
            new Param("varchar_latin1", "VARCHAR(50)", (p, i) -> p.setString(i, "h\u00e9llo w\u00f6rld \u00df"),
                    ResultSet::getString, "h\u00e9llo w\u00f6rld \u00df", Types.VARCHAR),
            new Param("nvarchar", "NVARCHAR(50)", (p, i) -> p.setString(i, "nvarchar value"),
                    ResultSet::getString, "nvarchar value", Types.VARCHAR),
            new Param("lvarchar", "LVARCHAR(5000)", (p, i) -> p.setString(i, LVARCHAR_3000),
                    ResultSet::getString, LVARCHAR_3000, Types.LONGVARCHAR),
            new Param("date", "DATE", (p, i) -> p.setDate(i, Date.valueOf("2024-02-29")),
                    (rs, i) -> String.valueOf(rs.getDate(i)), "2024-02-29", Types.DATE),
            new Param("datetime", "DATETIME YEAR TO SECOND",
                    (p, i) -> p.setTimestamp(i, Timestamp.valueOf("2024-02-29 13:45:59")),
                    ResultSet::getTimestamp, Timestamp.valueOf("2024-02-29 13:45:59"), Types.TIMESTAMP),
            new Param("datetime_fraction", "DATETIME YEAR TO FRACTION(3)",
                    (p, i) -> p.setTimestamp(i, Timestamp.valueOf("2024-02-29 13:45:59.123")),
                    ResultSet::getTimestamp, Timestamp.valueOf("2024-02-29 13:45:59.123"), Types.TIMESTAMP),
            new Param("time", "DATETIME HOUR TO SECOND", (p, i) -> p.setTime(i, Time.valueOf("13:45:59")),
                    ResultSet::getString, "13:45:59", Types.TIME),
            new Param("interval_ds", "INTERVAL DAY(3) TO SECOND",
                    (p, i) -> p.setObject(i, new IntervalDF(1047845L, 0L, (short) 0x094A)),
                    (rs, i) -> intervalDF(rs.getObject(i)), "1047845s 0ns q=0x94a '12 03:04:05'",
                    Types.OTHER),
            new Param("interval_ym", "INTERVAL YEAR TO MONTH",
                    (p, i) -> p.setObject(i, new IntervalYM(5, 3)),
                    (rs, i) -> intervalYM(rs.getObject(i)), "63m q=0x602 '5-03'", Types.OTHER),
            new Param("boolean", "BOOLEAN", (p, i) -> p.setBoolean(i, true),
                    ResultSet::getBoolean, true, Types.BOOLEAN),
            new Param("string_to_integer", "INTEGER", (p, i) -> p.setString(i, "42"),
                    ResultSet::getInt, 42, Types.INTEGER),
            new Param("string_to_decimal", "DECIMAL(10,2)", (p, i) -> p.setString(i, "-12.5"),
                    ResultSet::getBigDecimal, new BigDecimal("-12.50"), Types.DECIMAL),
            new Param("string_to_date", "DATE", (p, i) -> p.setString(i, "2024-02-29"),
                    (rs, i) -> String.valueOf(rs.getDate(i)), "2024-02-29", Types.DATE),
            new Param("string_to_datetime", "DATETIME YEAR TO SECOND",
                    (p, i) -> p.setString(i, "2024-02-29 13:45:59"),
                    ResultSet::getTimestamp, Timestamp.valueOf("2024-02-29 13:45:59"), Types.TIMESTAMP));

    // ------------------------------------------------------------------------------------------
    // The checks
    // ------------------------------------------------------------------------------------------

    private static void registerChecks() {
        // --- database lifecycle and connections
        reg("create_database", ctx -> {
            Connection c = ctx.noDb();
            eq("CREATE DATABASE update count", 0,
                    update(c, "CREATE DATABASE " + ctx.cfg.database() + " WITH LOG"));
        });
        reg("error_database_exists", ctx -> {
            Connection c = ctx.noDb();
            expectError("CREATE DATABASE of an existing name",
                    () -> update(c, "CREATE DATABASE " + ctx.cfg.database() + " WITH LOG"), -330);
        });
        reg("connect_no_db", ctx -> {
            Connection c = ctx.noDb();
            check(!c.isClosed(), "isClosed() true right after connect");
            check(c.isValid(5), "isValid(5) false");
        });
        reg("connect_db", ctx -> {
            Connection c = ctx.db();
            check(!c.isClosed(), "isClosed() true right after connect");
            eq("getCatalog()", ctx.cfg.database(), c.getCatalog());
            eq("getAutoCommit() default", true, c.getAutoCommit());
            List<List<Object>> r = rows(c, "SELECT tabname FROM systables WHERE tabid = 1");
            eq("rows", 1, r.size());
            eq("systables tabid 1 tabname", "systables", String.valueOf(r.get(0).get(0)).trim());
        });
        reg("connect_properties", ctx -> {
            Properties p = new Properties();
            p.setProperty("user", ctx.cfg.user());
            p.setProperty("password", ctx.cfg.password());
            Connection c = ctx.open(ctx.cfg.url(ctx.cfg.database(), null, null), p);
            stillUsable(c);
        });
        reg("wrong_password", ctx -> {
            SQLException e = expectError("connect with a wrong password",
                    () -> ctx.open(ctx.cfg.url(ctx.cfg.database(), ctx.cfg.user(), "wrong-" + ctx.cfg.password())),
                    -951);
            check(String.valueOf(e.getMessage()).contains(ctx.cfg.user()),
                    "-951 message does not name the user: " + e.getMessage());
        });
        reg("unknown_user", ctx -> expectError("connect as an unknown user",
                () -> ctx.open(ctx.cfg.url(ctx.cfg.database(), "nosuchuser", "whatever")), -951));
        reg("unknown_database", ctx -> expectError("connect to a missing database",
                () -> ctx.open(ctx.cfg.url("nosuchdb_ifxcheck", ctx.cfg.user(), ctx.cfg.password())), -329));

        // --- DatabaseMetaData
        reg("metadata_product", ctx -> {
            Connection c = ctx.db();
            DatabaseMetaData md = c.getMetaData();
            String product = md.getDatabaseProductName();
            check(product != null && product.contains("Informix"),
                    "getDatabaseProductName() does not contain 'Informix': " + show(product));
            String version = md.getDatabaseProductVersion();
            check(version != null && Pattern.compile("^\\d+\\.\\d+").matcher(version).find(),
                    "getDatabaseProductVersion() does not start with <digits>.<digits>: " + show(version));
            int major = Integer.parseInt(version.substring(0, version.indexOf('.')));
            eq("getDatabaseMajorVersion() vs product version " + show(version), major,
                    md.getDatabaseMajorVersion());
            String driver = md.getDriverVersion();
            check(driver != null && !driver.isBlank(), "getDriverVersion() empty");
            check(md.getDriverName() != null && !md.getDriverName().isBlank(), "getDriverName() empty");
            eq("getUserName()", ctx.cfg.user(), String.valueOf(md.getUserName()).trim());
            eq("supportsTransactions()", true, md.supportsTransactions());
        });
        reg("metadata_tables", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE md_tab (id INTEGER, name VARCHAR(20))");
            DatabaseMetaData md = c.getMetaData();
            List<List<Object>> found = tablesRows(md, "md_tab", null);
            eq("getTables(md_tab) rows", 1, found.size());
            eq("TABLE_NAME", "md_tab", String.valueOf(found.get(0).get(2)).trim());
            eq("TABLE_TYPE", "TABLE", String.valueOf(found.get(0).get(3)).trim());
            eq("TABLE_SCHEM", ctx.cfg.user(), String.valueOf(found.get(0).get(1)).trim());
            eq("getTables(md_tab, {TABLE}) rows", 1, tablesRows(md, "md_tab", new String[] {"TABLE"}).size());
            eq("getTables(md_tab, {VIEW}) rows", 0, tablesRows(md, "md_tab", new String[] {"VIEW"}).size());
            eq("getTables(md_nosuch) rows", 0, tablesRows(md, "md_nosuch", null).size());
            List<List<Object>> pattern = tablesRows(md, "md_t%", null);
            eq("getTables(md_t%) rows", 1, pattern.size());
            List<List<Object>> sys = tablesRows(md, "systables", null);
            eq("getTables(systables) rows", 1, sys.size());
            eq("systables TABLE_TYPE", "SYSTEM TABLE", String.valueOf(sys.get(0).get(3)).trim());
        });
        reg("metadata_views", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE mv_base (id INTEGER)");
            update(c, "CREATE VIEW mv_view AS SELECT id FROM mv_base");
            List<List<Object>> found = tablesRows(c.getMetaData(), "mv_view", null);
            eq("getTables(mv_view) rows", 1, found.size());
            eq("TABLE_TYPE", "VIEW", String.valueOf(found.get(0).get(3)).trim());
        });
        reg("metadata_columns", IfxCheck::metadataColumns);
        reg("metadata_primary_keys", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE mpk (a INTEGER NOT NULL, b VARCHAR(10) NOT NULL, c INTEGER, "
                    + "PRIMARY KEY (a, b))");
            update(c, "CREATE TABLE mpk_none (a INTEGER)");
            DatabaseMetaData md = c.getMetaData();
            List<String> got = new ArrayList<>();
            try (ResultSet rs = md.getPrimaryKeys(null, null, "mpk")) {
                while (rs.next()) {
                    got.add(rs.getString("TABLE_NAME").trim() + "." + rs.getString("COLUMN_NAME").trim()
                            + "#" + rs.getInt("KEY_SEQ"));
                }
            }
            got.sort(null);
            eq("getPrimaryKeys(mpk)", List.of("mpk.a#1", "mpk.b#2"), got);
            try (ResultSet rs = md.getPrimaryKeys(null, null, "mpk_none")) {
                eq("getPrimaryKeys(mpk_none) has a row", false, rs.next());
            }
        });
        reg("syscatalog_columns", ctx -> {
            // What the DatabaseMetaData queries are built on: syscolumns coltype/collength.
            Connection c = ctx.db();
            update(c, "CREATE TABLE sc_cols (a INTEGER NOT NULL, b VARCHAR(20), c DECIMAL(10,2), "
                    + "d DATE, e DATETIME YEAR TO SECOND, f CHAR(10), g SMALLINT, h SERIAL)");
            List<List<Object>> r = rows(c, "SELECT c.colname, c.coltype, c.collength FROM syscolumns c, "
                    + "systables t WHERE c.tabid = t.tabid AND t.tabname = 'sc_cols' ORDER BY c.colno");
            List<String> got = new ArrayList<>();
            for (List<Object> row : r) {
                got.add(String.valueOf(row.get(0)).trim() + ":" + row.get(1) + ":" + row.get(2));
            }
            // SERIAL columns are implicitly NOT NULL (coltype 6 + 256).
            eq("syscolumns (colname:coltype:collength)", List.of("a:258:4", "b:13:20", "c:5:2562",
                    "d:7:4", "e:10:3594", "f:0:10", "g:1:2", "h:262:4"), got);
        });

        // --- plain statements
        reg("select_constant", ctx -> {
            Connection c = ctx.db();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT 1 FROM systables WHERE tabid=1")) {
                ResultSetMetaData md = rs.getMetaData();
                eq("column count", 1, md.getColumnCount());
                eq("column type", Types.INTEGER, md.getColumnType(1));
                check(rs.next(), "no row");
                eq("value", 1, rs.getInt(1));
                eq("wasNull", false, rs.wasNull());
                eq("second next()", false, rs.next());
            }
        });
        reg("statement_ddl_dml", ctx -> {
            Connection c = ctx.db();
            try (Statement s = c.createStatement()) {
                eq("CREATE TABLE count", 0, s.executeUpdate("CREATE TABLE sdd (id INTEGER, name VARCHAR(20))"));
                for (int i = 1; i <= 3; i++) {
                    eq("INSERT count " + i, 1, s.executeUpdate("INSERT INTO sdd VALUES (" + i + ", 'n" + i + "')"));
                }
                eq("UPDATE count", 2, s.executeUpdate("UPDATE sdd SET name = 'upd' WHERE id > 1"));
                eq("UPDATE no-match count", 0, s.executeUpdate("UPDATE sdd SET name = 'x' WHERE id > 100"));
                eq("DELETE count", 1, s.executeUpdate("DELETE FROM sdd WHERE id = 3"));
                eq("execute(INSERT) returns", false, s.execute("INSERT INTO sdd VALUES (4, 'n4')"));
                eq("getUpdateCount after execute(INSERT)", 1, s.getUpdateCount());
                eq("execute(SELECT) returns", true, s.execute("SELECT id, name FROM sdd ORDER BY id"));
                List<List<Object>> r = drain(s.getResultSet());
                eq("rows", List.of(List.of(1, "n1"), List.of(2, "upd"), List.of(4, "n4")), r);
                eq("DROP TABLE count", 0, s.executeUpdate("DROP TABLE sdd"));
            }
            expectError("SELECT from the dropped table", () -> count(c, "sdd"), -206);
        });
        reg("statement_reuse", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE sr (id INTEGER, v VARCHAR(10))");
            update(c, "INSERT INTO sr VALUES (1, 'one')");
            update(c, "INSERT INTO sr VALUES (2, 'two')");
            try (Statement s = c.createStatement()) {
                for (int round = 0; round < 3; round++) {
                    try (ResultSet rs = s.executeQuery("SELECT v FROM sr WHERE id = 2")) {
                        check(rs.next(), "round " + round + ": no row");
                        eq("round " + round, "two", rs.getString(1));
                    }
                    eq("round " + round + " count", 2L, scalarLong(c, "SELECT COUNT(*) FROM sr"));
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT v FROM sr WHERE id = ?")) {
                for (int id : new int[] {1, 2, 3, 1}) {
                    ps.setInt(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        List<List<Object>> r = drain(rs);
                        Object want = id == 1 ? List.of(List.of("one")) : id == 2 ? List.of(List.of("two")) : List.of();
                        eq("prepared query id=" + id, want, r);
                    }
                }
            }
        });
        reg("select_types", IfxCheck::selectTypes);
        reg("select_types_fixed", ctx -> selectTypes(ctx, "st_fixed", FIXED_COLS, true));
        reg("select_zero_values", ctx -> {
            Connection c = ctx.db();
            // The VARCHAR column makes the row layout sequential, so this check does not depend
            // on DESCRIBE column start positions (select_types_fixed covers those).
            update(c, "CREATE TABLE szv (a DECIMAL(10,0), b DECIMAL(10,2), c DECIMAL(16), d MONEY(8,2), "
                    + "e INTEGER, f FLOAT, g INT8, h DECIMAL(5,0), v VARCHAR(5))");
            update(c, "CREATE TABLE szv_empty (e INTEGER)");
            update(c, "INSERT INTO szv VALUES (0, 0, 0, 0, 0, 0, 0, -0, 'zero')");
            List<String> problems = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM szv")) {
                check(rs.next(), "no row");
                for (int i = 1; i <= 8; i++) {
                    try {
                        BigDecimal v = rs.getBigDecimal(i);
                        long l = rs.getLong(i);
                        if (v == null || v.signum() != 0 || l != 0) {
                            problems.add("column " + i + " getBigDecimal " + show(v) + " getLong " + l);
                        }
                    } catch (SQLException e) {
                        problems.add("column " + i + " " + describe(e));
                    }
                }
            }
            for (String q : List.of("SELECT COUNT(*) FROM szv_empty", "SELECT COUNT(e) FROM szv_empty",
                    "SELECT SUM(a) FROM szv", "SELECT a + h FROM szv")) {
                try {
                    long v = scalarLong(c, q);
                    if (v != 0) {
                        problems.add(q + " = " + v);
                    }
                } catch (SQLException | CheckFailed e) {
                    problems.add(q + ": " + describe(e));
                }
            }
            check(problems.isEmpty(), "zero mismatches: " + String.join("; ", problems));
        });
        reg("select_nulls", IfxCheck::selectNulls);
        reg("select_edge_values", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE sev (a SMALLINT, b INTEGER, c INT8, d BIGINT, e DECIMAL(5,2), "
                    + "f DECIMAL(4,0), g MONEY(10,2), h FLOAT, i INTERVAL DAY(3) TO SECOND, j VARCHAR(10))");
            update(c, "INSERT INTO sev VALUES (-32767, -2147483647, -9223372036854775807, "
                    + "-9223372036854775807, -0.05, -1, -1.00, -1.5e300, "
                    + "INTERVAL(-1 00:00:01) DAY(3) TO SECOND, '')");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM sev")) {
                check(rs.next(), "no row");
                eq("SMALLINT", (short) -32767, rs.getShort(1));
                eq("INTEGER", -2147483647, rs.getInt(2));
                eq("INT8", -9223372036854775807L, rs.getLong(3));
                eq("BIGINT", -9223372036854775807L, rs.getLong(4));
                eq("DECIMAL(5,2)", new BigDecimal("-0.05"), rs.getBigDecimal(5));
                eq("DECIMAL(4,0)", new BigDecimal("-1"), rs.getBigDecimal(6));
                eq("MONEY(10,2)", new BigDecimal("-1.00"), rs.getBigDecimal(7));
                eq("FLOAT", -1.5e300, rs.getDouble(8));
                Object iv = rs.getObject(9);
                check(iv instanceof IntervalDF, "INTERVAL not an IntervalDF: " + show(iv));
                eq("INTERVAL seconds", -86401L, ((IntervalDF) iv).getSeconds());
                eq("empty VARCHAR", "", rs.getString(10));
                eq("empty VARCHAR wasNull", false, rs.wasNull());
                eq("second row", false, rs.next());
            }
        });
        reg("empty_result", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE er (id INTEGER, name VARCHAR(10))");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, name FROM er")) {
                eq("column count", 2, rs.getMetaData().getColumnCount());
                eq("next() on empty table", false, rs.next());
            }
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT tabid FROM systables WHERE 1 = 0")) {
                eq("next() on WHERE 1=0", false, rs.next());
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM er WHERE id = ?")) {
                ps.setInt(1, 7);
                try (ResultSet rs = ps.executeQuery()) {
                    eq("next() on empty prepared query", false, rs.next());
                }
            }
        });
        reg("large_result", 300, IfxCheck::largeResult);
        reg("byte_text", 120, IfxCheck::byteText);
        reg("interleaved_cursors", 120, ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE ic (id INTEGER, pad CHAR(20))");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ic VALUES (?, 'x')")) {
                for (int i = 1; i <= 3000; i++) {
                    ps.setInt(1, i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            long seen = 0;
            long sum = 0;
            try (Statement outer = c.createStatement();
                 ResultSet rs = outer.executeQuery("SELECT id, pad FROM ic ORDER BY id");
                 PreparedStatement inner = c.prepareStatement("SELECT id FROM ic WHERE id = ?")) {
                while (rs.next()) {
                    seen++;
                    eq("outer id", (int) seen, rs.getInt(1));
                    sum += rs.getInt(1);
                    if (seen % 500 == 0) {
                        inner.setInt(1, 3001 - (int) seen);
                        try (ResultSet r2 = inner.executeQuery()) {
                            check(r2.next(), "inner query returned no row at " + seen);
                            eq("inner id", 3001 - (int) seen, r2.getInt(1));
                        }
                    }
                }
            }
            eq("outer rows", 3000L, seen);
            eq("outer sum", 4501500L, sum);
        });
        reg("scroll_cursor", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE scr (id INTEGER)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO scr VALUES (?)")) {
                for (int i = 1; i <= 50; i++) {
                    ps.setInt(1, i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
                 ResultSet rs = s.executeQuery("SELECT id FROM scr ORDER BY id")) {
                check(rs.absolute(10), "absolute(10) false");
                eq("absolute(10)", 10, rs.getInt(1));
                check(rs.last(), "last() false");
                eq("last()", 50, rs.getInt(1));
                eq("getRow() at last", 50, rs.getRow());
                check(rs.previous(), "previous() false");
                eq("previous()", 49, rs.getInt(1));
                check(rs.first(), "first() false");
                eq("first()", 1, rs.getInt(1));
                check(rs.relative(4), "relative(4) false");
                eq("relative(4)", 5, rs.getInt(1));
            }
        });

        // --- prepared statements, one check per parameter type
        for (Param p : PARAMS) {
            reg("prepared_params_" + p.name(), ctx -> preparedParam(ctx, p));
        }

        // --- batches and serials
        reg("batch_statement", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE bs (id INTEGER, v INTEGER)");
            try (Statement s = c.createStatement()) {
                s.addBatch("INSERT INTO bs VALUES (1, 10)");
                s.addBatch("INSERT INTO bs VALUES (2, 20)");
                s.addBatch("INSERT INTO bs VALUES (3, 30)");
                s.addBatch("UPDATE bs SET v = v + 1");
                eq("executeBatch counts", new int[] {1, 1, 1, 3}, s.executeBatch());
            }
            eq("SUM(v)", 63L, scalarLong(c, "SELECT SUM(v) FROM bs"));
        });
        reg("batch_prepared", 120, ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE bp (id INTEGER, name VARCHAR(30), amount DECIMAL(10,2))");
            int[] counts;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO bp VALUES (?, ?, ?)")) {
                for (int i = 1; i <= 1000; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "name-" + i);
                    ps.setBigDecimal(3, BigDecimal.valueOf(i, 2));
                    ps.addBatch();
                }
                counts = ps.executeBatch();
            }
            eq("executeBatch length", 1000, counts.length);
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] != 1) {
                    throw fail("executeBatch count[" + i + "] = " + counts[i] + ", expected 1");
                }
            }
            eq("COUNT(*)", 1000L, count(c, "bp"));
            eq("SUM(id)", 500500L, scalarLong(c, "SELECT SUM(id) FROM bp"));
            eq("name of id 777", List.of(List.of("name-777", new BigDecimal("7.77"))),
                    rows(c, "SELECT name, amount FROM bp WHERE id = 777"));
        });
        reg("batch_error", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE be (id INTEGER PRIMARY KEY)");
            try (Statement s = c.createStatement()) {
                s.addBatch("INSERT INTO be VALUES (1)");
                s.addBatch("INSERT INTO be VALUES (1)");
                s.addBatch("INSERT INTO be VALUES (2)");
                try {
                    s.executeBatch();
                    throw fail("executeBatch with a duplicate key succeeded");
                } catch (BatchUpdateException e) {
                    check(e.getErrorCode() == -268 || e.getErrorCode() == -239,
                            "BatchUpdateException code: expected -268/-239 but got " + describe(e));
                    int[] uc = e.getUpdateCounts();
                    check(uc != null && uc.length >= 1 && uc[0] == 1,
                            "getUpdateCounts() should start with [1]: " + show(uc));
                }
            }
            stillUsable(c);
            check(count(c, "be") >= 1, "first batched insert missing");
        });
        // --- SPL routines and triggers (CallableStatement, EXECUTE FUNCTION, RAISE EXCEPTION)
        reg("spl_callable_procedure", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE spl_cp (id INTEGER, label VARCHAR(12))");
            // tag is CHAR(8): concatenation keeps its trailing blanks, as on Informix.
            update(c, "CREATE PROCEDURE spl_cp_add(n INTEGER, tag CHAR(8)) "
                    + "DEFINE i INTEGER; FOR i = 1 TO n "
                    + "INSERT INTO spl_cp VALUES (i, tag || '-' || i); END FOR; END PROCEDURE");
            try (CallableStatement cs = c.prepareCall("{call spl_cp_add(?, ?)}")) {
                cs.setInt(1, 3);
                cs.setString(2, "tag");
                eq("execute() returns a result set", false, cs.execute());
            }
            eq("rows inserted by the procedure", List.of(List.of(3, "tag     -3")),
                    rows(c, "SELECT id, label FROM spl_cp WHERE id = 3"));
            eq("COUNT(*)", 3L, count(c, "spl_cp"));
        });
        reg("spl_callable_result_set", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE FUNCTION spl_squares(n INTEGER) RETURNING INTEGER AS k, "
                    + "DECIMAL(12,2) AS sq; DEFINE i INTEGER; FOR i = 1 TO n "
                    + "RETURN i, i * i / 4 WITH RESUME; END FOR; END FUNCTION");
            try (CallableStatement cs = c.prepareCall("{call spl_squares(?)}")) {
                cs.setInt(1, 2000);
                try (ResultSet rs = cs.executeQuery()) {
                    ResultSetMetaData md = rs.getMetaData();
                    eq("column count", 2, md.getColumnCount());
                    eq("column 1 name", "k", md.getColumnName(1));
                    eq("column 2 type", Types.DECIMAL, md.getColumnType(2));
                    int n = 0;
                    BigDecimal last = null;
                    while (rs.next()) {
                        n++;
                        eq("k of row " + n, n, rs.getInt(1));
                        last = rs.getBigDecimal(2);
                    }
                    eq("rows", 2000, n);
                    eq("last square / 4", new BigDecimal("1000000.00"), last);
                }
            }
        });
        reg("spl_execute_function", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE FUNCTION spl_fact(n INTEGER) RETURNING DECIMAL(32,0); "
                    + "IF n <= 1 THEN RETURN 1; END IF; RETURN n * spl_fact(n - 1); END FUNCTION");
            eq("EXECUTE FUNCTION spl_fact(20)",
                    List.of(List.of(new BigDecimal("2432902008176640000"))),
                    rows(c, "EXECUTE FUNCTION spl_fact(20)"));
            try (PreparedStatement ps = c.prepareStatement("EXECUTE FUNCTION spl_fact(?)")) {
                ps.setInt(1, 5);
                try (ResultSet rs = ps.executeQuery()) {
                    check(rs.next(), "no row");
                    eq("spl_fact(5)", new BigDecimal("120"), rs.getBigDecimal(1));
                }
            }
        });
        reg("spl_statement_local_variable", ctx -> {
            // A function with an OUT parameter in a WHERE clause: its value reaches the select
            // list through a statement-local variable (Guide to SQL: Syntax, "Statement-Local
            // Variable Expressions"); the host variable is bound by a PreparedStatement.
            Connection c = ctx.db();
            update(c, "CREATE FUNCTION spl_slv(i INTEGER, OUT r INTEGER) RETURNING INTEGER; "
                    + "LET r = i + 10; RETURN 1; END FUNCTION");
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT r FROM systables WHERE tabid = 1 AND spl_slv(?, r # INTEGER) = 1")) {
                ps.setInt(1, 33);
                try (ResultSet rs = ps.executeQuery()) {
                    check(rs.next(), "no row");
                    eq("r", 43, rs.getInt(1));
                    eq("column name", "r", rs.getMetaData().getColumnName(1));
                }
            }
            expectError("SLV outside WHERE", () -> rows(c,
                    "SELECT spl_slv(tabid, r # INTEGER) FROM systables WHERE tabid = 1"), -9780);
        });
        reg("spl_raise_exception", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE PROCEDURE spl_veto(n INTEGER) IF n < 0 THEN "
                    + "RAISE EXCEPTION -746, 0, 'negative: ' || n; END IF; END PROCEDURE");
            SQLException e = expectError("RAISE EXCEPTION -746", () -> {
                try (CallableStatement cs = c.prepareCall("{call spl_veto(?)}")) {
                    cs.setInt(1, -5);
                    cs.execute();
                }
            }, -746);
            check(String.valueOf(e.getMessage()).contains("negative: -5"),
                    "-746 message does not carry the RAISE text: " + e.getMessage());
            stillUsable(c);
        });
        reg("spl_out_parameters", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE FUNCTION spl_op(a INTEGER, OUT twice INTEGER, "
                    + "INOUT trail VARCHAR(40)) RETURNING INTEGER; LET twice = a * 2; "
                    + "LET trail = trail || '+' || a; RETURN a + 1; END FUNCTION");
            update(c, "CREATE PROCEDURE spl_op_proc(a INTEGER, OUT half DECIMAL(8,2)) "
                    + "LET half = a / 2; END PROCEDURE");
            update(c, "CREATE FUNCTION spl_op_caller(a INTEGER) RETURNING INTEGER, INTEGER; "
                    + "DEFINE r, t INTEGER; DEFINE tr VARCHAR(40); LET tr = ''; "
                    + "LET r = spl_op(a, t, tr); RETURN r, t; END FUNCTION");
            // OUT parameters read by SPL: an ordinary call.
            try (CallableStatement cs = c.prepareCall("{call spl_op_caller(?)}")) {
                cs.setInt(1, 20);
                try (ResultSet rs = cs.executeQuery()) {
                    check(rs.next(), "no row");
                    eq("spl_op_caller(20)", List.of(21, 40), List.of(rs.getInt(1), rs.getInt(2)));
                }
            }
            // registerOutParameter: the PREPARE is -9752 naming the routine's fast-path
            // handle, the driver describes the arguments (SQ_CFPDESCRIBE) and calls the
            // routine by fast path with SQ_FPARAM; OUT and INOUT values come back, the
            // function's value as a one-row result set (PROTOCOL.md section 10).
            try (CallableStatement cs = c.prepareCall("{call spl_op(?, ?, ?)}")) {
                ParameterMetaData pm = cs.getParameterMetaData();
                eq("parameter modes", List.of(ParameterMetaData.parameterModeIn,
                        ParameterMetaData.parameterModeOut, ParameterMetaData.parameterModeInOut),
                        List.of(pm.getParameterMode(1), pm.getParameterMode(2),
                                pm.getParameterMode(3)));
                for (int a : new int[] {5, 7}) {
                    cs.setInt(1, a);
                    cs.registerOutParameter(2, Types.INTEGER);
                    cs.setString(3, "start");
                    cs.registerOutParameter(3, Types.VARCHAR);
                    eq("execute() returns the function's value", true, cs.execute());
                    eq("OUT twice", a * 2, cs.getInt(2));
                    eq("INOUT trail", "start+" + a, cs.getString(3));
                    try (ResultSet rs = cs.getResultSet()) {
                        check(rs.next(), "no return value");
                        eq("return value", a + 1, rs.getInt(1));
                    }
                }
            }
            try (CallableStatement cs = c.prepareCall("{call spl_op_proc(?, ?)}")) {
                cs.setInt(1, 7);
                cs.registerOutParameter(2, Types.DECIMAL);
                eq("a procedure returns no result set", false, cs.execute());
                eq("OUT half", new BigDecimal("3.50"), cs.getBigDecimal(2));
            }
            stillUsable(c);
        });
        reg("spl_out_serial8", ctx -> {
            // Fast-path values of type 18 (SERIAL8): IfxSqli.receiveFastPath reads an owner
            // and a type name for (type & 0xFF) >= 18 (bipush 18; if_icmplt), where SQ_BIND
            // has them only above 18 (PROTOCOL.md section 11). An OUT SERIAL8 and a SERIAL8
            // return value come back in SQ_FPROUTINE.
            Connection c = ctx.db();
            update(c, "CREATE FUNCTION spl_op_s8(a INT8, OUT b SERIAL8) RETURNING SERIAL8; "
                    + "LET b = a + 1; RETURN a + 2; END FUNCTION");
            long a = 1L << 40;
            try (CallableStatement cs = c.prepareCall("{call spl_op_s8(?, ?)}")) {
                cs.setLong(1, a);
                cs.registerOutParameter(2, Types.BIGINT);
                eq("execute() returns the function's value", true, cs.execute());
                eq("OUT b", a + 1, cs.getLong(2));
                try (ResultSet rs = cs.getResultSet()) {
                    check(rs.next(), "no return value");
                    eq("return value", a + 2, rs.getLong(1));
                }
            }
            stillUsable(c);
        });
        reg("spl_trigger_batch", 120, ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE spl_tb (id INTEGER, v INTEGER)");
            update(c, "CREATE TABLE spl_tb_log (id INTEGER, v INTEGER)");
            update(c, "CREATE TRIGGER spl_tb_ins INSERT ON spl_tb REFERENCING NEW AS n "
                    + "FOR EACH ROW (INSERT INTO spl_tb_log VALUES (n.id, n.v * 10))");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO spl_tb VALUES (?, ?)")) {
                for (int i = 1; i <= 300; i++) {
                    ps.setInt(1, i);
                    ps.setInt(2, i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            eq("trigger rows", 300L, count(c, "spl_tb_log"));
            eq("SUM(v) of the trigger rows", 451500L,
                    scalarLong(c, "SELECT SUM(v) FROM spl_tb_log"));
        });
        reg("spl_metadata_procedures", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE PROCEDURE spl_md_proc(a INTEGER) END PROCEDURE");
            update(c, "CREATE FUNCTION spl_md_func(a INTEGER) RETURNING INTEGER; RETURN a; "
                    + "END FUNCTION");
            List<List<Object>> found = drain(c.getMetaData().getProcedures(null, null, "spl_md_%"));
            eq("getProcedures rows", 2, found.size());
            eq("first PROCEDURE_NAME", "spl_md_func", String.valueOf(found.get(0).get(2)).trim());
            // Both jars map sysprocedures.isproc ('f' -> 2 procedureReturnsResult, 't' -> 1);
            // 4.50.10 does so only when the database-open reply says "Informix server"
            // (SQ_DONE warnings 0x04, IfxSqliConnect.isOnLine()), else it selects 0 for all.
            String ftype = String.valueOf(found.get(0).get(7)).trim();
            String ptype = String.valueOf(found.get(1).get(7)).trim();
            eq("PROCEDURE_TYPE function/procedure", "2/1", ftype + "/" + ptype);
        });
        reg("spl_metadata_procedure_columns", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE PROCEDURE spl_pc_proc(a INTEGER, b CHAR(10)) END PROCEDURE");
            update(c, "CREATE FUNCTION spl_pc_func(x SMALLINT, d DATE) RETURNING VARCHAR(20) "
                    + "AS label; RETURN 'x'; END FUNCTION");
            DatabaseMetaData md = c.getMetaData();
            List<String> got = new ArrayList<>();
            try (ResultSet rs = md.getProcedureColumns(null, null, "spl_pc_%", "%")) {
                while (rs.next()) {
                    got.add(rs.getString("PROCEDURE_NAME").trim() + " "
                            + String.valueOf(rs.getString("COLUMN_NAME")).trim() + " "
                            + rs.getInt("COLUMN_TYPE") + " " + rs.getInt("DATA_TYPE") + " "
                            + rs.getString("TYPE_NAME").trim() + " "
                            + rs.getInt("ORDINAL_POSITION"));
                }
            }
            // Return value first with ORDINAL_POSITION 0 (COLUMN_TYPE = sysproccolumns.paramattr:
            // 5 return value, 1 IN); TYPE_NAME from ifx_ret_types / ifx_param_types, which
            // name a type without its length (a real 14.10 gives 'varchar', issue 23).
            eq("getProcedureColumns", List.of(
                    "spl_pc_func label 5 12 varchar 0",
                    "spl_pc_func x 1 5 smallint 1",
                    "spl_pc_func d 1 91 date 2",
                    "spl_pc_proc a 1 4 integer 1",
                    "spl_pc_proc b 1 1 char 2"), got);
        });
        reg("serial_getserial", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE ser (id SERIAL, v INTEGER)");
            try (Statement s = c.createStatement()) {
                IfmxStatement is = s.unwrap(IfmxStatement.class);
                eq("insert 1 count", 1, s.executeUpdate("INSERT INTO ser VALUES (0, 1)"));
                eq("getSerial() after 1st insert", 1, is.getSerial());
                s.executeUpdate("INSERT INTO ser VALUES (0, 2)");
                eq("getSerial() after 2nd insert", 2, is.getSerial());
                s.executeUpdate("INSERT INTO ser VALUES (100, 3)");
                eq("getSerial() after explicit 100", 100, is.getSerial());
                s.executeUpdate("INSERT INTO ser (v) VALUES (4)");
                eq("getSerial() after insert with the column omitted", 101, is.getSerial());
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ser VALUES (0, ?)")) {
                ps.setInt(1, 5);
                eq("prepared insert count", 1, ps.executeUpdate());
                eq("prepared getSerial()", 102, ps.unwrap(IfmxStatement.class).getSerial());
            }
            List<Object> ids = new ArrayList<>();
            rows(c, "SELECT id FROM ser ORDER BY id").forEach(r -> ids.add(r.get(0)));
            eq("ids", List.of(1, 2, 100, 101, 102), ids);
        });
        reg("serial8_getserial8", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE ser8 (id SERIAL8, v INTEGER)");
            try (Statement s = c.createStatement()) {
                IfmxStatement is = s.unwrap(IfmxStatement.class);
                s.executeUpdate("INSERT INTO ser8 VALUES (0, 1)");
                eq("getSerial8() after 1st insert", 1L, is.getSerial8());
                s.executeUpdate("INSERT INTO ser8 VALUES (5000000000, 2)");
                eq("getSerial8() after explicit 5000000000", 5000000000L, is.getSerial8());
                s.executeUpdate("INSERT INTO ser8 VALUES (0, 3)");
                eq("getSerial8() after 3rd insert", 5000000001L, is.getSerial8());
            }
            eq("MAX(id)", 5000000001L, scalarLong(c, "SELECT MAX(id) FROM ser8"));
        });
        reg("bigserial_getbigserial", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE serb (id BIGSERIAL, v INTEGER)");
            try (Statement s = c.createStatement()) {
                IfmxStatement is = s.unwrap(IfmxStatement.class);
                s.executeUpdate("INSERT INTO serb VALUES (0, 1)");
                eq("getBigSerial() after 1st insert", 1L, is.getBigSerial());
                s.executeUpdate("INSERT INTO serb VALUES (6000000000, 2)");
                eq("getBigSerial() after explicit 6000000000", 6000000000L, is.getBigSerial());
                s.executeUpdate("INSERT INTO serb VALUES (0, 3)");
                eq("getBigSerial() after 3rd insert", 6000000001L, is.getBigSerial());
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM serb ORDER BY id")) {
                ResultSetMetaData md = rs.getMetaData();
                eq("BIGSERIAL column Informix type", 53, md.unwrap(IfmxResultSetMetaData.class).getIfxColumnType(1) & 0xFF);
                eq("BIGSERIAL column java.sql.Types", Types.BIGINT, md.getColumnType(1));
                List<Long> ids = new ArrayList<>();
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
                eq("ids", List.of(1L, 6000000000L, 6000000001L), ids);
            }
        });

        // --- errors
        reg("error_syntax", ctx -> errorCheck(ctx, "SELEKT * FROM systables", -201, true));
        reg("error_unknown_table", ctx -> errorCheck(ctx, "SELECT * FROM no_such_table", -206, true));
        reg("error_unknown_column", ctx -> errorCheck(ctx, "SELECT no_such_column FROM systables", -217, true));
        reg("error_duplicate_key", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE edk (id INTEGER PRIMARY KEY, v INTEGER)");
            update(c, "INSERT INTO edk VALUES (1, 1)");
            expectError("duplicate primary key", () -> update(c, "INSERT INTO edk VALUES (1, 2)"), -268, -239);
            stillUsable(c);
            eq("rows after failed insert", 1L, count(c, "edk"));
        });
        reg("error_not_null", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE enn (id INTEGER NOT NULL)");
            expectError("NULL into NOT NULL column", () -> update(c, "INSERT INTO enn VALUES (NULL)"), -391);
            stillUsable(c);
        });
        reg("error_table_exists", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE ete (id INTEGER)");
            expectError("CREATE TABLE twice", () -> update(c, "CREATE TABLE ete (id INTEGER)"), -310);
            stillUsable(c);
        });
        reg("error_conversion", ctx -> {
            Connection c = ctx.db();
            update(c, "CREATE TABLE ecv (id INTEGER)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ecv VALUES (?)")) {
                ps.setString(1, "not a number");
                expectError("setString('not a number') into INTEGER", ps::executeUpdate, -1213);
            }
            stillUsable(c);
        });
        reg("error_division_by_zero", ctx -> errorCheck(ctx, "SELECT 1/0 FROM systables WHERE tabid = 1", -1202, false));
        reg("error_prepare_unknown_table", ctx -> {
            Connection c = ctx.db();
            expectError("prepareStatement on a missing table",
                    () -> c.prepareStatement("SELECT * FROM no_such_table WHERE id = ?"), -206);
            stillUsable(c);
        });

        // --- transactions
        reg("autocommit_on", ctx -> {
            Connection c1 = ctx.db();
            Connection c2 = ctx.db();
            update(c1, "CREATE TABLE ac_on (id INTEGER)");
            eq("getAutoCommit()", true, c1.getAutoCommit());
            update(c1, "INSERT INTO ac_on VALUES (1)");
            eq("row seen from a second connection", 1L, count(c2, "ac_on"));
        });
        reg("autocommit_off_commit", ctx -> {
            Connection c1 = ctx.db();
            Connection c2 = ctx.db();
            update(c1, "CREATE TABLE ac_commit (id INTEGER)");
            c1.setAutoCommit(false);
            eq("getAutoCommit()", false, c1.getAutoCommit());
            update(c1, "INSERT INTO ac_commit VALUES (1)");
            try (PreparedStatement ps = c1.prepareStatement("INSERT INTO ac_commit VALUES (?)")) {
                ps.setInt(1, 2);
                ps.executeUpdate();
            }
            eq("rows seen inside the transaction", 2L, count(c1, "ac_commit"));
            c1.commit();
            eq("rows seen from a second connection after commit", 2L, count(c2, "ac_commit"));
            update(c1, "INSERT INTO ac_commit VALUES (3)");
            c1.commit();
            eq("rows after a second transaction", 3L, count(c2, "ac_commit"));
        });
        reg("autocommit_off_rollback", ctx -> {
            Connection c1 = ctx.db();
            Connection c2 = ctx.db();
            update(c1, "CREATE TABLE ac_rb (id INTEGER)");
            update(c1, "INSERT INTO ac_rb VALUES (1)");
            c1.setAutoCommit(false);
            update(c1, "INSERT INTO ac_rb VALUES (2)");
            update(c1, "DELETE FROM ac_rb WHERE id = 1");
            eq("rows inside the transaction", List.of(List.of(2)), rows(c1, "SELECT id FROM ac_rb"));
            c1.rollback();
            eq("rows after rollback (same connection)", List.of(List.of(1)), rows(c1, "SELECT id FROM ac_rb"));
            eq("rows after rollback (second connection)", List.of(List.of(1)), rows(c2, "SELECT id FROM ac_rb"));
        });
        reg("autocommit_toggle_commits", ctx -> {
            Connection c1 = ctx.db();
            Connection c2 = ctx.db();
            update(c1, "CREATE TABLE ac_tog (id INTEGER)");
            c1.setAutoCommit(false);
            update(c1, "INSERT INTO ac_tog VALUES (1)");
            c1.setAutoCommit(true);
            eq("row seen after setAutoCommit(true)", 1L, count(c2, "ac_tog"));
        });
        reg("close_rolls_back", ctx -> {
            Connection c1 = ctx.db();
            Connection c2 = ctx.db();
            update(c1, "CREATE TABLE ac_close (id INTEGER)");
            c1.setAutoCommit(false);
            update(c1, "INSERT INTO ac_close VALUES (1)");
            c1.close();
            // Rows, not COUNT(*): a zero count is select_zero_values' business.
            eq("rows after closing with an open transaction", List.of(), rows(c2, "SELECT id FROM ac_close"));
        });

        // --- connection state
        reg("is_valid", ctx -> {
            Connection c = ctx.db();
            eq("isValid(5)", true, c.isValid(5));
            stillUsable(c);
            eq("isValid(5) again", true, c.isValid(5));
            c.close();
            eq("isValid(5) after close", false, c.isValid(5));
        });
        reg("close", ctx -> {
            Connection c = ctx.db();
            Statement s = c.createStatement();
            stillUsable(c);
            c.close();
            eq("isClosed() after close", true, c.isClosed());
            expectAnyError("Statement.executeQuery on a closed connection",
                    () -> s.executeQuery("SELECT 1 FROM systables WHERE tabid = 1"));
            expectAnyError("createStatement on a closed connection", c::createStatement);
            stillUsable(ctx.db());
        });
        LobChecks.register(); // BLOB/CLOB checks (LobChecks.java)
        reg("drop_database", ctx -> {
            Connection c = ctx.noDb();
            eq("DROP DATABASE update count", 0, update(c, "DROP DATABASE " + ctx.cfg.database()));
            expectError("connect to the dropped database", () -> ctx.db(), -329);
        });
    }

    private static List<List<Object>> tablesRows(DatabaseMetaData md, String name, String[] types)
            throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (ResultSet rs = md.getTables(null, null, name, types)) {
            while (rs.next()) {
                out.add(Arrays.asList(rs.getString("TABLE_CAT"), rs.getString("TABLE_SCHEM"),
                        rs.getString("TABLE_NAME"), rs.getString("TABLE_TYPE")));
            }
        }
        return out;
    }

    private static void metadataColumns(Ctx ctx) throws Exception {
        Connection c = ctx.db();
        update(c, "CREATE TABLE mcol (c_int INTEGER NOT NULL, c_vc VARCHAR(20), c_dec DECIMAL(10,2), "
                + "c_date DATE, c_dt DATETIME YEAR TO SECOND, c_bool BOOLEAN, c_small SMALLINT, "
                + "c_char CHAR(10), c_big BIGINT, c_float FLOAT)");
        // name -> {DATA_TYPE, COLUMN_SIZE (ANY = unchecked), DECIMAL_DIGITS (ANY), NULLABLE}
        Map<String, int[]> want = new LinkedHashMap<>();
        want.put("c_int", new int[] {Types.INTEGER, 10, 0, DatabaseMetaData.columnNoNulls});
        want.put("c_vc", new int[] {Types.VARCHAR, 20, ANY, DatabaseMetaData.columnNullable});
        want.put("c_dec", new int[] {Types.DECIMAL, 10, 2, DatabaseMetaData.columnNullable});
        want.put("c_date", new int[] {Types.DATE, ANY, ANY, DatabaseMetaData.columnNullable});
        want.put("c_dt", new int[] {Types.TIMESTAMP, ANY, ANY, DatabaseMetaData.columnNullable});
        want.put("c_bool", new int[] {Types.BOOLEAN, ANY, ANY, DatabaseMetaData.columnNullable});
        want.put("c_small", new int[] {Types.SMALLINT, 5, 0, DatabaseMetaData.columnNullable});
        want.put("c_char", new int[] {Types.CHAR, 10, ANY, DatabaseMetaData.columnNullable});
        want.put("c_big", new int[] {Types.BIGINT, 19, 0, DatabaseMetaData.columnNullable});
        want.put("c_float", new int[] {Types.DOUBLE, ANY, ANY, DatabaseMetaData.columnNullable});
        Map<String, String> typeNameWords = Map.of("c_int", "int", "c_vc", "varchar", "c_dec", "decimal",
                "c_date", "date", "c_dt", "datetime", "c_bool", "boolean", "c_small", "smallint",
                "c_char", "char", "c_big", "bigint", "c_float", "float");
        List<String> order = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getColumns(null, null, "mcol", null)) {
            while (rs.next()) {
                String name = rs.getString("COLUMN_NAME").trim();
                order.add(name);
                int[] w = want.get(name);
                if (w == null) {
                    problems.add("unexpected column " + name);
                    continue;
                }
                int dataType = rs.getInt("DATA_TYPE");
                int size = rs.getInt("COLUMN_SIZE");
                int digits = rs.getInt("DECIMAL_DIGITS");
                int nullable = rs.getInt("NULLABLE");
                String typeName = String.valueOf(rs.getString("TYPE_NAME")).trim().toLowerCase();
                String isNullable = String.valueOf(rs.getString("IS_NULLABLE")).trim();
                if (dataType != w[0]) {
                    problems.add(name + " DATA_TYPE " + dataType + "!=" + w[0]);
                }
                if (w[1] != ANY && size != w[1]) {
                    problems.add(name + " COLUMN_SIZE " + size + "!=" + w[1]);
                }
                if (w[2] != ANY && digits != w[2]) {
                    problems.add(name + " DECIMAL_DIGITS " + digits + "!=" + w[2]);
                }
                if (nullable != w[3]) {
                    problems.add(name + " NULLABLE " + nullable + "!=" + w[3]);
                }
                String wantIs = w[3] == DatabaseMetaData.columnNoNulls ? "NO" : "YES";
                if (!isNullable.equals(wantIs)) {
                    problems.add(name + " IS_NULLABLE '" + isNullable + "'!='" + wantIs + "'");
                }
                if (!typeName.contains(typeNameWords.get(name))) {
                    problems.add(name + " TYPE_NAME '" + typeName + "' lacks '" + typeNameWords.get(name) + "'");
                }
            }
        }
        eq("column order", new ArrayList<>(want.keySet()), order);
        check(problems.isEmpty(), "getColumns mismatches: " + String.join("; ", problems));
        try (ResultSet rs = c.getMetaData().getColumns(null, null, "mcol", "c_d%")) {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString("COLUMN_NAME").trim());
            }
            eq("getColumns(mcol, c_d%)", List.of("c_dec", "c_date", "c_dt"), names);
        }
    }

    /** Columns with a fixed on-wire width (no VARCHAR/NVARCHAR/LVARCHAR/BOOLEAN). */
    static final List<Col> FIXED_COLS = COLS.stream()
            .filter(c -> !Set.of("c_varchar", "c_nvarchar", "c_lvarchar", "c_boolean").contains(c.name()))
            .toList();

    /** Tuple width of a fixed-width column, from its Informix type and encoded length. */
    static int fixedWidth(int ifxType, int encLen) {
        return switch (ifxType) {
            case 5, 8, 10, 14 -> {
                // DECIMAL/MONEY: (precision + (scale & 1) + 3) / 2, with scale 255 = floating.
                // DATETIME/INTERVAL: (digits + (endUnit & 1) + 3) / 2.
                int hi = (encLen >> 8) & 0xFF;
                int lo = ifxType == 5 || ifxType == 8 ? encLen & 0xFF : encLen & 0x0F;
                yield (hi + (lo & 1) + 3) / 2;
            }
            default -> encLen;
        };
    }

    private static void selectTypes(Ctx ctx) throws Exception {
        selectTypes(ctx, "st_types", COLS, false);
    }

    /**
     * One row of literals of every listed type, read back with the natural getters and checked
     * exactly, plus DESCRIBE metadata: names, Informix types, java.sql.Types, encoded lengths,
     * precision/scale and, for an all-fixed-width result, each column's start position.
     */
    private static void selectTypes(Ctx ctx, String table, List<Col> cols, boolean fixedLayout)
            throws Exception {
        Connection c = ctx.db();
        update(c, createTableSql(table, cols));
        StringBuilder ins = new StringBuilder("INSERT INTO " + table + " VALUES (");
        for (int i = 0; i < cols.size(); i++) {
            ins.append(i == 0 ? "" : ", ").append(cols.get(i).literal());
        }
        eq("INSERT count", 1, update(c, ins.append(')').toString()));
        List<String> problems = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + columnList(cols) + " FROM " + table)) {
            ResultSetMetaData md = rs.getMetaData();
            IfmxResultSetMetaData imd = md.unwrap(IfmxResultSetMetaData.class);
            eq("column count", cols.size(), md.getColumnCount());
            int startPos = 0;
            for (int i = 1; i <= cols.size(); i++) {
                Col col = cols.get(i - 1);
                String nm = String.valueOf(md.getColumnName(i));
                if (!nm.equals(col.name())) {
                    problems.add(col.name() + " name " + show(nm));
                }
                int ifxType = imd.getIfxColumnType(i) & 0xFF;
                if (Arrays.stream(col.ifxTypes()).noneMatch(t -> t == ifxType)) {
                    problems.add(col.name() + " ifxType " + ifxType + " not in " + Arrays.toString(col.ifxTypes()));
                }
                if (col.jdbcType() != ANY && md.getColumnType(i) != col.jdbcType()) {
                    problems.add(col.name() + " getColumnType " + md.getColumnType(i) + "!=" + col.jdbcType());
                }
                int enc = imd.getEncodedLength(i);
                if (enc != col.encLen()) {
                    problems.add(col.name() + " encodedLength 0x" + Integer.toHexString(enc) + "!=0x"
                            + Integer.toHexString(col.encLen()));
                }
                if (fixedLayout) {
                    int got = imd.getColumnStartPosition(i);
                    if (got != startPos) {
                        problems.add(col.name() + " columnStartPos " + got + "!=" + startPos);
                    }
                    startPos += fixedWidth(col.ifxTypes()[0], col.encLen());
                }
            }
            for (int i = 1; i <= cols.size(); i++) {
                String name = cols.get(i - 1).name();
                int[] ps = switch (name) {
                    case "c_decimal" -> new int[] {10, 2};
                    case "c_decneg" -> new int[] {12, 4};
                    case "c_money" -> new int[] {8, 2};
                    default -> null;
                };
                if (ps != null && (md.getPrecision(i) != ps[0] || md.getScale(i) != ps[1])) {
                    problems.add(name + " precision/scale " + md.getPrecision(i) + "/" + md.getScale(i)
                            + "!=" + ps[0] + "/" + ps[1]);
                }
            }
            check(rs.next(), "no row");
            for (int i = 1; i <= cols.size(); i++) {
                Col col = cols.get(i - 1);
                Object got;
                try {
                    got = col.reader().read(rs, i);
                } catch (SQLException e) {
                    problems.add(col.name() + " read failed: " + describe(e));
                    continue;
                }
                if (rs.wasNull()) {
                    problems.add(col.name() + " wasNull");
                } else if (!same(col.expected(), got)) {
                    problems.add(col.name() + " expected " + show(col.expected()) + " got " + show(got));
                }
            }
            if (rs.next()) {
                problems.add("more than one row");
            }
        }
        check(problems.isEmpty(), problems.size() + " mismatches: " + String.join("; ", problems));
    }

    private static void selectNulls(Ctx ctx) throws Exception {
        Connection c = ctx.db();
        update(c, createTableSql("st_nulls", COLS));
        StringBuilder ins = new StringBuilder("INSERT INTO st_nulls VALUES (");
        for (int i = 0; i < COLS.size(); i++) {
            ins.append(i == 0 ? "NULL" : ", NULL");
        }
        eq("INSERT count", 1, update(c, ins.append(')').toString()));
        List<String> problems = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + columnList(COLS) + " FROM st_nulls")) {
            check(rs.next(), "no row");
            for (int i = 1; i <= COLS.size(); i++) {
                String name = COLS.get(i - 1).name();
                Object o = rs.getObject(i);
                if (o != null || !rs.wasNull()) {
                    problems.add(name + " getObject " + show(o) + " wasNull " + rs.wasNull());
                }
                rs.getString(i);
                if (!rs.wasNull()) {
                    problems.add(name + " getString not wasNull");
                }
            }
        }
        eq("COUNT(*) WHERE c_integer IS NULL", 1L,
                scalarLong(c, "SELECT COUNT(*) FROM st_nulls WHERE c_integer IS NULL"));
        check(problems.isEmpty(), "NULL mismatches: " + String.join("; ", problems));
    }

    private static void preparedParam(Ctx ctx, Param p) throws Exception {
        Connection c = ctx.db();
        String table = "pp_" + p.name();
        update(c, "CREATE TABLE " + table + " (id INTEGER, v " + p.ddl() + ")");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
            ps.setInt(1, 1);
            p.binder().bind(ps, 2);
            eq("INSERT value count", 1, ps.executeUpdate());
            ps.setInt(1, 2);
            ps.setNull(2, p.nullType());
            eq("INSERT NULL count", 1, ps.executeUpdate());
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, v FROM " + table + " ORDER BY id")) {
            check(rs.next(), "row 1 missing");
            eq("id", 1, rs.getInt(1));
            Object got = p.reader().read(rs, 2);
            eq("value read back", p.expected(), got);
            eq("wasNull for the value", false, rs.wasNull());
            check(rs.next(), "row 2 (NULL) missing");
            Object n = rs.getObject(2);
            check(n == null && rs.wasNull(), "setNull row: getObject " + show(n) + " wasNull " + rs.wasNull());
            eq("third row", false, rs.next());
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + table + " WHERE v = ?")) {
            p.binder().bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                eq("WHERE v = ? rows", List.of(List.of(1)), drain(rs));
            }
        }
    }

    /**
     * BYTE and TEXT (legacy blobs): setBytes / setString / setBinaryStream / setAsciiStream
     * upload through SQ_BBIND, getBytes / getString / getBinaryStream read through
     * SQ_FETCHBLOB, lazily per row. Values: 100003 bytes (many chunks, odd length), NULL, empty.
     */
    private static void byteText(Ctx ctx) throws Exception {
        Connection c = ctx.db();
        update(c, "CREATE TABLE bt (id INTEGER, b BYTE, t TEXT)");
        byte[] big = new byte[100_003];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 7 + 3);
        }
        String text = "TEXT value " + "abcdefghij".repeat(5000);
        byte[] small = {0, 1, 2, (byte) 0xff, 10, 13};
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO bt VALUES (?, ?, ?)")) {
            ps.setInt(1, 1);
            ps.setBytes(2, big);
            ps.setString(3, text);
            eq("INSERT BYTE/TEXT count", 1, ps.executeUpdate());
            ps.setInt(1, 2);
            ps.setNull(2, Types.LONGVARBINARY);
            ps.setNull(3, Types.LONGVARCHAR);
            eq("INSERT NULL BYTE/TEXT count", 1, ps.executeUpdate());
            ps.setInt(1, 3);
            ps.setBytes(2, new byte[0]);
            ps.setString(3, "");
            eq("INSERT empty BYTE/TEXT count", 1, ps.executeUpdate());
            ps.setInt(1, 4);
            ps.setBinaryStream(2, new java.io.ByteArrayInputStream(small), small.length);
            ps.setAsciiStream(3, new java.io.ByteArrayInputStream("streamed".getBytes("US-ASCII")), 8);
            eq("INSERT streamed BYTE/TEXT count", 1, ps.executeUpdate());
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, b, t FROM bt ORDER BY id")) {
            check(rs.next(), "row 1 missing");
            eq("row 1 BYTE", big, rs.getBytes(2));
            eq("row 1 TEXT", text, rs.getString(3));
            check(rs.next(), "row 2 missing");
            check(rs.getBytes(2) == null && rs.wasNull(), "row 2 BYTE is not NULL");
            check(rs.getString(3) == null && rs.wasNull(), "row 2 TEXT is not NULL");
            check(rs.next(), "row 3 missing");
            eq("row 3 BYTE", new byte[0], rs.getBytes(2));
            eq("row 3 TEXT", "", rs.getString(3));
            check(rs.next(), "row 4 missing");
            try (java.io.InputStream in = rs.getBinaryStream(2)) {
                eq("row 4 BYTE stream", small, in.readAllBytes());
            }
            eq("row 4 TEXT", "streamed", rs.getString(3));
            eq("fifth row", false, rs.next());
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM bt WHERE b IS NULL AND t IS NULL")) {
            check(rs.next(), "count row missing");
            eq("rows with NULL BYTE and TEXT", 1, rs.getInt(1));
        }
        stillUsable(c);
    }

    private static void largeResult(Ctx ctx) throws Exception {
        final int n = 20000;
        Connection c = ctx.db();
        update(c, "CREATE TABLE big (id INTEGER, name VARCHAR(40), amount DECIMAL(12,2))");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO big VALUES (?, ?, ?)")) {
            for (int i = 1; i <= n; i++) {
                ps.setInt(1, i);
                ps.setString(2, "row-" + i);
                ps.setBigDecimal(3, BigDecimal.valueOf(i * 7L, 2));
                ps.addBatch();
                if (i % 5000 == 0) {
                    int[] counts = ps.executeBatch();
                    eq("batch length at " + i, 5000, counts.length);
                }
            }
        }
        eq("COUNT(*)", (long) n, count(c, "big"));
        // Variable-length row layout (VARCHAR present), many fetches.
        long rowsSeen = 0;
        long idSum = 0;
        long nameHash = 0;
        BigDecimal amountSum = BigDecimal.ZERO;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, name, amount FROM big ORDER BY id")) {
            while (rs.next()) {
                rowsSeen++;
                int id = rs.getInt(1);
                if (id != rowsSeen) {
                    throw fail("row " + rowsSeen + " has id " + id);
                }
                String name = rs.getString(2);
                if (!("row-" + id).equals(name)) {
                    throw fail("row " + rowsSeen + " has name " + show(name));
                }
                idSum += id;
                nameHash = nameHash * 31 + name.hashCode();
                amountSum = amountSum.add(rs.getBigDecimal(3));
            }
        }
        long wantHash = 0;
        for (int i = 1; i <= n; i++) {
            wantHash = wantHash * 31 + ("row-" + i).hashCode();
        }
        eq("rows (varchar layout)", (long) n, rowsSeen);
        eq("SUM(id)", (long) n * (n + 1) / 2, idSum);
        eq("name checksum", wantHash, nameHash);
        eq("SUM(amount)", BigDecimal.valueOf(7L * n * (n + 1) / 2, 2), amountSum);
        // Fixed-length row layout.
        long fixedRows = 0;
        long fixedSum = 0;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM big")) {
            while (rs.next()) {
                fixedRows++;
                fixedSum += rs.getInt(1);
            }
        }
        eq("rows (fixed layout)", (long) n, fixedRows);
        eq("SUM(id) (fixed layout)", (long) n * (n + 1) / 2, fixedSum);
    }

    /** The query fails with code via executeQuery (and, if prepareTime, via executeUpdate too). */
    private static void errorCheck(Ctx ctx, String sql, int code, boolean prepareTime) throws Exception {
        Connection c = ctx.db();
        SQLException e = expectError("executeQuery(" + sql + ")", () -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
            }
        }, code);
        check(e.getSQLState() != null && e.getSQLState().length() == 5,
                "SQLState should be 5 characters: " + show(e.getSQLState()));
        if (prepareTime) {
            expectError("executeUpdate(" + sql + ")", () -> update(c, sql), code);
        }
        stillUsable(c);
    }

    // ------------------------------------------------------------------------------------------
    // Cross-client checks (on demand): the Python driver writes what JDBC reads, and reads what
    // JDBC writes.  Tables xc_read and xc_write (id INTEGER, one column per XCOLS entry) are
    // created by tests/interop/test_cross_client.py, which holds the same values.
    // ------------------------------------------------------------------------------------------

    private static final Map<String, Check> ON_DEMAND = new LinkedHashMap<>();

    /** Register an on-demand check (run only when named). */
    static void onDemand(String name, int timeoutSeconds, Body body) {
        if (ON_DEMAND.put(name, new Check(name, timeoutSeconds, body)) != null) {
            throw new IllegalStateException("duplicate check " + name);
        }
    }

    static final String XC_LVARCHAR = "x".repeat(2001);
    static final long XC_IV_DF_SECONDS = 999999999L * 86400L + 86399L;

    /**
     * One column per type; row 1 holds expected, row 2 NULL (serials: 1, never NULL).  Values are
     * boundaries where JDBC can carry them: IntervalYM keeps months in an int, so YEAR(9) TO
     * MONTH uses -2147483647 months rather than -999999999-11.
     */
    /** BYTE: 3 SQ_BLOB chunks of 1024 and an odd tail; TEXT: several chunks of text. */
    static final byte[] XC_BYTES = xcBytes();
    static final String XC_TEXT = "TEXT " + "0123456789".repeat(500);

    static byte[] xcBytes() {
        byte[] b = new byte[3 * 1024 + 77];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (255 - i % 256);
        }
        return b;
    }

    static final List<Param> XCOLS = List.of(
            new Param("smallint", "SMALLINT", (p, i) -> p.setShort(i, (short) 32767),
                    ResultSet::getShort, (short) 32767, Types.SMALLINT),
            new Param("smallint_min", "SMALLINT", (p, i) -> p.setShort(i, (short) -32767),
                    ResultSet::getShort, (short) -32767, Types.SMALLINT),
            new Param("integer", "INTEGER", (p, i) -> p.setInt(i, -2147483647),
                    ResultSet::getInt, -2147483647, Types.INTEGER),
            new Param("int8", "INT8", (p, i) -> p.setLong(i, -9223372036854775807L),
                    ResultSet::getLong, -9223372036854775807L, Types.BIGINT),
            new Param("bigint", "BIGINT", (p, i) -> p.setLong(i, Long.MAX_VALUE),
                    ResultSet::getLong, Long.MAX_VALUE, Types.BIGINT),
            new Param("serial", "SERIAL", (p, i) -> p.setInt(i, 2147483647),
                    ResultSet::getInt, 2147483647, Types.INTEGER),
            new Param("bigserial", "BIGSERIAL", (p, i) -> p.setLong(i, Long.MAX_VALUE),
                    ResultSet::getLong, Long.MAX_VALUE, Types.BIGINT),
            new Param("smallfloat", "SMALLFLOAT", (p, i) -> p.setFloat(i, Float.MAX_VALUE),
                    ResultSet::getFloat, Float.MAX_VALUE, Types.REAL),
            new Param("float", "FLOAT", (p, i) -> p.setDouble(i, -Double.MAX_VALUE),
                    ResultSet::getDouble, -Double.MAX_VALUE, Types.DOUBLE),
            new Param("dec32_16", "DECIMAL(32,16)",
                    (p, i) -> p.setBigDecimal(i, new BigDecimal("1234567890123456.1234567890123456")),
                    ResultSet::getBigDecimal, new BigDecimal("1234567890123456.1234567890123456"),
                    Types.DECIMAL),
            new Param("dec32_0", "DECIMAL(32,0)",
                    (p, i) -> p.setBigDecimal(i, new BigDecimal("-" + "9".repeat(32))),
                    ResultSet::getBigDecimal, new BigDecimal("-" + "9".repeat(32)), Types.DECIMAL),
            new Param("decfloat", "DECIMAL(16)", (p, i) -> p.setBigDecimal(i, new BigDecimal("1234.5678")),
                    ResultSet::getBigDecimal, new BigDecimal("1234.5678"), Types.DECIMAL),
            new Param("money", "MONEY(16,2)",
                    (p, i) -> p.setBigDecimal(i, new BigDecimal("-12345678901234.56")),
                    ResultSet::getBigDecimal, new BigDecimal("-12345678901234.56"), Types.DECIMAL),
            new Param("char", "CHAR(10)", (p, i) -> p.setString(i, "abc"),
                    ResultSet::getString, "abc       ", Types.CHAR),
            new Param("nchar", "NCHAR(10)", (p, i) -> p.setString(i, "nchar"),
                    ResultSet::getString, "nchar     ", Types.CHAR),
            new Param("varchar", "VARCHAR(255)", (p, i) -> p.setString(i, "ab  "),
                    ResultSet::getString, "ab  ", Types.VARCHAR),
            new Param("varchar_empty", "VARCHAR(10)", (p, i) -> p.setString(i, ""),
                    ResultSet::getString, "", Types.VARCHAR),
            new Param("nvarchar", "NVARCHAR(50)", (p, i) -> p.setString(i, "caf\u00e9 \u00f1and\u00fa"),
                    ResultSet::getString, "caf\u00e9 \u00f1and\u00fa", Types.VARCHAR),
            new Param("lvarchar", "LVARCHAR(3000)", (p, i) -> p.setString(i, XC_LVARCHAR),
                    ResultSet::getString, XC_LVARCHAR, Types.LONGVARCHAR),
            new Param("date", "DATE", (p, i) -> p.setDate(i, Date.valueOf("9999-12-31")),
                    (rs, i) -> String.valueOf(rs.getDate(i)), "9999-12-31", Types.DATE),
            new Param("dt_f5", "DATETIME YEAR TO FRACTION(5)",
                    (p, i) -> p.setTimestamp(i, Timestamp.valueOf("9999-12-31 23:59:59.99999")),
                    ResultSet::getTimestamp, Timestamp.valueOf("9999-12-31 23:59:59.99999"),
                    Types.TIMESTAMP),
            new Param("dt_hs", "DATETIME HOUR TO SECOND", (p, i) -> p.setTime(i, Time.valueOf("23:59:59")),
                    ResultSet::getString, "23:59:59", Types.TIME),
            new Param("dt_yd", "DATETIME YEAR TO DAY", (p, i) -> p.setString(i, "2024-02-29"),
                    ResultSet::getString, "2024-02-29", Types.VARCHAR),
            new Param("dt_md", "DATETIME MONTH TO DAY", (p, i) -> p.setString(i, "12-31"),
                    ResultSet::getString, "12-31", Types.VARCHAR),
            new Param("iv_df", "INTERVAL DAY(9) TO FRACTION(5)",
                    (p, i) -> p.setObject(i, new IntervalDF(XC_IV_DF_SECONDS, 999990000L, (short) 0x144F)),
                    (rs, i) -> intervalDF(rs.getObject(i)),
                    XC_IV_DF_SECONDS + "s 999990000ns q=0x144f '999999999 23:59:59.99999'", Types.OTHER),
            new Param("iv_ym", "INTERVAL YEAR(9) TO MONTH",
                    (p, i) -> p.setObject(i, new IntervalYM("-178956970-07", (short) 0x0B02)),
                    (rs, i) -> intervalYM(rs.getObject(i)), "-2147483647m q=0xb02 '-178956970-07'",
                    Types.OTHER),
            new Param("iv_hs", "INTERVAL HOUR TO SECOND",
                    (p, i) -> p.setObject(i, new IntervalDF(359999L, 0L, (short) 0x066A)),
                    (rs, i) -> intervalDF(rs.getObject(i)), "359999s 0ns q=0x66a '99:59:59'",
                    Types.OTHER),
            new Param("boolean", "BOOLEAN", (p, i) -> p.setBoolean(i, true),
                    ResultSet::getBoolean, true, Types.BOOLEAN),
            new Param("byte", "BYTE", (p, i) -> p.setBytes(i, XC_BYTES),
                    ResultSet::getBytes, XC_BYTES, Types.LONGVARBINARY),
            new Param("text", "TEXT", (p, i) -> p.setString(i, XC_TEXT),
                    ResultSet::getString, XC_TEXT, Types.LONGVARCHAR));

    static boolean xcSerial(Param p) {
        return p.ddl().contains("SERIAL");
    }

    private static void registerCrossClientChecks() {
        ON_DEMAND.put("xclient_read_types", new Check("xclient_read_types", 0, IfxCheck::xclientRead));
        ON_DEMAND.put("xclient_write_types", new Check("xclient_write_types", 0, IfxCheck::xclientWrite));
    }

    private static void xclientRead(Ctx ctx) throws Exception {
        Connection c = ctx.db();
        StringBuilder sql = new StringBuilder("SELECT id");
        for (Param p : XCOLS) {
            sql.append(", c_").append(p.name());
        }
        sql.append(" FROM xc_read ORDER BY id");
        List<String> problems = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            for (int row = 1; row <= 2; row++) {
                check(rs.next(), "row " + row + " missing");
                eq("id", row, rs.getInt(1));
                for (int i = 0; i < XCOLS.size(); i++) {
                    Param p = XCOLS.get(i);
                    Object got;
                    try {
                        got = p.reader().read(rs, i + 2);
                    } catch (SQLException e) {
                        problems.add(p.name() + " row " + row + " read failed: " + describe(e));
                        continue;
                    }
                    if (row == 2 && !xcSerial(p)) {
                        if (rs.getObject(i + 2) != null) {
                            problems.add(p.name() + " row 2 should be NULL, got " + show(got));
                        }
                    } else if (row == 1 && !same(p.expected(), got)) {
                        problems.add(p.name() + " expected " + show(p.expected()) + " got " + show(got));
                    }
                }
            }
            check(!rs.next(), "more than two rows");
        }
        check(problems.isEmpty(), problems.size() + " mismatches: " + String.join("; ", problems));
    }

    private static void xclientWrite(Ctx ctx) throws Exception {
        Connection c = ctx.db();
        StringBuilder sql = new StringBuilder("INSERT INTO xc_write (id");
        StringBuilder marks = new StringBuilder("?");
        for (Param p : XCOLS) {
            sql.append(", c_").append(p.name());
            marks.append(", ?");
        }
        sql.append(") VALUES (").append(marks).append(')');
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int row = 1; row <= 2; row++) {
                ps.setInt(1, row);
                for (int i = 0; i < XCOLS.size(); i++) {
                    Param p = XCOLS.get(i);
                    if (row == 1) {
                        p.binder().bind(ps, i + 2);
                    } else if (xcSerial(p)) {
                        ps.setInt(i + 2, 1);
                    } else {
                        ps.setNull(i + 2, p.nullType());
                    }
                }
                eq("row " + row + " insert count", 1, ps.executeUpdate());
            }
        }
    }
}
