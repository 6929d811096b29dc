// Flyway (flyway-core + flyway-database-informix) over IBM JDBC, against an Informix-compatible
// server (ifxwire-server).  Written for ifxwire's interop suite.
//
// Compiled and run by tests/interop/test_flyway.py (the class path is the Maven dependencies of
// tests/interop/flyway/pom.xml plus the IBM JDBC jar):
//
//   java -cp ... FlywayCheck host=127.0.0.1 port=9088 server=informix database=fw_x \
//        user=informix password=in4mix migrations=/path/to/tests/interop/flyway/migrations
//
// It creates the logged database first, then runs the scenarios in order, each printing
// "CHECK <name> PASS" or "CHECK <name> FAIL <reason>"; the run ends with "DONE".

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.CleanResult;
import org.flywaydb.core.api.output.MigrateResult;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class FlywayCheck {

    interface Scenario {
        void run() throws Exception;
    }

    private static String url;
    private static String user;
    private static String password;
    private static Flyway flyway;

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            opts.put(a.substring(0, eq), a.substring(eq + 1));
        }
        String base = "jdbc:informix-sqli://" + opts.get("host") + ":" + opts.get("port");
        String props = ":INFORMIXSERVER=" + opts.get("server");
        url = base + "/" + opts.get("database") + props;
        user = opts.get("user");
        password = opts.get("password");
        try (Connection c = DriverManager.getConnection(base + props, user, password)) {
            c.createStatement().execute("create database " + opts.get("database") + " with log");
        }
        flyway = Flyway.configure()
                .dataSource(url, user, password)
                .locations("filesystem:" + opts.get("migrations"))
                .cleanDisabled(false)
                // Flyway runs a migration on one connection inside a transaction while a second
                // connection, holding LOCK TABLE on flyway_schema_history, inserts the history
                // row before that transaction ends.  A real Informix locks rows and tables, so
                // the two never meet; ifxwire-server without row locks serialises the writers
                // of a database (one SQLite writer: docs/SERVER.md "Locks"), so the insert
                // waits on the open migration and fails -271/-107.  With row locks (the
                // server's default) Flyway's default works: test_flyway.py passes
                // transactional=true for its main run, false for the second one.
                .executeInTransaction(Boolean.parseBoolean(opts.getOrDefault("transactional",
                        "false")))
                .load();

        Map<String, Scenario> scenarios = new LinkedHashMap<>();
        scenarios.put("migrate", FlywayCheck::migrate);
        scenarios.put("migrated_objects_work", FlywayCheck::migratedObjectsWork);
        scenarios.put("info", FlywayCheck::info);
        scenarios.put("migrate_again_is_noop", FlywayCheck::migrateAgain);
        scenarios.put("clean", FlywayCheck::clean);
        scenarios.put("migrate_after_clean", FlywayCheck::migrateAfterClean);
        for (Map.Entry<String, Scenario> e : scenarios.entrySet()) {
            try {
                e.getValue().run();
                System.out.println("CHECK " + e.getKey() + " PASS");
            } catch (Throwable t) {
                System.out.println("CHECK " + e.getKey() + " FAIL " + describe(t));
                t.printStackTrace();
            }
            System.out.flush();
        }
        System.out.println("DONE");
    }

    static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
            if (c instanceof SQLException s) {
                sb.append(" [sqlcode ").append(s.getErrorCode()).append(']');
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return sb.toString().replace('\n', ' ').replace('\r', ' ');
    }

    static void eq(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            throw new AssertionError(what + ": expected <" + expected + "> got <" + actual + ">");
        }
    }

    static List<String> column(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, user, password);
                Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String v = rs.getString(1);
                out.add(v == null ? null : v.trim());
            }
        }
        return out;
    }

    static List<String> userTables() throws SQLException {
        return column("select tabname from systables where tabid >= 100 order by tabname");
    }

    static void migrate() throws Exception {
        MigrateResult r = flyway.migrate();
        eq(3, r.migrationsExecuted, "migrations executed");
        eq("3", r.targetSchemaVersion, "target version");
        eq(List.of("flyway_schema_history", "fw_account", "fw_entry", "fw_ref_seq"),
                userTables(), "tables after migrate");
    }

    /** The procedure, the trigger and the seed data of the migrations, as the database has them. */
    static void migratedObjectsWork() throws Exception {
        eq(List.of("74.50", "7.25"), column("select balance from fw_account order by id"),
                "balances kept by the trigger");
        eq(List.of("3"), column("select count(*) from fw_entry"), "entries");
        eq(List.of("fw_book"), column("select procname from sysprocedures where procname = "
                + "'fw_book'"), "procedure");
        eq(List.of("fw_entry_ins"), column("select trigname from systriggers"), "trigger");
        try (Connection c = DriverManager.getConnection(url, user, password);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("execute procedure fw_book(2, 0.75)")) {
                rs.next();
                eq(2, rs.getInt(1), "fw_book's count");
            }
            try {
                st.execute("execute procedure fw_book(2, 0)");
                throw new AssertionError("RAISE EXCEPTION did not fail");
            } catch (SQLException e) {
                eq(-746, e.getErrorCode(), "RAISE EXCEPTION's sqlcode");
            }
        }
        eq(List.of(new BigDecimal("8.00").toPlainString()),
                column("select balance from fw_account where id = 2"), "balance after the call");
    }

    static void info() {
        MigrationInfo[] all = flyway.info().all();
        List<String> seen = new ArrayList<>();
        for (MigrationInfo m : all) {
            // Flyway's Informix schema "exists" only once its user owns a table (tabid > 99),
            // so on a new database it also records a "<< Flyway Schema Creation >>" row
            // without a version; only the versioned migrations are compared.
            if (m.getVersion() != null) {
                seen.add(m.getVersion() + ":" + m.getDescription() + ":" + m.getState());
            }
        }
        eq(List.of("1:accounts:" + MigrationState.SUCCESS, "2:booking procedure:"
                + MigrationState.SUCCESS, "3:seed:" + MigrationState.SUCCESS), seen, "info");
        eq("3", flyway.info().current().getVersion().toString(), "current version");
        eq(0, flyway.info().pending().length, "pending");
        for (MigrationInfo m : all) {
            if (m.getVersion() != null && (m.getChecksum() == null
                    || m.getInstalledOn() == null)) {
                throw new AssertionError("history row without checksum or date: " + m.getScript());
            }
        }
    }

    static void migrateAgain() {
        eq(0, flyway.migrate().migrationsExecuted, "second migrate");
        eq(0, flyway.validateWithResult().invalidMigrations.size(), "validate");
    }

    static void clean() throws Exception {
        CleanResult r = flyway.clean();
        for (String w : r.warnings == null ? List.<String>of() : r.warnings) {
            System.err.println("clean warning: " + w);
        }
        // The schema Flyway recorded as its own creation is "dropped" (emptied: Informix has no
        // DROP SCHEMA for it), any other one "cleaned".
        if (r.schemasCleaned.isEmpty() && r.schemasDropped.isEmpty()) {
            throw new AssertionError("no schema cleaned or dropped");
        }
        eq(List.of(), userTables(), "tables after clean");
        eq(List.of(), column("select procname from sysprocedures where procname = 'fw_book'"),
                "procedures after clean");
        eq(List.of(), column("select trigname from systriggers"), "triggers after clean");
    }

    static void migrateAfterClean() throws Exception {
        eq(3, flyway.migrate().migrationsExecuted, "migrate after clean");
        eq(List.of("74.50", "7.25"), column("select balance from fw_account order by id"),
                "balances");
    }
}
