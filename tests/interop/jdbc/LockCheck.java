// Row locks and isolation levels through IBM's JDBC driver: two connections to a server
// started with row locks (tests/interop/test_jdbc_locks.py). Arguments: <check>=<url>; each
// check runs twice, session A first and then session B first ("first" names who starts).
// Prints "CHECK <name> PASS" or "CHECK <name> FAIL <reason>"; the run ends with "DONE".

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

public class LockCheck {

    @FunctionalInterface
    interface Body {
        void run(Connection a, Connection b, String table) throws Exception;
    }

    static void check(boolean cond, String msg) {
        if (!cond) {
            throw new IllegalStateException(msg);
        }
    }

    /** The ISAM code: IBM JDBC gives it as the SQL error's cause, a SQLException whose error
     *  code it is ("ISAM error: ..."); 0 when none. */
    static int isam(SQLException e) {
        return e.getCause() instanceof SQLException c ? c.getErrorCode() : 0;
    }

    static void expect(Statement st, String sql, int sqlcode, int isamcode) {
        try {
            if (sql.startsWith("SELECT")) {
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) {
                        rs.getObject(1);
                    }
                }
            } else {
                st.executeUpdate(sql);
            }
        } catch (SQLException e) {
            check(e.getErrorCode() == sqlcode && isam(e) == isamcode,
                  sql + ": got " + e.getErrorCode() + "/" + isam(e) + ", want " + sqlcode + "/"
                  + isamcode + " (" + e.getMessage() + " | " + e.getCause() + ")");
            return;
        }
        throw new IllegalStateException(sql + ": no error, want " + sqlcode);
    }

    static int value(Statement st, String table, int id) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT v FROM " + table + " WHERE id = " + id)) {
            check(rs.next(), "no row " + id);
            return rs.getInt(1);
        }
    }

    static void setup(String url, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            try {
                st.executeUpdate("DROP TABLE " + table);
            } catch (SQLException e) {
                // not there yet
            }
            // LOCK MODE ROW: in a PAGE table (the default) rows 1 and 2 share a locked page
            st.executeUpdate("CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT) LOCK MODE ROW");
            for (int i = 1; i <= 5; i++) {
                st.executeUpdate("INSERT INTO " + table + " VALUES (" + i + ", " + (i * 10) + ")");
            }
        }
    }

    /** Writers of different rows both commit; the same row is -346/-107 and -240/-107. */
    static void writers(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sa.executeUpdate("UPDATE " + t + " SET v = -1 WHERE id = 1");
        sb.executeUpdate("UPDATE " + t + " SET v = -2 WHERE id = 2");
        expect(sb, "UPDATE " + t + " SET v = 0 WHERE id = 1", -346, -107);
        expect(sb, "DELETE FROM " + t + " WHERE id = 1", -240, -107);
        expect(sb, "SELECT v FROM " + t, -244, -107);
        a.commit();
        b.commit();
        check(value(sa, t, 1) == -1 && value(sa, t, 2) == -2, "both updates committed");
        a.commit();
    }

    /** rollback() puts the before-images back; DIRTY READ saw the uncommitted row. */
    static void rollback(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sa.executeUpdate("UPDATE " + t + " SET v = 99 WHERE id = 3");
        sa.executeUpdate("DELETE FROM " + t + " WHERE id = 4");
        sa.executeUpdate("INSERT INTO " + t + " VALUES (6, 60)");
        b.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
        check(value(sb, t, 3) == 99, "DIRTY READ sees the uncommitted update");
        b.commit();
        b.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        expect(sb, "SELECT v FROM " + t, -244, -107);
        b.rollback();
        a.rollback();
        check(value(sb, t, 3) == 30 && value(sb, t, 4) == 40, "before-images restored");
        try (ResultSet rs = sb.executeQuery("SELECT COUNT(*) FROM " + t)) {
            check(rs.next() && rs.getInt(1) == 5, "the inserted row is gone");
        }
        b.commit();
    }

    /** SET LOCK MODE TO WAIT 1 then -154; LOCK TABLE ... EXCLUSIVE stops a reader (-244). */
    static void waits(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sb.execute("SET LOCK MODE TO WAIT 1");
        sa.executeUpdate("UPDATE " + t + " SET v = 5 WHERE id = 5");
        long started = System.nanoTime();
        expect(sb, "UPDATE " + t + " SET v = 6 WHERE id = 5", -346, -154);
        check(System.nanoTime() - started >= 900_000_000L, "waited about a second");
        a.rollback();
        b.rollback();
        sa.execute("LOCK TABLE " + t + " IN EXCLUSIVE MODE");
        expect(sb, "SELECT v FROM " + t, -244, -154);
        a.commit();
        check(value(sb, t, 5) == 50, "readable once the lock is gone");
        sb.execute("SET LOCK MODE TO NOT WAIT");
        b.commit();
    }

    /** DDL inside a transaction (docs/SERVER.md "DDL in a transaction"): the other session
     *  writes another table at once and meets -271/-244 with -107 on the new table;
     *  rollback() removes the table, commit() keeps it. */
    static void ddl(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        String n = t + "_new";
        sa.executeUpdate("CREATE TABLE " + n + " (id INT, v INT) LOCK MODE ROW");
        sa.executeUpdate("INSERT INTO " + n + " VALUES (1, 10)");
        sb.executeUpdate("UPDATE " + t + " SET v = -2 WHERE id = 2");
        expect(sb, "INSERT INTO " + n + " VALUES (2, 20)", -271, -107);
        expect(sb, "SELECT v FROM " + n, -244, -107);
        b.commit();
        a.rollback();
        try (ResultSet rs = sb.executeQuery("SELECT v FROM " + n)) {
            throw new IllegalStateException("the rolled-back table is still there");
        } catch (SQLException e) {
            check(e.getErrorCode() == -206, "after rollback: got " + e.getErrorCode()
                  + ", want -206");
        }
        b.commit();
        sa.executeUpdate("CREATE TABLE " + n + " (id INT, v INT) LOCK MODE ROW");
        a.commit();
        sb.executeUpdate("INSERT INTO " + n + " VALUES (2, 20)");
        b.commit();
        check(value(sa, n, 2) == 20, "the committed table is there for both");
        sa.executeUpdate("DROP TABLE " + n);
        a.commit();
    }

    /** Runs ``body`` twice on a fresh table, the two connections swapped the second time,
     *  and prints the check's line (IsolationCheck.java shares it). */
    static void runCheck(String name, String url, Body body) {
        if (body == null) {
            System.out.println("CHECK " + name + " FAIL unknown check");
            return;
        }
        try {
            for (int first = 0; first < 2; first++) {
                String table = name.substring(5) + first;
                setup(url, table);
                try (Connection c0 = DriverManager.getConnection(url);
                     Connection c1 = DriverManager.getConnection(url)) {
                    c0.setAutoCommit(false);
                    c1.setAutoCommit(false);
                    if (first == 0) {
                        body.run(c0, c1, table);
                    } else {
                        body.run(c1, c0, table);
                    }
                }
            }
            System.out.println("CHECK " + name + " PASS");
        } catch (Throwable t) {
            String why = (t instanceof SQLException s ? "[" + s.getErrorCode() + "] " : "")
                    + t.getClass().getSimpleName() + ": " + t.getMessage();
            System.out.println("CHECK " + name + " FAIL " + why.replace('\n', ' '));
        }
    }

    public static void main(String[] args) {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = arg.substring(0, eq);
            String url = arg.substring(eq + 1);
            Body body = switch (name) {
                case "jdbc_lock_writers" -> LockCheck::writers;
                case "jdbc_lock_rollback" -> LockCheck::rollback;
                case "jdbc_lock_waits" -> LockCheck::waits;
                case "jdbc_lock_ddl" -> LockCheck::ddl;
                default -> null;
            };
            runCheck(name, url, body);
        }
        System.out.println("DONE");
    }
}
