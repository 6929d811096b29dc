// Prints the bytes IBM JDBC's own encoder (IfxCollection.fromObject + toIfx) writes for
// collections, and what its decoder reads back; the source of the collection vectors in
// tests/unit/data/composite_jdbc_vectors.txt. Run: javac -cp jdbc.jar -d out
// ComplexCollectionOracle.java; java -cp jdbc.jar:out ComplexCollectionOracle <port>
import com.informix.jdbc.*;
import java.sql.*;
import java.util.*;
import java.math.BigDecimal;
public class ComplexCollectionOracle {
  static String hex(byte[] b){StringBuilder s=new StringBuilder();for(byte x:b)s.append(String.format("%02x",x));return s.toString();}
  public static void main(String[] a) throws Exception {
    Connection cn = DriverManager.getConnection("jdbc:informix-sqli://127.0.0.1:"+a[0]+":INFORMIXSERVER=informix;user=informix;password=in4mix");
    IfxConnection ic = (IfxConnection)cn;
    Object[][] cases = {
      {"list(integer not null)", new ArrayList<Object>(Arrays.asList(1,2,3))},
      {"set(integer not null)", new HashSet<Object>(Arrays.asList(7))},
      {"list(integer not null)", new ArrayList<Object>()},
      {"list(varchar(10) not null)", new ArrayList<Object>(Arrays.asList("ab","c"))},
      {"multiset(bigint not null)", new ArrayList<Object>(Arrays.asList(5L))},
      {"list(decimal(5,2) not null)", new ArrayList<Object>(Arrays.asList(new BigDecimal("1.50")))},
      {"list(float not null)", new ArrayList<Object>(Arrays.asList(1.5d))},
      {"list(date not null)", new ArrayList<Object>(Arrays.asList(java.sql.Date.valueOf("2024-02-29")))},
      {"list(boolean not null)", new ArrayList<Object>(Arrays.asList(true,false))},
      {"list(lvarchar not null)", new ArrayList<Object>(Arrays.asList("xyz"))},
      {"list(char(3) not null)", new ArrayList<Object>(Arrays.asList("ab"))},
      {"list(datetime year to fraction(5) not null)", new ArrayList<Object>(Arrays.asList(java.sql.Timestamp.valueOf("2024-02-29 13:45:59.12345")))},
      {"list(int8 not null)", new ArrayList<Object>(Arrays.asList(42L))},
      {"list(smallint not null)", new ArrayList<Object>(Arrays.asList((short)3))},
    };
    for (Object[] c : cases) {
      try {
        IfxCollection col = new IfxCollection();
        col.setConnection(ic);
        col.fromObject(c[1], (String)c[0]);
        byte[] b = col.toIfx();
        System.out.println(c[0]+" "+c[1]+" "+hex(b));
        IfxCollection back = new IfxCollection(); back.setConnection(ic);
        back.fromIfx(b); System.out.println("  back="+back.toObject());
      } catch (Exception e) { System.out.println(c[0]+" ERR "+e); }
    }
  }
}
