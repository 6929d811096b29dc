// Prints the bytes IBM JDBC's own encoder (IfxRow.fromObject + IfxComplex.toIfx) writes for
// ROW values, and what its decoder reads back; the source of the ROW vectors in
// tests/unit/data/composite_jdbc_vectors.txt. Lives in com.informix.jdbc to reach package-private
// classes. Run: javac -cp jdbc.jar -d out ComplexRowOracle.java; java -cp jdbc.jar:out
// com.informix.jdbc.ComplexRowOracle <port of an ifxwire-server on 127.0.0.1>
package com.informix.jdbc;
import java.sql.*;
import java.util.*;
import java.math.BigDecimal;
public class ComplexRowOracle {
  static String hex(byte[] b){StringBuilder s=new StringBuilder();for(byte x:b)s.append(String.format("%02x",x));return s.toString();}
  static class R implements SQLData {
    String tn; Object[] v;
    R(String tn, Object... v){this.tn=tn;this.v=v;}
    public String getSQLTypeName(){return tn;}
    public void readSQL(SQLInput in, String t){}
    public void writeSQL(SQLOutput out) throws SQLException {
      for (Object x : v) {
        if (x == null) ((IfxComplexOutput)out).writeObject((Object)null);
        else if (x instanceof Integer) out.writeInt((Integer)x);
        else if (x instanceof String) out.writeString((String)x);
        else if (x instanceof Boolean) out.writeBoolean((Boolean)x);
        else if (x instanceof BigDecimal) out.writeBigDecimal((BigDecimal)x);
        else if (x instanceof java.sql.Date) out.writeDate((java.sql.Date)x);
        else if (x instanceof SQLData) out.writeObject((SQLData)x); else ((IfxComplexOutput)out).writeObject(x);
      }
    }
    public String toString(){return tn+Arrays.deepToString(v);}
  }
  public static void main(String[] a) throws Exception {
    Connection cn = DriverManager.getConnection("jdbc:informix-sqli://127.0.0.1:"+a[0]+":INFORMIXSERVER=informix;user=informix;password=in4mix");
    IfxConnection ic = (IfxConnection)cn;
    Object[] cases = {
      new R("row(a integer, b varchar(10))", 1, "xy"),
      new R("row(a integer, b integer)", null, 5),
      new R("row(a integer, b lvarchar)", 7, "hello"),
      new R("row(a boolean, b decimal(5,2), c date)", true, new BigDecimal("1.25"), java.sql.Date.valueOf("2024-02-29")),
      new R("row(a integer, b list(integer not null))", 1, new ArrayList<Object>(Arrays.asList(4,5))),
      new R("row(a varchar(5), b row(c integer, d varchar(5)))", "q", new R("row(c integer, d varchar(5))", 9, "z")),
    };
    for (Object c : cases) {
      try {
        IfxRow o = new IfxRow(); o.setConnection(ic); o.fromObject(c);
        byte[] b = o.toIfx();
        System.out.println(c+" "+hex(b));
        try { IfxRow back = new IfxRow(); back.setConnection(ic); back.fromIfx(b); Object r = back.toObject();
          System.out.println("  back="+(r instanceof Struct ? Arrays.deepToString(((Struct)r).getAttributes()) : r)); } catch (Exception e) { System.out.println("  backERR "+e); }
      } catch (Exception e) { System.out.println(c+" ERR "+e); e.printStackTrace(System.out); }
    }
  }
}
