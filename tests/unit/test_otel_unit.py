"""ifxwire.otel's pieces that need no server: the literal masking and operation names of
ifxwire/otel/_sql.py, and the core importing (and running) without OpenTelemetry."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ifxwire.otel._sql import operation_name, sanitize


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
