"""Parse CREATE PROCEDURE / CREATE FUNCTION into a routine header and body (``ast.py``).

The control flow (DEFINE, LET, IF, FOR, FOREACH, WHILE, LOOP, ON EXCEPTION, …) is parsed
here, token by token; every expression and every embedded SQL statement is handed to the
engine's own sqlglot parser, so SPL and plain SQL accept the same expressions. Errors are
Informix's: -201 with the offending token and its offset in the statement text.

The body is parsed at CREATE (a syntax error there is the CREATE's error, as in Informix) and
again, from the stored text, the first time a session runs the routine.
"""

from __future__ import annotations

import typing as t
from collections.abc import Mapping

from sqlglot import exp
from sqlglot.tokenizer_core import TokenType

from .....protocol.codes import TypeCode as T
from ...core import sqlcodes as sc
from ...core.errors import EngineError, not_implemented
from ...core.ifxtypes import IfxType
from ...sql import refusals
from ...sql.hooks import PARSERS
from . import ast as a
from . import collection_insert, dynamic, usertypes
from .binder import bind
from .catalog import CreateRoutine
from .client_statements import parse_call, parse_drop
from .cursor import TokenCursor, tokenize
from .embedded_into import _take_current_of, _take_into

# Words that start an SPL statement (besides SQL): they end a FOREACH query, which has no
# semicolon of its own.
_SPL_WORDS = frozenset((
    "DEFINE", "LET", "IF", "FOR", "FOREACH", "WHILE", "LOOP", "EXIT", "CONTINUE", "RETURN",
    "CALL", "EXECUTE", "RAISE", "TRACE", "SYSTEM", "BEGIN", "END", "GOTO", "INSERT", "DELETE",
    "CREATE", "DROP", "ALTER", "RENAME", "GRANT", "REVOKE", "LOCK", "UNLOCK", "COMMIT",
    "ROLLBACK", "TRUNCATE", "MERGE",
))
_SQL_WORDS = frozenset((
    "SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "RENAME", "GRANT",
    "REVOKE", "LOCK", "UNLOCK", "COMMIT", "ROLLBACK", "SET", "TRUNCATE", "MERGE", "WITH",
    "SAVEPOINT", "RELEASE", "DATABASE", "CLOSE", "LOAD", "UNLOAD",
))
_LOOP_KINDS = ("FOR", "WHILE", "FOREACH", "LOOP")
_DYNAMIC_WORDS = frozenset(("PREPARE", "DECLARE", "OPEN", "FETCH", "CLOSE", "FREE"))


