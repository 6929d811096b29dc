"""ifxwire.otel's pieces that need no server: the literal masking and operation names of
ifxwire/otel/_sql.py, and the core importing (and running) without OpenTelemetry."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ifxwire.otel._sql import operation_name, sanitize, summary


@pytest.mark.parametrize(
    ("sql", "masked"),
    [
        ("SELECT * FROM t WHERE a = 'x' AND b = 12", "SELECT * FROM t WHERE a = ? AND b = ?"),
        ("SELECT * FROM t WHERE a = 'it''s' OR a = \"dq\"", "SELECT * FROM t WHERE a = ? OR a = ?"),
        ("INSERT INTO t2 VALUES (1.5, -3, .25, 1e10, 0x1F)",
         "INSERT INTO t2 VALUES (?, -?, ?, ?, ?)"),
        ("SELECT col1, t1.c2 FROM tab3 WHERE x = ?", "SELECT col1, t1.c2 FROM tab3 WHERE x = ?"),
        ("SELECT DATETIME (2024-01-02 10:11) YEAR TO MINUTE FROM t",
         "SELECT DATETIME (?) YEAR TO MINUTE FROM t"),
        ("SELECT INTERVAL(5) DAY TO DAY FROM t", "SELECT INTERVAL(?) DAY TO DAY FROM t"),
        ("SELECT 1 -- keep 'this'\nFROM t", "SELECT ? -- keep 'this'\nFROM t"),
        ("SELECT {note 7} a FROM t /* c 8 */", "SELECT {note 7} a FROM t /* c 8 */"),
        ("SELECT 'unterminated", "SELECT ?"),
    ],
)
def test_literals_are_masked(sql: str, masked: str) -> None:
    assert sanitize(sql) == masked
    assert sanitize(sql) == masked  # from the cache


@pytest.mark.parametrize(
    ("sql", "name"),
    [
        ("select * from t", "SELECT"),
        ("  -- lead\n /* c */ (SELECT 1 FROM t) UNION SELECT 2 FROM t", "SELECT"),
        ("{ braces } insert into t values (1)", "INSERT"),
        ("execute procedure p(1)", "EXECUTE PROCEDURE"),
        ("EXECUTE FUNCTION f()", "EXECUTE FUNCTION"),
        ("CREATE TABLE t (a INT)", "CREATE"),
        ("", None),
        ("?", None),
    ],
)
def test_operation_names(sql: str, name: str | None) -> None:
    assert operation_name(sql) == name


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        # The conventions' own examples ("Generating a summary of the query").
        ("SELECT *\nFROM   wuser_table\nWHERE  username = ?", "SELECT wuser_table"),
        ("INSERT INTO shipping_details (order_id, address) SELECT order_id, address "
         "FROM orders WHERE order_id = ?", "INSERT shipping_details SELECT orders"),
        ("SELECT * FROM songs, artists WHERE songs.artist_id == artists.id",
         "SELECT songs artists"),
        ("SELECT order_date FROM (SELECT * FROM orders o JOIN customers c "
         "ON o.customer_id = c.customer_id)", "SELECT SELECT orders customers"),
        ('SELECT * FROM "song list", artists', 'SELECT "song list" artists'),
        # Informix's forms.
        ("select a from t1 x, outer t2 as y where x.a = y.a", "SELECT t1 t2"),
        ("SELECT a FROM stores@ol:informix.customer c", "SELECT stores@ol:informix.customer"),
        ("SELECT 1", "SELECT"),
        ("UPDATE stock SET a = 1 WHERE b IN (SELECT c FROM d)", "UPDATE stock SELECT d"),
        ("DELETE FROM t WHERE a = 'FROM secret'", "DELETE t"),
        ("SELECT * FROM t FOR UPDATE OF a", "SELECT t"),
        ("SELECT a FROM t INTO TEMP tmp1", "SELECT t tmp1"),
        ("CREATE TEMP TABLE t (a INT)", "CREATE t"),
        ("CREATE TABLE IF NOT EXISTS s.t (a INT)", "CREATE s.t"),
        ("CREATE PROCEDURE p() RETURNING INT; SELECT a FROM t; END PROCEDURE", "CREATE p"),
        ("CREATE VIEW v AS SELECT a FROM t", "CREATE v SELECT t"),
        ("DROP TABLE t", "DROP t"),
        ("EXECUTE PROCEDURE p(?, ?)", "EXECUTE PROCEDURE p"),
        ("DATABASE stores", "DATABASE stores"),
        ('INSERT INTO t VALUES ("secret", 42)', "INSERT t"),
        ("?", None),
    ],
)
def test_query_summaries(sql: str, expected: str | None) -> None:
    assert summary(sql) == expected


def test_a_long_summary_is_cut_between_names() -> None:
    sql = "SELECT * FROM " + ", ".join(f"table_{i:03}" for i in range(40))
    got = summary(sql)
    assert got is not None and len(got) <= 255
    assert got.split()[-1].startswith("table_") and len(got.split()[-1]) == 9


def test_the_core_imports_and_runs_without_opentelemetry() -> None:
    """The driver has no dependencies: with every opentelemetry module hidden, ifxwire and
    ifxwire.aio import, and only ifxwire.otel fails, saying which extra to install."""
    code = (
        "import sys\n"
        "class Hide:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'opentelemetry' or name.startswith('opentelemetry.'):\n"
        "            raise ImportError('hidden: ' + name)\n"
        "sys.meta_path.insert(0, Hide())\n"
        "import ifxwire, ifxwire.aio, ifxwire.rows\n"
        "assert not any(m.startswith('opentelemetry') for m in sys.modules), sys.modules\n"
        "try:\n"
        "    import ifxwire.otel\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert "pip install 'ifxwire[otel]'" in out.stdout
