// IBM Informix JDBC's ResultSetMetaData over what ifxwire-server describes: for each query
// given, the type name, precision and scale of its first column, as a client reads them.
// Single-file Java 17 program, compiled and run by tests/interop/test_jdbc_describe_time.py
// against each driver jar:
//
//   java -cp <build>:<jdbc.jar> DescribeCheck <jdbc url> <query>...
//
// It prints one "FACT <n> <type name>|<precision>|<scale>|<value>" line per query (n from 0)
// and ends with "DONE"; a query that fails prints "FACT <n> ERROR <sqlcode>".

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;

public final class DescribeCheck {

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0])) {
            for (int n = 1; n < args.length; n++) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(args[n])) {
                    ResultSetMetaData md = rs.getMetaData();
                    String value = rs.next() ? String.valueOf(rs.getString(1)).trim() : "<no row>";
                    System.out.println("FACT " + (n - 1) + " " + md.getColumnTypeName(1) + "|"
                            + md.getPrecision(1) + "|" + md.getScale(1) + "|" + value);
                } catch (SQLException e) {
                    System.out.println("FACT " + (n - 1) + " ERROR " + e.getErrorCode());
                }
            }
        }
        System.out.println("DONE");
    }
}