class SplParser(TokenCursor):
    """Recursive descent over the tokens of one CREATE PROCEDURE/FUNCTION statement."""

    #: the ``<<label>>`` of each statement being parsed, innermost last, so that a loop's
    #: ``END LOOP label`` can be matched against its own label.
    _loop_labels: list[str | None]

    def routine(self) -> tuple[a.RoutineHeader, a.RoutineBody]:
        self.expect("CREATE")
        dba = self.eat("DBA")
        keyword = self.word()
        if keyword not in ("PROCEDURE", "FUNCTION"):
            raise self.error()
        self.i += 1
        if self.word() == "IF" and self.word(1) == "NOT":
            self.expect("IF", "NOT", "EXISTS")
        owner, name = self.qualified_name()
        params = self.params()
        header = a.RoutineHeader(name, owner, keyword == "FUNCTION", keyword, params, [], [],
                                 dba=dba)
        self.header_options(header)
        if header.returns:
            header.function = True
        self.function = header.function
        self.nreturns = len(header.returns)
        if keyword == "FUNCTION" and not header.returns:
            raise self.error()  # a function must say what it returns
        block = self.block(("END",))
        unreached = self.__dict__.get("_gotos", [[]])[0]
        if unreached:
            raise not_implemented(f"GOTO {unreached[0]}: no label it can reach")
        self.expect("END", keyword)
        if self.eat("DOCUMENT"):
            header.document.append(self.string())
            while self.eat_type(TokenType.COMMA):
                header.document.append(self.string())
        if self.eat("WITH", "LISTING", "IN"):
            self.string()
        self.semicolon(required=False)
        if self.tok() is not None:
            raise self.error()
        body = bind(header, block)
        body.iterator = self.iterator
        return header, body

    def params(self) -> list[a.Param]:
        self.expect_type(TokenType.L_PAREN)
        out: list[a.Param] = []
        if self.eat_type(TokenType.R_PAREN):
            return out
        while True:
            mode = "IN"
            if self.word() in ("IN", "OUT", "INOUT") and not self.is_type(TokenType.COMMA, 1):
                mode = self.word()
                self.i += 1
            pname = self.name()
            param = a.Param(pname, None, mode=mode)
            if self.eat("LIKE"):
                param.like = self.column_ref()
            elif self.eat("REFERENCES"):
                param.type = self.ifx_type()
            else:
                param.type = self.ifx_type()
            if self.word() == "DEFAULT":
                self.i += 1
                start = self.pos()
                param.default = self.expr()
                param.default_text = self.sql[start : self.toks[self.i - 1].end + 1]
            out.append(param)
            if not self.eat_type(TokenType.COMMA):
                break
        self.expect_type(TokenType.R_PAREN)
        return out

    def header_options(self, header: a.RoutineHeader) -> None:
        while self.tok() is not None:
            w = self.word()
            if w in ("RETURNING", "RETURNS"):
                self.i += 1
                while True:
                    header.returns.append(self.ifx_type())
                    rname: str | None = None
                    if self.eat("AS"):
                        rname = self.name()
                    header.return_names.append(rname)
                    if not self.eat_type(TokenType.COMMA):
                        break
            elif w == "SPECIFIC":
                self.i += 1
                _owner, header.specific = self.qualified_name()
            elif w == "WITH" and self.is_type(TokenType.L_PAREN, 1):
                self.i += 2
                while not self.eat_type(TokenType.R_PAREN):
                    if self.tok() is None:
                        raise self.error()
                    if not self.is_type(TokenType.COMMA):
                        header.modifiers.append(self.word())
                    self.i += 1
            elif w == "REFERENCING":
                self.i += 1
                header.referencing = self.referencing()
                self.expect("FOR")
                header.trigger_table = self.qualified_name()[1]
            elif self.is_type(TokenType.SEMICOLON):
                self.i += 1
                return
            else:
                return

    def referencing(self) -> dict[str, str]:
        out: dict[str, str] = {}
        while self.word() in ("OLD", "NEW"):
            which = self.word().lower()
            self.i += 1
            self.eat("AS")
            out[which] = self.name()
        if not out:
            raise self.error()
        return out

    # ---- blocks ------------------------------------------------------------------------------
    def block(self, stops: tuple[str, ...]) -> a.Block:
        """A statement block: DEFINEs, ON EXCEPTIONs, statements, up to a stop word.

        GOTO targets are checked here: a GOTO whose label is not among this block's labelled
        statements is handed to the enclosing block (Guide to SQL: Syntax, GOTO: the label
        "must be within a scope that the GOTO statement can reach"); one that no block
        resolves is refused when the routine is created."""
        gotos = self.__dict__.setdefault("_gotos", [[]])
        gotos.append([])
        try:
            blk = self._block(stops)
        finally:
            pending = gotos.pop()
        labels = {str(getattr(st, "label", "") or "").lower() for st in blk.body}
        gotos[-1].extend(g for g in pending if g not in labels)
        return blk

    def _block(self, stops: tuple[str, ...]) -> a.Block:
        blk = a.Block(self.pos())
        while self.word() == "DEFINE":
            blk.body.append(self.define())
        for d in blk.body:
            assert isinstance(d, a.Define)
            blk.decls.extend(d.decls)
        blk.body.clear()
        while self.word() == "ON" and self.word(1) == "EXCEPTION":
            blk.handlers.append(self.on_exception())
        while self.tok() is not None and self.word() not in stops:
            if self.word() == "DEFINE" or (self.word() == "ON" and self.word(1) == "EXCEPTION"):
                raise self.error()  # only at the start of a statement block
            blk.body.append(self.statement())
        return blk

    def define(self) -> a.Define:
        pos = self.pos()
        self.expect("DEFINE")
        is_global = self.eat("GLOBAL")
        names = self.names()
        decls = [a.VarDecl(n, None, is_global=is_global) for n in names]
        if self.eat("LIKE"):
            if is_global:
                raise EngineError(sc.GLOBAL_LIKE, offset=pos)
            like = self.column_ref()
            for d in decls:
                d.like = like
        elif self.eat("REFERENCES"):
            ty = self.ifx_type()
            for d in decls:
                d.type = ty
        elif self.word() == "PROCEDURE":
            raise not_implemented("DEFINE … PROCEDURE")
        else:
            ty = self.ifx_type()
            if ty.is_serial:
                # DEFINE (ids_sqs_1306): no variable is SERIAL, SERIAL8 or BIGSERIAL
                raise EngineError(sc.VAR_SERIAL, near=names[0], offset=pos)
            if ty.code in (T.TEXT, T.BYTE):
                raise self.error()  # TEXT and BYTE only as REFERENCES TEXT / BYTE
            for d in decls:
                d.type = ty
        if self.word() == "DEFAULT":
            if not is_global:
                raise EngineError(sc.LOCAL_DEFAULT, offset=pos)  # only GLOBALs take one
            self.i += 1
            default = self.expr()
            for d in decls:
                d.default = default
        elif is_global:
            raise EngineError(sc.GLOBAL_NEEDS_DEFAULT, offset=pos)
        self.semicolon()
        return a.Define(pos, decls)

    def on_exception(self) -> a.OnException:
        node = a.OnException(self.pos())
        self.expect("ON", "EXCEPTION")
        if self.eat("IN"):
            self.expect_type(TokenType.L_PAREN)
            node.codes = self.exprs()
            self.expect_type(TokenType.R_PAREN)
        if self.eat("SET"):
            node.set_vars = self.names()
            if len(node.set_vars) > 3:
                raise self.error()
        self.__dict__["_handler_depth"] = self.__dict__.get("_handler_depth", 0) + 1
        try:
            node.body = self.block(("END",))
        finally:
            self.__dict__["_handler_depth"] -= 1
        self.expect("END", "EXCEPTION")
        node.resume = self.eat("WITH", "RESUME")
        self.semicolon(required=False)
        return node

    def end(self, word: str) -> None:
        self.expect("END", word)
        self.semicolon(required=False)

    def label(self) -> str | None:
        if self.is_type(TokenType.LT) and self.is_type(TokenType.LT, 1):
            self.i += 2
            name = self.name()
            if not (self.eat_type(TokenType.GT) and self.eat_type(TokenType.GT)):
                raise self.error()
            return name
        return None

    # ---- statements --------------------------------------------------------------------------
    def statement(self) -> a.Node:
        label = self.label()
        w = self.word()
        if label is not None and w not in ("FOR", "WHILE", "LOOP", "FOREACH"):
            node = self.statement()  # a statement label, a GOTO target (<<Label>> page)
            if getattr(node, "label", None) is not None:
                raise self.error()  # two labels on one statement
            node.label = label  # type: ignore[attr-defined]
            return node
        handler = _STATEMENTS.get(w)
        if handler is not None and not (w == "BEGIN" and self.word(1) in ("WORK", "TRANSACTION")):
            labels = self.__dict__.setdefault("_loop_labels", [])
            labels.append(label)
            try:
                node = handler(self)
            finally:
                labels.pop()
            if label is not None:
                node.label = label  # type: ignore[attr-defined]
            return node
        if w == "SET" and self.word(1) == "DEBUG":
            return self.debug_file()
        if w in _DYNAMIC_WORDS and not (w == "CLOSE" and self.word(1) == "DATABASE"):
            return dynamic.parse(self)  # dynamic SQL: PREPARE … FREE
        if w == "INSERT":
            coll = collection_insert.parse(self)  # INSERT INTO TABLE(collection variable)
            if coll is not None:
                return coll
        if w in _SQL_WORDS or w == "BEGIN" or self.is_type(TokenType.L_PAREN):
            return self.sql_statement()
        if w == "GOTO":
            return self.goto()
        raise self.error()

    def goto(self) -> a.Node:
        """GOTO label (not valid in an ON EXCEPTION block: GOTO page)."""
        if self.__dict__.get("_handler_depth", 0):
            raise self.error()
        node = a.Goto(self.pos())
        self.expect("GOTO")
        node.target = self.name().lower()
        self.semicolon(required=False)
        self.__dict__.setdefault("_gotos", [[]])[-1].append(node.target)
        return node

    def let(self) -> a.Node:
        node = a.Let(self.pos())
        self.expect("LET")
        node.targets = [self.target()]
        while self.eat_type(TokenType.COMMA):
            node.targets.append(self.target())
        self.expect_type(TokenType.EQ)
        start = self.i
        call = self.try_call(len(node.targets))
        if call is not None:
            node.call = call
        else:
            self.i = start
            node.exprs = self.exprs()
            if len(node.exprs) == 1 and len(node.targets) > 1:
                sub = node.exprs[0]
                while isinstance(sub, exp.Paren):
                    sub = sub.this
                if isinstance(sub, exp.Subquery):
                    sub = sub.this
                if not isinstance(sub, (exp.Select, exp.SetOperation)):
                    raise self.error()
                node.query = sub
                node.exprs = []
            elif len(node.exprs) != len(node.targets):
                if not any(_many_valued(e) for e in node.exprs):
                    raise self.error()
                node.mixed = True
        self.semicolon()
        return node

    def try_call(self, ntargets: int) -> a.CallSpec | None:
        """``LET a, b = f(x);``: a call assigning several values is a routine call, not an
        expression (an expression yields one value)."""
        if ntargets < 2:
            return None
        start = self.i
        try:
            owner, name = self.qualified_name()
        except EngineError:
            self.i = start
            return None
        if not self.is_type(TokenType.L_PAREN):
            self.i = start
            return None
        call = a.CallSpec(self.toks[start].start, name=name, owner=owner, kind="function")
        call.args = self.call_args()
        if not self.is_type(TokenType.SEMICOLON):
            self.i = start
            return None
        return call

    def call_args(self) -> list[exp.Expr]:
        self.expect_type(TokenType.L_PAREN)
        if self.eat_type(TokenType.R_PAREN):
            return []
        args = self.exprs()
        self.expect_type(TokenType.R_PAREN)
        return args

    def if_(self) -> a.Node:
        node = a.If(self.pos())
        self.expect("IF")
        while True:
            cond = self.expr()
            self.expect("THEN")
            node.branches.append((cond, self.block(("ELIF", "ELSE", "END"))))
            if self.eat("ELIF"):
                continue
            break
        if self.eat("ELSE"):
            node.orelse = self.block(("END",))
        self.end("IF")
        return node

    def case(self) -> a.Node:
        node = a.Case(self.pos())
        self.expect("CASE")
        subject = None if self.word() == "WHEN" else self.expr()
        while self.eat("WHEN"):
            cond = self.expr()
            if subject is not None:
                cond = exp.EQ(this=subject.copy(), expression=cond)
            self.expect("THEN")
            node.whens.append((cond, self.block(("WHEN", "ELSE", "END"))))
        if not node.whens:
            raise self.error()
        if self.eat("ELSE"):
            node.orelse = self.block(("END",))
        self.end("CASE")
        return node

    def loop_end(self, kind: str) -> None:
        """END FOR / END WHILE, or END LOOP when the loop was written … LOOP; a labelled
        loop may repeat its label after END LOOP (Guide to SQL: Syntax, FOR / LOOP / WHILE:
        "END LOOP [loop_label]")."""
        self.expect("END")
        if not self.eat(kind):
            raise self.error()
        labels = self.__dict__.get("_loop_labels") or [None]
        own = labels[-1]
        if kind == "LOOP" and own is not None and self.word().lower() == own.lower():
            self.i += 1
        self.semicolon(required=False)

    def for_(self) -> a.Node:
        node = a.For(self.pos())
        self.expect("FOR")
        node.var = self.name()
        if self.eat("IN"):
            self.expect_type(TokenType.L_PAREN)
            while True:
                rng = a.ForRange(self.expr())
                if self.eat("TO"):
                    rng.end = self.expr()
                    if self.eat("STEP"):
                        rng.step = self.expr()
                node.ranges.append(rng)
                if not self.eat_type(TokenType.COMMA):
                    break
            self.expect_type(TokenType.R_PAREN)
        else:
            self.expect_type(TokenType.EQ)
            rng = a.ForRange(self.expr())
            self.expect("TO")
            rng.end = self.expr()
            if self.eat("STEP"):
                rng.step = self.expr()
            node.ranges.append(rng)
        kind = "LOOP" if self.eat("LOOP") else "FOR"
        node.body = self.block(("END",))
        self.loop_end(kind)
        return node

    def while_(self) -> a.Node:
        node = a.While(self.pos())
        self.expect("WHILE")
        node.cond = self.expr()
        kind = "LOOP" if self.eat("LOOP") else "WHILE"
        node.body = self.block(("END",))
        self.loop_end(kind)
        return node

    def loop(self) -> a.Node:
        node = a.Loop(self.pos())
        self.expect("LOOP")
        node.body = self.block(("END",))
        self.loop_end("LOOP")
        return node

    def jump(self) -> a.Node:
        node = a.Jump(self.pos())
        node.exit = self.word() == "EXIT"
        self.i += 1
        if self.word() in _LOOP_KINDS:
            node.kind = self.word()
            self.i += 1
        if self.tok() is not None and not self.is_type(TokenType.SEMICOLON) and (
                self.word() != "WHEN"):
            node.label = self.name()
        if self.eat("WHEN"):
            node.when = self.expr()
        self.semicolon()
        return node

    def foreach(self) -> a.Node:
        node = a.Foreach(self.pos())
        self.expect("FOREACH")
        if self.word() not in ("SELECT", "EXECUTE", "WITH") and not self.is_type(
                TokenType.L_PAREN):
            node.cursor = self.name()
            node.hold = self.eat("WITH", "HOLD")
            if not self.eat("FOR"):
                raise not_implemented("FOREACH over a prepared statement")
        if self.word() == "EXECUTE":
            call = self.execute_call()
            node.call = call
            node.into = call.into
            if not node.into:
                raise self.error()
        else:
            end = self.query_end()
            node.query = self.sql_from(self.i, end)
            node.into = node.query.into
            if not node.into:
                raise self.error()
            self.i = end
        self.semicolon(required=False)
        node.body = self.block(("END",))
        self.end("FOREACH")
        return node

    def query_end(self) -> int:
        """Where a FOREACH query ends: a ';' or the first word that starts an SPL statement,
        outside parentheses and CASE … END."""
        depth = 0
        cases = 0
        j = self.i
        prev = ""
        while j < len(self.toks):
            tok = self.toks[j]
            tt = tok.token_type
            word = tok.text.upper() if tt != TokenType.STRING else ""
            if tt == TokenType.L_PAREN:
                depth += 1
            elif tt == TokenType.R_PAREN:
                depth -= 1
            elif depth == 0:
                if tt == TokenType.SEMICOLON:
                    return j
                if word == "CASE":
                    cases += 1
                elif word == "END" and cases:
                    cases -= 1
                elif cases == 0 and j > self.i and (
                    (word in _SPL_WORDS and not (word == "FOR" and j + 1 < len(self.toks)
                                                 and self.toks[j + 1].text.upper()
                                                 in ("UPDATE", "READ")))
                    or (word == "UPDATE" and prev != "FOR")
                    or (word in ("SELECT", "WITH") and prev not in (
                        "UNION", "ALL", "INTERSECT", "EXCEPT", "MINUS", "DISTINCT"))
                    or (word == "ON" and j + 1 < len(self.toks)
                        and self.toks[j + 1].text.upper() == "EXCEPTION")
                    or (word in _DYNAMIC_WORDS and self._dynamic_at(j))
                    or (tt == TokenType.LT and j + 1 < len(self.toks)
                        and self.toks[j + 1].token_type == TokenType.LT)
                ):
                    return j
            prev = word
            j += 1
        return j

    def _dynamic_at(self, j: int) -> bool:
        """Whether toks[j] starts a dynamic-SQL statement (dynamic.py), by the words after
        it: a column may be named OPEN or CLOSE, so the word alone does not end a query."""
        def word(k: int) -> str:
            return self.toks[k].text.upper() if k < len(self.toks) else ""
        first = word(j)
        if first == "PREPARE":
            return word(j + 2) == "FROM"
        if first == "DECLARE":
            return word(j + 2) in ("CURSOR", "SCROLL")
        if first == "FETCH":
            return "INTO" in (word(j + 2), word(j + 3), word(j + 4))
        nxt = self.toks[j + 2] if j + 2 < len(self.toks) else None
        return nxt is None or nxt.token_type == TokenType.SEMICOLON or word(j + 2) == "USING"

    def return_(self) -> a.Node:
        node = a.Return(self.pos())
        self.expect("RETURN")
        if not self.is_type(TokenType.SEMICOLON) and self.word() != "WITH":
            start = self.pos()
            node.exprs = self.exprs()
            node.text = self.sql[start : self.toks[self.i - 1].end + 1]
        if self.eat("WITH", "RESUME"):
            node.resume = True
            self.iterator = True
        self.semicolon()
        if node.exprs and not self.nreturns:
            raise EngineError(sc.RETURN_NOT_DECLARED, offset=node.pos)
        if node.exprs and len(node.exprs) != self.nreturns:
            # RETURN gives exactly the RETURNING clause's values, or none
            raise EngineError(sc.RETURN_COUNT, offset=node.pos)
        return node

    def call(self) -> a.Node:
        pos = self.pos()
        self.expect("CALL")
        owner, name = self.qualified_name()
        spec = a.CallSpec(pos, name=name, owner=owner, kind="any")
        spec.args = self.call_args()
        if self.eat("RETURNING"):
            spec.into = self.names()
        self.semicolon()
        return spec

    def execute(self) -> a.Node:
        if self.word(1) == "IMMEDIATE":
            node = a.ExecImmediate(self.pos())
            self.i += 2
            node.expr = self.expr()
            self.semicolon()
            return node
        spec = self.execute_call()
        self.semicolon()
        return spec

    def execute_call(self) -> a.CallSpec:
        pos = self.pos()
        self.expect("EXECUTE")
        kind = self.word()
        if kind not in ("PROCEDURE", "FUNCTION"):
            raise not_implemented(f"EXECUTE {kind}")
        self.i += 1
        owner, name = self.qualified_name()
        spec = a.CallSpec(pos, name=name, owner=owner, kind=kind.lower())
        spec.args = self.call_args() if self.is_type(TokenType.L_PAREN) else []
        if self.eat("INTO"):
            spec.into = self.names()
        if self.eat("WITH", "TRIGGER", "REFERENCES"):
            spec.trigger_refs = True
        return spec

    def raise_(self) -> a.Node:
        node = a.Raise(self.pos())
        self.expect("RAISE", "EXCEPTION")
        node.args = self.exprs()
        if len(node.args) > 3:
            raise self.error()
        self.semicolon()
        return node

    def trace(self) -> a.Node:
        node = a.Trace(self.pos())
        self.expect("TRACE")
        if self.word() in ("ON", "OFF", "PROCEDURE") and self.is_type(TokenType.SEMICOLON, 1):
            node.mode = self.word().lower()
            self.i += 1
        else:
            node.mode = "expr"
            node.expr = self.expr()
        self.semicolon()
        return node

    def debug_file(self) -> a.Node:
        node = a.DebugFile(self.pos())
        self.expect("SET", "DEBUG", "FILE", "TO")
        node.expr = self.expr()
        node.append = self.eat("WITH", "APPEND")
        self.semicolon()
        return node

    def system(self) -> a.Node:
        node = a.System(self.pos())
        self.expect("SYSTEM")
        node.expr = self.expr()
        self.semicolon()
        return node

    def begin(self) -> a.Node:
        self.expect("BEGIN")
        blk = self.block(("END",))
        self.expect("END")
        self.semicolon(required=False)
        return blk

    # ---- embedded SQL ------------------------------------------------------------------------
    def sql_statement(self) -> a.Node:
        j = self.i
        depth = 0
        while j < len(self.toks):
            tt = self.toks[j].token_type
            if tt == TokenType.L_PAREN:
                depth += 1
            elif tt == TokenType.R_PAREN:
                depth -= 1
            elif tt == TokenType.SEMICOLON and depth <= 0:
                break
            j += 1
        if j >= len(self.toks):
            raise self.error(tok=self.toks[-1])
        node = self.sql_from(self.i, j)
        self.i = j + 1
        return node

    def sql_from(self, start: int, end: int) -> a.Sql:
        """An SQL statement spanning toks[start:end]; a SELECT's INTO list is taken out."""
        toks = self.toks[start:end]
        if not toks:
            raise self.error()
        into: list[str] = []
        first = toks[0].text.upper() if toks[0].token_type != TokenType.STRING else ""
        if first in ("SELECT", "WITH") or toks[0].token_type == TokenType.L_PAREN:
            toks, into = _take_into(toks, self)
        current_of: str | None = None
        if first in ("UPDATE", "DELETE"):
            collection_insert.refuse_change(self.sql[toks[0].start:])
            toks, current_of = _take_current_of(toks, self)
        tree = self.sql_tree(toks)
        text = self.sql[toks[0].start : toks[-1].end + 1]
        if isinstance(tree, exp.Command):
            raise not_implemented(str(tree.this).upper())
        # The grammar and binder rules a client's statement meets (ORDER BY keys with
        # DISTINCT, -360 subqueries, …) hold in a routine too, checked when it is created.
        if isinstance(tree, (exp.Query, exp.Insert, exp.Update, exp.Delete)):
            refusals.check_syntax(tree)
        return a.Sql(toks[0].start, tree=tree, into=into, text=text, current_of=current_of)


