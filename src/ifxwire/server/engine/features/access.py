"""GRANT, REVOKE, roles and SET ROLE, recorded in the catalog as Informix records them.

* Database privileges (CONNECT, RESOURCE, DBA) and roles are rows of ``sysusers``
  (usertype C, R, D; a role is usertype G).
* Table privileges are one row per (grantor, grantee, table) in ``systabauth``: ``tabauth``
  holds a letter per privilege in the order ``su*idxar`` (select, update, column-level,
  insert, delete, index, alter, references), upper case WITH GRANT OPTION, '-' when not held.
  Column-level SELECT/UPDATE/REFERENCES are rows of ``syscolauth`` (``colauth`` ``sur``) and a
  ``*`` in the third place of ``tabauth``.
* Role grants are rows of ``sysroleauth``; EXECUTE on routines rows of ``sysprocauth``
  (``procauth`` 'e', 'E' WITH GRANT OPTION).

The privileges are validated (a missing table is -206, a missing column -217, an unknown role
refused) and enforced: opening a database needs CONNECT (-387), creating objects RESOURCE
(-388), roles and database privileges DBA (-389), and each statement the table privileges
it uses (-272 SELECT, -273 UPDATE, -274 DELETE, -275 INSERT) and EXECUTE on the routines it
runs (-706); inside a routine the owner's WITH GRANT OPTION privileges join the caller's.
Column-level grants do not give table-level access (stricter than Informix, never kinder).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..schema.catalog import meta
from ..sql.statements_ext import DATABASE_PRIVILEGES, TABLE_PRIVILEGES, GrantSpec, RoleSpec
from .ddl import DdlContext
from .spl.catalog import matching

if TYPE_CHECKING:
    from .session_api import FeatureSession

_LETTERS = "su*idxarn"
_COLUMN_LETTERS = {"SELECT": "s", "UPDATE": "u", "REFERENCES": "r"}
_USERTYPE = {"CONNECT": "C", "RESOURCE": "R", "DBA": "D"}


def _roles(dc: DdlContext) -> set[str]:
    return {str(r[0]).strip() for r in dc.conn.execute(
        "SELECT username FROM sysusers WHERE usertype = 'G'")}


def grant(dc: DdlContext, spec: GrantSpec) -> None:
    if spec.kind == "table":
        _table(dc, spec)
    elif spec.kind == "database":
        _database(dc, spec)
    elif spec.kind == "role":
        _role_grant(dc, spec)
    elif spec.kind == "routine":
        _routine(dc, spec)
    elif spec.kind == "language":
        _language(dc, spec)
    elif spec.kind == "type":
        _type(dc, spec)
    elif spec.kind == "default_role":
        _default_role(dc, spec)
    else:
        raise not_implemented(f"{'GRANT' if spec.grant else 'REVOKE'} on a {spec.kind}")


def _default_role(dc: DdlContext, spec: GrantSpec) -> None:
    """GRANT / REVOKE DEFAULT ROLE. Granting (ids_sqs_0841): "If the role has not previously
    been granted to a user, it is granted as part of setting the default role", and "an
    implicit connection to the database is granted to the user" (SET ROLE, ids_sqs_1187): a
    user without a sysusers row gets one with Connect. REVOKE DEFAULT ROLE clears the
    default and keeps the role (thirty-third session: a user without a sysusers row got
    nothing, and the role was never granted)."""
    role = spec.privileges[0] if spec.privileges else ""
    if spec.grant and role not in _roles(dc):
        raise EngineError(sc.NO_ROLE, near=role)
    for user in spec.grantees:
        if not spec.grant:
            dc.conn.execute("UPDATE sysusers SET defrole = NULL WHERE username = ?", (user,))
            continue
        if dc.conn.execute("SELECT 1 FROM sysusers WHERE username = ?", (user,)).fetchone():
            dc.conn.execute("UPDATE sysusers SET defrole = ? WHERE username = ?", (role, user))
        else:
            dc.conn.execute("INSERT INTO sysusers (username, usertype, priority, password, "
                            "defrole) VALUES (?, 'C', 5, NULL, ?)", (user, role))
        if not dc.conn.execute("SELECT 1 FROM sysroleauth WHERE rolename = ? AND grantee = ?",
                               (role, user)).fetchone():
            dc.conn.execute("INSERT INTO sysroleauth VALUES (?, ?, 'N')", (role, user))


def _table(dc: DdlContext, spec: GrantSpec) -> None:
    assert spec.table is not None
    seq = dc.schema.sequence_of(spec.table.name) if spec.table.database is None else None
    if seq is not None:
        _sequence(dc, spec, seq.tabid)
        return
    info = dc.resolve(spec.table.name, spec.table.owner, spec.table.database, 0)
    if info.temp and spec.grant:
        # -323 "Cannot grant permission on temporary table." [jcat] (fifteenth round)
        raise EngineError(sc.GRANT_ON_TEMP, near=info.name)
    if info.temp or info.kind not in ("T", "V"):
        raise not_implemented("privileges on this object")
    for priv in spec.privileges:
        if priv not in TABLE_PRIVILEGES:
            raise EngineError(sc.SYNTAX, near=priv.lower())
    if "UNDER" in spec.privileges and not (info.kind == "T" and info.type_xid):
        # UNDER is for typed tables: named, -9652 [jcat]; ALL leaves it out for an untyped
        # table (Syntax, "Effect of the ALL Keyword", ids_sqs_0829)
        if not spec.every:
            raise EngineError(sc.UNDER_ON_UNTYPED)
        spec.privileges = [p for p in spec.privileges if p != "UNDER"]
    for cols in spec.columns.values():
        for c in cols:
            if c not in info.by_name:
                raise EngineError(sc.NO_COLUMN, near=c)
    colnos = {c: info.by_name[c].colno for cols in spec.columns.values() for c in cols}
    _write_tabauth(dc, spec, info.tabid, colnos)
    if not spec.grant and not spec.columns:
        _cascade_revoke(dc, spec, info.tabid, colnos)


#: The privileges a sequence takes: "only a subset of table-level privileges ... You can
#: grant the Select or Alter privilege (or both) on a sequence" (Syntax, GRANT,
#: "Sequence-Level Privileges", ids_sqs_0131; REVOKE, ids_sqs_0153).
_SEQUENCE_PRIVILEGES = ("SELECT", "ALTER")


def _sequence(dc: DdlContext, spec: GrantSpec, tabid: int) -> None:
    """GRANT / REVOKE SELECT | ALTER | ALL ON a sequence or a synonym for one (ids_sqs_0131,
    ids_sqs_0153): a systabauth row for the sequence's tabid, as for a table ("systabauth
    ... describes each set of privileges that are granted on a table, view, sequence, or
    synonym", Reference, SYSTABAUTH, ids_sqr_071), with just its 's' and 'a' letters. ALL
    means both. Another privilege, or a column list, is outside the diagram: -201
    [inferred: the pages give no code]. Who may grant is check_ddl's (owner or DBA)."""
    assert spec.table is not None
    if spec.every:
        spec.privileges = list(_SEQUENCE_PRIVILEGES)
    for priv in spec.privileges:
        if priv not in _SEQUENCE_PRIVILEGES or priv in spec.columns:
            raise EngineError(sc.SYNTAX, near=priv.lower())
    # "You can include the WITH GRANT OPTION keywords when you grant ALTER, SELECT, or ALL
    # to a user or to PUBLIC" (ids_sqs_0131): no -298 here, unlike a table
    _write_tabauth(dc, spec, tabid, {}, public_may_grant=True)


