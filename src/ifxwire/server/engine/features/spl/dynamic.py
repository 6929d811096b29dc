"""Dynamic SQL in SPL routines: PREPARE, DECLARE, OPEN, FETCH, CLOSE and FREE.

Guide to SQL: Syntax, "Declaring a Dynamic Cursor in an SPL Routine" (ids_sqs_0117), PREPARE
(ids_sqs_0927, with the order_city example of ids_sqs_1881), FETCH, and "SQLCODE Function
(SPL)" (ids_sqs_1483). What the pages fix, and this module does:

* PREPARE takes the text of one SELECT, EXECUTE FUNCTION or EXECUTE PROCEDURE statement from a
  character expression; ``?`` marks a value the OPEN supplies. The SELECT may not have INTO
  variables, INTO TEMP or FOR UPDATE. The text is compiled at PREPARE (a missing table is the
  PREPARE's error, as a client's PREPARE), against the schema of that moment.
* DECLARE names a cursor for a prepared statement; SPL cursors are sequential, and only a
  SELECT cursor may be WITH HOLD. OPEN … USING gives the ``?`` the values of SPL variables
  (their declared types, as a variable in a routine's static SQL); FETCH … INTO moves to the
  next row and sets SQLCODE (100 at the end, the variables unchanged); CLOSE and FREE end them.
* Statement and cursor names belong to one routine activation, one namespace for both.

The errors are the message catalogue's (IBM JDBC's ``sql_en_US.properties``): -26051 (NULL
text), -26052 (OPEN of an open cursor), -26053 (FETCH/CLOSE of a cursor not open), -26054
(FREE of an open cursor), -26055 (no such statement or cursor), -26056 (a function cursor WITH
HOLD), -26057 (a name in use), -26058 (several statements), -26059 (text of no character
type), -482 (a scroll FETCH on a sequential cursor), -254 (USING or INTO lists of the wrong
length). Which statement kinds besides the three are refused with which code is our judgement:
-26064, "a statement cannot be prepared", naming the statement.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlglot import exp
from sqlglot.tokenizer_core import TokenType

from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.ifxtypes import IfxType
from ...sql.statements import IfxStatement
from . import ast as a
from .cursor import tokenize
from .frame import Frame, Row
from .resolve import candidates

if TYPE_CHECKING:
    from ..session_api import FeatureSession
    from .interp import Runtime
    from .parser import SplParser
    from .sqlrun import Runner

_DIRECTIONS = ("NEXT", "PREVIOUS", "PRIOR", "FIRST", "LAST", "CURRENT")
_OFFSET_DIRECTIONS = ("RELATIVE", "ABSOLUTE")


# ---- parsing (called by parser.SplParser.statement) --------------------------------------------
def parse(p: SplParser) -> a.Node:
    """One of PREPARE, DECLARE, OPEN, FETCH, CLOSE, FREE (the current word)."""
    pos = p.pos()
    word = p.word()
    p.i += 1
    node: a.Node
    if word == "PREPARE":
        name = p.name()
        p.expect("FROM")
        node = a.Prepare(pos, name=name, expr=p.expr())
    elif word == "DECLARE":
        cursor = p.name()
        p.expect("CURSOR")  # SPL cursors are sequential: no SCROLL (ids_sqs_0119)
        hold = p.eat("WITH", "HOLD")
        p.expect("FOR")
        node = a.Declare(pos, cursor=cursor, statement=p.name(), hold=hold)
    elif word == "OPEN":
        opened = a.Open(pos, cursor=p.name())
        if p.eat("USING"):
            opened.using = p.names()
        node = opened
    elif word == "FETCH":
        direction = "NEXT"
        if p.word() in _DIRECTIONS and p.word(1) != "INTO":
            direction = p.word()
            p.i += 1
        elif p.word() in _OFFSET_DIRECTIONS:
            direction = p.word()
            p.i += 1
            p.expr()
        fetch = a.Fetch(pos, cursor=p.name(), direction=direction)
        p.expect("INTO")
        fetch.into = p.names()
        node = fetch
    elif word == "CLOSE":
        node = a.Close(pos, cursor=p.name())
    else:
        node = a.Free(pos, name=p.name())
    p.semicolon()
    return node


# ---- running -----------------------------------------------------------------------------------
@dataclass(eq=False)
class _Prepared:
    """A prepared statement: a query (``query``) or a routine call (``call``), its ``?``
    already replaced by the names ``ifx_dyn_<n>`` that OPEN's USING variables stand for."""

    name: str
    query: a.Sql | None = None
    call: a.CallSpec | None = None
    nparams: int = 0


