// The rest of issue 26's lock and isolation list through IBM's JDBC driver (LockCheck.java
// has writers, rollback, waits, ddl; its helpers are used here): deadlock, SELECT ... FOR
// UPDATE, REPEATABLE READ in its four spellings, COMMITTED READ LAST COMMITTED, CURSOR
// STABILITY, LOCK TABLE ... IN SHARE MODE / UNLOCK TABLE, LOCK MODE PAGE, WAIT until the
// holder commits, -271 on a held key, SET TRANSACTION once per transaction, REPEATABLE
// READ's row locks, SET TRANSACTION READ ONLY, RETAIN UPDATE LOCKS. Arguments:
// <check>=<url>; each check runs twice, the two connections swapped ("first" names who
// starts). Prints "CHECK <name> PASS|FAIL ...".
// Codes: docs/SERVER.md "What a session meets" (IBM's sql_en_US / isam_en_US catalogues).

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

public class IsolationCheck {

    /** Runs ``sql`` on its own thread; ``join`` gives what it threw (null: it succeeded). */
    static final class Background {
        final Thread thread;
        final AtomicReference<Throwable> error = new AtomicReference<>();
        volatile boolean done;

        Background(Statement st, String sql) {
            thread = new Thread(() -> {
                try {
                    st.executeUpdate(sql);
                } catch (Throwable t) {
                    error.set(t);
                }
                done = true;
            });
            thread.start();
        }

        Throwable join() throws InterruptedException {
            thread.join(20_000);
            LockCheck.check(done, "the background statement never ended");
            return error.get();
        }
    }