def _many_valued(expr: exp.Expr) -> bool:
    """Whether a LET source item may give several values: a subquery or a routine call."""
    while isinstance(expr, exp.Paren):
        expr = expr.this
    return isinstance(expr, (exp.Subquery, exp.Select, exp.Anonymous))


_STATEMENTS: dict[str, t.Callable[[SplParser], a.Node]] = {
    "LET": SplParser.let,
    "IF": SplParser.if_,
    "CASE": SplParser.case,
    "FOR": SplParser.for_,
    "WHILE": SplParser.while_,
    "LOOP": SplParser.loop,
    "EXIT": SplParser.jump,
    "CONTINUE": SplParser.jump,
    "FOREACH": SplParser.foreach,
    "RETURN": SplParser.return_,
    "CALL": SplParser.call,
    "EXECUTE": SplParser.execute,
    "RAISE": SplParser.raise_,
    "TRACE": SplParser.trace,
    "SYSTEM": SplParser.system,
    "BEGIN": SplParser.begin,
}


def parse_routine(sql: str, delimident: bool = False) -> tuple[a.RoutineHeader, a.RoutineBody]:
    """Parse a whole CREATE PROCEDURE/FUNCTION statement."""
    toks = tokenize(sql, delimident)
    return SplParser(sql, toks, delimident).routine()