def _write_tabauth(dc: DdlContext, spec: GrantSpec, tabid: int, colnos: dict[str, int],
                   public_may_grant: bool = False) -> None:
    """The grantees' systabauth rows on ``tabid`` after the GRANT or REVOKE ``spec``
    (``colnos``: the column numbers of the columns it names)."""
    grantor = spec.grantor or dc.user
    for grantee in spec.grantees:
        # the catalogue's texts for these two GRANTs [jcat], fifteenth round (both were
        # recorded): -299 "Cannot grant permission to self.", -298 "Cannot grant permission
        # to public with grant option."
        if spec.grant and grantee == grantor:
            raise EngineError(sc.GRANT_TO_SELF, near=grantee)
        if spec.grant and spec.with_grant and grantee == "public" and not public_may_grant:
            raise EngineError(sc.GRANT_PUBLIC_WITH_GRANT)
        row = dc.conn.execute("SELECT tabauth FROM systabauth WHERE grantor = ? AND grantee = ?"
                              " AND tabid = ?", (grantor, grantee, tabid)).fetchone()
        auth = list((row[0] if row else "").ljust(len(_LETTERS), "-")[: len(_LETTERS)])
        for priv in spec.privileges:
            if priv in spec.columns:
                _columns(dc, spec, grantor, grantee, tabid, priv,
                         [colnos[c] for c in spec.columns[priv]])
                continue
            i = TABLE_PRIVILEGES[priv]
            if spec.grant:
                auth[i] = _LETTERS[i].upper() if spec.with_grant else _LETTERS[i]
            else:
                auth[i] = "-"
        has_cols = dc.conn.execute(
            "SELECT 1 FROM syscolauth WHERE grantor = ? AND grantee = ? AND tabid = ?",
            (grantor, grantee, tabid)).fetchone()
        auth[2] = "*" if has_cols else "-"
        text = "".join(auth)
        if row is not None:
            dc.conn.execute("DELETE FROM systabauth WHERE grantor = ? AND grantee = ? AND "
                            "tabid = ?", (grantor, grantee, tabid))
        if text.strip("-"):
            dc.conn.execute("INSERT INTO systabauth VALUES (?, ?, ?, ?)",
                            (grantor, grantee, tabid, text))


