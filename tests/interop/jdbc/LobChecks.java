// Smart large objects (BLOB/CLOB) with IBM's JDBC driver: the checks IfxCheck registers from
// here (compiled together with IfxCheck.java by tests/interop/conftest.py).
//
// Regular checks (every run): lob_basic, lob_streams, lob_smartblob, lob_update_delete,
// lob_client_files, lob_errors.  On-demand checks (named by tests/interop/test_lob_interop.py):
// lob_read_sizes reads the rows ifxwire and informix-driver wrote into lob_x / lob_xd, and
// lob_write_sizes writes the same values into lob_w for them to read.  Both sides build the
// values the same way: blob(n) and text(n, alphabet) below, and _blob / _text in the Python test.

import com.informix.jdbc.IfxBblob;
import com.informix.jdbc.IfxLobDescriptor;
import com.informix.jdbc.IfxLocator;
import com.informix.jdbc.IfxSmartBlob;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

final class LobChecks {

    private LobChecks() {}

    /** The sizes every cross-client check moves (bytes for a BLOB, characters for a CLOB). */
    static final int[] SIZES = {0, 1, 4095, 4096, 4097, 65535, 65536, 65537, 10 * 1024 * 1024};
    /** CLOB characters of the 8859-1 runs: ASCII. JDBC turns CLOB bytes into a String with
     *  the JVM's default charset in places (IfxCblob.getSubString: new String(byte[]); in
     *  4.50.10 getString too), UTF-8 in these runs, so non-ASCII text is checked in a UTF-8
     *  database (DB_LOCALE/CLIENT_LOCALE en_US.utf8), where the two agree. */
    static final String ASCII = "abcdefghijklmnopqrstuvwxyz0123456789 .,;ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    /** Characters a UTF-8 run adds (all in the Basic Multilingual Plane). */
    static final String UTF8_EXTRA = "äöüßÄÖÜéèçñ€日本語✓Ωж";

