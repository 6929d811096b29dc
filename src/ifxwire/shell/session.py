"""What the shell does with a line of input: SQL statements, backslash commands and the
dbaccess-style INFO commands, each result printed in the chosen format."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .. import Error
from . import describe, dump, loadunload, output, unl
from .splitter import split

HELP = """\
SQL statements end with ';' and may span lines.
  \\dt  or  INFO TABLES              list tables, views, synonyms and sequences
  \\d NAME  or  INFO COLUMNS FOR NAME describe a table (columns; \\d adds indexes, constraints)
  \\di NAME  or  INFO INDEXES FOR NAME list a table's indexes
  \\x                                toggle vertical output
  \\format table|vertical|csv|json   choose the output format
  \\timing [on|off]                  show how long each statement took
  \\null TEXT                        how NULL is shown (default: empty)
  \\c DATABASE                       open another database (DATABASE statement)
  \\i FILE                           run the statements in FILE
  \\dump [TABLE]                     the schema as dbschema prints it (all tables without TABLE)
  LOAD FROM 'f' [DELIMITER 'c'] INSERT INTO t [(cols)]   load an UNL file
  UNLOAD TO 'f' [DELIMITER 'c'] SELECT ...               write an UNL file
  \\conninfo                         where this session is connected
  \\?                                this help
  \\q  or  quit  or  exit            leave
