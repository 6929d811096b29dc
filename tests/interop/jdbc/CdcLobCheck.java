// IBM JDBC 15.0.0.1's CDCEngine decoding smart-large-object columns of ifxwire-server's change
// stream: test_cdc_interop.py writes the rows first, then runs this from sequence 1.
//
// Usage: java -cp jdbc.jar CdcLobCheck.java host port servername user password database table
// Prints "REC <type> <col>=<value> ..." per record until the first TIMEOUT; a BLOB/CLOB column
// prints the class JDBC decoded it to (reading its data would open the locator on the CDC
// connection, which ifxwire-server does not serve: docs/CDC_SERVER.md "Large objects").

import com.informix.jdbc.stream.api.StreamOperationRecord;
import com.informix.jdbc.stream.api.StreamRecord;
import com.informix.jdbc.stream.api.StreamRecordType;
import com.informix.jdbc.stream.cdc.CDCEngine;
import com.informix.jdbc.types.ReadableType;
import com.informix.jdbcx.IfxDataSource;
import java.util.Map;

public class CdcLobCheck {
    public static void main(String[] a) throws Exception {
        String url = "jdbc:informix-sqli://" + a[0] + ":" + a[1] + "/syscdcv1:INFORMIXSERVER="
            + a[2] + ";user=" + a[3] + ";password=" + a[4];
        CDCEngine.Builder b = CDCEngine.builder(new IfxDataSource(url)).timeout(2)
            .sequenceId(1).watchTable(a[5] + ":informix." + a[6], "id", "body", "note", "tag");
        try (CDCEngine engine = b.build()) {
            engine.init();
            for (int i = 0; i < 100; i++) {
                StreamRecord r = engine.getRecord();
                StringBuilder line = new StringBuilder("REC ").append(r.getType());
                if (r.getType() == StreamRecordType.TIMEOUT) {
                    System.out.println(line);
                    break;
                }
                if (r.hasOperationData()) {
                    Map<String, ReadableType> data = ((StreamOperationRecord) r).getData();
                    for (Map.Entry<String, ReadableType> e : data.entrySet()) {
                        Object v = e.getValue();
                        boolean lob = e.getKey().equals("body") || e.getKey().equals("note");
                        line.append(' ').append(e.getKey()).append('=').append(
                            lob ? v.getClass().getSimpleName() : e.getValue().toObject());
                    }
                }
                System.out.println(line);
            }
        }
    }
}
