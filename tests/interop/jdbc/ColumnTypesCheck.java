// IBM Informix JDBC's ResultSetMetaData of one query against ifxwire-server: what a JDBC tool
// (a report writer, an ORM's column mapping) sees of each result column. Single-file Java 17
// program, compiled and run by tests/interop/test_jdbc_function_types.py against each jar:
//
//   java -cp <build>:<jdbc.jar> ColumnTypesCheck <jdbc url> <select statement>
//
// It prints one line a column, "COL <n> <getColumnType> <getColumnTypeName> <getPrecision>
// <getScale> <value>" (the value as getString gives it, between brackets, or NULL), then
// "DONE"; an SQLException prints "ERR <code> <message>".

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;

public final class ColumnTypesCheck {

    public static void main(String[] args) {
        try (Connection c = DriverManager.getConnection(args[0]);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(args[1])) {
            ResultSetMetaData md = rs.getMetaData();
            boolean row = rs.next();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                String v = row ? rs.getString(i) : null;
                System.out.println("COL " + i + " " + md.getColumnType(i) + " "
                        + md.getColumnTypeName(i) + " " + md.getPrecision(i) + " "
                        + md.getScale(i) + " " + (v == null ? "NULL" : "[" + v + "]"));
            }
        } catch (SQLException e) {
            System.out.println("ERR " + e.getErrorCode() + " " + e.getMessage());
        }
        System.out.println("DONE");
    }
}