def _delegates(session: FeatureSession, spec: GrantSpec, table: str) -> bool:
    """A user who is neither owner nor DBA: GRANT of table privileges the user holds WITH
    GRANT OPTION (GRANT, "WITH GRANT OPTION keywords", ids_sqs_0125: "the grantee can in
    turn grant those privileges to other users"), REVOKE of what the user granted ("only
    the specified grantor can revoke", ids_sqs_0123) (thirty-third session; both were
    -999). Column-level grants stay the owner's."""
    if spec.kind != "table" or spec.columns or spec.grantor not in (None, session.user):
        return False
    conn = session._connection()
    info = session.current_schema().tables.get(table)
    if info is None:
        return False
    if not spec.grant:
        return conn.execute("SELECT 1 FROM systabauth WHERE grantor = ? AND tabid = ?",
                            (session.user, info.tabid)).fetchone() is not None
    held = [str(r[0]) for r in conn.execute(
        "SELECT tabauth FROM systabauth WHERE grantee = ? AND tabid = ?",
        (session.user, info.tabid))]
    wanted = [TABLE_PRIVILEGES[p] for p in spec.privileges if p in TABLE_PRIVILEGES]
    return bool(wanted) and all(
        any(len(a) > i and a[i] == _LETTERS[i].upper() for a in held) for i in wanted)


def _cascade_revoke(dc: DdlContext, spec: GrantSpec, tabid: int, colnos: dict[str, int]
                    ) -> None:
    """REVOKE from a user who granted the privileges on to others: "effectively revokes all
    privileges on the items table from users mary, cathy, and paul" (REVOKE, "Revoking
    privileges granted WITH GRANT OPTION", ids_sqs_0149): the rows that grantee granted lose
    the same privileges, and theirs in turn."""
    done: set[str] = set()
    todo = [g for g in spec.grantees if g != "public"]
    while todo:
        grantor = todo.pop()
        if grantor in done:
            continue
        done.add(grantor)
        others = [str(r[0]) for r in dc.conn.execute(
            "SELECT grantee FROM systabauth WHERE grantor = ? AND tabid = ?", (grantor, tabid))]
        if not others:
            continue
        sub = GrantSpec(False, "table", spec.privileges, others, table=spec.table,
                        grantor=grantor)
        _write_tabauth(dc, sub, tabid, colnos)
        todo.extend(others)


def _routine(dc: DdlContext, spec: GrantSpec) -> None:
    """GRANT / REVOKE EXECUTE ON a routine: rows of sysprocauth, procauth 'e' (or 'E' WITH
    GRANT OPTION). Granting takes a DBA, the routine's owner or a holder of 'E'; a REVOKE by
    the owner or a DBA removes the grantee's EXECUTE whoever granted it."""
    assert spec.routine is not None
    if spec.privileges != ["EXECUTE"]:
        raise EngineError(sc.SYNTAX, near=spec.privileges[0].lower())
    found = matching(dc.schema.routines, spec.routine, dc.schema.types)
    if not found:
        raise EngineError(sc.NO_ROUTINE, near=spec.routine.name)
    if len(found) > 1:
        raise EngineError(sc.ROUTINE_AMBIGUOUS, near=spec.routine.name)
    routine = found[0]
    owner = cat_meta_owner(dc.conn)
    full = routine.owner == dc.user or database_level(dc.conn, dc.user, owner) == "D"
    if not full and not Privileges(dc.conn, dc.user, None, grantable_only=True).may_execute(
            dc.user, routine.procid):
        raise EngineError(sc.NOT_IMPLEMENTED, near=routine.name,
                          message=f"No permission: {dc.user} may not grant on {routine.name}")
    grantor = spec.grantor or dc.user
    for grantee in spec.grantees:
        if spec.grant and spec.with_grant and grantee == "public":
            raise EngineError(sc.GRANT_PUBLIC_WITH_GRANT)
        if not spec.grant:
            dc.conn.execute("DELETE FROM sysprocauth WHERE grantee = ? AND procid = ?"
                            + ("" if full else " AND grantor = ?"),
                            (grantee, routine.procid) + (() if full else (grantor,)))
            continue
        dc.conn.execute("DELETE FROM sysprocauth WHERE grantor = ? AND grantee = ? AND "
                        "procid = ?", (grantor, grantee, routine.procid))
        dc.conn.execute("INSERT INTO sysprocauth VALUES (?, ?, ?, ?)",
                        (grantor, grantee, routine.procid, "E" if spec.with_grant else "e"))


#: _ifx_meta key: who holds the Usage privilege on SPL besides the DBAs (comma-separated).
_SPL_USAGE = "usage_on_spl"


def spl_usage(conn: sqlite3.Connection) -> set[str]:
    """The grantees of USAGE ON LANGUAGE SPL; PUBLIC until a REVOKE ("The Usage privilege
    on SPL is granted to PUBLIC by default", Guide to SQL: Syntax, GRANT)."""
    text = meta(conn).get(_SPL_USAGE)
    return {"public"} if text is None else {u for u in text.split(",") if u}


def _language(dc: DdlContext, spec: GrantSpec) -> None:
    """GRANT / REVOKE USAGE ON LANGUAGE SPL (dbexport writes the pair for every database).
    Only a DBA gets here (check_ddl). C and Java routines do not exist in this server, so
    privileges on them are refused rather than recorded."""
    if spec.privileges != ["USAGE"]:
        raise EngineError(sc.SYNTAX, near=spec.privileges[0].lower())
    language = (spec.language or "").upper()
    if language in ("C", "JAVA"):
        raise not_implemented(f"USAGE ON LANGUAGE {language} (no external routines)")
    if language != "SPL":
        raise EngineError(sc.SYNTAX, near=(spec.language or "").lower())
    holders = spl_usage(dc.conn)
    if spec.grant:
        holders.update(spec.grantees)
    else:
        holders.difference_update(spec.grantees)
    # (an upsert, not OR REPLACE: its deletion would escape schema/changelog.py's triggers)
    dc.conn.execute("INSERT INTO _ifx_meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE "
                    "SET value = excluded.value",
                    (_SPL_USAGE, ",".join(sorted(holders))))


