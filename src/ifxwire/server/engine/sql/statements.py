"""Informix statement syntax: DDL, DATABASE, transactions, SET …; and the ``parse`` entry point.

Queries and DML (SELECT, INSERT, UPDATE, DELETE, WITH) are parsed by sqlglot with the
expression-level dialect of ``dialect.py``. Everything else Informix-specific is parsed here into
an ``IfxStatement`` node whose ``meta["spec"]`` is one of the dataclasses below, so the DDL
executor reads plain fields instead of re-walking syntax.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect, NormalizationStrategy
from sqlglot.errors import ErrorLevel, ParseError, TokenError
from sqlglot.tokenizer_core import Token, TokenType

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from . import refusals
from . import statements_ext as ext
from .dialect_types import _TYPE_WORDS
from .hooks import PARSERS
from .ifxnodes import IfxParseError
from .shape import balance_chains, check_nesting
from .statement_specs import _OWNED_TYPES as _OWNED_TYPES
from .statement_specs import _UNSUPPORTED_TYPES as _UNSUPPORTED_TYPES
from .statement_specs import ALL_COLUMNS as ALL_COLUMNS
from .statement_specs import STMT_TYPES as STMT_TYPES
from .statement_specs import AlterIndex as AlterIndex
from .statement_specs import AlterTable as AlterTable
from .statement_specs import ColumnSpec as ColumnSpec
from .statement_specs import ConstraintSpec as ConstraintSpec
from .statement_specs import CreateIndex as CreateIndex
from .statement_specs import CreateSchemaSpec as CreateSchemaSpec
from .statement_specs import CreateTable as CreateTable
from .statement_specs import CreateTableAs as CreateTableAs
from .statement_specs import CreateView as CreateView
from .statement_specs import DatabaseSpec as DatabaseSpec
from .statement_specs import DefaultSpec as DefaultSpec
from .statement_specs import DropObject as DropObject
from .statement_specs import IfxStatement as IfxStatement
from .statement_specs import LockSpec as LockSpec
from .statement_specs import Rename as Rename
from .statement_specs import SavepointSpec as SavepointSpec
from .statement_specs import SetSpec as SetSpec
from .statement_specs import StatisticsSpec as StatisticsSpec
from .statement_specs import TableName as TableName
from .statement_specs import _fold as _fold
from .statement_specs import _stmt as _stmt
from .statements_create import CreateParser
from .tokenizer import IfxDelimidentTokenizer, IfxTokenizer


class IfxParser(CreateParser):
    """Statement-level Informix syntax."""

    # ---- entry
    def _parse_statement(self) -> exp.Expr | None:
        if not self._curr:
            return None
        word = self._word()
        handler = _HANDLERS.get(word)
        if handler is not None:
            index = self._index
            stmt = handler(self)
            if stmt is not None:
                return stmt
            self._retreat(index)
        if word in ("SELECT", "WITH", "(") or self._curr.token_type == TokenType.L_PAREN:
            query = super()._parse_statement()
            if self._at("FOR", "READ", "ONLY"):
                # The default for a SELECT: a cursor that cannot update (Guide to SQL:
                # Syntax, SELECT statement, "FOR READ ONLY Clause").
                self._advance(self._at("FOR", "READ", "ONLY"))
            if self._word() == "INTO":
                if self._word(1) in ("TEMP", "SCRATCH") and query is not None:
                    self._advance(2)
                    name = self._table_name()
                    if self._word() == "WITH":
                        self._expect_word("WITH", "NO", "LOG")
                    query.meta["into_temp"] = name
                elif self._word(1) == "EXTERNAL":
                    # INTO EXTERNAL (ids_sqs_0159) writes a file through an external table,
                    # which this server does not have.
                    raise not_implemented("SELECT … INTO EXTERNAL (external tables)")
                elif query is not None:
                    return self._select_into_table(query)
            return query
        return super()._parse_statement()

    def _select_into_table(self, query: exp.Expr) -> exp.Expr:
        """``SELECT … INTO [STANDARD | RAW] [owner.]table [storage] [LOCK MODE]``: a new
        permanent table holding the result (Syntax, "INTO table clauses", ids_sqs_0159, and
        "INTO STANDARD and INTO RAW Clauses", ids_sqs_2106; STANDARD is the default). It is
        CREATE TABLE … AS SELECT by another road, with the clause's own rules (display
        labels, -249) checked where the table is made (ddl.create_table_as). A table of
        another database is a syntax error (ids_sqs_2106, "Restrictions on the result
        table"). RAW is kept as STANDARD here, as CREATE RAW TABLE is."""
        self._advance()  # INTO
        raw = self._word() == "RAW"
        if self._word() in ("STANDARD", "RAW"):
            self._advance()
        table = self._table_name()
        if table.database is not None:
            raise EngineError(sc.SYNTAX, near=table.database)
        _, lock_mode = self._table_options()
        refusals.result_table_order(query)  # -19828 (ids_sqs_2108)
        return _stmt("select_into_table", CreateTableAs(
            table, [], query, False, lock_mode, self._extents, self._fragments,
            select_into="RAW" if raw else "STANDARD"))

    # ---- DROP / ALTER / RENAME
    def _parse_ifx_drop(self) -> exp.Expr | None:
        self._advance()
        kind = self._word()
        if kind in ("FUNCTION", "PROCEDURE", "ROUTINE", "SPECIFIC"):
            return _stmt("drop_routine", PARSERS.drop_routine(self, kind))
        if kind == "TRIGGER":
            return _stmt("drop_trigger", PARSERS.drop_trigger(self))
        if kind in ("ROLE", "SEQUENCE", "SYNONYM"):
            self._advance()
            if kind == "ROLE":
                return ext.parse_role(self, "drop")
            if kind == "SEQUENCE":
                return ext.parse_sequence(self, "drop")
            return ext.parse_synonym(self, "drop", public=True)
        if kind == "ROW" and self._word(1) == "TYPE":
            return _stmt("drop_row_type", PARSERS.drop_row_type(self))
        if kind == "TYPE":
            return _stmt("drop_type", PARSERS.drop_type(self))
        if kind == "CAST":
            return _stmt("drop_cast", PARSERS.drop_cast(self))
        if kind not in ("TABLE", "VIEW", "INDEX", "DATABASE"):
            raise not_implemented(f"DROP {kind}")
        self._advance()
        if_exists = self._if_exists(negate=False)
        name = TableName(self._name()) if kind == "DATABASE" else self._table_name()
        restrict = False
        if self._word() in ("CASCADE", "RESTRICT"):
            restrict = self._word() == "RESTRICT"
            self._advance()
        elif kind == "INDEX" and self._word() == "ONLINE":
            self._advance()  # ids_sqs_0715: ONLINE only changes how long others wait
        spec = DropObject(kind, name, if_exists, restrict)
        return _stmt(f"drop_{kind.lower()}", spec)

    def _parse_ifx_alter(self) -> exp.Expr | None:
        self._advance()
        if self._word() == "SEQUENCE":
            self._advance()
            return ext.parse_sequence(self, "alter")
        if self._word() == "INDEX":
            self._advance()
            index = self._table_name()
            self._expect_word("TO")
            cluster = not self._eat("NOT")
            self._expect_word("CLUSTER")
            return _stmt("alter_index", AlterIndex(index, cluster))
        if self._word() == "FRAGMENT":
            return self._alter_fragment()
        if self._word() != "TABLE":
            raise not_implemented(f"ALTER {self._word()}")
        self._advance()
        spec = AlterTable(self._table_name())
        while True:
            w = self._word()
            self._advance()
            if w in ("ADD", "DROP") and self._word() in _HIDDEN_COLUMNS and (
                    self._word(1) not in _TYPE_WORDS  # not a column of that name
                    and (w == "ADD" or self._word() != "TYPE")):
                # Shadow columns (replication CRCOLS, VERCOLS, ROWIDS), row-level AUDIT and
                # typed tables: nothing here stores or shows them.
                raise not_implemented(f"ALTER TABLE {w} {self._word()}")
            if w == "TYPE":
                self._match_l_paren()
                kind = self._word()
                self._advance()
                self._match_r_paren()
                if kind != "STANDARD":  # a RAW table's writes outlive a rollback: not here
                    raise not_implemented(f"ALTER TABLE TYPE ({kind})")
            elif w == "ADD" and self._word() == "CONSTRAINT":
                self._advance()
                paren = self._match(TokenType.L_PAREN)
                while True:
                    cons = self._table_constraint()
                    if cons is None:
                        self.raise_error("Expected a constraint")
                        raise AssertionError
                    spec.add_constraints.append(cons)
                    if not (paren and self._match(TokenType.COMMA)):
                        break
                if paren:
                    self._match_r_paren()
            elif w == "ADD":
                if self._match(TokenType.L_PAREN):
                    spec.add.append(self._column_def())
                    while self._match(TokenType.COMMA):
                        spec.add.append(self._column_def())
                    self._match_r_paren()
                else:
                    spec.add.append(self._column_def())
            elif w == "DROP" and self._word() == "CONSTRAINT":
                self._advance()
                if self._curr and self._curr.token_type == TokenType.L_PAREN:
                    spec.drop_constraints.extend(self._name_list())
                else:
                    spec.drop_constraints.append(self._name())
            elif w == "DROP":
                if self._curr and self._curr.token_type == TokenType.L_PAREN:
                    spec.drop.extend(self._name_list())
                else:
                    spec.drop.append(self._name())
            elif w == "MODIFY" and self._word() in ("NEXT", "EXTENT"):
                # MODIFY NEXT SIZE (ids_sqs_0070) / MODIFY EXTENT SIZE (ids_sqs_2007): kept
                # in systables.nextsize / fextsize (alter.alter_table)
                which = self._word()
                self._advance()
                self._expect_word("SIZE")
                size = self._int_arg()
                first, nxt = spec.extents
                spec.extents = (size, nxt) if which == "EXTENT" else (first, size)
                if which == "EXTENT" and self._word() == "NEXT":  # ... EXTENT SIZE n NEXT SIZE m
                    self._advance()
                    self._expect_word("SIZE")
                    spec.extents = (size, self._int_arg())
            elif w == "MODIFY":
                if self._match(TokenType.L_PAREN):
                    spec.modify.append(self._column_def())
                    while self._match(TokenType.COMMA):
                        spec.modify.append(self._column_def())
                    self._match_r_paren()
                else:
                    spec.modify.append(self._column_def())
            elif w == "LOCK":
                self._expect_word("MODE")
                spec.lock_mode = self._lock_mode()
            else:
                raise not_implemented(f"ALTER TABLE {w}")
            if not self._match(TokenType.COMMA):
                break
        return _stmt("alter_table", spec)

    def _parse_ifx_rename(self) -> exp.Expr | None:
        self._advance()
        kind = self._word()
        self._advance()
        if kind == "TABLE":
            table = self._table_name()
            self._expect_word("TO")
            return _stmt("rename_table", Rename("TABLE", table, None, self._name()))
        if kind == "COLUMN":
            table = self._table_name()  # t.c parses as owner=t, name=c
            if table.owner is None:
                self.raise_error("Expected table.column")
            self._expect_word("TO")
            tname = TableName(table.owner or "", None, table.database, table.offset)
            return _stmt("rename_column", Rename("COLUMN", tname, table.name, self._name()))
        if kind == "SEQUENCE":
            return ext.parse_sequence(self, "rename")
        if kind == "INDEX":
            index = self._system_index_name() or self._table_name()
            self._expect_word("TO")
            return _stmt("rename_index", Rename("INDEX", index, None, self._name()))
        raise not_implemented(f"RENAME {kind}")

    def _system_index_name(self) -> TableName | None:
        """A system-generated index name as RENAME INDEX writes it: "Omit the white space at
        the beginning", ``RENAME INDEX 100_1 TO idx1`` or ``jmm.100_1`` (Guide to SQL:
        Syntax, "RENAME INDEX statement", ids_sqs_0941). The tokenizer reads ``100_1`` as a
        number and a word; glued back, with the blank the catalogue's name starts with
        (' 100_1'). Was -201."""
        i = self._index
        owner: str | None = None
        toks = self._tokens
        if (i + 2 < len(toks) and toks[i].token_type == TokenType.VAR
                and toks[i + 1].token_type == TokenType.DOT):
            owner, i = toks[i].text.lower(), i + 2
        if not (i + 1 < len(toks) and toks[i].token_type == TokenType.NUMBER
                and toks[i + 1].token_type == TokenType.VAR
                and toks[i + 1].text.startswith("_") and toks[i].end + 1 == toks[i + 1].start):
            return None
        start = toks[self._index].start
        name = " " + toks[i].text + toks[i + 1].text.lower()
        self._advance(i + 2 - self._index)
        return TableName(name, owner, None, start)

    # ---- sessions and transactions
    def _parse_ifx_database(self) -> exp.Expr | None:
        self._advance()
        name = self._name()
        if self._curr and self._curr.token_type == TokenType.PARAMETER:
            self._advance(2)  # @server
        spec = DatabaseSpec(name)
        if self._word() == "EXCLUSIVE":
            self._advance()
            spec.exclusive = True
        return _stmt("database", spec)

    def _parse_ifx_close(self) -> exp.Expr | None:
        if self._word(1) != "DATABASE":
            return None
        self._advance(2)
        return _stmt("close_database")

    def _parse_ifx_txn(self) -> exp.Expr | None:
        word = self._word()
        self._advance()
        kind = {"BEGIN": "begin", "COMMIT": "commit", "ROLLBACK": "rollback"}[word]
        if self._word() in ("WORK", "TRANSACTION"):
            self._advance()
        if kind == "begin" and self._word() == "WITHOUT":
            self._expect_word("WITHOUT", "REPLICATION")
        if kind == "rollback" and self._word() == "TO":
            self._advance()
            if self._word() == "SAVEPOINT":
                self._advance()
            return _stmt("rollback_to_savepoint", SavepointSpec(self._name()))
        return _stmt(kind)

    def _parse_ifx_savepoint(self) -> exp.Expr | None:
        self._advance()
        name = self._name()
        unique = self._word() == "UNIQUE"
        if unique:
            self._advance()
        return _stmt("savepoint", SavepointSpec(name, unique))

    def _parse_ifx_release(self) -> exp.Expr | None:
        self._advance()
        self._expect_word("SAVEPOINT")
        return _stmt("release_savepoint", SavepointSpec(self._name()))

    def _parse_ifx_set(self) -> exp.Expr | None:
        self._advance()
        w = self._word()
        if w == "LOCK":
            self._expect_word("LOCK", "MODE", "TO")
            if self._word() == "NOT":
                self._expect_word("NOT", "WAIT")
                return _stmt("set_lock_mode", SetSpec("LOCK", None))
            self._expect_word("WAIT")
            secs = self._int_arg() if self._curr and self._curr.token_type == TokenType.NUMBER \
                else -1
            return _stmt("set_lock_mode", SetSpec("LOCK", secs))
        if w in ("CONSTRAINTS", "TRIGGERS", "INDEXES") and self._word(1) == ",":
            return ext.parse_set_modes(self)  # SET CONSTRAINTS, INDEXES, … FOR table mode
        if w == "CONSTRAINTS":
            self._advance()
            return ext.parse_set_constraints(self)
        if w == "ROLE":
            self._advance()
            return ext.parse_set_role(self)
        if w in ("TRIGGERS", "INDEXES"):
            self._advance()
            return ext.parse_set_object_mode(self, w)
        if w == "SESSION":
            # SET SESSION AUTHORIZATION TO 'user' (Guide to SQL: Syntax, "SET SESSION
            # AUTHORIZATION statement") makes the session act as another user; this server
            # keeps the login user for USER and privileges, so it refuses rather than
            # pretend.
            raise not_implemented("SET SESSION AUTHORIZATION")
        if w == "USER":
            # SET USER PASSWORD changes an internally authenticated user's password (Guide
            # to SQL: Syntax, "SET USER PASSWORD statement"); this server has no such users
            # (CREATE USER is -999), so it refuses instead of accepting a change it drops.
            raise not_implemented("SET USER PASSWORD")
        if w in ("ISOLATION", "TRANSACTION"):
            words: list[str] = []
            while self._curr and self._curr.token_type != TokenType.SEMICOLON:
                words.append(self._curr.text.upper())
                self._advance()
            return _stmt("set_isolation", SetSpec("ISOLATION", words=tuple(words)))
        if w == "DEBUG" and self._word(1) == "FILE":
            # SET DEBUG FILE TO 'name' [WITH APPEND] outside a routine names the file that
            # receives the TRACE output of the routines the session runs (Guide to SQL:
            # Syntax, SET DEBUG FILE, ids_sqs_1112 and "Redirecting Trace Output",
            # ids_sqs_1115); a host variable or expression is not read here.
            self._expect_word("DEBUG", "FILE", "TO")
            tok = self._curr
            if tok is None or tok.token_type != TokenType.STRING:
                raise not_implemented("SET DEBUG FILE TO an expression")
            _check_file_name(tok)
            self._advance()
            append = self._eat("WITH", "APPEND")
            return _stmt("set_debug_file", SetSpec("DEBUG", words=(
                tok.text, "APPEND" if append else "")))
        if w not in _OTHER_SETS:
            # no SET statement of the Guide to SQL: Syntax starts so: -201, not a silent OK
            raise EngineError(sc.SYNTAX, near=self._curr.text if self._curr else "SET")
        rest = self._tokens[self._index + 1:]
        if w == "PDQPRIORITY":
            _check_pdqpriority(rest)
        elif w == "EXPLAIN" and self._word(1) == "FILE":
            _check_file_name(next((tok for tok in rest if tok.token_type == TokenType.STRING),
                                  None))
        _check_set_form(w, rest)
        self._rest()
        return _stmt("set_other", SetSpec("OTHER"))

    def _parse_ifx_update(self) -> exp.Expr | None:
        if self._word(1) != "STATISTICS":
            # ``SET * = (…)``: every column of the table, in order (Guide to SQL: Syntax,
            # "Multiple-Column Format"); the star becomes a marker column the DML
            # translator expands (translate_dml.ALL_COLUMNS).
            toks = self._tokens
            for i in range(self._index, len(toks) - 2):
                if (toks[i].token_type == TokenType.SET
                        and toks[i + 1].token_type == TokenType.STAR
                        and toks[i + 2].token_type == TokenType.EQ):
                    star = toks[i + 1]
                    toks[i + 1] = Token(TokenType.VAR, ALL_COLUMNS, star.line, star.col,
                                        star.start, star.end)
                    break
            return None
        # UPDATE STATISTICS [LOW | MEDIUM | HIGH] FOR TABLE [ONLY] name [(cols)] ...: the
        # table must exist (ids_sqs_1203: "Must exist"), else -206 as for any statement that
        # names it; its counts go to systables/sysindices (features/ddl_statistics.py).
        table: TableName | None = None
        tables = True
        columns: list[str] = []
        mode = self._word(2) if self._word(2) in ("LOW", "MEDIUM", "HIGH") else "LOW"
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            if self._word() == "FOR" and self._word(1) in ("PROCEDURE", "FUNCTION", "ROUTINE",
                                                           "SPECIFIC"):
                tables = False
            if self._word() == "FOR" and self._word(1) == "TABLE":
                self._advance(2)
                if self._eat("ONLY") and self._match(TokenType.L_PAREN):
                    table = self._table_name()  # ONLY (t)
                    self._match_r_paren()
                elif self._curr and self._curr.token_type not in (TokenType.L_PAREN,
                                                                  TokenType.SEMICOLON) and (
                        self._word() not in ("RESOLUTION", "DISTRIBUTIONS", "DROP", "SAMPLING",
                                             "FORCE", "SMART", "AREA")):
                    table = self._table_name()
                if table is not None and self._match(TokenType.L_PAREN):
                    columns.append(self._name())
                    while self._match(TokenType.COMMA):
                        columns.append(self._name())
                    self._match_r_paren()
                continue
            self._advance()
        return _stmt("update_statistics", StatisticsSpec(table, tables, tuple(columns), mode))

    def _parse_ifx_delete(self) -> exp.Expr | None:
        """``DELETE t WHERE …``: the FROM keyword is optional (Guide to SQL: Syntax, DELETE
        statement, "FROM clause"); put it back for sqlglot's DELETE parser."""
        nxt = self._next
        if nxt is not None and nxt.token_type not in (TokenType.FROM, TokenType.SEMICOLON):
            self._tokens.insert(self._index + 1, Token(TokenType.FROM, "FROM", nxt.line,
                                                       nxt.col, nxt.start, nxt.start))
            self._tokens_size = len(self._tokens)  # sqlglot's parser caches the length
        return None

    def _parse_ifx_lock(self) -> exp.Expr | None:
        lock = self._word() == "LOCK"
        self._advance()
        if self._word() != "TABLE":
            return None
        self._advance()
        table = self._table_name()
        exclusive = False
        if lock:
            self._expect_word("IN")
            exclusive = self._word() == "EXCLUSIVE"
            self._advance()
            self._expect_word("MODE")
        return _stmt("lock_table" if lock else "unlock_table", LockSpec(table, lock, exclusive))

    def _parse_ifx_grant(self) -> exp.Expr | None:
        return ext.parse_grant(self)

    def _parse_ifx_merge(self) -> exp.Expr | None:
        self._advance()
        return self._parse_merge()

    def _parse_ifx_truncate(self) -> exp.Expr | None:
        return ext.parse_truncate(self)

    def _parse_ifx_execute(self) -> exp.Expr | None:
        return _stmt("execute_routine", PARSERS.call(self))

    def _parse_ifx_unsupported(self) -> exp.Expr | None:
        raise not_implemented(self._word())

    def _parse_ifx_violations(self) -> exp.Expr | None:
        """START / STOP VIOLATIONS TABLE FOR table (Guide to SQL: Syntax, "START VIOLATIONS
        TABLE statement", ids_sqs_1211): run by features/object_modes.py."""
        if self._word(1) == "VIOLATIONS":
            return ext.parse_violations(self)
        return None


def _check_pdqpriority(rest: list[Token]) -> None:
    """SET PDQPRIORITY resources: "Can range from -1 to 100" (Guide to SQL: Syntax, SET
    PDQPRIORITY statement, ids_sqs_1179), an integer; another number is -19837 "Invalid PDQ
    priority value specified." [jcat] (fourteenth round; the keywords DEFAULT, LOW, OFF and
    HIGH and their other forms are not checked)."""
    body = [tok for tok in rest if tok.token_type != TokenType.SEMICOLON]
    sign = 1
    if len(body) == 2 and body[0].token_type == TokenType.DASH:
        sign, body = -1, body[1:]
    if len(body) != 1 or body[0].token_type != TokenType.NUMBER:
        return
    text = body[0].text
    if not text.isdigit() or not -1 <= sign * int(text) <= 100:
        raise EngineError(sc.PDQ_PRIORITY_VALUE, near=text)


def _check_set_form(word: str, rest: list[Token]) -> None:
    """The whole of SET EXPLAIN, SET DATASKIP and SET STATEMENT CACHE, whose diagrams are
    short (Guide to SQL: Syntax 14.10): SET EXPLAIN OFF | ON [AVOID_EXECUTE] | FILE TO
    'file' or an expression (ids_sqs_1152; WITH APPEND as SET DEBUG FILE has it is let
    through), SET DATASKIP ON [dbspace, ...] | OFF | DEFAULT (ids_sqs_1109), SET STATEMENT
    CACHE ON | OFF (ids_sqs_1190); SET [BUFFERED] LOG (ids_sqs_1173), SET DEFERRED_PREPARE
    [ENABLED | DISABLED] (ids_sqs_1119), SET AUTOFREE [ENABLED | DISABLED] [FOR cursor]
    (ids_sqs_1077). Anything else is -201, as a misspelt SET word is: SET EXPLAIN BANANA, a
    bare SET DATASKIP and SET STATEMENT CACHE MAYBE were accepted."""
    words = [tok.text.upper() if tok.token_type != TokenType.STRING else "'"
             for tok in rest if tok.token_type != TokenType.SEMICOLON]
    if word == "EXPLAIN":
        ok = words in (["OFF"], ["ON"], ["ON", "AVOID_EXECUTE"]) or (
            words[:2] == ["FILE", "TO"] and len(words) > 2)
    elif word == "DATASKIP":
        ok = words in (["OFF"], ["DEFAULT"], ["ON"]) or (
            words[:1] == ["ON"] and len(words) % 2 == 0 and all(
                (tok.token_type == TokenType.COMMA) == bool(n % 2)
                for n, tok in enumerate(t for t in rest[1:]
                                        if t.token_type != TokenType.SEMICOLON)))
    elif word == "STATEMENT":
        ok = words in (["CACHE", "ON"], ["CACHE", "OFF"])
    elif word in ("LOG", "BUFFERED"):
        ok = words == ([] if word == "LOG" else ["LOG"])
    elif word == "DEFERRED_PREPARE":
        ok = words in ([], ["ENABLED"], ["DISABLED"])
    elif word == "AUTOFREE":
        tail = words[1:] if words[:1] in (["ENABLED"], ["DISABLED"]) else words
        ok = tail == [] or (len(tail) == 2 and tail[0] == "FOR")
    else:
        return
    if not ok:
        near = rest[0].text if rest else word
        raise EngineError(sc.SYNTAX, near=near)


def _check_file_name(tok: Token | None) -> None:
    """SET EXPLAIN FILE TO '' and SET DEBUG FILE TO '': -25789 "The file name in SET EXPLAIN
    FILE or SET DEBUG FILE must be a non-null string." [jcat] (fourteenth round)."""
    if tok is not None and tok.token_type == TokenType.STRING and not tok.text.strip():
        raise EngineError(sc.FILE_NAME_EMPTY)


#: The first words of the other SET statements of the Guide to SQL: Syntax 14.10 (SET
#: AUTOFREE, COLLATION / NO COLLATION, CONNECTION, DATASKIP, DEBUG FILE, Default Table Space
#: and Table Type (TABLE_SPACE, TEMP TABLE_SPACE, TABLE_TYPE, TEMP TABLE_TYPE),
#: DEFERRED_PREPARE, DESCRIPTOR, ENCRYPTION PASSWORD, ENVIRONMENT, EXPLAIN, LOG / BUFFERED
#: LOG, OPTIMIZATION, PDQPRIORITY, PLOAD FILE, STATEMENT CACHE, ALL_MUTABLES; SET USER
#: PASSWORD is refused above):
#: accepted without effect on results (docs/SERVER.md); any other word after SET is -201.
_OTHER_SETS = frozenset((
    "AUTOFREE", "COLLATION", "NO", "CONNECTION", "DATASKIP", "DEBUG", "TABLE_SPACE", "TEMP",
    "TABLE_TYPE", "DEFERRED_PREPARE", "DESCRIPTOR", "ENCRYPTION", "ENVIRONMENT", "EXPLAIN",
    "LOG", "BUFFERED", "OPTIMIZATION", "PDQPRIORITY", "PLOAD", "STATEMENT", "ALL_MUTABLES"))

#: ALTER TABLE ADD/DROP words that are no column names (refused: -999).
_HIDDEN_COLUMNS = frozenset(("CRCOLS", "VERCOLS", "ROWIDS", "AUDIT", "TYPE"))


_HANDLERS: dict[str, t.Callable[[IfxParser], exp.Expr | None]] = {
    "CREATE": IfxParser._parse_ifx_create,
    "DROP": IfxParser._parse_ifx_drop,
    "ALTER": IfxParser._parse_ifx_alter,
    "RENAME": IfxParser._parse_ifx_rename,
    "DATABASE": IfxParser._parse_ifx_database,
    "CLOSE": IfxParser._parse_ifx_close,
    "BEGIN": IfxParser._parse_ifx_txn,
    "COMMIT": IfxParser._parse_ifx_txn,
    "ROLLBACK": IfxParser._parse_ifx_txn,
    "SET": IfxParser._parse_ifx_set,
    "UPDATE": IfxParser._parse_ifx_update,
    "DELETE": IfxParser._parse_ifx_delete,
    "LOCK": IfxParser._parse_ifx_lock,
    "UNLOCK": IfxParser._parse_ifx_lock,
    "GRANT": IfxParser._parse_ifx_grant,
    "REVOKE": IfxParser._parse_ifx_grant,
    "EXECUTE": IfxParser._parse_ifx_execute,
    "SAVEPOINT": IfxParser._parse_ifx_savepoint,
    "RELEASE": IfxParser._parse_ifx_release,
    "LOAD": IfxParser._parse_ifx_unsupported,
    "UNLOAD": IfxParser._parse_ifx_unsupported,
    "SAVE": IfxParser._parse_ifx_unsupported,  # SAVE EXTERNAL DIRECTIVES
    "START": IfxParser._parse_ifx_violations,
    "STOP": IfxParser._parse_ifx_violations,
    "MERGE": IfxParser._parse_ifx_merge,
    "TRUNCATE": IfxParser._parse_ifx_truncate,
}


class Informix(Dialect):
    """Informix as our server speaks it (double quotes are strings, as without DELIMIDENT)."""

    NORMALIZATION_STRATEGY = NormalizationStrategy.LOWERCASE
    NULL_ORDERING = "nulls_are_small"
    TYPED_DIVISION = False
    SAFE_DIVISION = False
    # "All set operators have the same precedence", applied left to right (Syntax, "Set
    # operators in combined queries", ids_sqs_1822): not the standard's tighter INTERSECT
    INTERSECT_BINDS_TIGHTER_THAN_UNION_AND_EXCEPT = False
    Tokenizer = IfxTokenizer
    Parser = IfxParser


class InformixDelimident(Informix):
    Tokenizer = IfxDelimidentTokenizer


_DIALECTS = {False: Informix(), True: InformixDelimident()}


def _parse_routine(sql: str, delimident: bool) -> exp.Expr:
    """CREATE FUNCTION/PROCEDURE: its body holds semicolons and SPL statements, so it is
    parsed by the SPL parser (spl/parser.py), not by sqlglot's statement splitter."""
    return _stmt("create_routine", PARSERS.create_routine(sql, delimident))


def parse_expressions(text: str, delimident: bool = False, offset: int = 0) -> list[exp.Expr]:
    """A comma-separated expression list (a RETURN clause), as parsed expressions."""
    prefix = "SELECT "
    try:
        tree = parse(prefix + text, delimident)
    except EngineError as e:
        raise EngineError(e.sqlcode, near=e.near, offset=max(e.offset - len(prefix), 0) + offset
                          ) from None
    if not isinstance(tree, exp.Select):
        raise EngineError(sc.SYNTAX, offset=offset)
    return list(tree.expressions)


def parse(sql: str, delimident: bool = False) -> exp.Expr:
    """Parse one Informix statement; syntax problems raise EngineError(-201/-202/-282)."""
    dialect = _DIALECTS[delimident]
    try:
        toks = dialect.tokenize(sql)
    except TokenError as e:
        text = f"{e} {e.__cause__ or ''}"
        code = sc.UNMATCHED_QUOTE if "Missing" in text else sc.ILLEGAL_CHAR
        offset = getattr(e, "start", 0) or 0
        raise EngineError(code, offset=max(offset, 0)) from None
    check_nesting(toks)
    p = dialect.parser(error_level=ErrorLevel.IMMEDIATE)
    words = [tok.text.upper() for tok in toks[:3] if tok.token_type != TokenType.STRING]
    if words[:1] == ["CREATE"] and ("FUNCTION" in words[1:3] or "PROCEDURE" in words[1:3]):
        return _parse_routine(sql, delimident)
    if words == ["CREATE", "SCHEMA", "AUTHORIZATION"]:
        return _parse_schema(sql, toks, delimident)
    try:
        trees = p.parse(toks, sql)
    except IfxParseError as e:
        raise EngineError(sc.SYNTAX, near=e.near, offset=e.offset) from None
    except ParseError:
        raise EngineError(sc.SYNTAX) from None
    stmts = [tree for tree in trees if tree is not None]
    if len(stmts) != 1:
        raise EngineError(sc.SYNTAX)
    return balance_chains(stmts[0])


#: What may follow CREATE SCHEMA AUTHORIZATION user (Syntax, ids_sqs_0483): CREATE TABLE,
#: VIEW, INDEX, SYNONYM, TRIGGER, SEQUENCE, ROW TYPE, DISTINCT TYPE, CAST and GRANT (OPAQUE
#: TYPE, also on the page, this server does not have: its own refusal stands).
_SCHEMA_PARTS = frozenset((
    "create_table", "create_view", "grant", "create_index", "create_synonym",
    "create_trigger", "create_sequence", "create_row_type", "create_distinct_type",
    "create_cast"))


def _parse_schema(sql: str, toks: list[Token], delimident: bool) -> exp.Expr:
    """``CREATE SCHEMA AUTHORIZATION user stmt stmt ...``: the statements follow one another
    with no semicolon between them, up to the end or a ``;`` (ids_sqs_0483), so each starts
    at a CREATE or GRANT outside parentheses and not after WITH (a string or a delimited
    name is one token; a trigger's actions are in parentheses). Each part is parsed as the
    statement it is; one that the page does not allow, or none at all, is -201 at its
    place."""
    if len(toks) < 5 or toks[3].token_type == TokenType.STRING:
        raise EngineError(sc.SYNTAX, offset=toks[-1].end + 1)
    owner = toks[3].text if toks[3].token_type == TokenType.IDENTIFIER else toks[3].text.lower()
    end = len(toks)
    if toks[-1].token_type == TokenType.SEMICOLON:
        end -= 1
    starts: list[int] = []
    depth = 0
    for i in range(4, end):
        tok = toks[i]
        if tok.token_type == TokenType.L_PAREN:
            depth += 1
        elif tok.token_type == TokenType.R_PAREN:
            depth -= 1
        elif (depth == 0 and tok.token_type not in (TokenType.STRING, TokenType.IDENTIFIER)
              and tok.text.upper() in ("CREATE", "GRANT")
              and toks[i - 1].text.upper() != "WITH"):  # WITH GRANT OPTION is no new part
            starts.append(i)
    if not starts or starts[0] != 4:
        raise EngineError(sc.SYNTAX, offset=toks[4].start)
    parts: list[tuple[str, object]] = []
    for n, first in enumerate(starts):
        begin = toks[first].start
        stop = toks[starts[n + 1]].start if n + 1 < len(starts) else toks[end - 1].end + 1
        try:
            tree = parse(sql[begin:stop], delimident)
        except EngineError as e:
            raise EngineError(e.sqlcode, near=e.near, offset=e.offset + begin) from None
        kind = str(tree.this) if isinstance(tree, IfxStatement) else ""
        if kind not in _SCHEMA_PARTS:
            raise EngineError(sc.SYNTAX, offset=begin)
        parts.append((kind, tree.meta.get("spec")))
    return _stmt("create_schema", CreateSchemaSpec(owner, parts))
