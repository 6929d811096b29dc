// IBM's change-stream client (ifx-changestream-client 1.1.5 on JDBC 4.50.12) reading a stream
// already in ifxwire-server's change log, for bench/cdc_bench.py: replays from a sequence number
// and decodes every row (getData), then prints "EVENTS <n> SECONDS <s> CPU <s>" (CPU: this
// thread's, JIT and GC threads not counted).
//
// Usage: java -cp <changestream classpath> StreamClientBench.java host port servername user
//        password database table sequence max-records

import com.informix.jdbcx.IfxDataSource;
import com.informix.stream.api.IfmxStreamRecord;
import com.informix.stream.cdc.IfxCDCEngine;
import com.informix.stream.api.IfmxStreamOperationRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

public class StreamClientBench {
    public static void main(String[] a) throws Exception {
        String url = "jdbc:informix-sqli://" + a[0] + ":" + a[1] + "/syscdcv1:INFORMIXSERVER="
            + a[2] + ";user=" + a[3] + ";password=" + a[4];
        IfxCDCEngine.Builder b = IfxCDCEngine.builder(new IfxDataSource(url)).timeout(1)
            .maxRecords(Integer.parseInt(a[8])).sequenceId(Long.parseLong(a[7]))
            .watchTable(a[5] + ":informix." + a[6], "id", "name", "price", "qty");
        long n = 0;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        try (IfxCDCEngine engine = b.build()) {
            engine.init();
            while (true) {
                List<IfmxStreamRecord> batch = engine.getRecords();
                if (batch.isEmpty()) {
                    break;
                }
                for (IfmxStreamRecord r : batch) {
                    if (r.hasOperationData()) {
                        ((IfmxStreamOperationRecord) r).getData();
                    }
                    n++;
                }
            }
        }
        double s = (System.nanoTime() - start) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
        System.out.println("EVENTS " + n + " SECONDS " + s + " CPU " + cpu);
    }
}