# ---- the Under privilege ------------------------------------------------------------------------
#: sysxtdtypeauth.auth: a letter per type-level privilege, Usage then Under, upper case WITH
#: GRANT OPTION, '-' when not held (Reference, SYSXTDTYPEAUTH, ids_sqr_083, names the letters
#: and the case rule; the positions are our reading, after systabauth's pattern).
_TYPE_LETTERS = "un"
_BUILT_IN = frozenset((
    "integer", "int", "smallint", "bigint", "int8", "serial", "serial8", "bigserial", "float",
    "smallfloat", "real", "double", "decimal", "dec", "numeric", "money", "char", "character",
    "nchar", "varchar", "nvarchar", "lvarchar", "date", "datetime", "interval", "boolean",
    "text", "byte", "blob", "clob"))


def _grantees(dc: DdlContext) -> list[str]:
    return [dc.user, "public"] + ([dc.role] if dc.role else [])


def _type(dc: DdlContext, spec: GrantSpec) -> None:
    """GRANT / REVOKE USAGE | UNDER ON [ROW] TYPE name: sysxtdtypeauth rows (ids_sqs_0128,
    ids_sqs_0832, ids_sqs_0833, ids_sqs_0952). UNDER: a built-in type is -9638, a distinct
    type -9639 [jcat]. USAGE: on a distinct or named ROW type; a name that is no such type
    (a built-in type's name too: built-in types are PUBLIC's and "cannot be revoked",
    ids_sqs_0128) is -9628 [jcat; the code for a built-in name is our inference]. The owner
    or a DBA grants, or a holder WITH GRANT OPTION (upper-case letter)."""
    assert spec.type_name is not None
    if len(spec.privileges) != 1 or spec.privileges[0] not in ("UNDER", "USAGE"):
        raise EngineError(sc.SYNTAX, near=spec.privileges[0].lower())
    under = spec.privileges[0] == "UNDER"
    row = dc.conn.execute("SELECT extended_id, mode, owner FROM sysxtdtypes WHERE name = ?",
                          (spec.type_name,)).fetchone()
    if row is None:
        if under and spec.type_name.lower() in _BUILT_IN:
            raise EngineError(sc.UNDER_ON_BASE_TYPE)
        raise EngineError(sc.TYPE_NOT_FOUND, near=spec.type_name)
    xid, mode, owner = int(row[0]), str(row[1]).strip(), str(row[2] or "").strip()
    if under and mode == "D":
        raise EngineError(sc.UNDER_ON_DISTINCT)
    if mode not in ("R", "D"):
        if under:
            raise EngineError(sc.UNDER_ON_BASE_TYPE)
        raise EngineError(sc.TYPE_NOT_FOUND, near=spec.type_name)
    letter = "n" if under else "u"
    pos = _TYPE_LETTERS.index(letter)
    full = owner == dc.user or database_level(dc.conn, dc.user, cat_meta_owner(dc.conn)) == "D"
    if not full and not any(
            len(str(auth)) > pos and str(auth)[pos] == letter.upper()
            for (auth,) in dc.conn.execute(
                "SELECT auth FROM sysxtdtypeauth WHERE type = ? AND grantee = ?",
                (xid, dc.user))):
        raise EngineError(sc.NOT_IMPLEMENTED, near=spec.type_name, message=(
            f"No permission: {dc.user} may not grant {spec.privileges[0]} on "
            f"{spec.type_name}"))
    grantor = spec.grantor or dc.user
    for grantee in spec.grantees:
        if spec.grant and spec.with_grant and grantee == "public":
            raise EngineError(sc.GRANT_PUBLIC_WITH_GRANT)
        rows = dc.conn.execute(
            "SELECT grantor, auth FROM sysxtdtypeauth WHERE type = ? AND grantee = ?"
            + ("" if spec.grant or full else " AND grantor = ?"),
            (xid, grantee) + (() if spec.grant or full else (grantor,))).fetchall()
        if spec.grant:
            rows = [r for r in rows if str(r[0]).strip() == grantor] or [(grantor, "")]
        for who, auth in rows:
            letters = list(str(auth or "").ljust(2, "-")[:2])
            letters[pos] = (letter.upper() if spec.with_grant else letter) if spec.grant else "-"
            dc.conn.execute("DELETE FROM sysxtdtypeauth WHERE type = ? AND grantor = ? AND "
                            "grantee = ?", (xid, who, grantee))
            if "".join(letters).strip("-"):
                dc.conn.execute("INSERT INTO sysxtdtypeauth VALUES (?, ?, ?, ?)",
                                (who, grantee, xid, "".join(letters)))


