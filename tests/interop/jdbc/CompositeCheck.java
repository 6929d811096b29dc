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
                    "INSERT INTO xc_write (id, si, lv, md, ld, lb, lr) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
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
                wrote += ps.executeUpdate();
                ps.setInt(1, 2);
                ps.setObject(2, null);
                for (int i = 3; i <= 7; i++) {
                    ps.setNull(i, java.sql.Types.OTHER);
                }
                wrote += ps.executeUpdate();
            }
            System.out.println("WROTE " + wrote);
        }
        System.out.println("DONE");
    }
}
