import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/** Logs in once with the URL given (nothing else set) and runs one query: what IBM JDBC puts
 *  in the login's environment is read on the server's side (test_jdbc_login_env.py). */
public class LoginEnvCheck {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0]);
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*) FROM systables WHERE tabid = 1")) {
            r.next();
            System.out.println("LOGIN_ENV_CHECK rows=" + r.getInt(1));
        }
    }
}
