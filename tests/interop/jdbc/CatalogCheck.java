// IBM Informix JDBC's DatabaseMetaData over ifxwire-server's system catalogue: what a
// schema-inspection tool reads (table types, column sizes and nullability, indexes, table
// privileges). Single-file Java 17 program, compiled and run by
// tests/interop/test_jdbc_catalog.py against each driver jar:
//
//   java -cp <build>:<jdbc.jar> CatalogCheck <jdbc url>
//
// It prints one "FACT <key> <value>" line per fact read and ends with "DONE"; the Python test
// compares the facts with what a real 14.10 server reports. The tables it reads are made by
// the Python test first.

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;

public final class CatalogCheck {

    static void fact(String key, Object value) {
        System.out.println("FACT " + key + " " + value);
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0])) {
            DatabaseMetaData md = c.getMetaData();
            for (String t : new String[] {"sysindexes", "sysdomains", "sysindices", "systables"}) {
                try (ResultSet rs = md.getTables(null, null, t, null)) {
                    while (rs.next()) {
                        fact("table_type." + rs.getString("TABLE_NAME").trim(),
                             rs.getString("TABLE_TYPE").trim());
                    }
                }
            }
            for (String t : new String[] {"cat_base", "cat_view"}) {
                try (ResultSet rs = md.getColumns(null, null, t, null)) {
                    while (rs.next()) {
                        String key = "column." + t + "." + rs.getString("COLUMN_NAME").trim();
                        fact(key + ".size", rs.getInt("COLUMN_SIZE"));
                        fact(key + ".nullable", rs.getInt("NULLABLE"));
                        fact(key + ".is_nullable", rs.getString("IS_NULLABLE").trim());
                    }
                }
            }
            for (String t : new String[] {"cat_base", "cat_view"}) {
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT * FROM " + t)) {
                    ResultSetMetaData rmd = rs.getMetaData();
                    for (int i = 1; i <= rmd.getColumnCount(); i++) {
                        String key = "result." + t + "." + rmd.getColumnName(i).trim();
                        fact(key + ".nullable", rmd.isNullable(i));
                        fact(key + ".precision", rmd.getPrecision(i));
                    }
                }
            }
            try (ResultSet rs = md.getIndexInfo(null, null, "cat_child", false, false)) {
                while (rs.next()) {
                    String name = rs.getString("INDEX_NAME");
                    if (name != null) {
                        fact("index.cat_child." + rs.getString("COLUMN_NAME").trim(),
                             "[" + name + "]");
                    }
                }
            }
            try (ResultSet rs = md.getTablePrivileges(null, null, "cat_view")) {
                while (rs.next()) {
                    // by position (JDBC's order: GRANTEE 5, PRIVILEGE 6): IBM's result set
                    // names its columns otherwise
                    fact("privilege.cat_view." + rs.getString(5).trim() + "."
                         + rs.getString(6).trim(), "yes");
                }
            }
        }
        System.out.println("DONE");
    }
}