def parse_types(text: str, delimident: bool = False,
                types: Mapping[str, IfxType] | None = None) -> list[IfxType]:
    """A comma-separated list of Informix types (a routine signature's parameter types);
    with ``types`` (``Schema.types``) a DISTINCT type's name is that type (usertypes.py)."""
    if types is not None:
        return [usertypes.resolve(t, types) for t in parse_types(text, delimident)]
    toks = tokenize(text, delimident)
    sp = SplParser(text, toks, delimident)
    out: list[IfxType] = []
    if not toks:
        return out
    while True:
        out.append(sp.ifx_type().nullable())
        if not sp.eat_type(TokenType.COMMA):
            break
    if sp.tok() is not None:
        raise sp.error()
    return out


def parse_create_routine(sql: str, delimident: bool) -> CreateRoutine:
    """A whole CREATE PROCEDURE/FUNCTION statement: its body holds semicolons and SPL
    statements, so the SPL parser reads it, not sqlglot's statement splitter."""
    header, body = parse_routine(sql, delimident)
    return CreateRoutine(header, body, sql.strip(), delimident)


# The statement parser (sql layer) reads these statements through its hooks (sql/hooks.py).
PARSERS.drop_routine = parse_drop
PARSERS.call = parse_call
PARSERS.create_routine = parse_create_routine
