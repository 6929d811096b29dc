// IBM JDBC's own CDC client (com.informix.jdbc.stream.cdc.CDCEngine, JDBC 15.0.0.1) reading
// ifxwire-server's change stream: test_cdc_interop.py runs it and compares what it prints.
//
// Usage: java -cp jdbc.jar CdcCheck.java host port servername user password database table
//        [sequence]
// It opens the capture (cdc_opensess ... cdc_activatesess, all done by CDCEngine.init()), then
// makes changes over a second JDBC connection, then prints one line per record until the first
// TIMEOUT record: "REC <type> <sequence> <transaction> <label> <col>=<value> ...".
// With a sequence it resumes there and makes no changes.

import com.informix.jdbc.stream.api.StreamOperationRecord;
import com.informix.jdbc.stream.api.StreamRecord;
import com.informix.jdbc.stream.api.StreamRecordType;
import com.informix.jdbc.stream.cdc.CDCEngine;
import com.informix.jdbc.types.ReadableType;
import com.informix.jdbcx.IfxDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

public class CdcCheck {
    public static void main(String[] a) throws Exception {
        String base = "jdbc:informix-sqli://" + a[0] + ":" + a[1] + "/";
        String props = ":INFORMIXSERVER=" + a[2] + ";user=" + a[3] + ";password=" + a[4];
        String db = a[5];
        String table = a[6];
        long from = a.length > 7 ? Long.parseLong(a[7]) : 0L;
        IfxDataSource ds = new IfxDataSource(base + "syscdcv1" + props);
        CDCEngine.Builder b = CDCEngine.builder(ds).timeout(2).watchTable(
            db + ":informix." + table, "id", "name", "price", "qty", "ok", "note");
        if (from > 0) {
            b.sequenceId(from);
        }
        try (CDCEngine engine = b.build()) {
            engine.init();
            if (from == 0) {
                try (Connection c = DriverManager.getConnection(base + db + props);
                     Statement s = c.createStatement()) {
                    s.execute("INSERT INTO " + table + " VALUES (1, 'pen', 2.50, 7, 't', 'first')");
                    s.execute("UPDATE " + table + " SET price = 3, name = 'ink' WHERE id = 1");
                    s.execute("DELETE FROM " + table + " WHERE id = 1");
                    c.setAutoCommit(false);
                    s.execute("INSERT INTO " + table + " VALUES (2, 'cup', 1.25, 1, 'f', 'x')");
                    c.rollback();
                    s.execute("INSERT INTO " + table + " VALUES (3, 'mug', 4.00, 2, NULL, NULL)");
                    c.commit();
                }
            }
            for (int i = 0; i < 100; i++) {
                StreamRecord r = engine.getRecord();
                StringBuilder line = new StringBuilder("REC ").append(r.getType());
                if (r.getType() == StreamRecordType.TIMEOUT) {
                    System.out.println(line);
                    break;
                }
                line.append(' ').append(r.getSequenceId()).append(' ')
                    .append(r.getTransactionId()).append(' ').append(r.getLabel());
                if (r.hasOperationData()) {
                    Map<String, ReadableType> data = ((StreamOperationRecord) r).getData();
                    for (Map.Entry<String, ReadableType> e : data.entrySet()) {
                        line.append(' ').append(e.getKey()).append('=')
                            .append(e.getValue().toObject());
                    }
                }
                System.out.println(line);
            }
        }
    }
}