    static byte[] blob(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    static String text(int n, String alphabet) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(alphabet.charAt((i * 7 + 3) % alphabet.length()));
        }
        return sb.toString();
    }

    /** The CLOB alphabet of a run: the UTF-8 characters only when its locale is UTF-8. */
    static String alphabet(IfxCheck.Ctx ctx) {
        return ctx.cfg.props().toLowerCase().contains("utf8") ? ASCII + UTF8_EXTRA : ASCII;
    }

    /** An SQLException whose own code, or a cause's, is ``code`` (JDBC wraps some LO errors
     *  in -79716 "System or internal error" with the server's error as the cause). */
    static void expectCode(String what, IfxCheck.SqlAction action, int code) throws Exception {
        try {
            action.run();
        } catch (SQLException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof SQLException se && se.getErrorCode() == code) {
                    return;
                }
            }
            throw new IfxCheck.CheckFailed(what + ": expected " + code + ", got " + e.getErrorCode()
                    + " " + e.getMessage());
        }
        throw new IfxCheck.CheckFailed(what + ": no error");
    }

    static void register() {
        IfxCheck.reg("lob_basic", 120, LobChecks::basic);
        IfxCheck.reg("lob_streams", 120, LobChecks::streams);
        IfxCheck.reg("lob_smartblob", 120, LobChecks::smartBlob);
        IfxCheck.reg("lob_update_delete", 120, LobChecks::updateDelete);
        IfxCheck.reg("lob_client_files", 120, LobChecks::clientFiles);
        IfxCheck.reg("lob_errors", 120, LobChecks::errors);
        IfxCheck.onDemand("lob_read_sizes", 240, LobChecks::readSizes);
        IfxCheck.onDemand("lob_write_sizes", 240, LobChecks::writeSizes);
    }

    // ------------------------------------------------------------------------------------------

    private static void basic(IfxCheck.Ctx ctx) throws Exception {
        Connection c = ctx.db();
        IfxCheck.update(c, "CREATE TABLE lb (id INTEGER, b BLOB, c CLOB)");
        byte[] data = blob(100_003);
        String txt = text(5000, alphabet(ctx));
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO lb VALUES (?, ?, ?)")) {
            ps.setInt(1, 1);
            ps.setBytes(2, data);
            ps.setString(3, txt);
            IfxCheck.eq("INSERT count", 1, ps.executeUpdate());
            ps.setInt(1, 2);
            ps.setNull(2, Types.BLOB);
            ps.setNull(3, Types.CLOB);
            IfxCheck.eq("INSERT NULL count", 1, ps.executeUpdate());
            ps.setInt(1, 3);
            ps.setBytes(2, new byte[0]);
            ps.setString(3, "");
            IfxCheck.eq("INSERT empty count", 1, ps.executeUpdate());
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, b, c FROM lb ORDER BY id")) {
            IfxCheck.check(rs.next(), "row 1 missing");
            IfxCheck.eq("column type", Types.BLOB, rs.getMetaData().getColumnType(2));
            IfxCheck.eq("BLOB getBytes", data, rs.getBytes(2));
            IfxCheck.eq("CLOB getString", txt, rs.getString(3));
            Blob b = rs.getBlob(2);
            IfxCheck.eq("Blob.length", (long) data.length, b.length());
            IfxCheck.eq("Blob.getBytes(1000, 10)", Arrays.copyOfRange(data, 999, 1009),
                    b.getBytes(1000, 10));
            try (InputStream in = rs.getBinaryStream(2)) {
                IfxCheck.eq("getBinaryStream", data, in.readAllBytes());
            }
            Clob cl = rs.getClob(3);
            IfxCheck.eq("Clob.getSubString(1, 20)", txt.substring(0, 20), cl.getSubString(1, 20));
            try (Reader r = cl.getCharacterStream()) {
                StringBuilder sb = new StringBuilder();
                char[] buf = new char[999];
                int n;
                while ((n = r.read(buf)) > 0) {
                    sb.append(buf, 0, n);
                }
                IfxCheck.eq("getCharacterStream", txt, sb.toString());
            }
            IfxCheck.check(rs.next(), "row 2 missing");
            IfxCheck.check(rs.getBytes(2) == null && rs.wasNull(), "row 2 BLOB is not NULL");
            IfxCheck.check(rs.getString(3) == null && rs.wasNull(), "row 2 CLOB is not NULL");
            IfxCheck.check(rs.next(), "row 3 missing");
            IfxCheck.eq("row 3 BLOB", new byte[0], rs.getBytes(2));
            IfxCheck.eq("row 3 CLOB", "", rs.getString(3));
            IfxCheck.eq("fourth row", false, rs.next());
        }
        IfxCheck.stillUsable(c);
    }

    private static void streams(IfxCheck.Ctx ctx) throws Exception {
        Connection c = ctx.db();
        IfxCheck.update(c, "CREATE TABLE ls (id INTEGER, b BLOB, c CLOB)");
        byte[] data = blob(70_001);
        String txt = text(9_999, alphabet(ctx));
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ls VALUES (?, ?, ?)")) {
            ps.setInt(1, 1);
            ps.setBinaryStream(2, new ByteArrayInputStream(data), data.length);
            ps.setCharacterStream(3, new StringReader(txt), txt.length());
            IfxCheck.eq("INSERT streams count", 1, ps.executeUpdate());
        }
        Blob first;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT b, c FROM ls WHERE id = 1")) {
            IfxCheck.check(rs.next(), "row 1 missing");
            IfxCheck.eq("streamed BLOB", data, rs.getBytes(1));
            IfxCheck.eq("streamed CLOB", txt, rs.getString(2));
            first = rs.getBlob(1);
            // A Blob read from one row bound into another (JDBC copies its data).
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ls VALUES (2, ?, NULL)")) {
                ps.setBlob(1, first);
                IfxCheck.eq("INSERT setBlob count", 1, ps.executeUpdate());
            }
        }
        IfxCheck.eq("copied BLOB", data, bytes(c, "SELECT b FROM ls WHERE id = 2"));
        IfxCheck.stillUsable(c);
    }

    private static void smartBlob(IfxCheck.Ctx ctx) throws Exception {
        Connection c = ctx.db();
        IfxCheck.update(c, "CREATE TABLE lsb (id INTEGER, b BLOB)");
        IfxSmartBlob smb = new IfxSmartBlob(c);
        IfxLocator loc = new IfxLocator();
        int fd = smb.IfxLoCreate(new IfxLobDescriptor(c), IfxSmartBlob.LO_RDWR, loc);
        IfxCheck.check(fd > 0, "IfxLoCreate returned descriptor " + fd);
        byte[] data = blob(50_000);
        IfxCheck.eq("IfxLoWrite", data.length, smb.IfxLoWrite(fd, data));
        IfxCheck.eq("IfxLoTell after write", (long) data.length, smb.IfxLoTell(fd));
        IfxCheck.eq("IfxLoSize", (long) data.length, smb.IfxLoSize(fd));
        IfxCheck.eq("seek", 100L, smb.seek(fd, 100, IfxSmartBlob.LO_SEEK_SET));
        IfxCheck.eq("IfxLoRead at 100", Arrays.copyOfRange(data, 100, 110), smb.IfxLoRead(fd, 10));
        smb.IfxLoTruncate(fd, 40_000);
        IfxCheck.eq("IfxLoSize after truncate", 40_000L, smb.IfxLoSize(fd));
        smb.IfxLoClose(fd);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO lsb VALUES (1, ?)")) {
            ps.setBlob(1, new IfxBblob((com.informix.jdbc.IfxConnection) c, loc));
            IfxCheck.eq("INSERT locator count", 1, ps.executeUpdate());
        }
        IfxCheck.eq("BLOB written through IfxSmartBlob", Arrays.copyOf(data, 40_000),
                bytes(c, "SELECT b FROM lsb WHERE id = 1"));
        IfxCheck.stillUsable(c);
    }

    private static void updateDelete(IfxCheck.Ctx ctx) throws Exception {
        Connection c = ctx.db();
        IfxCheck.update(c, "CREATE TABLE lu (id INTEGER, b BLOB)");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO lu VALUES (?, ?)")) {
            for (int i = 1; i <= 3; i++) {
                ps.setInt(1, i);
                ps.setBytes(2, blob(1000 * i));
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE lu SET b = ? WHERE id = ?")) {
            ps.setBytes(1, blob(7));
            ps.setInt(2, 2);
            IfxCheck.eq("UPDATE count", 1, ps.executeUpdate());
        }
        IfxCheck.eq("updated BLOB", blob(7), bytes(c, "SELECT b FROM lu WHERE id = 2"));
        IfxCheck.eq("DELETE count", 1, IfxCheck.update(c, "DELETE FROM lu WHERE id = 1"));
        IfxCheck.eq("rows left", 2L, IfxCheck.count(c, "lu"));
        IfxCheck.eq("row 3 BLOB", blob(3000), bytes(c, "SELECT b FROM lu WHERE id = 3"));
        IfxCheck.stillUsable(c);
    }

    private static void clientFiles(IfxCheck.Ctx ctx) throws Exception {
        Connection c = ctx.db();
        IfxCheck.update(c, "CREATE TABLE lf (id INTEGER, b BLOB, c CLOB)");
        Path dir = Files.createTempDirectory("ifxcheck-lob");
        try {
            byte[] data = blob(40_000);
            Path in = dir.resolve("in.bin");
            Files.write(in, data);
            IfxCheck.eq("INSERT FILETOBLOB", 1, IfxCheck.update(c,
                    "INSERT INTO lf VALUES (1, FILETOBLOB('" + in + "', 'client'), "
                    + "FILETOCLOB('" + in + "', 'client'))"));
            IfxCheck.eq("FILETOBLOB data", data, bytes(c, "SELECT b FROM lf"));
            Path out = dir.resolve("out.bin");
            List<List<Object>> names = IfxCheck.rows(c,
                    "SELECT LOTOFILE(b, '" + out + "!', 'client') FROM lf WHERE id = 1");
            IfxCheck.eq("LOTOFILE file name", out.toString(), String.valueOf(names.get(0).get(0)).trim());
            IfxCheck.eq("LOTOFILE data", data, Files.readAllBytes(out));
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
        IfxCheck.stillUsable(c);
    }

    private static void errors(IfxCheck.Ctx ctx) throws Exception {
        Connection c = ctx.db();
        IfxSmartBlob smb = new IfxSmartBlob(c);
        expectCode("ifx_lo_close(-1)", () -> smb.IfxLoClose(-1), -9810);
        IfxLocator loc = new IfxLocator();
        int fd = smb.IfxLoCreate(new IfxLobDescriptor(c), IfxSmartBlob.LO_WRONLY, loc);
        expectCode("read on a write-only descriptor", () -> smb.IfxLoRead(fd, 10), -9810);
        smb.IfxLoClose(fd);
        expectCode("read after close", () -> smb.IfxLoRead(fd, 10), -9810);
        expectCode("bad open flags",
                () -> smb.IfxLoOpen(loc, IfxSmartBlob.LO_RDONLY | IfxSmartBlob.LO_WRONLY), -9810);
        IfxCheck.stillUsable(c);
    }

    /** The BLOB of the first row a query returns. */
    static byte[] bytes(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            IfxCheck.check(rs.next(), "no row: " + sql);
            return rs.getBytes(1);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Cross-client (on demand): tables prepared by tests/interop/test_lob_interop.py

    private static void readSizes(IfxCheck.Ctx ctx) throws Exception {
        Connection c = ctx.db();
        String abc = alphabet(ctx);
        List<String> problems = new ArrayList<>();
        for (String table : new String[] {"lob_x", "lob_xd"}) {
            int seen = 0;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT n, b, c FROM " + table + " ORDER BY n")) {
                while (rs.next()) {
                    seen++;
                    int n = rs.getInt(1);
                    byte[] b = rs.getBytes(2);
                    String t = rs.getString(3);
                    if (n < 0) {
                        if (b != null || t != null) {
                            problems.add(table + " NULL row is not NULL");
                        }
                        continue;
                    }
                    if (!Arrays.equals(blob(n), b)) {
                        problems.add(table + " BLOB " + n + " differs (" + (b == null ? "null" : b.length) + " bytes)");
                    }
                    if (!text(n, abc).equals(t)) {
                        problems.add(table + " CLOB " + n + " differs (" + (t == null ? "null" : t.length()) + " chars)");
                    }
                }
            }
            if (seen != SIZES.length + 1) {
                problems.add(table + ": " + seen + " rows");
            }
        }
        IfxCheck.check(problems.isEmpty(), String.join("; ", problems));
    }

    private static void writeSizes(IfxCheck.Ctx ctx) throws Exception {
        Connection c = ctx.db();
        String abc = alphabet(ctx);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO lob_w VALUES (?, ?, ?)")) {
            for (int n : SIZES) {
                ps.setInt(1, n);
                if (n == 65537) {
                    ps.setBinaryStream(2, new ByteArrayInputStream(blob(n)), n);
                    ps.setCharacterStream(3, new StringReader(text(n, abc)), n);
                } else {
                    ps.setBytes(2, blob(n));
                    ps.setString(3, text(n, abc));
                }
                ps.executeUpdate();
            }
            ps.setInt(1, -1);
            ps.setNull(2, Types.BLOB);
            ps.setNull(3, Types.CLOB);
            ps.executeUpdate();
        }
    }
}
