// IBM JDBC meets a login redirect (SL type 13) from ifxwire-server: it must follow it to the
// named server, log in there and run a query. Run in Java's source-file mode by
// tests/interop/test_jdbc_redirect.py:
//
//   java -cp jdbc.jar RedirectCheck.java HOST PORT SERVER USER PASSWORD
//
// Prints "REDIRECT OK <server name seen> <count>" or "REDIRECT FAIL <reason>".

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

public class RedirectCheck {
    public static void main(String[] args) {
        String url = "jdbc:informix-sqli://" + args[0] + ":" + args[1] + "/sysmaster:INFORMIXSERVER="
                + args[2] + ";user=" + args[3] + ";password=" + args[4] + ";LOGINTIMEOUT=20";
        try (Connection c = DriverManager.getConnection(url);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(
                     "SELECT DBSERVERNAME, COUNT(*) FROM systables WHERE tabid = 1 GROUP BY 1")) {
            rs.next();
            System.out.println("REDIRECT OK " + rs.getString(1).trim() + " " + rs.getInt(2));
        } catch (Exception e) {
            System.out.println("REDIRECT FAIL " + e.toString().replace('\n', ' '));
        }
    }
}
