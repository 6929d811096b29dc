"""CREATE statements (TABLE, INDEX, VIEW, DATABASE, types, sequences …) and the name
helpers every statement parser shares; the base class of statements.IfxParser."""

from __future__ import annotations

from sqlglot import exp
from sqlglot.tokenizer_core import TokenType

from ....protocol.codes import TypeCode
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from . import statements_ext as ext
from .dialect import IfxExprParser
from .dialect_types import _TYPE_WORDS
from .hooks import PARSERS
from .ifxnodes import IfxParseError, ifx_type_node
from .statement_specs import (
    _OWNED_TYPES,
    _UNSUPPORTED_TYPES,
    AlterFragment,
    ColumnSpec,
    ConstraintSpec,
    CreateIndex,
    CreateTable,
    CreateTableAs,
    CreateView,
    DatabaseSpec,
    DefaultSpec,
    FragmentScheme,
    FragmentSpec,
    FunctionKey,
    TableName,
    _fold,
    _stmt,
)

# Words that open CREATE TABLE's storage options / LOCK MODE (see _table_options)
_TABLE_OPTION_WORDS = frozenset(("IN", "EXTENT", "NEXT", "LOCK", "FRAGMENT", "PARTITION",
                                 "PARTITION BY", "COMPRESSED", "STATCHANGE", "STATLEVEL", "WITH"))