def check_usage(dc: DdlContext, xid: int, name: str) -> None:
    """A column of a distinct type in CREATE TABLE or ALTER TABLE needs the Usage privilege
    on the type: "a user must receive an explicit Usage privilege from a GRANT statement to
    use a distinct data type" (Syntax, "USAGE Privilege", ids_sqs_0832); at CREATE DISTINCT
    TYPE "only you, the owner, have Usage privilege on this type" (ids_sqs_0373). Its owner
    and a DBA hold it; else -9997 "No usage privilege on data type (%s)." [jcat]."""
    if _owner_or_dba(dc, "SELECT owner FROM sysxtdtypes WHERE extended_id = ?", xid):
        return
    who = _grantees(dc)
    marks = ", ".join("?" * len(who))
    if not dc.conn.execute(f"SELECT 1 FROM sysxtdtypeauth WHERE type = ? AND grantee IN "
                           f"({marks}) AND lower(substr(auth, 1, 1)) = 'u'",
                           (xid, *who)).fetchone():
        raise EngineError(sc.NO_TYPE_USAGE, near=name)


def check_type_usage(conn: sqlite3.Connection, user: str, role: str | None, xid: int,
                     name: str) -> None:
    """A cast to a distinct type (``::dollars``, ``CAST(x AS dollars)``) needs the Usage
    privilege on it, as a column of one does (check_usage): "a user must receive an explicit
    Usage privilege from a GRANT statement to use a distinct data type" (ids_sqs_0832), and
    the server "checks for the Usage privilege whenever the [type] name appears in an SQL
    statement" (Extending Informix Dynamic Server, "Granting Privileges for an Opaque Data
    Type"). The owner holds it (a DBA never gets here); else -9997 [jcat]."""
    row = conn.execute("SELECT owner FROM sysxtdtypes WHERE extended_id = ?", (xid,)).fetchone()
    if row is not None and str(row[0] or "").strip() == user:
        return
    who = [user, "public"] + ([role] if role else [])
    marks = ", ".join("?" * len(who))
    if not conn.execute(f"SELECT 1 FROM sysxtdtypeauth WHERE type = ? AND grantee IN "
                        f"({marks}) AND lower(substr(auth, 1, 1)) = 'u'",
                        (xid, *who)).fetchone():
        raise EngineError(sc.NO_TYPE_USAGE, near=name)


def public_under_on_type(dc: DdlContext, xid: int) -> None:
    """A new named ROW type: "The Under privilege is granted to PUBLIC automatically when a
    named row type is created (except in ANSI-compliant databases)" (Database Design guide,
    ids_ddi_265)."""
    if not dc.ctx.ansi:
        dc.conn.execute("INSERT INTO sysxtdtypeauth VALUES (?, 'public', ?, '-n')",
                        (dc.user, xid))


def _owner_or_dba(dc: DdlContext, owner_sql: str, key: int) -> bool:
    """Whether the session's user owns the object ``owner_sql`` finds by ``key``, or is a DBA
    of the database: both hold the Under privilege without a grant."""
    row = dc.conn.execute(owner_sql, (key,)).fetchone()
    if row is not None and str(row[0] or "").strip() == dc.user:
        return True
    return database_level(dc.conn, dc.user, cat_meta_owner(dc.conn)) == "D"


def check_under_type(dc: DdlContext, xid: int, name: str) -> None:
    """CREATE ROW TYPE … UNDER ``name``: the Under privilege on the supertype (Syntax,
    "Privileges on named ROW data types", ids_sqs_0476); its owner and a DBA hold it; else
    -9653 [jcat]."""
    if _owner_or_dba(dc, "SELECT owner FROM sysxtdtypes WHERE extended_id = ?", xid):
        return
    who = _grantees(dc)
    marks = ", ".join("?" * len(who))
    if not dc.conn.execute(f"SELECT 1 FROM sysxtdtypeauth WHERE type = ? AND grantee IN "
                           f"({marks}) AND lower(auth) LIKE '%n%'", (xid, *who)).fetchone():
        raise EngineError(sc.NO_UNDER, near=name)


def check_under_table(dc: DdlContext, tabid: int, name: str) -> None:
    """CREATE TABLE … UNDER ``name``: the Under privilege on the supertable (Syntax,
    "Table-Level Privileges", ids_sqs_0129: UNDER lets one create a subtable under a typed
    table; Design guide, "Under privileges for typed tables", ids_ddi_099); its owner and a
    DBA hold it; else -9653 [jcat]."""
    if _owner_or_dba(dc, "SELECT owner FROM systables WHERE tabid = ?", tabid):
        return
    who = _grantees(dc)
    marks = ", ".join("?" * len(who))
    for (auth,) in dc.conn.execute(f"SELECT tabauth FROM systabauth WHERE tabid = ? AND "
                                   f"grantee IN ({marks})", (tabid, *who)):
        text = str(auth or "")
        if len(text) > 8 and text[8] in "nN":
            return
    raise EngineError(sc.NO_UNDER, near=name)


def cat_meta_owner(conn: sqlite3.Connection) -> str:
    """The database's owner (its creator), who is its DBA."""
    return meta(conn).get("owner", "informix")


