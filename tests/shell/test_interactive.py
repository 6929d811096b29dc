"""The interactive ``ifxwire`` shell driven through a pseudo-terminal (pexpect): multi-line
input, completion from the catalog, history across sessions, output switches, progress and
errors, against the real server."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("prompt_toolkit")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")
PROMPT = "shop>"


class Shell:
    def __init__(self, url: str, history: Path, *args: str) -> None:
        env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", NO_COLOR="1",
                   IFXWIRE_HISTFILE=str(history), COLUMNS="120", LINES="40")
        self.child = pexpect.spawn(sys.executable, ["-m", "ifxwire", url, *args], env=env,
                                   encoding="utf-8", timeout=20, dimensions=(40, 120))
        self.expect(PROMPT)

    def expect(self, pattern: str) -> str:
        """Wait for ``pattern`` (plain text) and return everything before it, without
        terminal escapes."""
        self.child.expect_exact(pattern)
        return ANSI.sub("", self.child.before or "")

    def send(self, text: str) -> None:
        self.child.send(text)

    def tab(self, text: str) -> None:
        """Type ``text`` and Tab, then wait until the screen stops changing: completions are
        computed in the background, so keys typed at once would overtake them."""
        self.child.send(text + "\t")
        while True:
            try:
                self.child.read_nonblocking(size=65536, timeout=0.5)
            except pexpect.TIMEOUT:
                return

    def line(self, text: str) -> None:
        self.child.send(text + "\r")

    def close(self) -> int:
        self.line("\\q")
        self.child.expect(pexpect.EOF)
        self.child.close()
        return int(self.child.exitstatus)


@pytest.fixture()
def shell(url: str, tmp_path: Path) -> Iterator[Shell]:
    sh = Shell(url, tmp_path / "history")
    yield sh
    if sh.child.isalive():
        sh.child.terminate(force=True)


def test_multi_line_statement_runs_at_the_semicolon(shell: Shell) -> None:
    shell.line("SELECT id, name")
    shell.line("FROM customer")
    shell.line("WHERE id <= 2")  # no ';' yet: nothing runs
    shell.line("ORDER BY id;")
    out = shell.expect("(2 rows)")
    assert "  1 | c0" in out and "  2 | c1" in out
    shell.expect(PROMPT)
    assert shell.close() == 0


def test_completion_of_keywords_tables_and_columns(shell: Shell) -> None:
    for part in ("sel", " id, bal", " FROM cust"):
        shell.tab(part)
    shell.line(" WHERE id = 3;")
    out = shell.expect("(1 row)")
    assert re.search(r"id \| balance", out), out
    assert "  3 |    3.00" in out
    shell.expect(PROMPT)
    shell.tab("SELECT c.vi")
    shell.line(" FROM customer c WHERE c.id = 1;")
    out = shell.expect("(1 row)")
    assert re.search(r"vip\s*\n-+\s*\n t", out), out


def test_history_is_kept_across_sessions(url: str, tmp_path: Path) -> None:
    history = tmp_path / "history"
    first = Shell(url, history)
    first.line("SELECT COUNT(*) AS total FROM customer;")
    first.expect("(1 row)")
    first.expect(PROMPT)
    first.send("\x04")  # leave with Ctrl-D, so the statement stays the last history entry
    first.child.expect(pexpect.EOF)
    assert "SELECT COUNT(*) AS total FROM customer;" in history.read_text()
    second = Shell(url, history)
    second.send("\x1b[A")  # arrow up recalls the last statement
    second.send("\r")
    out = second.expect("(1 row)")
    assert "total" in out and "3000" in out
    second.expect(PROMPT)
    assert second.close() == 0


def test_vertical_timing_and_describe(shell: Shell) -> None:
    shell.line("\\x")
    shell.expect("Output format is vertical.")
    shell.line("\\timing on")
    shell.expect("Timing is on.")
    shell.line("SELECT name, vip FROM customer WHERE id = 2;")
    out = shell.expect("(1 row)")
    assert "-[ RECORD 1 ]" in out and "name | c1" in out and "vip  | f" in out
    shell.child.expect(r"Time: \d+\.\d{3} ms")
    shell.line("INFO COLUMNS FOR customer;")
    out = shell.expect(" vip     | BOOLEAN")  # the last row
    assert "balance | DECIMAL(10,2) | yes   | 0" in out


def test_error_with_sqlcode_and_position(shell: Shell) -> None:
    shell.line("SELECT name FROM customer ORDER name;")
    out = shell.expect("(position ")
    assert "ERROR -201 [42000]" in out, out
    assert "LINE 1: SELECT name FROM customer ORDER name" in out
    assert out.rstrip().endswith("^"), out
    shell.line("SELECT COUNT(*) FROM customer;")  # the session goes on
    shell.expect("(1 row)")


def test_progress_during_a_long_fetch(url: str, tmp_path: Path) -> None:
    sh = Shell(url, tmp_path / "history", "--progress-after", "0")
    sh.line("SELECT a.id FROM customer a, customer b WHERE b.id <= 3;")
    out = sh.expect("(9000 rows)")
    assert "rows fetched..." in out and "9,000 rows fetched." in out
    sh.expect(PROMPT)
    assert sh.close() == 0


def test_end_of_input_leaves(shell: Shell) -> None:
    shell.send("\x04")  # Ctrl-D on an empty line
    shell.child.expect(pexpect.EOF)
    shell.child.close()
    assert shell.child.exitstatus == 0


def test_missing_prompt_toolkit_is_explained(url: str, tmp_path: Path) -> None:
    code = ("import sys; sys.modules['prompt_toolkit'] = None\n"
            "from ifxwire.shell.__main__ import main\n"
            f"raise SystemExit(main([{url!r}]))")
    child = pexpect.spawn(sys.executable, ["-c", code], encoding="utf-8", timeout=20)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert 'pip install "ifxwire[shell]"' in ANSI.sub("", child.before or "")




def test_progress_during_a_long_load_and_unload(url: str, tmp_path: Path) -> None:
    """On a terminal a LOAD shows ``N rows loaded...`` on stderr while its batches go in."""
    data = tmp_path / "rows.unl"
    data.write_text("".join(f"{i}|row {i}|\n" for i in range(5000)))
    sh = Shell(url, tmp_path / "history", "--progress-after", "0")
    sh.line("CREATE TEMP TABLE loaded (id INT, name VARCHAR(20));")
    sh.expect("Create done.")
    sh.line(f"LOAD FROM '{data}' INSERT INTO loaded;")
    out = sh.expect("5000 row(s) loaded.")
    assert "rows loaded..." in out and "5,000 rows loaded." in out
    back = tmp_path / "back.unl"
    sh.line(f"UNLOAD TO '{back}' SELECT * FROM loaded ORDER BY id;")
    sh.expect("5000 row(s) unloaded.")
    sh.expect(PROMPT)
    assert sh.close() == 0
    assert back.read_text() == data.read_text()