@dataclass(eq=False)
class _Cursor:
    name: str
    statement: _Prepared
    hold: bool
    rows: Iterator[Row] | None = None
    types: list[IfxType] = field(default_factory=list)
    opened_in: int = 0  # the session's transactions_ended at OPEN


def one_statement(text: str, delimident: bool) -> list[Any]:
    """The tokens of the one statement ``text`` holds (a trailing ';' allowed): several are
    -26058, as for EXECUTE IMMEDIATE."""
    toks = tokenize(text, delimident)
    end = next((i for i, t in enumerate(toks) if t.token_type == TokenType.SEMICOLON),
               len(toks))
    if any(t.token_type != TokenType.SEMICOLON for t in toks[end:]):
        raise EngineError(sc.DYN_SEVERAL)
    if not toks[:end]:
        raise EngineError(sc.SYNTAX)
    return toks[:end]


def _param(i: int) -> str:
    return f"ifx_dyn_{i}"


def _numbered(tree: exp.Expr, start: int = 0) -> tuple[exp.Expr, int]:
    """``tree`` with its ``?`` (in text order) replaced by the columns ``ifx_dyn_<n>``,
    numbered from ``start``."""
    tree = tree.copy()
    holders = sorted(tree.find_all(exp.Placeholder), key=lambda h: h.meta.get("pos", 0))
    for i, holder in enumerate(holders, start):
        column = exp.Column(this=exp.to_identifier(_param(i)))
        if holder is tree:
            tree = column
        else:
            holder.replace(column)
    return tree, len(holders)