def _columns(dc: DdlContext, spec: GrantSpec, grantor: str, grantee: str, tabid: int,
             priv: str, colnos: list[int]) -> None:
    letter = _COLUMN_LETTERS.get(priv)
    if letter is None:
        raise EngineError(sc.SYNTAX, near=priv.lower())
    pos = "sur".index(letter)
    for colno in colnos:
        row = dc.conn.execute("SELECT colauth FROM syscolauth WHERE grantor = ? AND grantee = ?"
                              " AND tabid = ? AND colno = ?",
                              (grantor, grantee, tabid, colno)).fetchone()
        auth = list((row[0] if row else "---").ljust(3, "-")[:3])
        auth[pos] = (letter.upper() if spec.with_grant else letter) if spec.grant else "-"
        dc.conn.execute("DELETE FROM syscolauth WHERE grantor = ? AND grantee = ? AND tabid = ?"
                        " AND colno = ?", (grantor, grantee, tabid, colno))
        if "".join(auth).strip("-"):
            dc.conn.execute("INSERT INTO syscolauth VALUES (?, ?, ?, ?, ?)",
                            (grantor, grantee, tabid, colno, "".join(auth)))


def _database(dc: DdlContext, spec: GrantSpec) -> None:
    level = max((DATABASE_PRIVILEGES.index(p) for p in spec.privileges), default=0)
    for user in spec.grantees:
        if user in _roles(dc):
            raise not_implemented("database privileges for a role")
        dc.conn.execute("DELETE FROM sysusers WHERE username = ? AND usertype <> 'G'", (user,))
        if spec.grant:
            dc.conn.execute("INSERT INTO sysusers VALUES (?, ?, 5, NULL, NULL)",
                            (user, _USERTYPE[DATABASE_PRIVILEGES[level]]))


def _role_grant(dc: DdlContext, spec: GrantSpec) -> None:
    roles = _roles(dc)
    for role in spec.privileges:
        if role not in roles:
            raise EngineError(sc.NO_ROLE, near=role)
        for user in spec.grantees:
            dc.conn.execute("DELETE FROM sysroleauth WHERE rolename = ? AND grantee = ?",
                            (role, user))
            if spec.grant:
                dc.conn.execute("INSERT INTO sysroleauth VALUES (?, ?, ?)",
                                (role, user, "Y" if spec.with_grant else "N"))


def create_role(dc: DdlContext, spec: RoleSpec) -> None:
    assert spec.name is not None
    taken = dc.conn.execute("SELECT 1 FROM sysusers WHERE username = ?", (spec.name,)).fetchone()
    if taken:
        if spec.if_exists:
            return
        raise EngineError(sc.ROLE_EXISTS, near=spec.name)
    dc.conn.execute("INSERT INTO sysusers VALUES (?, 'G', 5, NULL, NULL)", (spec.name,))


def drop_role(dc: DdlContext, spec: RoleSpec) -> None:
    assert spec.name is not None
    if spec.name not in _roles(dc):
        if spec.if_exists:
            return
        raise EngineError(sc.NO_ROLE, near=spec.name)
    dc.conn.execute("DELETE FROM sysusers WHERE username = ?", (spec.name,))
    dc.conn.execute("DELETE FROM sysroleauth WHERE rolename = ?", (spec.name,))
    dc.conn.execute("DELETE FROM systabauth WHERE grantee = ?", (spec.name,))
    dc.conn.execute("DELETE FROM syscolauth WHERE grantee = ?", (spec.name,))


def set_role(session: FeatureSession, spec: RoleSpec) -> None:
    """SET ROLE: the role must exist and be granted to the user (or to PUBLIC)."""
    if session.conn is None:
        raise EngineError(sc.NO_DB_SELECTED)
    name = spec.name
    if spec.default:
        row = session.conn.execute("SELECT defrole FROM sysusers WHERE username = ?",
                                   (session.user,)).fetchone()
        name = str(row[0]).strip() if row and row[0] else None
    if name is not None:
        granted = session.conn.execute(
            "SELECT 1 FROM sysroleauth WHERE rolename = ? AND grantee IN (?, 'public')",
            (name, session.user)).fetchone()
        if not granted:
            exists = session.conn.execute(
                "SELECT 1 FROM sysusers WHERE username = ? AND usertype = 'G'",
                (name,)).fetchone()
            raise EngineError(sc.ROLE_NOT_GRANTED if exists else sc.NO_ROLE, near=name)
    session.role = name


# ---- enforcement ---------------------------------------------------------------------------------
_DML_LETTER = {"insert": ("i", sc.NO_INSERT), "update": ("u", sc.NO_UPDATE),
               "delete": ("d", sc.NO_DELETE)}


def database_level(conn: sqlite3.Connection, user: str, owner: str,
                   schema: str = "main") -> str | None:
    """The user's database privilege: 'D' (DBA), 'R' (RESOURCE), 'C' (CONNECT) or None.
    The database's creator is its DBA; PUBLIC's row applies to everyone. ``schema``: the
    SQLite schema the database is attached as (another database: cross_database.py)."""
    if user == owner or user == "informix":
        return "D"
    rows = dict(conn.execute(f"SELECT username, usertype FROM {schema}.sysusers WHERE "
                             "username IN (?, "
                             "'public') AND usertype <> 'G'", (user,)).fetchall())
    levels = [str(rows[u]).strip() for u in (user, "public") if u in rows]
    for level in ("D", "R", "C"):
        if level in levels:
            return level
    return None


