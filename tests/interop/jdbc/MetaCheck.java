// IBM Informix JDBC DatabaseMetaData against ifxwire-server, as a schema-inspection tool reads
// it (issue 23: what IBM JDBC 4.50.12 reported from a real 14.10.FC7W1DE). Single-file Java 17
// program, compiled and run by tests/interop/test_jdbc_metadata.py against each driver jar:
//
//   java -cp <build>:<jdbc.jar> MetaCheck <jdbc url> <check> [<check> ...]
//
// Each check prints exactly one line, "CHECK <name> PASS" or "CHECK <name> FAIL <reason>";
// the run ends with "DONE". The schema (tables, a view, a synonym, a procedure and a function)
// is made by the Python test first.

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

public final class MetaCheck {

    @FunctionalInterface
    interface Body {
        void run(String url) throws Exception;
    }

    static void check(boolean cond, String msg) {
        if (!cond) {
            throw new IllegalStateException(msg);
        }
    }

    static List<String> column(ResultSet rs, String name) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                String v = rs.getString(name);
                out.add(v == null ? null : v.trim());
            }
        }
        return out;
    }

    public static void main(String[] args) {
        String url = args[0];
        for (int i = 1; i < args.length; i++) {
            String name = args[i];
            Body body = switch (name) {
                case "meta_table_types" -> MetaCheck::tableTypes;
                case "meta_catalogs" -> MetaCheck::catalogs;
                case "meta_product_name" -> MetaCheck::productName;
                case "meta_procedure_columns" -> MetaCheck::procedureColumns;
                case "meta_function_columns" -> MetaCheck::functionColumns;
                case "meta_parallel_temp_tables" -> MetaCheck::parallelTempTables;
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

    /** getTableTypes() is a UNION of 'TABLE', 'SYSTEM TABLE', 'VIEW', 'SYNONYM' constants of
     *  different lengths: typed from the first branch it failed -1260. */
    static void tableTypes(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url)) {
            List<String> types = column(c.getMetaData().getTableTypes(), "TABLE_TYPE");
            Collections.sort(types);
            check(types.equals(List.of("SYNONYM", "SYSTEM TABLE", "TABLE", "VIEW")),
                    "getTableTypes() = " + types);
        }
    }

    /** getCatalogs() sends SQ_DBLIST; a real server lists its databases. */
    static void catalogs(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url)) {
            List<String> names = column(c.getMetaData().getCatalogs(), "TABLE_CAT");
            check(names.contains("jmeta") && names.contains("sysmaster"),
                    "getCatalogs() = " + names);
            // and the connection goes on
            try (ResultSet rs = c.createStatement().executeQuery(
                    "SELECT COUNT(*) FROM systables WHERE tabname = 'jm_parent'")) {
                check(rs.next() && rs.getInt(1) == 1, "query after getCatalogs()");
            }
        }
    }

    static void productName(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url)) {
            DatabaseMetaData md = c.getMetaData();
            check("Informix Dynamic Server".equals(md.getDatabaseProductName()),
                    "getDatabaseProductName() = " + md.getDatabaseProductName());
            check(md.getDatabaseProductVersion().startsWith("14.10"),
                    "getDatabaseProductVersion() = " + md.getDatabaseProductVersion());
        }
    }

    /** TYPE_NAME of a VARCHAR(50) parameter is 'varchar', of a DECIMAL(8,2) one 'decimal'. */
    static void procedureColumns(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url)) {
            List<String> got = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getProcedureColumns(null, null, "jm_proc", "%")) {
                while (rs.next()) {
                    got.add(rs.getString("COLUMN_NAME").trim() + " "
                            + rs.getString("TYPE_NAME").trim() + " "
                            + rs.getInt("PRECISION"));
                }
            }
            check(got.equals(List.of("a varchar 50", "b decimal 8", "c integer 10")),
                    "getProcedureColumns = " + got);
        }
    }

    /** getFunctionColumns lists the parameters only: a real 14.10 shows no return value row. */
    static void functionColumns(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url)) {
            List<String> got = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getFunctionColumns(null, null, "jm_func", "%")) {
                while (rs.next()) {
                    got.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("COLUMN_TYPE") + " "
                            + rs.getString("TYPE_NAME").trim());
                }
            }
            check(got.equals(List.of("x 1 varchar", "y 1 integer")),
                    "getFunctionColumns = " + got);
        }
    }

    /** Metadata calls that build temp tables (getIndexInfo, getTablePrivileges,
     *  getProcedureColumns) from sessions in parallel: no -242/-107. */
    static void parallelTempTables(String url) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            Thread th = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(url)) {
                    DatabaseMetaData md = c.getMetaData();
                    for (int i = 0; i < 15; i++) {
                        try {
                            column(md.getIndexInfo(null, null, "jm_child", false, false),
                                    "INDEX_NAME");
                            column(md.getTablePrivileges(null, null, "jm_%"), "TABLE_NAME");
                            column(md.getProcedureColumns(null, null, "jm_proc", "%"),
                                    "COLUMN_NAME");
                            calls.incrementAndGet();
                        } catch (SQLException e) {
                            errors.add("[" + e.getErrorCode() + "] " + e.getMessage());
                        }
                    }
                } catch (SQLException e) {
                    errors.add("connect: " + e.getMessage());
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join(120_000);
        }
        check(errors.isEmpty(), errors.size() + " errors, first: "
                + (errors.isEmpty() ? "" : errors.get(0)));
        check(calls.get() == 45, "rounds done: " + calls.get());
    }
}