class DynamicSql:
    """PREPARE … FREE of an SPL frame (a base of Interp)."""

    rt: Runtime
    frame: Frame
    runner: Runner
    session: FeatureSession

    if TYPE_CHECKING:
        def sqlcode(self, value: int) -> None: ...
        def assign(self, decls: list[a.VarDecl], row: Row, types: list[IfxType]) -> None: ...
        def call_rows(self, node: a.CallSpec, scope: dict[str, a.VarDecl]) -> tuple[
            Iterator[Row], list[IfxType]]: ...
        def _refuse_cursor_function(self, tree: exp.Expr) -> None: ...

    def _names(self) -> dict[str, _Prepared | _Cursor]:
        names: dict[str, _Prepared | _Cursor] | None = self.frame.dynamic
        if names is None:
            names = self.frame.dynamic = {}
        return names

    def _named(self, name: str) -> _Prepared | _Cursor:
        found = self._names().get(name.lower())
        if found is None:
            raise EngineError(sc.DYN_UNDEFINED, near=name)
        return found

    def _cursor(self, name: str) -> _Cursor:
        found = self._named(name)
        if not isinstance(found, _Cursor):
            raise EngineError(sc.DYN_UNDEFINED, near=name)
        if found.rows is not None and not found.hold and (
                self.session.transactions_ended != found.opened_in):
            _close(found)  # a cursor without WITH HOLD closed with its transaction
        return found

    def _claim(self, name: str, scope: dict[str, a.VarDecl]) -> None:
        """A new statement or cursor name: unique among the routine's statements, cursors
        and variables (ids_sqs_0117)."""
        if name.lower() in self._names() or name in scope or name.lower() in scope:
            raise EngineError(sc.DYN_IN_USE, near=name)

    def s_prepare(self, node: a.Prepare, scope: dict[str, a.VarDecl]) -> None:
        assert node.expr is not None
        compiled = self.runner.compile_values(node, "e", [node.expr], scope)
        value = self.runner.fetch_one(compiled, self.frame)[0]
        ty = compiled.plan.types[0]
        if value is None:
            raise EngineError(sc.DYN_NULL_TEXT)
        if not ty.is_string:
            raise EngineError(sc.DYN_TEXT_TYPE)
        self._claim(node.name, scope)
        prepared = self._prepare(node.name, str(value))
        self._names()[node.name.lower()] = prepared
        self.sqlcode(0)

    def _prepare(self, name: str, text: str) -> _Prepared:
        from .parser import SplParser  # (the parser imports this module for its statements)

        delimident = self.session._delimident()
        toks = one_statement(text, delimident)
        parser = SplParser(text, toks, delimident)
        parser.function = parser.iterator = False  # (what RETURN parsing would set)
        parser.nreturns = 0
        first = parser.word()
        if first == "EXECUTE" and parser.word(1) in ("FUNCTION", "PROCEDURE"):
            spec = parser.execute_call()
            if parser.tok() is not None or spec.into:
                raise EngineError(sc.DYN_CANNOT_PREPARE, near=text[:60])
            args = []
            count = 0
            for arg in spec.args:
                numbered, n = _numbered(arg, count)
                args.append(numbered)
                count += n
            spec.args = args
            schema = self.session.current_schema()
            if not candidates(schema.routines.get(spec.name, []), spec.kind, len(args)):
                raise EngineError(sc.NO_ROUTINE, near=spec.name)
            return _Prepared(name, call=spec, nparams=count)
        if first not in ("SELECT", "WITH") and not parser.is_type(TokenType.L_PAREN):
            raise EngineError(sc.DYN_CANNOT_PREPARE, near=text[:60])
        sql = parser.sql_from(0, len(toks))
        tree = sql.tree
        assert tree is not None
        if sql.into or isinstance(tree, IfxStatement) or "into_temp" in tree.meta or (
                any(isinstance(lock, exp.Lock) for lock in tree.args.get("locks") or [])):
            raise EngineError(sc.DYN_CANNOT_PREPARE, near=text[:60])
        self._check(sql)
        numbered, count = _numbered(tree)
        return _Prepared(name, query=a.Sql(sql.pos, tree=numbered, text=sql.text),
                         nparams=count)

    def _check(self, sql: a.Sql) -> None:
        """Compile the query as a client's PREPARE would (its ``?`` untyped): a missing
        table or column is the PREPARE's error."""
        tree = sql.tree
        assert tree is not None

        def build(c: Any, _sub: Any) -> Any:
            c.allow_bare_params = True
            return c.compile_query(tree.copy(), None).finish(c.ctx)

        self.runner.compile(sql, "prepare", {}, build)

    def s_declare(self, node: a.Declare, scope: dict[str, a.VarDecl]) -> None:
        statement = self._named(node.statement)
        if not isinstance(statement, _Prepared):
            raise EngineError(sc.DYN_UNDEFINED, near=node.statement)
        self._claim(node.cursor, scope)
        if node.hold and statement.call is not None:
            raise EngineError(sc.DYN_FUNCTION_HOLD, near=node.cursor)
        self._names()[node.cursor.lower()] = _Cursor(node.cursor, statement, node.hold)
        self.sqlcode(0)

    def s_open(self, node: a.Open, scope: dict[str, a.VarDecl]) -> None:
        cursor = self._cursor(node.cursor)
        if cursor.rows is not None:
            raise EngineError(sc.DYN_OPEN_TWICE, near=node.cursor)
        statement = cursor.statement
        if len(node.using) != statement.nparams:
            raise EngineError(sc.HOSTVAR_COUNT)
        values = {_param(i): scope[name] for i, name in enumerate(node.using)}
        key = ("open", tuple(id(d) for d in values.values()))
        if statement.call is not None:
            rows, types = self.call_rows(statement.call, values)
        else:
            query = statement.query
            assert query is not None and query.tree is not None
            self._refuse_cursor_function(query.tree)
            compiled = self.runner.compile_query(query, key, query.tree, values, None)
            rows, types = self.runner.rows(compiled, self.frame), list(compiled.plan.types)
        cursor.rows, cursor.types = rows, types
        cursor.opened_in = self.session.transactions_ended
        self.sqlcode(0)

    def s_fetch(self, node: a.Fetch, scope: dict[str, a.VarDecl]) -> None:
        cursor = self._cursor(node.cursor)
        if cursor.rows is None:
            raise EngineError(sc.DYN_NOT_OPEN, near=node.cursor)
        if node.direction != "NEXT":
            raise EngineError(sc.NOT_SCROLL_CURSOR)
        if len(node.into) != len(cursor.types):
            raise EngineError(sc.HOSTVAR_COUNT)
        row = next(cursor.rows, None)
        if row is None:
            self.sqlcode(100)  # the variables keep their values (ids_sqs_0790)
            return
        self.assign([scope[n] for n in node.into], row, cursor.types)
        self.sqlcode(0)

    def s_close(self, node: a.Close, scope: dict[str, a.VarDecl]) -> None:
        cursor = self._cursor(node.cursor)
        if cursor.rows is None:
            raise EngineError(sc.DYN_NOT_OPEN, near=node.cursor)
        _close(cursor)
        self.sqlcode(0)

    def s_free(self, node: a.Free, scope: dict[str, a.VarDecl]) -> None:
        found = self._named(node.name)
        if isinstance(found, _Cursor):
            found = self._cursor(node.name)
            if found.rows is not None:
                raise EngineError(sc.DYN_FREE_OPEN, near=node.name)
        del self._names()[node.name.lower()]
        self.sqlcode(0)


def _close(cursor: _Cursor) -> None:
    rows, cursor.rows = cursor.rows, None
    close = getattr(rows, "close", None)
    if close is not None:
        close()


def close_all(frame: Frame) -> None:
    """The routine ended: its open cursors close (their SQLite statements with them)."""
    for item in (frame.dynamic or {}).values():
        if isinstance(item, _Cursor) and item.rows is not None:
            _close(item)