class Privileges:
    """The table and routine privileges of one user (and role) in the open database, read
    from systabauth and sysprocauth once per schema version (a GRANT moves the version).
    ``grantable_only``: just what the user holds WITH GRANT OPTION (upper-case letters),
    the part of a routine owner's privileges its callers share."""

    def __init__(self, conn: sqlite3.Connection, user: str, role: str | None,
                 grantable_only: bool = False, schema: str = "main") -> None:
        grantees = [user] if grantable_only else [user, "public"] + ([role] if role else [])
        marks = ", ".join("?" * len(grantees))
        self.letters: dict[str, set[str]] = {}
        self.owners: dict[str, str] = {}
        #: Plans whose privilege check passed against these privileges, by id (the session's
        #: _check_privileges; a new object, made at every schema version, starts empty).
        self.passed: dict[int, object] = {}
        for name, owner, auth in conn.execute(
                f"SELECT t.tabname, t.owner, a.tabauth FROM {schema}.systables t "
                f"LEFT JOIN {schema}.systabauth a "
                f"ON a.tabid = t.tabid AND a.grantee IN ({marks}) WHERE t.tabid >= 100",
                grantees):
            self.owners[str(name)] = str(owner or "").strip()
            got = self.letters.setdefault(str(name), set())
            if auth:
                got.update(ch.lower() for ch in str(auth) if ch not in "-*" and (
                    ch.isupper() or not grantable_only))
        self.routine_owners: dict[int, str] = {
            int(procid): str(owner).strip()
            for procid, owner in conn.execute(
                f"SELECT procid, owner FROM {schema}.sysprocedures")}
        self.executable: set[int] = {
            int(procid) for procid, auth in conn.execute(
                f"SELECT procid, procauth FROM {schema}.sysprocauth WHERE grantee IN ({marks})",
                grantees)
            if "E" in str(auth) or (not grantable_only and "e" in str(auth))}

    def has(self, user: str, table: str, letter: str) -> bool:
        if self.owners.get(table) == user or table not in self.owners:
            return True  # owners hold every privilege; catalog tables are readable
        return letter in self.letters.get(table, set())

    def may_execute(self, user: str, procid: int) -> bool:
        """A routine's owner may run it; others need EXECUTE from sysprocauth."""
        return self.routine_owners.get(procid) == user or procid in self.executable


#: A routine owner's share of a caller's rights: (owner, what the owner holds WITH GRANT
#: OPTION), or None where no routine is running.
OwnerRights = tuple[str, Privileges] | None


def check_plan(privs: Privileges, user: str, kind: str, tables: list[str],
               target: str | None, owner: OwnerRights = None) -> None:
    """-272…-275 when the user lacks a privilege the statement needs: the DML verb's on its
    target table, SELECT on every other table it reads. Inside a routine the effective
    privilege is the union of the caller's and what the routine's owner holds WITH GRANT
    OPTION (Guide to SQL: Tutorial, "Privileges on objects associated with a routine")."""
    def has(table: str, letter: str) -> bool:
        return privs.has(user, table, letter) or (
            owner is not None and owner[1].has(owner[0], table, letter))

    for table in tables:
        if table == target and kind in _DML_LETTER:
            letter, code = _DML_LETTER[kind]
            if not has(table, letter):
                raise EngineError(code, near=table)
            continue
        if not has(table, "s"):
            raise EngineError(sc.NO_SELECT, near=table)


def check_sequence(privs: Privileges, user: str, name: str, owner: OwnerRights = None) -> None:
    """NEXTVAL / CURRVAL of sequence ``name``: "To use NEXTVAL or CURRVAL with a sequence,
    you must have the Select privilege on the sequence or have the DBA privilege on the
    database" (Syntax, "NEXTVAL and CURRVAL Operators", ids_sqs_1461; "Select Privilege",
    ids_sqs_0836). -272, the Select privilege's code on a table [inferred: the pages name
    no code; "Informix implements sequence objects as tables", ids_sqs_0131]."""
    if privs.has(user, name, "s") or (
            owner is not None and owner[1].has(owner[0], name, "s")):
        return
    raise EngineError(sc.NO_SELECT, near=name)


def check_execute(privs: Privileges, user: str, procid: int, name: str,
                  owner: OwnerRights = None) -> None:
    """-706 unless the user (or, inside a routine, its owner WITH GRANT OPTION) may run the
    routine ``procid``."""
    if privs.may_execute(user, procid) or (
            owner is not None and owner[1].may_execute(owner[0], procid)):
        return
    raise EngineError(sc.NO_EXECUTE, near=name)


#: CREATE TABLE … AS SELECT and SELECT … INTO STANDARD | RAW make permanent tables too, which
#: Resource allows (Syntax, "Database-Level Privileges", ids_sqs_0124; Connect creates only
#: temporary tables)
_RESOURCE_DDL = {"create_table", "create_table_as", "select_into_table", "create_view",
                 "create_sequence", "create_synonym", "create_routine", "create_trigger",
                 # and the table's owner or its Alter privilege (ids_sqs_1211, below)
                 "start_violations", "stop_violations"}
_DBA_DDL = {"create_role", "drop_role"}


