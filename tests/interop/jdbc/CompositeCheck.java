// IBM JDBC against ifxwire-server for ROW / SET / MULTISET / LIST (issue 13).
//
// Run by tests/interop/test_jdbc_composite.py, which prepares the tables with ifxwire first:
//   java -cp <build>:jdbc.jar CompositeCheck host port server database user password
// Prints one line per fact, compared by the Python test:
//   CELL <table> <id> <column> <canonical value>   every cell of xc_read, as JDBC's getObject
//                                                  returns it (canonical form below)
//   META <column> <DATA_TYPE> <TYPE_NAME>          DatabaseMetaData.getColumns of xc_meta
//   RSMD <column> <getColumnType> <getColumnTypeName>
//   WROTE <n>                                      rows written into xc_write with setObject
//   DONE
// Canonical values: NULL; numbers by value (doubles as their IEEE bits in hex); strings
// quoted; dates yyyy-mm-dd; timestamps yyyy-mm-dd hh:mm:ss.ffffff; IntervalDF "seconds
// nanos"; java.util.Set sorted in {}, other collections in order in []; Struct as ROW(...).

import com.informix.lang.IntervalDF;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLData;
import java.sql.SQLException;
import java.sql.SQLInput;
import java.sql.SQLOutput;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

public class CompositeCheck {

