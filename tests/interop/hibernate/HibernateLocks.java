// Hibernate's pessimistic locks against ifxwire-server, two sessions at a time: the scenarios of
// Hibernate ORM's LockTest (hibernate-orm, org.hibernate.orm.test.locking.LockTest) that a real
// Informix is measured against, written for ifxwire's interop suite (HibernateCheck runs them).
//
// What InformixDialect (hibernate-community-dialects 7.4.15, InformixLockingSupport) sends, as
// seen with hibernate.show_sql: PESSIMISTIC_WRITE and PESSIMISTIC_READ both as a plain
// "for update" (Informix has no shared row lock clause); the lock timeout is the connection's,
// not the query's: Hibernate reads sysmaster:syssqlcurses.scs_lockmode (-1 wait, 0 not wait,
// n seconds), sends "set lock mode to wait" (no timeout given), "set lock mode to not wait"
// (Timeouts.NO_WAIT) or "set lock mode to wait n" (milliseconds rounded up to seconds),
// runs the query and sets the mode it read back; SKIP_LOCKED sends nothing of the kind.
//
// What Informix documents (Guide to SQL: Syntax, SET LOCK MODE, ids_sqs_1128; SELECT, FOR
// UPDATE; the message catalogue): a row read FOR UPDATE holds an update lock until the
// transaction ends; another session's FOR UPDATE of it fails with -244 and ISAM -107 under NOT
// WAIT, with -244 and ISAM -154 once WAIT n runs out, and waits under WAIT; an UPDATE of it
// fails -346/-107; a COMMITTED READ reader is not blocked by an update lock.

import jakarta.persistence.LockModeType;
import jakarta.persistence.Timeout;

import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Timeouts;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

final class HibernateLocks {

    private HibernateLocks() {}

    /** Every sqlcode in the chain of causes and each SQLException's next exceptions. */
    static List<Integer> sqlcodes(Throwable t) {
        List<Integer> codes = new ArrayList<>();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException s) {
                for (SQLException n = s; n != null; n = n.getNextException()) {
                    if (!codes.contains(n.getErrorCode())) {
                        codes.add(n.getErrorCode());
                    }
                }
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return codes;
    }

    interface Attempt {
        void run() throws Exception;
    }

    /** Runs the attempt, which must fail; returns the failure. */
    static Throwable failure(Attempt a, String what) {
        try {
            a.run();
        } catch (Throwable t) {
            return t;
        }
        throw new AssertionError(what + ": no error");
    }

    static void codes(Throwable t, int sqlcode, int isam, String what) {
        List<Integer> got = sqlcodes(t);
        HibernateCheck.check(got.contains(sqlcode) && got.contains(isam),
                what + ": expected " + sqlcode + "/" + isam + ", got " + got + " from "
                + HibernateCheck.describe(t));
    }

    static long bookId(SessionFactory f, String title) {
        try (Session s = f.openSession()) {
            return s.createQuery("select b.id from Book b where b.title = :t", Long.class)
                    .setParameter("t", title).getSingleResult();
        }
    }

    static int lockMode(Session s) {
        return s.doReturningWork(c -> {
            try (var rs = c.createStatement().executeQuery("select scs_lockmode from "
                    + "sysmaster:syssqlcurses where scs_sessionid = dbinfo('sessionid')")) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    static void setLockMode(Session s, String mode) {
        s.doWork(c -> c.createStatement().execute("set lock mode to " + mode));
    }

    /**
     * PESSIMISTIC_WRITE (LockTest.testLockModeTypeWrite, testContendedPessimisticLock): holder
     * A reads a book FOR UPDATE; B's NOWAIT lock of it fails -244/-107, B's UPDATE of it
     * -346/-107, B's plain COMMITTED READ find is not blocked; after A commits B locks it.
     */
    static void pessimisticWrite(SessionFactory f) {
        long id = bookId(f, "Volume 010");
        try (Session a = f.openSession(); Session b = f.openSession()) {
            a.beginTransaction();
            HibernateCheck.Book mine = a.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_WRITE);
            HibernateCheck.eq(LockModeType.PESSIMISTIC_WRITE, a.getLockMode(mine), "lock mode");

            b.beginTransaction();
            codes(failure(() -> b.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_WRITE, Timeouts.NO_WAIT), "second FOR UPDATE"),
                    -244, -107, "FOR UPDATE of a row another session holds");
            b.getTransaction().rollback();
            b.clear();

            b.beginTransaction();
            HibernateCheck.Book seen = b.find(HibernateCheck.Book.class, id);
            HibernateCheck.eq(110, seen.pages, "committed read past an update lock");
            seen.pages = 5;
            codes(failure(b::flush, "update of a locked row"), -346, -107,
                    "UPDATE of a row another session holds");
            b.getTransaction().rollback();
            b.clear();

            a.getTransaction().commit();
            b.beginTransaction();
            HibernateCheck.Book now = b.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_WRITE, Timeouts.NO_WAIT);
            HibernateCheck.eq(110, now.pages, "locked after the holder ended");
            b.getTransaction().commit();
        }
    }

