// IBM Informix JDBC checks of session features against ifxwire-server: cancel, query timeout,
// scroll cursors, TLS and PAM. Single-file Java 17 program, compiled and run by
// tests/interop/test_jdbc_sessions.py against each driver jar:
//
//   java -cp <build>:<jdbc.jar> SessionCheck <check>=<jdbc url> [<check>=<jdbc url> ...]
//
// Each check runs on its own connections and prints exactly one line,
// "CHECK <name> PASS" or "CHECK <name> FAIL <reason>"; the run ends with "DONE".
// Every check expects the tables that test_jdbc_sessions.py creates first. The PAM callback
// class differs per jar (com.informix.jdbcx.PAM in 15.x, com.informix.jdbc.IfmxPAM in 4.50):
// pam15/PamAnswers.java or pam450/PamAnswers.java is compiled beside this file.

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public final class SessionCheck {

    /** Long enough that only a working cancel can end it in time (10^12 rows). */
    static final String LONG_QUERY = "SELECT COUNT(*) FROM n a, n b, n c, n d";

    @FunctionalInterface
    interface Body {
        void run(String url) throws Exception;
    }

    static void check(boolean cond, String msg) {
        if (!cond) {
            throw new IllegalStateException(msg);
        }
    }

    static int sqlcode(SQLException e) {
        return e.getErrorCode();
    }

    public static void main(String[] args) {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = arg.substring(0, eq);
            String url = arg.substring(eq + 1);
            Body body = switch (name) {
                case "jdbc_cancel" -> SessionCheck::cancel;
                case "jdbc_query_timeout" -> SessionCheck::queryTimeout;
                case "jdbc_scroll_random" -> SessionCheck::scrollRandom;
                case "jdbc_current_of" -> SessionCheck::currentOf;
                case "jdbc_tls" -> SessionCheck::tls;
                case "jdbc_pam_right", "jdbc_pam_two_steps" -> SessionCheck::pamRight;
                case "jdbc_pam_wrong" -> SessionCheck::pamWrong;
                default -> null;
            };
            if (body == null) {
                System.out.println("CHECK " + name + " FAIL unknown check");
                continue;
            }
            try {
                body.run(url);
                System.out.println("CHECK " + name + " PASS");
            } catch (Throwable t) {
                String why = (t instanceof SQLException s ? "[" + s.getErrorCode() + "] " : "")
                        + t.getClass().getSimpleName() + ": " + t.getMessage();
                System.out.println("CHECK " + name + " FAIL " + why.replace('\n', ' '));
            }
        }
        System.out.println("DONE");
    }

    /** Statement.cancel() from another thread: -213, and the connection goes on. */
    static void cancel(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            Thread canceller = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    s.cancel();
                } catch (Exception ignored) {
                    // the check fails below if the query was not interrupted
                }
            });
            canceller.start();
            long started = System.nanoTime();
            try (ResultSet rs = s.executeQuery(LONG_QUERY)) {
                rs.next();
                throw new IllegalStateException("the query was not interrupted");
            } catch (SQLException e) {
                check(sqlcode(e) == -213, "expected -213, got " + sqlcode(e) + " " + e.getMessage());
            }
            canceller.join();
            check(System.nanoTime() - started < 20_000_000_000L, "the cancel took too long");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM n")) {
                check(rs.next() && rs.getInt(1) == 1000, "connection unusable after cancel");
            }
        }
    }

    /**
     * setQueryTimeout: JDBC's timer calls cancel(); the server answers -213, which JDBC
     * reports as its own -80505 "Statement execution exceeded timeout" because its timer fired.
     */
    static void queryTimeout(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            long started = System.nanoTime();
            try (ResultSet rs = s.executeQuery(LONG_QUERY)) {
                rs.next();
                throw new IllegalStateException("the query was not interrupted");
            } catch (SQLException e) {
                check(sqlcode(e) == -80505, "expected -80505, got " + sqlcode(e) + " "
                        + e.getMessage());
            }
            check(System.nanoTime() - started < 20_000_000_000L, "the timeout took too long");
            s.setQueryTimeout(0);
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM n")) {
                check(rs.next() && rs.getInt(1) == 1000, "connection unusable after timeout");
            }
        }
    }

    /**
     * TYPE_SCROLL_INSENSITIVE: a random walk of absolute/relative/previous/next/first/last
     * must land where list indexing says, whatever the fetch size.
     */
    static void scrollRandom(String url) throws Exception {
        final int rows = 120;
        try (Connection c = DriverManager.getConnection(url)) {
            for (int fetchSize : new int[] {0, 1, 7, 50}) {
                try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE,
                                                     ResultSet.CONCUR_READ_ONLY)) {
                    s.setFetchSize(fetchSize);
                    try (ResultSet rs = s.executeQuery("SELECT i FROM n WHERE i < " + rows
                                                       + " ORDER BY i")) {
                        walk(rs, rows, new Random(fetchSize * 31L + 7), "fetchSize " + fetchSize);
                    }
                }
            }
        }
    }

    static void walk(ResultSet rs, int rows, Random rnd, String what) throws SQLException {
        int pos = 0; // 1-based like getRow(); 0 before first, rows + 1 after last
        List<String> trail = new ArrayList<>();
        for (int step = 0; step < 200; step++) {
            int op = rnd.nextInt(6);
            boolean on;
            String name;
            switch (op) {
                case 0 -> {
                    int target = 1 + rnd.nextInt(rows);
                    name = "absolute(" + target + ")";
                    on = rs.absolute(target);
                    pos = target;
                }
                case 1 -> {
                    int delta = rnd.nextInt(21) - 10;
                    name = "relative(" + delta + ")";
                    if (pos < 1 || pos > rows) {
                        rs.first();
                        pos = 1;
                    }
                    on = rs.relative(delta);
                    pos = Math.max(0, Math.min(rows + 1, pos + delta));
                }
                case 2 -> {
                    name = "previous()";
                    on = rs.previous();
                    pos = Math.max(0, pos - 1);
                }
                case 3 -> {
                    name = "next()";
                    on = rs.next();
                    pos = Math.min(rows + 1, pos + 1);
                }
                case 4 -> {
                    name = "first()";
                    on = rs.first();
                    pos = 1;
                }
                default -> {
                    name = "last()";
                    on = rs.last();
                    pos = rows;
                }
            }
            trail.add(name);
            boolean expectOn = pos >= 1 && pos <= rows;
            if (on != expectOn) {
                throw new IllegalStateException(what + ": " + name + " returned " + on
                        + " at row " + pos + " after " + trail);
            }
            if (on) {
                int got = rs.getInt(1);
                if (got != pos - 1) {
                    throw new IllegalStateException(what + ": " + name + " read " + got
                            + ", expected " + (pos - 1) + " after " + trail);
                }
                if (rs.getRow() != pos) {
                    throw new IllegalStateException(what + ": getRow() " + rs.getRow()
                            + ", expected " + pos + " after " + trail);
                }
            }
        }
    }

    /**
     * A FOR UPDATE cursor and UPDATE/DELETE ... WHERE CURRENT OF its getCursorName(), in a
     * transaction: even rows get +1, odd rows are deleted.
     */
    static void currentOf(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement(); Statement upd = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT i, v FROM cur_t ORDER BY i FOR UPDATE")) {
                String name = rs.getCursorName();
                check(name != null && !name.isEmpty(), "no cursor name");
                int seen = 0;
                while (rs.next()) {
                    seen++;
                    int changed = rs.getInt(1) % 2 == 0
                            ? upd.executeUpdate("UPDATE cur_t SET v = v + 1 WHERE CURRENT OF " + name)
                            : upd.executeUpdate("DELETE FROM cur_t WHERE CURRENT OF " + name);
                    check(changed == 1, "row " + rs.getInt(1) + ": " + changed + " rows changed");
                }
                check(seen == 10, "saw " + seen + " rows");
            }
            c.commit();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(v) FROM cur_t")) {
                check(rs.next(), "no count");
                check(rs.getInt(1) == 5 && rs.getInt(2) == 5 + 0 + 20 + 40 + 60 + 80,
                      "after: " + rs.getInt(1) + " rows, sum " + rs.getInt(2));
            }
        }
    }

    /** The URL carries encrypt=true and a trust store: one query over real TLS. */
    static void tls(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM n")) {
            check(rs.next() && rs.getInt(1) == 1000, "wrong count over TLS");
        }
    }

    /** The URL names IFX_PAM_CLASS=PamAnswers (pam15/ or pam450/PamAnswers.java): the login succeeds. */
    static void pamRight(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM n")) {
            check(rs.next() && rs.getInt(1) == 1000, "wrong count after PAM login");
        }
    }

    /**
     * Wrong answers: the server ends the exchange with SQ_EXIT, which JDBC reports as its own
     * -79885 (PAM authentication failed).
     */
    static void pamWrong(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url)) {
            throw new IllegalStateException("a wrong PAM answer was accepted");
        } catch (SQLException e) {
            check(sqlcode(e) == -79885, "expected -79885, got " + sqlcode(e) + " "
                    + e.getMessage());
        }
    }
}
