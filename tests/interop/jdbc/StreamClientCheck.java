// IBM's change-stream client (com.ibm.informix:ifx-changestream-client 1.1.5, over IBM JDBC
// 4.50.12: com.informix.stream.cdc.IfxCDCEngine) reading ifxwire-server's change stream, several
// records per read (maxRecords 4, getRecords()); test_cdc_interop.py compares what it prints
// with what CdcCheck.java prints for JDBC 15's CDCEngine.
//
// Usage: java -cp changestream.jar:jdbc.jar:slf4j-api.jar StreamClientCheck.java host port servername user password database table
//        [sequence]
// It opens the capture (cdc_opensess ... cdc_activatesess, all done by CDCEngine.init()), then
// makes changes over a second JDBC connection, then prints one line per record until the first
// TIMEOUT record: "REC <type> <sequence> <transaction> <label> <col>=<value> ...".
// With a sequence it resumes there and makes no changes.

import com.informix.jdbc.IfmxReadableType;
import com.informix.stream.api.IfmxStreamOperationRecord;
import com.informix.stream.api.IfmxStreamRecord;
import com.informix.stream.api.IfmxStreamRecordType;
import com.informix.stream.cdc.IfxCDCEngine;
import com.informix.jdbcx.IfxDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

public class StreamClientCheck {
    public static void main(String[] a) throws Exception {
        String base = "jdbc:informix-sqli://" + a[0] + ":" + a[1] + "/";
        String props = ":INFORMIXSERVER=" + a[2] + ";user=" + a[3] + ";password=" + a[4];
        String db = a[5];
        String table = a[6];
        long from = a.length > 7 ? Long.parseLong(a[7]) : 0L;
        IfxDataSource ds = new IfxDataSource(base + "syscdcv1" + props);
        IfxCDCEngine.Builder b = IfxCDCEngine.builder(ds).timeout(2).maxRecords(4).watchTable(
            db + ":informix." + table, "id", "name", "price", "qty", "ok", "note");
        if (from > 0) {
            b.sequenceId(from);
        }
        try (IfxCDCEngine engine = b.build()) {
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
            boolean done = false;
            for (int i = 0; i < 100 && !done; i++) {
                List<IfmxStreamRecord> batch = engine.getRecords();
                if (batch.isEmpty()) {  // getRecords() leaves CDC_REC_TIMEOUT out
                    System.out.println("REC TIMEOUT");
                    break;
                }
                for (IfmxStreamRecord r : batch) {
                    StringBuilder line = new StringBuilder("REC ").append(r.getType());
                    if (r.getType() == IfmxStreamRecordType.TIMEOUT) {
                        System.out.println(line);
                        done = true;
                        break;
                    }
                    line.append(' ').append(r.getSequenceId()).append(' ')
                        .append(r.getTransactionId()).append(' ').append(r.getLabel());
                    if (r.hasOperationData()) {
                        Map<String, IfmxReadableType> data =
                            ((IfmxStreamOperationRecord) r).getData();
                        for (Map.Entry<String, IfmxReadableType> e : data.entrySet()) {
                            line.append(' ').append(e.getKey()).append('=')
                                .append(e.getValue().toObject());
                        }
                    }
                    System.out.println(line);
                }
                System.out.println("READ " + batch.size());
            }
        }
    }
}