class CreateParser(IfxExprParser):
    """Names, and the CREATE statements."""

    #: EXTENT SIZE / NEXT SIZE of the CREATE TABLE being parsed (kilobytes; 0: not given)
    _extents: tuple[int, int] = (0, 0)
    #: LOCK MODE of the CREATE TABLE ... AS SELECT being parsed ('P' / 'R'; None: not given)
    _ctas_lock: str | None = None
    #: FRAGMENT BY of the CREATE TABLE being parsed (None: not fragmented)
    _fragments: FragmentScheme | None = None
    #: WITH NO LOG on the CREATE TABLE being parsed (a temp table's DML is not logged)
    _no_log: bool = False

    def _rest(self) -> None:
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            self._advance()

    def _name(self) -> str:
        """An identifier, folded to lower case unless it was delimited."""
        tok = self._curr
        if tok is None or tok.token_type in (TokenType.L_PAREN, TokenType.R_PAREN,
                                             TokenType.COMMA, TokenType.SEMICOLON,
                                             TokenType.STRING, TokenType.NUMBER):
            self.raise_error("Expected a name")
            raise AssertionError
        self._advance()
        return tok.text if tok.token_type == TokenType.IDENTIFIER else tok.text.lower()

    def _table_name(self) -> TableName:
        start = self._curr.start if self._curr else 0
        node = self._parse_table_parts(schema=True)
        if not isinstance(node, exp.Table):
            self.raise_error("Expected a table name")
            raise AssertionError
        owner = node.args.get("db")
        db = node.args.get("catalog")
        return TableName(_fold(node.this), _fold(owner) if owner else None,
                         db.name.lower() if db else None, start)

    def _name_list(self) -> list[str]:
        self._match_l_paren()
        names = [self._name()]
        while self._match(TokenType.COMMA):
            names.append(self._name())
        self._match_r_paren()
        return names

    def _if_exists(self, negate: bool) -> bool:
        words = ("IF", "NOT", "EXISTS") if negate else ("IF", "EXISTS")
        if all(self._word(i) == w for i, w in enumerate(words)):
            self._advance(len(words))
            return True
        return False

    # ---- CREATE
    def _parse_ifx_create(self) -> exp.Expr | None:
        self._advance()
        word = self._word()
        if word in ("TEMP", "STANDARD", "RAW", "SCRATCH"):
            self._advance()
            if self._word() != "TABLE":
                return None
            return self._create_table(temp=word in ("TEMP", "SCRATCH"))
        if word == "TABLE":
            return self._create_table(temp=False)
        if word == "DISTINCT" and self._word(1) == "TYPE":
            return _stmt("create_distinct_type", PARSERS.create_distinct_type(self))
        if word == "ROW" and self._word(1) == "TYPE":
            return _stmt("create_row_type", PARSERS.create_row_type(self))
        if word == "CAST" or (word in ("EXPLICIT", "IMPLICIT") and self._word(1) == "CAST"):
            return _stmt("create_cast", PARSERS.create_cast(self))
        if word in ("UNIQUE", "DISTINCT", "CLUSTER", "INDEX"):
            return self._create_index()
        if word == "VIEW":
            return self._create_view()
        if word == "DATABASE":
            return self._create_database()
        if word == "TRIGGER":
            return _stmt("create_trigger", PARSERS.create_trigger(self))
        if word in ("ROLE", "SEQUENCE"):
            self._advance()
            return ext.parse_role(self, "create") if word == "ROLE" else (
                ext.parse_sequence(self, "create"))
        if word in ("PUBLIC", "PRIVATE", "SYNONYM"):
            if word != "SYNONYM":
                self._advance()
            self._expect_word("SYNONYM")
            return ext.parse_synonym(self, "create", public=word != "PRIVATE")
        raise not_implemented(f"CREATE {word}")

    def _create_table(self, temp: bool) -> exp.Expr:
        self._advance()  # TABLE
        if_not_exists = self._if_exists(negate=True)
        table = self._table_name()
        if self._at("OF", "TYPE"):
            return self._create_typed_table(table, temp, if_not_exists)
        as_select = None if temp else self._as_select_columns()
        if as_select is not None:
            query = self._parse_select()
            if query is None:
                self.raise_error("Expected a SELECT")
                raise AssertionError
            return _stmt("create_table_as", CreateTableAs(
                table, as_select, query, if_not_exists, self._ctas_lock, self._extents,
                self._fragments))
        columns: list[ColumnSpec] = []
        constraints: list[ConstraintSpec] = []
        self._match_l_paren()
        while True:
            cons = self._table_constraint()
            if cons is not None:
                constraints.append(cons)
            else:
                columns.append(self._column_def())
            if not self._match(TokenType.COMMA):
                break
        self._match_r_paren()
        self._no_log = False
        put, lock_mode = self._table_options()
        spec = CreateTable(table, columns, constraints, temp, if_not_exists, put, lock_mode,
                           self._extents, self._fragments, no_log=self._no_log)
        return _stmt("create_temp_table" if temp else "create_table", spec)

    def _create_typed_table(self, table: TableName, temp: bool,
                            if_not_exists: bool) -> exp.Expr:
        """``CREATE TABLE t OF TYPE row_t [(table constraints)] [UNDER super] [options]``
        (Syntax guide, "OF TYPE Clause", ids_sqs_0099): the columns are the named ROW type's
        fields, so the statement names none; only multiple-column constraints may follow.
        UNDER makes it a subtable in a table hierarchy (ids_sqs_0565), checked and recorded
        by ddl.create_table."""
        self._advance(2)  # OF TYPE
        of_type = self._name()
        constraints: list[ConstraintSpec] = []
        if self._match(TokenType.L_PAREN):
            while True:
                cons = self._table_constraint()
                if cons is None:
                    # Column definitions: the ROW type declares the columns (ids_sqs_0099).
                    self.raise_error("Expected a table constraint")
                    raise AssertionError
                constraints.append(cons)
                if not self._match(TokenType.COMMA):
                    break
            self._match_r_paren()
        under = None
        if self._word() == "UNDER":
            self._advance()
            under = self._name()
        put, lock_mode = self._table_options()
        if under is None and self._word() == "UNDER":  # options may come before UNDER
            self._advance()
            under = self._name()
        if under is not None and temp:
            raise not_implemented("a temporary table in a table hierarchy")
        spec = CreateTable(table, [], constraints, temp, if_not_exists, put, lock_mode,
                           self._extents, self._fragments, of_type=of_type, under=under)
        return _stmt("create_temp_table" if temp else "create_table", spec)

    def _as_select_columns(self) -> list[str] | None:
        """For ``CREATE TABLE t [(a, b)] AS SELECT``: the column names (maybe none), with the
        parser past AS; None (parser unmoved) for a table defined by its columns."""
        index = self._index
        names: list[str] = []
        if self._match(TokenType.L_PAREN):
            while self._curr and self._curr.token_type not in (TokenType.L_PAREN,
                                                               TokenType.R_PAREN):
                if not self._match(TokenType.COMMA):
                    names.append(self._name())
                    if self._curr and self._curr.token_type == TokenType.DCOLON:
                        # ``column::target_data_type`` (ids_sqs_0403) casts the query's
                        # column; not built (a wrong type would be a different table).
                        raise not_implemented("column::type in CREATE TABLE ... AS SELECT")
                    if self._curr and self._curr.token_type not in (TokenType.COMMA,
                                                                    TokenType.R_PAREN):
                        break  # a type follows the name: column definitions
            if not self._match(TokenType.R_PAREN):
                self._retreat(index)
                return None
        self._extents = (0, 0)
        self._ctas_lock = None
        self._fragments = None
        if self._word() in _TABLE_OPTION_WORDS:
            # Storage options and LOCK MODE between the column list and AS (ids_sqs_0403)
            at = self._index
            try:
                _, self._ctas_lock = self._table_options(stop_at_as=True)
            except IfxParseError:
                self._retreat(at)

        if self._word() != "AS":
            self._retreat(index)
            return None
        self._advance()
        return names

    def _table_options(self, stop_at_as: bool = False
                       ) -> tuple[list[tuple[str, list[str]]], str | None]:
        """CREATE TABLE's options after the columns: the PUT clause, and LOCK MODE's 'P' or
        'R' (None when not given); the storage options are accepted and not emulated."""
        put: list[tuple[str, list[str]]] = []
        lock_mode: str | None = None
        self._extents = (0, 0)
        self._fragments = None
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            w = self._word()
            if stop_at_as and w == "AS":
                break
            if w == "PUT":
                self._advance()
                put.extend(self._put_clause())
            elif w == "WITH":
                self._advance()
                no = self._word() == "NO"
                self._advance()  # NO / CRCOLS / ROWIDS / ERKEY ...
                if self._word() == "LOG":
                    self._advance()
                    self._no_log = self._no_log or no
            elif w == "IN":
                self._advance(2)
            elif w in ("EXTENT", "NEXT"):
                self._expect_word(w, "SIZE")
                size = self._int_arg()
                first, nxt = self._extents
                self._extents = (size, nxt) if w == "EXTENT" else (first, size)
            elif w == "LOCK":
                self._expect_word("LOCK", "MODE")
                lock_mode = self._lock_mode()
            elif w in ("STATCHANGE", "STATLEVEL"):
                self._advance(2)
            elif w == "COMPRESSED":
                self._advance()
            elif w == "PARTITION BY" or (w in ("FRAGMENT", "PARTITION")
                                         and self._word(1) == "BY"):
                self._fragments = self._fragment_by(index=False)
            else:
                self.raise_error("Unexpected table option")
        return put, lock_mode

    def _fragment_by(self, index: bool) -> FragmentScheme:
        """``FRAGMENT | PARTITION BY`` of CREATE TABLE / CREATE INDEX (Guide to SQL: Syntax,
        ids_sqs_0513 and ids_sqs_0426): ROUND ROBIN (tables only), EXPRESSION and LIST, as
        a FragmentScheme (fragments.py writes sysfragments and refuses rows that fit no
        fragment). RANGE ... INTERVAL makes fragments as rows arrive: not built (-999)."""
        self._advance(1 if self._word() == "PARTITION BY" else 2)  # FRAGMENT BY (one token?)
        kind = self._word()
        if kind == "ROUND" and self._word(1) == "ROBIN" and not index:
            self._advance(2)
            frags: list[FragmentSpec] = []
            while True:  # IN a, b | IN (a, b) | PARTITION p IN a, PARTITION q IN a
                partition = None
                if self._word() == "PARTITION":
                    self._advance()
                    partition = self._name()
                    self._expect_word("IN")
                elif not frags:
                    self._expect_word("IN")
                if self._curr and self._curr.token_type == TokenType.L_PAREN:
                    frags.extend(FragmentSpec(None, d) for d in self._name_list())
                else:
                    frags.append(FragmentSpec(partition, self._name()))
                if not self._match(TokenType.COMMA):
                    return FragmentScheme("R", frags)
        if kind == "EXPRESSION":
            self._advance()
            if self._wrapped_list():
                # "The parentheses around the list of fragment definitions that follow the
                # EXPRESSION keyword are optional" (ids_sqs_0426)
                self._match_l_paren()
                frags = self._fragment_list("E")
                self._match_r_paren()
                return FragmentScheme("E", frags)
            return FragmentScheme("E", self._fragment_list("E"))
        if kind == "LIST":
            self._advance()
            key = self._paren_text()
            return FragmentScheme("L", self._fragment_list("L"), key)
        if kind in ("RANGE", "INTERVAL"):
            raise not_implemented(f"FRAGMENT BY {kind}")
        self.raise_error("Unexpected fragmentation strategy")
        raise AssertionError

    def _wrapped_list(self) -> bool:
        """Whether a parenthesis here wraps the whole fragment list (the token after its
        match is not the IN of a first fragment ``(expr) IN dbspace``)."""
        if not self._curr or self._curr.token_type != TokenType.L_PAREN:
            return False
        depth = 0
        i = self._index
        while i < len(self._tokens):
            tt = self._tokens[i].token_type
            depth += (tt == TokenType.L_PAREN) - (tt == TokenType.R_PAREN)
            if depth == 0:
                after = self._tokens[i + 1] if i + 1 < len(self._tokens) else None
                return after is None or after.text.upper() != "IN"
            i += 1
        return False

    def _paren_text(self) -> str:
        """The text between a parenthesis here and its match (the parser past both)."""
        self._match_l_paren()
        start = self._curr.start if self._curr else 0
        depth = 0
        while self._curr and not (depth == 0 and self._curr.token_type == TokenType.R_PAREN):
            if self._curr.token_type == TokenType.L_PAREN:
                depth += 1
            elif self._curr.token_type == TokenType.R_PAREN:
                depth -= 1
            self._advance()
        end = self._prev.end if self._prev else start
        self._match_r_paren()
        return self.sql[start : end + 1].strip()

    def _fragment_list(self, strategy: str) -> list[FragmentSpec]:
        """The fragments after EXPRESSION / LIST (key), comma-separated."""
        frags = [self._fragment(strategy)]
        while self._match(TokenType.COMMA):
            frags.append(self._fragment(strategy))
        return frags

    def _fragment(self, strategy: str, need_in: bool = True) -> FragmentSpec:
        """``[PARTITION p] (expr | VALUES (...) | REMAINDER) IN dbspace``. The expression's
        text runs to the IN that a name follows (an expression's own IN list is
        parenthesised); it is parsed and checked against the table by fragments.py."""
        partition = None
        if self._word() == "PARTITION":
            self._advance()
            partition = self._name()
        if self._word() == "REMAINDER":
            self._advance()
            if not need_in and self._word() != "IN":
                return FragmentSpec(partition, "", remainder=True)
            self._expect_word("IN")
            return FragmentSpec(partition, self._name(), remainder=True)
        text = ""
        if strategy == "*" and self._word() == "IN":  # ALTER FRAGMENT ... ADD [PARTITION p] IN d
            self._advance()
            return FragmentSpec(partition, self._name())
        if strategy == "L" or (strategy == "*" and self._word() == "VALUES"):
            self._expect_word("VALUES")
            text = self._paren_text()
        else:
            start = self._curr.start if self._curr else 0
            depth = 0
            while self._curr and self._curr.token_type != TokenType.SEMICOLON:
                tt = self._curr.token_type
                if depth == 0 and self._word() == "IN" and self._next is not None and (
                        self._next.token_type != TokenType.L_PAREN):
                    break
                if depth == 0 and tt == TokenType.COMMA:
                    break
                if tt == TokenType.L_PAREN:
                    depth += 1
                elif tt == TokenType.R_PAREN:
                    depth -= 1
                self._advance()
            end = self._prev.end if self._prev else start
            text = self.sql[start : end + 1].strip()
            if not text:
                self.raise_error("Expected a fragment expression")
        if not need_in and self._word() != "IN":  # MODIFY ... TO expr: the same dbspace
            return FragmentSpec(partition, "", text)
        self._expect_word("IN")
        return FragmentSpec(partition, self._name(), text)

    def _alter_fragment(self) -> exp.Expr:
        """ALTER FRAGMENT [ONLINE] ON TABLE | INDEX name, then ADD, DROP, MODIFY or (tables)
        DETACH (ids_sqs_0236 and its clause pages). ATTACH (which consumes tables) and INIT
        (which gives the table a new tabid and its constraints new constrids, ids_sqs_0084)
        are not built."""
        self._advance()  # FRAGMENT
        self._eat("ONLINE")
        self._expect_word("ON")
        kind = self._word()
        if kind not in ("TABLE", "INDEX"):
            self.raise_error("Expected TABLE or INDEX")
        self._advance()
        spec = AlterFragment(self._table_name(), kind == "INDEX", self._word().lower())
        self._advance()
        if spec.action == "add":
            if self._word() not in ("PARTITION", "REMAINDER") and (
                    not self._next or self._next.token_type in (TokenType.SEMICOLON,
                                                                 TokenType.SENTINEL)):
                # ``ADD dbspace``: a round-robin scheme's new fragment (ids_sqs_0064)
                spec.fragment = FragmentSpec(None, self._name())
                return _stmt("alter_fragment", spec)
            spec.fragment = self._fragment("*")
            if self._word() in ("BEFORE", "AFTER"):
                where = self._word()
                self._advance()
                target = self._name()
                if where == "BEFORE":
                    spec.before = target
                else:
                    spec.after = target
        elif spec.action == "drop":
            self._eat("PARTITION")
            spec.drop = self._name()
        elif spec.action == "modify":
            while True:
                self._eat("PARTITION")
                old = self._name()
                self._expect_word("TO")
                spec.modify.append((old, self._fragment("*", need_in=False)))
                if not self._match(TokenType.COMMA):
                    break
                self._eat("MODIFY")  # ddi_248's examples repeat the keyword
        elif spec.action == "detach" and not spec.index:
            self._eat("PARTITION")
            spec.drop = self._name()
            spec.new_table = self._name()
        elif spec.action == "init" and spec.index:
            # ids_sqs_0084 for an index: a new scheme, or ``[PARTITION p] IN dbspace`` (the
            # index becomes nonfragmented); an index keeps its identity (the tabid and
            # constrid changes the page names are a table's)
            if self._word() == "PARTITION BY" or (self._word() in ("FRAGMENT", "PARTITION")
                                                  and self._word(1) == "BY"):
                spec.init = self._fragment_by(index=True)
            else:
                if self._eat("PARTITION"):
                    self._name()
                self._expect_word("IN")
                self._name()
        elif spec.action in ("attach", "detach", "init"):
            raise not_implemented(f"ALTER FRAGMENT ... {spec.action.upper()}")
        else:
            self.raise_error("Expected ATTACH, DETACH, INIT, ADD, DROP or MODIFY")
        return _stmt("alter_fragment", spec)

    def _lock_mode(self) -> str:
        """``PAGE`` or ``ROW`` after LOCK MODE, parenthesised or not, as systables.locklevel
        records it ('P' / 'R'). Other granularities (TABLE, in some Informix versions) are
        refused: what they would mean here is not built."""
        paren = self._match(TokenType.L_PAREN)
        w = self._word()
        if w not in ("PAGE", "ROW"):
            raise not_implemented(f"LOCK MODE {w}")
        self._advance()
        if paren:
            self._match_r_paren()
        return w[0]

    def _put_clause(self) -> list[tuple[str, list[str]]]:
        """``col IN (sbspace, ...) [(EXTENT SIZE n, [NO] LOG, ...)]``, comma-separated."""
        out: list[tuple[str, list[str]]] = []
        while True:
            column = self._name()
            self._expect_word("IN")
            spaces = self._name_list()
            if self._curr and self._curr.token_type == TokenType.L_PAREN:
                depth = 0
                while self._curr:  # storage options: accepted, not emulated
                    if self._curr.token_type == TokenType.L_PAREN:
                        depth += 1
                    elif self._curr.token_type == TokenType.R_PAREN:
                        depth -= 1
                    self._advance()
                    if depth == 0:
                        break
            out.append((column, spaces))
            if not (self._curr and self._curr.token_type == TokenType.COMMA
                    and self._next is not None and self._next.token_type != TokenType.L_PAREN):
                return out
            self._advance()

    def _owner_prefix(self) -> str | None:
        """``owner.`` before a name (owner undelimited, quoted or, with DELIMIDENT,
        delimited), as dbschema prints it: ``constraint "burnetg".n100_2``."""
        tok = self._curr
        if tok is None or self._next is None or self._next.token_type != TokenType.DOT:
            return None
        if tok.token_type not in (TokenType.STRING, TokenType.IDENTIFIER, TokenType.VAR) and (
            tok.token_type not in self.ID_VAR_TOKENS
        ):
            return None
        self._advance(2)
        return tok.text if tok.token_type in (TokenType.STRING, TokenType.IDENTIFIER) else (
            tok.text.lower())

    def _constraint_name(self, cons: ConstraintSpec) -> None:
        cons.owner = self._owner_prefix()
        cons.name = self._name()

    def _constraint_name_suffix(self, cons: ConstraintSpec) -> ConstraintSpec:
        if self._word() == "CONSTRAINT":
            self._advance()
            self._constraint_name(cons)
        cons.mode = self._object_mode("constraint")
        return cons

    def _object_mode(self, what: str) -> str | None:
        """The object mode a CREATE TABLE / ALTER TABLE constraint or a CREATE INDEX may name
        (Guide to SQL: Syntax 14.10, "Enabled Mode", ids_sqs_1101: objects are created
        ENABLED "unless you explicitly specify a different mode"; "Choosing a
        Constraint-Mode Option", ids_sqs_0529): None for ENABLED, the default; DISABLED,
        FILTERING or FILTERING WITH ERROR (WITHOUT ERROR is FILTERING's default), which
        features/object_modes.py sets once the object exists. ENABLED NOVALIDATE is -999."""
        w = self._word()
        if w == "ENABLED" and self._word(1) != "NOVALIDATE":
            self._advance()
        elif w == "ENABLED":
            raise not_implemented(f"ENABLED NOVALIDATE {what} at creation")
        elif w == "DISABLED":
            self._advance()
            return w
        elif w == "FILTERING":
            self._advance()
            if self._word() == "WITH" and self._word(1) == "ERROR":
                self._advance(2)
                return "FILTERING WITH ERROR"
            if self._word() == "WITHOUT" and self._word(1) == "ERROR":
                self._advance(2)
            return w
        return None

    def _table_constraint(self) -> ConstraintSpec | None:
        prefix = ConstraintSpec("", [])
        index = self._index
        if self._word() == "CONSTRAINT":
            self._advance()
            self._constraint_name(prefix)
        w = self._word()
        cons: ConstraintSpec | None = None
        if self._eat("PRIMARY", "KEY"):
            cons = ConstraintSpec("P", self._name_list())
        elif w in ("UNIQUE", "DISTINCT") and self._next and (
            self._next.token_type == TokenType.L_PAREN
        ):
            self._advance()
            cons = ConstraintSpec("U", self._name_list())
        elif w == "CHECK":
            cons = self._check_constraint([])
        elif self._eat("FOREIGN", "KEY"):
            cols = self._name_list()
            cons = self._references(cols)
        if cons is None:
            self._retreat(index)
            return None
        cons.name, cons.owner = prefix.name, prefix.owner
        return self._constraint_name_suffix(cons)

    def _check_constraint(self, columns: list[str]) -> ConstraintSpec:
        self._advance()  # CHECK
        lparen = self._curr
        self._match_l_paren()
        expr = self._parse_assignment()
        rparen = self._curr
        self._match_r_paren()
        text = self.sql[lparen.end + 1 : rparen.start].strip() if rparen else ""
        return ConstraintSpec("C", columns, check=expr, check_text=text)

    def _references(self, columns: list[str]) -> ConstraintSpec:
        self._expect_word("REFERENCES")
        ref = self._table_name()
        ref_cols: list[str] = []
        if self._curr and self._curr.token_type == TokenType.L_PAREN:
            ref_cols = self._name_list()
        cascade = False
        if self._word() == "ON":
            self._expect_word("ON", "DELETE", "CASCADE")
            cascade = True
        return ConstraintSpec("R", columns, ref_table=ref, ref_columns=ref_cols, cascade=cascade)

    def _column_type(self) -> exp.DataType:
        """A column or parameter type, built-in types also owner-qualified as dbexport prints
        them (``"informix".boolean``). Types Informix has and we lack are -999; a name that is
        no type at all is -9628, as on a real server."""
        start = self._index
        owner = self._owner_prefix()
        word = self._word()
        if owner is not None and word not in _TYPE_WORDS:
            owner_type = _OWNED_TYPES.get(word)
            if owner_type is not None:
                self._advance()
                args = self._paren_ints()
                return ifx_type_node(owner_type(args))
        node = self._parse_types(schema=True) if word in _TYPE_WORDS else None
        if isinstance(node, exp.DataType) and node.meta.get("ifx") is not None:
            return node
        self._retreat(start)
        self._owner_prefix()
        if word in _UNSUPPORTED_TYPES:
            raise not_implemented(f"column type {word}")
        if self._curr is not None and self._curr.token_type in (TokenType.VAR,
                                                                  TokenType.IDENTIFIER):
            # Perhaps a named ROW type: resolved against the catalog when the DDL runs, which
            # answers -9628 if there is no such type (server/engine/composite.py).

            self._advance()
            return ifx_type_node(PARSERS.named_placeholder(word.lower()))
        raise EngineError(sc.TYPE_NOT_FOUND, near=word.lower(),
                          offset=self._curr.start if self._curr else 0)

    def _column_def(self) -> ColumnSpec:
        name = self._name()
        node = self._column_type()
        col = ColumnSpec(name, node.meta["ifx"], node.meta.get("serial_start"))
        while self._curr and self._curr.token_type not in (TokenType.COMMA, TokenType.R_PAREN,
                                                           TokenType.SEMICOLON):
            w = self._word()
            prefix: str | None = None
            if w == "CONSTRAINT":
                self._advance()
                prefix = self._name()
                w = self._word()
            if w == "DEFAULT":
                self._advance()
                col.default = self._default_value()
                continue
            if self._eat("NOT", "NULL"):
                cons = ConstraintSpec("N", [name])
            elif w == "NULL":
                self._advance()
                continue
            elif self._eat("PRIMARY", "KEY"):
                cons = ConstraintSpec("P", [name])
            elif w in ("UNIQUE", "DISTINCT"):
                self._advance()
                cons = ConstraintSpec("U", [name])
            elif w == "CHECK":
                cons = self._check_constraint([name])
            elif w == "REFERENCES":
                cons = self._references([name])
            elif w == "BEFORE":
                self._advance()
                col.before = self._name()
                continue
            else:
                self.raise_error("Unexpected column attribute")
                raise AssertionError
            cons.name = prefix
            col.constraints.append(self._constraint_name_suffix(cons))
        return col

    def _default_value(self) -> DefaultSpec:
        w = self._word()
        if w == "NULL":
            self._advance()
            return DefaultSpec("N")
        if w in ("USER", "CURRENT_USER"):  # (ids_sqs_0101 lists both: sysdefaults 'U')
            self._advance()
            return DefaultSpec("U")
        if w == "TODAY":
            self._advance()
            return DefaultSpec("T")
        if w in ("DBSERVERNAME", "SITENAME"):
            self._advance()
            return DefaultSpec("S")
        if w in ("CURRENT", "SYSDATE"):  # (SYSDATE: CURRENT's value, ids_sqs_0101)
            self._advance()
            return DefaultSpec("C", ifx=self._parse_qualifier(TypeCode.DATETIME, optional=True)
                               or None)
        start = self._curr.start if self._curr else 0
        value = self._parse_unary()
        end = self._prev.end if self._prev else start
        return DefaultSpec("L", value=value, text=self.sql[start : end + 1])

    def _create_index(self) -> exp.Expr:
        unique = cluster = False
        while self._word() in ("UNIQUE", "DISTINCT", "CLUSTER"):
            unique = unique or self._word() in ("UNIQUE", "DISTINCT")
            cluster = cluster or self._word() == "CLUSTER"
            self._advance()
        self._expect_word("INDEX")
        if_not_exists = self._if_exists(negate=True)
        name = self._table_name()
        self._expect_word("ON")
        table = self._table_name()
        self._match_l_paren()
        cols: list[tuple[str, bool]] = []
        functions: list[tuple[int, FunctionKey]] = []
        while True:
            col = self._name()
            args = None
            if self._match(TokenType.L_PAREN):  # a functional key part (ids_sqs_0408)
                args = self._parse_csv(self._parse_assignment)
                self._match_r_paren()
            desc = False
            if self._word() in ("ASC", "DESC"):
                desc = self._word() == "DESC"
                self._advance()
            if args is None:
                cols.append((col, desc))
            else:
                functions.append((len(cols) + len(functions), FunctionKey(col, args, desc)))
            if not self._match(TokenType.COMMA):
                break
        self._match_r_paren()
        extents = (0, 0)
        fragments = None
        in_dbspace = False
        mode: str | None = None
        online = False
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            w = self._word()
            if w in ("USING", "IN", "FILLFACTOR"):
                in_dbspace = in_dbspace or (w == "IN" and self._word(1) != "TABLE")
                self._advance(2)
            elif w in ("ONLINE", "COMPRESSED"):
                online = online or w == "ONLINE"
                self._advance()
            elif w in ("ENABLED", "DISABLED", "FILTERING"):
                mode = self._object_mode("index")
            elif w in ("EXTENT", "NEXT"):
                self._expect_word(w, "SIZE")
                size = self._int_arg()
                extents = (size, extents[1]) if w == "EXTENT" else (extents[0], size)
            elif w == "PARTITION BY" or (w in ("FRAGMENT", "PARTITION")
                                         and self._word(1) == "BY"):
                fragments = self._fragment_by(index=True)
            else:
                self.raise_error("Unexpected index option")
        return _stmt("create_index", CreateIndex(name, table, cols, unique, if_not_exists,
                                                 cluster, extents, fragments, in_dbspace,
                                                 mode, functions, online))

    def _create_view(self) -> exp.Expr:
        self._advance()  # VIEW
        if_not_exists = self._if_exists(negate=True)
        name = self._table_name()
        columns: list[str] = []
        if self._curr and self._curr.token_type == TokenType.L_PAREN:
            columns = self._name_list()
        self._expect_word("AS")
        start = self._curr.start if self._curr else 0
        query = self._parse_select()
        if query is None:
            self.raise_error("Expected a SELECT")
            raise AssertionError
        end = self._prev.end
        text = self.sql[start : end + 1]
        check_option = self._word() == "WITH"
        if check_option:
            self._expect_word("WITH", "CHECK", "OPTION")
        return _stmt("create_view", CreateView(name, columns, query, text, if_not_exists,
                                               check_option))

    def _create_database(self) -> exp.Expr:
        self._advance()  # DATABASE
        if_not_exists = self._if_exists(negate=True)
        spec = DatabaseSpec(self._name(), if_not_exists=if_not_exists)
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            w = self._word()
            if w == "IN":
                self._advance(2)
            elif w == "WITH":
                self._advance()
                if self._word() == "BUFFERED":
                    self._advance()
                    spec.buffered = True
                self._expect_word("LOG")
                spec.logged = True
                if self._word() == "MODE":
                    self._expect_word("MODE", "ANSI")
                    spec.ansi = True
            elif w == "NLSCASE":
                self._advance(2)
            else:
                self.raise_error("Unexpected CREATE DATABASE option")
        return _stmt("create_database", spec)