    static List<Integer> ids(Statement st, String sql) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }

    static String code(Throwable t) {
        return t instanceof SQLException e ? e.getErrorCode() + "/" + LockCheck.isam(e)
                : String.valueOf(t);
    }

    /** Two writers each wait for the other's row: the one closing the circle gets -346/-143
     *  and its statement changed nothing; the other gets the row once it rolls back. */
    static void deadlock(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sa.execute("SET LOCK MODE TO WAIT 5");
        sb.execute("SET LOCK MODE TO WAIT 5");
        sa.executeUpdate("UPDATE " + t + " SET v = 1 WHERE id = 1");
        sb.executeUpdate("UPDATE " + t + " SET v = 2 WHERE id = 2");
        Background waiter = new Background(sa, "UPDATE " + t + " SET v = 1 WHERE id = 2");
        Thread.sleep(400);
        LockCheck.check(!waiter.done, "the first waiter should be waiting");
        LockCheck.expect(sb, "UPDATE " + t + " SET v = 2 WHERE id = 1", -346, -143);
        b.rollback();
        Throwable e = waiter.join();
        LockCheck.check(e == null, "the waiter should get the row after the rollback: " + e);
        a.commit();
        LockCheck.check(LockCheck.value(sb, t, 1) == 1 && LockCheck.value(sb, t, 2) == 1,
                        "the waiter's updates committed");
        b.commit();
    }

    /** SELECT ... FOR UPDATE locks the rows it fetched against UPDATE (-346/-107) and
     *  another FOR UPDATE fetch (-244/-107) until commit; rows not fetched stay free. */
    static void forUpdate(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        LockCheck.check(ids(sa, "SELECT id, v FROM " + t + " WHERE id = 3 FOR UPDATE")
                        .equals(List.of(3)), "FOR UPDATE fetched row 3");
        LockCheck.expect(sb, "UPDATE " + t + " SET v = 0 WHERE id = 3", -346, -107);
        sb.executeUpdate("UPDATE " + t + " SET v = 0 WHERE id = 4");
        LockCheck.expect(sb, "SELECT id FROM " + t + " WHERE id = 3 FOR UPDATE", -244, -107);
        b.rollback();
        a.commit();
        sb.executeUpdate("UPDATE " + t + " SET v = 0 WHERE id = 3");
        b.commit();
    }

    /** REPEATABLE READ: what a transaction read stays share-locked to its end; the other
     *  session reads it (shares) but its UPDATE is -346/-107 until the reader commits. The
     *  same through SET ISOLATION, both ANSI statements, and setTransactionIsolation. */
    static void repeatable(Connection a, Connection b, String t) throws Exception {
        Statement sb = b.createStatement();
        String[] ways = {"SET ISOLATION TO REPEATABLE READ",
                         "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ",
                         "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
                         "jdbc:" + Connection.TRANSACTION_REPEATABLE_READ,
                         "jdbc:" + Connection.TRANSACTION_SERIALIZABLE};
        for (String way : ways) {
            if (way.startsWith("jdbc:")) {
                a.setTransactionIsolation(Integer.parseInt(way.substring(5)));
            } else {
                a.createStatement().execute(way);
            }
            Statement sa = a.createStatement();
            LockCheck.check(ids(sa, "SELECT id FROM " + t).size() == 5, way + ": read 5 rows");
            try {
                LockCheck.expect(sb, "UPDATE " + t + " SET v = 0 WHERE id = 1", -346, -107);
            } catch (IllegalStateException e) {
                throw new IllegalStateException(way + ": " + e.getMessage());
            }
            LockCheck.check(ids(sb, "SELECT id FROM " + t).size() == 5, way + ": readers share");
            a.commit();
            sb.executeUpdate("UPDATE " + t + " SET v = 0 WHERE id = 1");
            b.commit();
            a.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            a.commit();
        }
    }

    /** REPEATABLE READ locks rows, not the table (ids_sqt_396: "a lock on every row the
     *  program examines"): an index lookup of row 1 leaves row 2 free to update, row 1 is
     *  -346/-107 (UPDATE) and -240/-107 (DELETE), an INSERT -271/-107 (the phantom guard);
     *  a scan locks every row it examines, also those its condition leaves out. Both
     *  through SET ISOLATION and setTransactionIsolation(TRANSACTION_REPEATABLE_READ). */
    static void repeatableRows(Connection a, Connection b, String t) throws Exception {
        Statement sb = b.createStatement();
        for (String way : new String[] {"SET ISOLATION TO REPEATABLE READ", "jdbc"}) {
            if (way.equals("jdbc")) {
                a.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            } else {
                a.createStatement().execute(way);
            }
            Statement sa = a.createStatement();
            LockCheck.check(ids(sa, "SELECT id FROM " + t + " WHERE id = 1").equals(List.of(1)),
                            way + ": read row 1");
            sb.executeUpdate("UPDATE " + t + " SET v = v + 1 WHERE id = 2");
            b.commit();
            LockCheck.expect(sb, "UPDATE " + t + " SET v = 0 WHERE id = 1", -346, -107);
            LockCheck.expect(sb, "DELETE FROM " + t + " WHERE id = 1", -240, -107);
            LockCheck.expect(sb, "INSERT INTO " + t + " VALUES (30, 1)", -271, -107);
            a.commit();
            sb.executeUpdate("UPDATE " + t + " SET v = v + 1 WHERE id = 1");
            b.commit();
            LockCheck.check(ids(sa, "SELECT id FROM " + t + " WHERE v = 20").isEmpty(),
                            way + ": a scan");
            LockCheck.expect(sb, "UPDATE " + t + " SET v = 0 WHERE id = 4", -346, -107);
            a.commit();
            sb.executeUpdate("UPDATE " + t + " SET v = v + 1 WHERE id = 4");
            b.commit();
            a.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            a.commit();
        }
    }

    /** SET TRANSACTION READ ONLY (ids_sqs_1207): the transaction reads, its UPDATE,
     *  INSERT and CREATE TABLE are -878 and lock nothing (the other session updates the
     *  row), the mode ends with the transaction. Connection.setReadOnly(true) sends nothing
     *  in IBM JDBC 4.50.10 and 15.0.0.1 (its body is empty): the UPDATE then passes. */
    static void readOnly(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sa.execute("SET TRANSACTION READ ONLY");
        LockCheck.check(LockCheck.value(sa, t, 1) == 10, "a read-only transaction reads");
        LockCheck.expect(sa, "UPDATE " + t + " SET v = 0 WHERE id = 1", -878, 0);
        LockCheck.expect(sa, "INSERT INTO " + t + " VALUES (30, 1)", -878, 0);
        LockCheck.expect(sa, "CREATE TABLE " + t + "_ro (i INT)", -878, 0);
        sb.executeUpdate("UPDATE " + t + " SET v = 11 WHERE id = 1");
        b.commit();
        a.commit();
        sa.executeUpdate("UPDATE " + t + " SET v = 12 WHERE id = 1");
        a.commit();
        a.setReadOnly(true);
        sa.executeUpdate("UPDATE " + t + " SET v = 13 WHERE id = 1");
        a.commit();
        a.setReadOnly(false);
        LockCheck.check(LockCheck.value(sb, t, 1) == 13, "the updates after the transaction");
        b.commit();
    }

    /** A FOR UPDATE cursor's update lock is released when it fetches the next row
     *  (ids_prf_431: row 1 free once the cursor is on row 2, row 2 -346/-107); under SET
     *  ISOLATION TO COMMITTED READ RETAIN UPDATE LOCKS both stay locked to the commit
     *  (ids_sqt_398). The server sends such a cursor one row per fetch. */
    static void retain(Connection a, Connection b, String t) throws Exception {
        Statement sb = b.createStatement();
        for (boolean keep : new boolean[] {false, true}) {
            a.createStatement().execute("SET ISOLATION TO COMMITTED READ"
                                        + (keep ? " RETAIN UPDATE LOCKS" : ""));
            Statement sa = a.createStatement();
            try (ResultSet rs = sa.executeQuery("SELECT id, v FROM " + t
                                                + " ORDER BY id FOR UPDATE")) {
                LockCheck.check(rs.next() && rs.getInt(1) == 1 && rs.next()
                                && rs.getInt(1) == 2, "on row 2");
                if (keep) {
                    LockCheck.expect(sb, "UPDATE " + t + " SET v = 0 WHERE id = 1", -346, -107);
                } else {
                    sb.executeUpdate("UPDATE " + t + " SET v = v + 1 WHERE id = 1");
                    b.commit();
                }
                LockCheck.expect(sb, "UPDATE " + t + " SET v = 0 WHERE id = 2", -346, -107);
            }
            a.commit();
            sb.executeUpdate("UPDATE " + t + " SET v = v + 1 WHERE id = 2");
            b.commit();
        }
        a.createStatement().execute("SET ISOLATION TO COMMITTED READ");
        a.commit();
    }

    /** SET TRANSACTION once per transaction (ids_sqs_1201): a second one is -876 (the SQL
     *  Tutorial's example, ids_sqt_392), SET ISOLATION after it -877 ("Isolation Level
     *  previously set by 'Set Transaction'"); the first one's level holds (the other
     *  session's UPDATE meets the share lock) and ends with the transaction (ids_sqs_1206):
     *  the next one reads under COMMITTED READ again. */
    static void setTransaction(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sa.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        LockCheck.check(ids(sa, "SELECT id FROM " + t).size() == 5, "read 5 rows");
        LockCheck.expect(sa, "SET TRANSACTION ISOLATION LEVEL READ COMMITTED", -876, 0);
        LockCheck.expect(sa, "SET ISOLATION TO DIRTY READ", -877, 0);
        LockCheck.expect(sb, "UPDATE " + t + " SET v = 0 WHERE id = 1", -346, -107);
        a.commit();
        LockCheck.check(ids(sa, "SELECT id FROM " + t).size() == 5, "read 5 rows again");
        sb.executeUpdate("UPDATE " + t + " SET v = 0 WHERE id = 1");  // no share lock now
        b.commit();
        a.commit();
    }

    /** COMMITTED READ LAST COMMITTED reads the committed images of rows another session
     *  holds (updated, deleted; its insert left out) without waiting or failing. */
    static void lastCommitted(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sa.executeUpdate("UPDATE " + t + " SET v = -1 WHERE id = 1");
        sa.executeUpdate("DELETE FROM " + t + " WHERE id = 2");
        sa.executeUpdate("INSERT INTO " + t + " VALUES (30, 300)");
        LockCheck.expect(sb, "SELECT v FROM " + t, -244, -107);
        sb.execute("SET ISOLATION TO COMMITTED READ LAST COMMITTED");
        LockCheck.check(ids(sb, "SELECT id FROM " + t + " ORDER BY id")
                        .equals(List.of(1, 2, 3, 4, 5)), "the committed rows");
        LockCheck.check(LockCheck.value(sb, t, 1) == 10, "row 1's committed value");
        a.commit();
        LockCheck.check(ids(sb, "SELECT id FROM " + t + " ORDER BY id")
                        .equals(List.of(1, 3, 4, 5, 30)), "the rows after the commit");
        sb.execute("SET ISOLATION TO COMMITTED READ");
        b.commit();
    }

    /** CURSOR STABILITY: a query meets another session's uncommitted row (-244/-107); in a
     *  transaction the row the cursor is on is share-locked until the cursor moves or closes,
     *  so another session's UPDATE of it is -346/-107 meanwhile and gets through after
     *  (ids_sqs_1166: "a shared lock on the fetched row, which is released when you fetch
     *  another row or close the cursor"). The server sends as many rows per fetch as fill
     *  the driver's fetch buffer (4096 bytes here) and locks the last one sent: rows wider
     *  than the buffer make that the row the ResultSet is on. */
    static void cursorStability(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sb.execute("SET ISOLATION TO CURSOR STABILITY");
        sa.executeUpdate("UPDATE " + t + " SET v = 555 WHERE id = 5");
        LockCheck.expect(sb, "SELECT v FROM " + t + " WHERE id = 5", -244, -107);
        a.commit();
        LockCheck.check(LockCheck.value(sb, t, 5) == 555, "committed row read");
        b.commit();
        String w = t + "w";
        sa.executeUpdate("CREATE TABLE " + w + " (id INT, v INT, pad CHAR(4100)) LOCK MODE ROW");
        for (int i = 1; i <= 3; i++) {
            sa.executeUpdate("INSERT INTO " + w + " VALUES (" + i + ", " + (i * 10) + ", 'x')");
        }
        a.commit();
        try (ResultSet rs = sb.executeQuery("SELECT id, v, pad FROM " + w + " ORDER BY id")) {
            LockCheck.check(rs.next() && rs.getInt(1) == 1, "cursor on row 1");
            LockCheck.expect(sa, "UPDATE " + w + " SET v = 11 WHERE id = 1", -346, -107);
            LockCheck.expect(sa, "DELETE FROM " + w + " WHERE id = 1", -240, -107);
            sa.executeUpdate("UPDATE " + w + " SET v = 33 WHERE id = 3");
            LockCheck.check(rs.next() && rs.getInt(1) == 2, "cursor on row 2");
            sa.executeUpdate("UPDATE " + w + " SET v = 11 WHERE id = 1");
            LockCheck.expect(sa, "UPDATE " + w + " SET v = 22 WHERE id = 2", -346, -107);
        }
        sb.execute("SET LOCK MODE TO NOT WAIT");  // (the CLOSE has reached the server)
        sa.executeUpdate("UPDATE " + w + " SET v = 22 WHERE id = 2");
        a.commit();
        b.commit();
        try (ResultSet rs = sb.executeQuery("SELECT SUM(v) FROM " + w)) {
            LockCheck.check(rs.next() && rs.getInt(1) == 66, "every update once the cursor "
                            + "moved and closed");
        }
        sb.execute("SET ISOLATION TO COMMITTED READ");
        sa.executeUpdate("DROP TABLE " + w);
        a.commit();
        b.commit();
    }

    /** LOCK TABLE ... IN SHARE MODE: others read, their DELETE is -240/-107; UNLOCK TABLE
     *  inside the transaction is -327; LOCK TABLE outside one is -524; the commit frees it. */
    static void share(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        a.setAutoCommit(true);
        LockCheck.expect(sa, "LOCK TABLE " + t + " IN SHARE MODE", -524, 0);
        a.setAutoCommit(false);
        sa.execute("LOCK TABLE " + t + " IN SHARE MODE");
        LockCheck.check(ids(sb, "SELECT id FROM " + t).size() == 5, "readers share");
        LockCheck.expect(sb, "DELETE FROM " + t + " WHERE id = 1", -240, -107);
        LockCheck.expect(sb, "LOCK TABLE " + t + " IN EXCLUSIVE MODE", -289, -107);
        sb.execute("LOCK TABLE " + t + " IN SHARE MODE");  // shares with the other
        b.rollback();
        LockCheck.expect(sa, "UNLOCK TABLE " + t, -327, 0);
        a.commit();
        sb.executeUpdate("DELETE FROM " + t + " WHERE id = 1");
        b.commit();
    }

    /** LOCK MODE PAGE: rows of one page conflict (-346, -240, -271 with -107); LOCK MODE ROW
     *  after ALTER TABLE lets another row through. */
    static void page(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sa.executeUpdate("ALTER TABLE " + t + " LOCK MODE (PAGE)");
        a.commit();
        sa.executeUpdate("UPDATE " + t + " SET v = -1 WHERE id = 1");
        LockCheck.expect(sb, "UPDATE " + t + " SET v = -2 WHERE id = 2", -346, -107);
        LockCheck.expect(sb, "DELETE FROM " + t + " WHERE id = 3", -240, -107);
        LockCheck.expect(sb, "INSERT INTO " + t + " VALUES (6, 60)", -271, -107);
        a.commit();
        sb.executeUpdate("UPDATE " + t + " SET v = -2 WHERE id = 2");
        b.commit();
        sa.executeUpdate("ALTER TABLE " + t + " LOCK MODE (ROW)");
        a.commit();
        sa.executeUpdate("UPDATE " + t + " SET v = 1 WHERE id = 1");
        sb.executeUpdate("UPDATE " + t + " SET v = 2 WHERE id = 2");
        a.commit();
        b.commit();
    }

    /** SET LOCK MODE TO WAIT: the UPDATE waits while the holder's transaction is open and
     *  goes through when it commits, on the committed value. */
    static void waitCommit(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sb.execute("SET LOCK MODE TO WAIT");
        sa.executeUpdate("UPDATE " + t + " SET v = v + 1 WHERE id = 5");
        Background waiter = new Background(sb, "UPDATE " + t + " SET v = v + 100 WHERE id = 5");
        Thread.sleep(500);
        LockCheck.check(!waiter.done, "still waiting while the holder's transaction is open");
        a.commit();
        Throwable e = waiter.join();
        LockCheck.check(e == null, "the waiter should succeed: " + (e == null ? "" : code(e)));
        b.commit();
        LockCheck.check(LockCheck.value(sa, t, 5) == 151, "both increments");
        sb.execute("SET LOCK MODE TO NOT WAIT");
        a.commit();
        b.commit();
    }

    /** An INSERT of a key another session inserted and holds is -271/-107; it goes in once
     *  that session rolls back. */
    static void heldKey(Connection a, Connection b, String t) throws Exception {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        sa.executeUpdate("INSERT INTO " + t + " VALUES (20, 1)");
        LockCheck.expect(sb, "INSERT INTO " + t + " VALUES (20, 2)", -271, -107);
        a.rollback();
        sb.executeUpdate("INSERT INTO " + t + " VALUES (20, 2)");
        b.commit();
        LockCheck.check(LockCheck.value(sa, t, 20) == 2, "the second insert's row");
        a.commit();
    }

    public static void main(String[] args) {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = arg.substring(0, eq);
            String url = arg.substring(eq + 1);
            LockCheck.Body body = switch (name) {
                case "jdbc_iso_deadlock" -> IsolationCheck::deadlock;
                case "jdbc_iso_for_update" -> IsolationCheck::forUpdate;
                case "jdbc_iso_repeatable" -> IsolationCheck::repeatable;
                case "jdbc_iso_repeatable_rows" -> IsolationCheck::repeatableRows;
                case "jdbc_iso_read_only" -> IsolationCheck::readOnly;
                case "jdbc_iso_retain" -> IsolationCheck::retain;
                case "jdbc_iso_last_committed" -> IsolationCheck::lastCommitted;
                case "jdbc_iso_cursor_stability" -> IsolationCheck::cursorStability;
                case "jdbc_iso_share" -> IsolationCheck::share;
                case "jdbc_iso_page" -> IsolationCheck::page;
                case "jdbc_iso_wait_commit" -> IsolationCheck::waitCommit;
                case "jdbc_iso_held_key" -> IsolationCheck::heldKey;
                case "jdbc_iso_set_transaction" -> IsolationCheck::setTransaction;
                default -> null;
            };
            LockCheck.runCheck(name, url, body);
        }
        System.out.println("DONE");
    }
}