    static String canon(Object o) throws SQLException {
        if (o == null) {
            return "NULL";
        }
        if (o instanceof Struct s) {
            List<String> parts = new ArrayList<>();
            for (Object a : s.getAttributes()) {
                parts.add(canon(a));
            }
            return "ROW(" + String.join(",", parts) + ")";
        }
        if (o instanceof Collection<?> c) {
            List<String> parts = new ArrayList<>();
            for (Object e : c) {
                parts.add(canon(e));
            }
            if (o instanceof Set<?>) {
                parts.sort(null);
                return "{" + String.join(",", parts) + "}";
            }
            return "[" + String.join(",", parts) + "]";
        }
        if (o instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (o instanceof Double d) {
            return String.format("d%016x", Double.doubleToLongBits(d));
        }
        if (o instanceof Float f) {
            return String.format("f%08x", Float.floatToIntBits(f));
        }
        if (o instanceof String s) {
            return "'" + s + "'";
        }
        if (o instanceof Timestamp t) {
            LocalDateTime l = t.toLocalDateTime();
            return String.format("%04d-%02d-%02d %02d:%02d:%02d.%06d", l.getYear(),
                    l.getMonthValue(), l.getDayOfMonth(), l.getHour(), l.getMinute(),
                    l.getSecond(), l.getNano() / 1000);
        }
        if (o instanceof IntervalDF i) {
            return i.getSeconds() + " " + i.getNanoSeconds();
        }
        return o.toString();
    }

    /** A ROW value for setObject: JDBC writes it with IfxComplexOutput (no createStruct). */
    static final class Pair implements SQLData {
        final String type;
        final Integer a;
        final String b;

        Pair(String type, Integer a, String b) {
            this.type = type;
            this.a = a;
            this.b = b;
        }

        @Override
        public String getSQLTypeName() {
            return type;
        }

        @Override
        public void readSQL(SQLInput in, String t) {
        }

        @Override
        public void writeSQL(SQLOutput out) throws SQLException {
            out.writeInt(a);
            out.writeString(b);
        }
    }

    /** One SQL statement's result as a SQL line: every cell of every row, canonical. */
    static void query(Connection cn, String label, String sql, Object... params)
            throws SQLException {
        try (PreparedStatement ps = cn.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<String> cells = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        cells.add(canon(rs.getObject(i)));
                    }
                    rows.add(String.join(",", cells));
                }
            }
            System.out.println("SQL " + label + " " + String.join(" | ", rows));
        } catch (SQLException e) {
            System.out.println("SQL " + label + " ERR " + e.getErrorCode());
        }
    }

    /** Issue 13's second round as JDBC sees it: DISTINCT types and their casts, casts to a
     *  named ROW type, nested field access, IN on a collection of ROWs, constructors of
     *  column values and parameters, collection-derived tables, NULL elements and the size
     *  bound refused. */
    static void sqlFeatures(Connection cn, Statement st) throws SQLException {
        st.execute("CREATE DISTINCT TYPE xc_money AS DECIMAL(10,2)");
        st.execute("CREATE TABLE xc_dist (id INT, m xc_money)");
        try (PreparedStatement ps = cn.prepareStatement(
                "INSERT INTO xc_dist VALUES (?, ?::xc_money)")) {
            ps.setInt(1, 1);
            ps.setBigDecimal(2, new BigDecimal("12.50"));
            ps.executeUpdate();
        }
        st.execute("INSERT INTO xc_dist VALUES (2, CAST(7.00 AS xc_money))");
        query(cn, "distinct", "SELECT id, m, m::DECIMAL(10,2) + 1 FROM xc_dist ORDER BY id");
        try {
            st.execute("DROP TYPE xc_money RESTRICT");
            System.out.println("SQL drop_in_use dropped");
        } catch (SQLException e) {
            System.out.println("SQL drop_in_use ERR " + e.getErrorCode());
        }
        query(cn, "row_cast", "SELECT ROW(3, 'c')::xc_pt, CAST(ROW(4, 'd') AS xc_pt) "
                + "FROM xc_read WHERE id = 1");
        query(cn, "nested_field", "SELECT r.c.d, xc_read.r.c.d FROM xc_read ORDER BY id");
        query(cn, "in_rows", "SELECT id FROM xc_read WHERE ROW(2, 'b')::xc_pt IN lnp");
        query(cn, "in_rows_param", "SELECT id FROM xc_read WHERE ROW(?::INT, 'b') IN lnp "
                + "ORDER BY id", 2);
        query(cn, "constructors", "SELECT ROW(id, id * 2), LIST{id, ?::INT} FROM xc_read "
                + "ORDER BY id", 9);
        query(cn, "table_column", "SELECT id, (SELECT COUNT(*) FROM TABLE(xc_read.l_bool) b) "
                + "FROM xc_read WHERE id < 3 ORDER BY id");
        query(cn, "table_rows", "SELECT * FROM TABLE((SELECT l_row FROM xc_read WHERE id = 1)) "
                + "AS t(a, b) ORDER BY a");
        query(cn, "table_null", "SELECT * FROM TABLE((SELECT l_row FROM xc_read WHERE id = 3)) t");
        try (PreparedStatement ps = cn.prepareStatement(
                "SELECT LIST{id, ?::INT} FROM xc_read")) {
            ps.setNull(1, java.sql.Types.INTEGER);
            ps.executeQuery().close();
            System.out.println("SQL null_element accepted");
        } catch (SQLException e) {
            System.out.println("SQL null_element ERR " + e.getErrorCode());
        }
        List<Object> big = new ArrayList<>();
        for (int i = 0; i < 2200; i++) {
            big.add("y".repeat(2000));
        }
        try (PreparedStatement ps = cn.prepareStatement(
                "INSERT INTO xc_write (id, llv) VALUES (9, ?)")) {
            ps.setObject(1, big);
            ps.executeUpdate();
            System.out.println("SQL too_large stored");
        } catch (SQLException e) {
            System.out.println("SQL too_large ERR " + e.getErrorCode());
        }
        query(cn, "after", "SELECT COUNT(*) FROM xc_write");
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:informix-sqli://" + args[0] + ":" + args[1] + "/" + args[3]
                + ":INFORMIXSERVER=" + args[2] + ";user=" + args[4] + ";password=" + args[5]
                + ";CLIENT_LOCALE=en_US.utf8;DB_LOCALE=en_US.utf8";
        try (Connection cn = DriverManager.getConnection(url); Statement st = cn.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT * FROM xc_read ORDER BY id")) {
                ResultSetMetaData md = rs.getMetaData();
                for (int i = 2; i <= md.getColumnCount(); i++) {
                    System.out.println("RSMD " + md.getColumnName(i) + " " + md.getColumnType(i)
                            + " " + md.getColumnTypeName(i));
                }
                while (rs.next()) {
                    for (int i = 2; i <= md.getColumnCount(); i++) {
                        System.out.println("CELL xc_read " + rs.getInt(1) + " "
                                + md.getColumnName(i) + " " + canon(rs.getObject(i)));
                    }
                }
            }
            DatabaseMetaData dm = cn.getMetaData();
            try (ResultSet rs = dm.getColumns(null, null, "xc_meta", null)) {
                while (rs.next()) {
                    System.out.println("META " + rs.getString("COLUMN_NAME") + " "
                            + rs.getInt("DATA_TYPE") + " " + rs.getString("TYPE_NAME"));
                }
            }
            int wrote = 0;
            try (PreparedStatement ps = cn.prepareStatement(
                    "INSERT INTO xc_write (id, si, lv, md, ld, lb, lr, mb, lf, llv, ldt, liv, np, lnp, sr)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setObject(2, new HashSet<Object>(Arrays.asList(3, -7, 2147483647)));
                // ASCII only: JDBC sends these as LVARCHAR elements whose length is the character
                // count, not the byte count (a JDBC defect with multibyte text; PROTOCOL.md §13).
                ps.setObject(3, new ArrayList<Object>(Arrays.asList("ab", "b")));
                ps.setObject(4, new ArrayList<Object>(Arrays.asList(new BigDecimal("1.25"),
                        new BigDecimal("-99.99"))));
                ps.setObject(5, new ArrayList<Object>(Arrays.asList(
                        java.sql.Date.valueOf("2024-02-29"), java.sql.Date.valueOf("0001-01-01"))));
                ps.setObject(6, new ArrayList<Object>(Arrays.asList(true, false)));
                // An unnamed ROW cannot be written with SQLData: setObject looks the type name
                // up among named types and fails in the driver ("Cannot find the SQLTypeName").
                ps.setNull(7, java.sql.Types.STRUCT);
                ps.setObject(8, new ArrayList<Object>(Arrays.asList(4611686018427387904L,
                        4611686018427387904L, -9223372036854775807L)));
                ps.setObject(9, new ArrayList<Object>(Arrays.asList(1.5d, -2.2250738585072014e-308,
                        1e300)));
                ps.setObject(10, new ArrayList<Object>(Arrays.asList("x".repeat(1000), "")));
                Timestamp leap = Timestamp.valueOf("2024-02-29 13:45:59.12345");
                try {
                    ps.setObject(11, new ArrayList<Object>(Arrays.asList(leap,
                            Timestamp.valueOf("0001-01-01 00:00:00"))));
                } catch (SQLException e) {
                    // 4.50.10's IfxComplexOutput.writeTimestamp fails in the client for any
                    // Timestamp element (before anything is sent)
                    System.out.println("LIMIT ldt " + e.getMessage());
                    ps.setNull(11, java.sql.Types.OTHER);
                }
                ps.setObject(12, new ArrayList<Object>(Arrays.asList(
                        new IntervalDF(12L * 86400 + 3 * 3600, 10000L),
                        new IntervalDF(-5L, 0L))));
                // named ROW types: SQLData objects naming the type, alone and as LIST elements
                ps.setObject(13, new Pair("xc_pt", 5, "five"));
                ps.setObject(14, new ArrayList<Object>(Arrays.asList(new Pair("xc_pt", 6, "six"),
                        new Pair("xc_pt", 7, null))));
                ps.setObject(15, new HashSet<Object>(Arrays.asList(new Pair("xc_pt", 8, "e"))));
                wrote += ps.executeUpdate();
                ps.setInt(1, 2);
                ps.setObject(2, null);
                for (int i = 3; i <= 15; i++) {
                    ps.setNull(i, java.sql.Types.OTHER);
                }
                wrote += ps.executeUpdate();
            }
            System.out.println("WROTE " + wrote);
            sqlFeatures(cn, st);
        }
        System.out.println("DONE");
    }
}