def _check_truncate(session: FeatureSession, privs: Privileges, name: str) -> None:
    """TRUNCATE by a user who neither owns the table nor is a DBA: "You hold the Delete
    access privilege on the table", and "If an enabled Delete trigger is defined on the
    table, you must also hold the Alter privilege on the table, even though the TRUNCATE
    statement does not activate triggers" (Guide to SQL: Syntax, TRUNCATE statement,
    ids_sqs_1236; Restrictions, ids_sqs_1242). -26020 is the message catalogue's "Truncating
    a table with delete trigger requires ALTER privilege."; -274 "No DELETE permission" for
    the missing Delete privilege is our inference (the pages name no code)."""
    if not privs.has(session.user, name, "d"):
        raise EngineError(sc.NO_DELETE, near=name)
    triggers = session.current_schema().triggers.get(name, ())
    if any(t.event == "D" and t.enabled for t in triggers) and not privs.has(
            session.user, name, "a"):
        raise EngineError(sc.TRUNCATE_NEEDS_ALTER, near=name)


#: The sequence statements a non-DBA may run only on some sequences: ALTER and RENAME by its
#: owner or a holder of the Alter privilege, DROP by its owner.
_SEQUENCE_DDL = ("alter_sequence", "rename_sequence", "drop_sequence")


def _check_sequence_ddl(session: FeatureSession, kind: str, spec: object) -> None:
    """"The Alter privilege enables a specified user or role to modify the definition of a
    sequence with the ALTER SEQUENCE statement or to rename the sequence with the RENAME
    SEQUENCE statement" (Syntax, GRANT, "Alter Privilege", ids_sqs_0835); "To drop a
    sequence, you must be its owner or have the DBA privilege on the database" (DROP
    SEQUENCE, ids_sqs_0734). A DBA never gets here. The code a real server sends is not
    known to us [inferred]: the "No permission" refusal check_ddl gives for a table.
    A missing sequence is left to the statement (-8300)."""
    name = getattr(getattr(spec, "name", None), "name", None)
    seq = session.current_schema().sequences.get(name) if isinstance(name, str) else None
    if seq is None or seq.owner == session.user:
        return
    if kind != "drop_sequence" and session.privileges().has(session.user, seq.name, "a"):
        return
    raise EngineError(sc.NOT_IMPLEMENTED, near=seq.name, message=(
        f"No permission: {session.user} may not {kind.split('_')[0]} sequence {seq.name}"))


def check_ddl(session: FeatureSession, level: str, kind: str, spec: object) -> None:
    """Who may run a DDL statement: RESOURCE creates objects, DBA manages roles and database
    privileges, a table's owner (or a DBA) alters, drops, renames, truncates and grants on
    it; ALTER and INDEX privileges let others alter it or index it."""
    if level == "D":
        return
    if kind in _DBA_DDL or (isinstance(spec, GrantSpec) and spec.kind in (
            "database", "role", "default_role")):
        raise EngineError(sc.NO_DBA)
    if isinstance(spec, GrantSpec) and spec.kind == "language":
        # Only informix, a DBA or a holder WITH GRANT OPTION may grant it (we keep no
        # grant option for languages); the code a real server gives is not known to us.
        raise EngineError(sc.NOT_IMPLEMENTED, message=(
            f"No permission: {session.user} may not grant USAGE ON LANGUAGE"))
    if kind in _RESOURCE_DDL and level != "R":
        raise EngineError(sc.NO_RESOURCE)
    if kind == "create_routine" and session.conn is not None:
        holders = spl_usage(session.conn)
        if "public" not in holders and session.user not in holders and not (
                session.role is not None and session.role in holders):
            raise EngineError(sc.NO_USAGE)  # [jcat] "No usage privilege."
    if kind in _SEQUENCE_DDL:
        _check_sequence_ddl(session, kind, spec)
        return
    table = getattr(spec, "table", None)
    name = getattr(table, "name", None)
    if isinstance(spec, GrantSpec) and isinstance(name, str) and (
            seq := session.current_schema().sequence_of(name)) is not None:
        name = seq.name  # a synonym names its sequence: its owner grants (ids_sqs_0131)
    if kind == "alter_fragment":
        # ids_sqs_0236: the Alter privilege (a table) or the Index privilege (an index)
        if getattr(spec, "index", False):
            owner = session.current_schema().indexes.get(str(name))
            name = None if owner is None else owner[0]
            kind = "create_index"
        else:
            kind = "alter_table"
    if kind in ("start_violations", "stop_violations"):
        kind = "alter_table"  # DBA, or Resource and the owner or the Alter privilege
    if kind in ("drop_table", "drop_view", "alter_table", "rename_table", "rename_column",
                "truncate", "create_index", "grant", "revoke"):
        if kind in ("drop_table", "drop_view"):
            name = getattr(getattr(spec, "name", None), "name", None)
        if not isinstance(name, str) or name in session.temp_tables:
            return
        privs = session.privileges()
        letter = {"alter_table": "a", "create_index": "x"}.get(kind)
        if privs.owners.get(name, session.user) == session.user:
            return
        if kind == "truncate":
            _check_truncate(session, privs, name)
            return
        if letter is not None and privs.has(session.user, name, letter):
            return
        if kind in ("grant", "revoke") and isinstance(spec, GrantSpec) and (
                _delegates(session, spec, name)):
            return
        raise EngineError(sc.NOT_IMPLEMENTED, near=name,
                          message=f"No permission: {session.user} does not own {name}")