"""


@dataclass
class Settings:
    format: str = "table"
    timing: bool = False
    null: str = ""
    #: Seconds a fetch may run before a progress line appears on stderr (None: never).
    progress_after: float | None = 1.0
    echo: bool = False


@dataclass
class ShellSession:
    conn: Any
    settings: Settings = field(default_factory=Settings)
    out: TextIO = field(default_factory=lambda: sys.stdout)
    err: TextIO = field(default_factory=lambda: sys.stderr)
    #: Set after DDL or a database change, so the completer reloads catalog names.
    catalog_changed: bool = True
    quit: bool = False

    # ---- input
    def run_text(self, text: str, keep_going: bool = False) -> bool:
        """Run every statement and command in ``text``; False if one failed."""
        ok = True
        for item in self.items(text):
            if not self.run_item(item):
                ok = False
                if not keep_going:
                    break
            if self.quit:
                break
        return ok

    @staticmethod
    def items(text: str) -> Iterator[str]:
        """Backslash commands (one per line) and ``;``-terminated statements, in order; a
        final statement without ``;`` counts too (as in ``-e``)."""
        pending = ""
        for line in text.splitlines(keepends=True):
            if not pending.strip() and line.lstrip().startswith("\\"):
                yield line.strip()
                continue
            pending += line
            statements, pending = split(pending)
            yield from statements
        if pending.strip():
            yield pending.strip().rstrip(";")

    def run_item(self, item: str) -> bool:
        if self.settings.echo:
            self.out.write(item + ("" if item.startswith("\\") else ";") + "\n")
        if item.startswith("\\"):
            return self.command(item)
        words = item.split()
        upper = [w.upper().rstrip(";") for w in words]
        if upper[:1] in (["QUIT"], ["EXIT"]) and len(words) == 1:
            self.quit = True
            return True
        if upper[:1] == ["INFO"]:
            return self.info(upper, words)
        return self.sql(item)

    # ---- SQL
    def sql(self, statement: str) -> bool:
        started = time.perf_counter()
        try:
            bulk = loadunload.parse(statement)
        except ValueError as exc:
            self.err.write(f"ERROR: {exc}\n")
            return False
        if bulk is not None:
            try:
                return self._bulk(bulk, statement)
            finally:
                if self.settings.timing:
                    self.out.write(f"Time: {(time.perf_counter() - started) * 1000:.3f} ms\n")
        try:
            cur = self.conn.cursor()
            try:
                cur.execute(statement)
                if cur.description is not None:
                    self._print_rows(cur)
                else:
                    self._print_status(statement, cur.rowcount)
            finally:
                cur.close()
        except Error as exc:
            self.error(exc, statement)
            return False
        finally:
            if self.settings.timing:
                self.out.write(f"Time: {(time.perf_counter() - started) * 1000:.3f} ms\n")
        return True

    def _bulk(self, bulk: loadunload.Load | loadunload.Unload, statement: str) -> bool:
        """LOAD and UNLOAD, run here in the client as dbaccess runs them."""
        try:
            if isinstance(bulk, loadunload.Unload):
                count = loadunload.unload(self.conn, bulk)
                self.out.write(f"{count} row(s) unloaded.\n")
            else:
                count = loadunload.load(self.conn, bulk, self.err,
                                        progress_after=self.settings.progress_after)
                self.out.write(f"{count} row(s) loaded.\n")
        except loadunload.LoadError as exc:
            if exc.cause is not None:
                self.error(exc.cause)
            why = "" if exc.cause is not None else ": " + str(exc).split(": ", 1)[1]
            kept = ("; no row of the file was kept" if exc.rolled_back else "")
            self.err.write(f"ERROR: LOAD stopped at line {exc.line} of {bulk.file}{why}{kept}\n")
            return False
        except unl.UnlError as exc:
            self.err.write(f"ERROR: {bulk.file}: {exc}\n")
            return False
        except OSError as exc:
            self.err.write(f"ERROR: cannot open {bulk.file}: {exc.strerror}\n")
            return False
        except ValueError as exc:
            self.err.write(f"ERROR: {exc}\n")
            return False
        except Error as exc:
            self.error(exc, statement)
            return False
        return True

    def _print_status(self, statement: str, rowcount: int) -> None:
        first = statement.split(None, 1)[0].upper() if statement.split() else ""
        if first in ("INSERT", "UPDATE", "DELETE", "MERGE"):
            verb = {"INSERT": "inserted", "UPDATE": "updated", "DELETE": "deleted",
                    "MERGE": "merged"}[first]
            self.out.write(f"{rowcount} row(s) {verb}.\n")
        else:
            if first in ("CREATE", "DROP", "ALTER", "RENAME", "DATABASE", "CLOSE"):
                self.catalog_changed = True
            self.out.write(f"{first.capitalize() or 'Statement'} done.\n")

    def _rows(self, cur: Any) -> Iterator[tuple[Any, ...]]:
        """The cursor's rows, with a progress line on stderr while a long fetch runs."""
        after = self.settings.progress_after
        started = time.monotonic()
        shown = 0.0
        count = 0
        for count, row in enumerate(cur, 1):
            if after is not None and count % 256 == 0:
                now = time.monotonic()
                if now - started >= after and now - shown >= 0.25:
                    self.err.write(f"\r{count:,} rows fetched...")
                    self.err.flush()
                    shown = now
            yield row
        if shown:
            self.err.write(f"\r{count:,} rows fetched.    \n")
            self.err.flush()

    def _print_rows(self, cur: Any) -> None:
        names = [d[0] for d in cur.description]
        types = [d[1] for d in cur.description]
        fmt, null = self.settings.format, self.settings.null
        rows = self._rows(cur)
        if fmt == "csv":
            output.write_csv(self.out, names, rows, null)
        elif fmt == "json":
            output.write_json(self.out, names, rows)
        elif fmt == "vertical":
            count = output.write_vertical(self.out, names, rows, null)
            self.out.write(f"({count} row{'s' if count != 1 else ''})\n")
        else:
            count = output.write_table(self.out, names, types, list(rows), null)
            self.out.write(f"({count} row{'s' if count != 1 else ''})\n")

    def error(self, exc: Error, statement: str | None = None) -> None:
        code = getattr(exc, "sqlcode", None)
        head = f"ERROR {code}" if code is not None else "ERROR"
        state = getattr(exc, "sqlstate", None)
        isam = getattr(exc, "isamcode", 0)
        text = getattr(exc, "message", None) or str(exc)
        detail = f" (ISAM {isam})" if isam else ""
        self.err.write(f"{head}{f' [{state}]' if state else ''}: {text}{detail}\n")
        offset = getattr(exc, "offset", None)
        near = getattr(exc, "near", None)
        if near and near not in text:
            self.err.write(f"near: {near}\n")
        if statement is not None and offset is not None and 0 <= offset <= len(statement):
            before = statement[:offset]
            line_no = before.count("\n")
            line = statement.splitlines()[line_no] if statement.splitlines() else ""
            column = offset - (before.rfind("\n") + 1)
            self.err.write(f"LINE {line_no + 1}: {line}\n")
            self.err.write(" " * (len(f"LINE {line_no + 1}: ") + column)
                           + f"^ (position {offset})\n")

    # ---- commands
    def _listing(self, listing: describe.Listing | None, name: str = "") -> bool:
        if listing is None:
            self.err.write(f'ERROR: no table or view "{name}" in this database\n')
            return False
        self.out.write(listing.title + "\n")
        output.write_table(self.out, listing.names, [None] * len(listing.names),
                           listing.rows, self.settings.null)
        return True

    def info(self, upper: list[str], words: list[str]) -> bool:
        try:
            if upper[1:] == ["TABLES"]:
                return self._listing(describe.tables(self.conn))
            if len(upper) == 4 and upper[2] == "FOR" and upper[1] in ("COLUMNS", "INDEXES"):
                name = describe.object_name(words[3])
                show = describe.columns if upper[1] == "COLUMNS" else describe.indexes
                return self._listing(show(self.conn, name), name)
        except Error as exc:
            self.error(exc)
            return False
        self.err.write("ERROR: use INFO TABLES, INFO COLUMNS FOR t or INFO INDEXES FOR t\n")
        return False

    def command(self, line: str) -> bool:
        name, _, arg = line.partition(" ")
        arg = arg.strip()
        try:
            return self._command(name, arg)
        except Error as exc:
            self.error(exc)
            return False

    def _command(self, name: str, arg: str) -> bool:
        s = self.settings
        if name in ("\\q", "\\quit"):
            self.quit = True
        elif name == "\\?":
            self.out.write(HELP)
        elif name == "\\dt" or (name == "\\d" and not arg):
            return self._listing(describe.tables(self.conn))
        elif name == "\\d":
            table = describe.object_name(arg)
            if not self._listing(describe.columns(self.conn, table), table):
                return False
            self._listing(describe.indexes(self.conn, table), table)
            return self._listing(describe.constraints(self.conn, table), table)
        elif name == "\\di" and arg:
            table = describe.object_name(arg)
            return self._listing(describe.indexes(self.conn, table), table)
        elif name == "\\x":
            s.format = "table" if s.format == "vertical" else "vertical"
            self.out.write(f"Output format is {s.format}.\n")
        elif name == "\\format" and arg in output.FORMATS:
            s.format = arg
            self.out.write(f"Output format is {s.format}.\n")
        elif name == "\\timing":
            s.timing = {"on": True, "off": False}.get(arg.lower(), not s.timing)
            self.out.write(f"Timing is {'on' if s.timing else 'off'}.\n")
        elif name == "\\null":
            s.null = arg
        elif name == "\\c" and arg:
            return self.sql(f"DATABASE {arg}")
        elif name == "\\i" and arg:
            try:
                text = Path(arg).read_text(encoding="utf-8")
            except OSError as exc:
                self.err.write(f"ERROR: cannot read {arg}: {exc.strerror}\n")
                return False
            return self.run_text(text)
        elif name == "\\dump":
            ddl = dump.schema(self.conn, describe.object_name(arg) if arg else None)
            if ddl is None:
                self.err.write(f'ERROR: no table "{describe.object_name(arg)}" in this database\n')
                return False
            self.out.write(ddl)
        elif name == "\\conninfo":
            c = self.conn
            self.out.write(f"Connected to {c.server_version_string or 'Informix'}, database "
                           f"{c.database or '(none)'} ({c.logging_mode or 'no database'}).\n")
        else:
            self.err.write(f"ERROR: unknown or incomplete command {name!r}; \\? lists them\n")
            return False
        return True