    /**
     * PESSIMISTIC_READ (LockTest.testUpdateWithPessimisticReadLockWithoutNoWait): Informix has
     * no shared row lock in SELECT, so the dialect renders FOR UPDATE: two readers conflict,
     * and the holder itself may update the row it read.
     */
    static void pessimisticRead(SessionFactory f) {
        long id = bookId(f, "Volume 011");
        try (Session a = f.openSession(); Session b = f.openSession()) {
            a.beginTransaction();
            HibernateCheck.Book mine = a.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_READ);
            b.beginTransaction();
            codes(failure(() -> b.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_READ, Timeouts.NO_WAIT), "second read lock"),
                    -244, -107, "PESSIMISTIC_READ of a row another session read so");
            b.getTransaction().rollback();
            mine.pages = 211;
            a.flush();
            a.getTransaction().commit();
        }
        try (Session s = f.openSession()) {
            HibernateCheck.eq(211, s.find(HibernateCheck.Book.class, id).pages, "update");
        }
    }

    /**
     * A lock timeout (LockTest.testQueryTimeout, testLockTimeoutEMProps): Hibernate reads the
     * session's mode from scs_lockmode (here WAIT 7, set by the application), sets SET LOCK
     * MODE TO WAIT 1 for the query and, once it has run, sets WAIT 7 back. Against a held row
     * the query fails -244/-154 after about a second, and NO_WAIT fails -244/-107 at once.
     * (Hibernate 7.4.15 does not set the mode back after a failed query: the scenario sets
     * it itself there.)
     */
    static void lockTimeout(SessionFactory f) {
        long id = bookId(f, "Volume 012");
        try (Session a = f.openSession(); Session b = f.openSession()) {
            // One transaction: Hibernate's pool may hand out another connection after it.
            b.beginTransaction();
            setLockMode(b, "wait 7");
            HibernateCheck.eq(7, lockMode(b), "scs_lockmode after SET LOCK MODE TO WAIT 7");
            b.find(HibernateCheck.Book.class, id, LockModeType.PESSIMISTIC_WRITE,
                    Timeout.milliseconds(1000));
            HibernateCheck.eq(7, lockMode(b), "lock mode set back after the query");
            b.getTransaction().rollback();
            b.clear();

            a.beginTransaction();
            a.find(HibernateCheck.Book.class, id, LockModeType.PESSIMISTIC_WRITE);
            b.beginTransaction();
            long t0 = System.nanoTime();
            codes(failure(() -> b.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_WRITE, Timeout.milliseconds(1000)), "timeout"),
                    -244, -154, "FOR UPDATE under a 1 s lock timeout");
            double waited = (System.nanoTime() - t0) / 1e9;
            HibernateCheck.check(waited >= 0.9 && waited < 6.0,
                    "waited " + waited + " s for a 1 s timeout");
            b.getTransaction().rollback();
            b.clear();

            b.beginTransaction();
            t0 = System.nanoTime();
            codes(failure(() -> b.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_WRITE, Timeouts.NO_WAIT), "nowait"),
                    -244, -107, "FOR UPDATE under NO_WAIT");
            waited = (System.nanoTime() - t0) / 1e9;
            HibernateCheck.check(waited < 5.0, "NO_WAIT waited " + waited + " s");
            b.getTransaction().rollback();
            b.beginTransaction();
            setLockMode(b, "wait");
            HibernateCheck.eq(-1, lockMode(b), "scs_lockmode after WAIT");
            setLockMode(b, "not wait");
            HibernateCheck.eq(0, lockMode(b), "scs_lockmode after NOT WAIT");
            b.getTransaction().rollback();
            a.getTransaction().rollback();
        }
    }

    /**
     * A waiting lock that the holder releases (LockTest.testContendedPessimisticLock): B waits
     * under a 20 s lock timeout, A updates and commits, B then gets the row with A's value.
     */
    static void lockWaitReleased(SessionFactory f) throws Exception {
        long id = bookId(f, "Volume 013");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Session a = f.openSession(); Session b = f.openSession()) {
            a.beginTransaction();
            HibernateCheck.Book mine = a.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_WRITE);
            b.beginTransaction();
            Future<Integer> waiter = pool.submit(() -> b.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_WRITE, Timeout.seconds(20)).pages);
            Thread.sleep(700);
            HibernateCheck.check(!waiter.isDone(), "B did not wait for the lock");
            mine.pages = 313;
            a.getTransaction().commit();
            HibernateCheck.eq(313, waiter.get(15, TimeUnit.SECONDS), "B's read after the wait");
            b.getTransaction().commit();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * SKIP LOCKED: Informix's SELECT has no such clause and InformixDialect's lock timeout is
     * the connection's, which cannot skip; Hibernate 7.4.15 then sends a plain FOR UPDATE
     * with no SET LOCK MODE, so a held row is not skipped: -244/-107 under the session's
     * NOT WAIT.
     */
    static void skipLocked(SessionFactory f) {
        long id = bookId(f, "Volume 014");
        try (Session a = f.openSession(); Session b = f.openSession()) {
            a.beginTransaction();
            a.find(HibernateCheck.Book.class, id, LockModeType.PESSIMISTIC_WRITE);
            b.beginTransaction();
            codes(failure(() -> b.find(HibernateCheck.Book.class, id,
                    LockModeType.PESSIMISTIC_WRITE, Timeouts.SKIP_LOCKED), "skip locked"),
                    -244, -107, "SKIP_LOCKED of a held row");
            b.getTransaction().rollback();
            a.getTransaction().rollback();
        }
    }
}
