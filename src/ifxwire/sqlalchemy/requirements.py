"""What SQLAlchemy's dialect compliance suite may expect of Informix.

Every requirement closed here names the Informix limitation behind it. Requirements that
describe something real Informix has stay open even where ifxwire-server lacks it yet; the
tests that fail for that reason are listed with their cause in
``tests/sqla_suite/known_failures.txt``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.testing import exclusions
from sqlalchemy.testing.requirements import SuiteRequirements

Rule = Any


class Requirements(SuiteRequirements):
    # ---- Informix has these (SQLAlchemy's defaults leave them closed)
    @property
    def views(self) -> Rule:
        return exclusions.open()

    @property
    def savepoints(self) -> Rule:
        return exclusions.open()

    @property
    def intersect(self) -> Rule:
        return exclusions.open()  # INTERSECT since 11.70

    @property
    def except_(self) -> Rule:
        return exclusions.open()  # EXCEPT (MINUS) since 11.70

    @property
    def window_functions(self) -> Rule:
        return exclusions.open()  # OLAP window functions since 12.10

    @property
    def ctes(self) -> Rule:
        return exclusions.open()  # WITH since 14.10

    @property
    def check_constraint_reflection(self) -> Rule:
        return exclusions.open()  # syschecks

    @property
    def foreign_key_constraint_name_reflection(self) -> Rule:
        return exclusions.open()

    @property
    def reflects_pk_names(self) -> Rule:
        return exclusions.open()

    @property
    def foreign_key_constraint_option_reflection_ondelete(self) -> Rule:
        return exclusions.open()  # sysreferences.delrule

    @property
    def unbounded_varchar(self) -> Rule:
        return exclusions.open()  # rendered as LVARCHAR

    @property
    def datetime_historic(self) -> Rule:
        return exclusions.open()  # DATETIME years 1..9999

    @property
    def date_historic(self) -> Rule:
        return exclusions.open()

    @property
    def isolation_level(self) -> Rule:
        return exclusions.open()

    def get_isolation_levels(self, config: Any) -> dict[str, Any]:
        return {
            "default": "READ COMMITTED",
            "supported": ["READ UNCOMMITTED", "READ COMMITTED", "CURSOR STABILITY",
                          "REPEATABLE READ", "SERIALIZABLE", "AUTOCOMMIT"],
        }

    @property
    def autocommit(self) -> Rule:
        return exclusions.open()

    @property
    def server_side_cursors(self) -> Rule:
        return exclusions.open()  # the driver streams every result

    @property
    def sequences(self) -> Rule:
        return exclusions.open()  # CREATE SEQUENCE, seq.NEXTVAL

    @property
    def dbapi_lastrowid(self) -> Rule:
        return exclusions.open()  # SERIAL values from SQ_DONE / SQ_INSERTDONE

    @property
    def emulated_lastrowid(self) -> Rule:
        return exclusions.open()

    @property
    def temporary_tables(self) -> Rule:
        return exclusions.open()  # CREATE TEMP TABLE

    @property
    def create_table_as(self) -> Rule:
        return exclusions.open()  # CREATE TABLE … AS SELECT (14.10)

    @property
    def table_ddl_if_exists(self) -> Rule:
        return exclusions.open()  # CREATE TABLE IF NOT EXISTS, DROP TABLE IF EXISTS

    @property
    def index_ddl_if_exists(self) -> Rule:
        return exclusions.open()  # CREATE INDEX IF NOT EXISTS, DROP INDEX IF EXISTS

    # ---- Informix limitations
    @property
    def schemas(self) -> Rule:
        # Schemas are table owners. In a non-ANSI database a table name is unique across all
        # owners, so the suite's fixtures (the same table names in the default schema and in
        # test_schema) cannot exist together; and owners are users, not created objects.
        return exclusions.closed()

    @property
    def temp_table_reflection(self) -> Rule:
        # Temporary tables are not recorded in systables/syscolumns; only the session that
        # created them sees them.
        return exclusions.closed()

    @property
    def temp_table_names(self) -> Rule:
        return exclusions.closed()  # as temp_table_reflection

    @property
    def comment_reflection(self) -> Rule:
        return exclusions.closed()  # Informix has no COMMENT ON and no comment catalog

    @property
    def expressions_against_unbounded_text(self) -> Rule:
        # Text is TEXT: comparing a TEXT value is -615 "Blobs are not allowed in this
        # expression" on a real Informix (Hibernate's InformixDialect tests quote it; the server
        # refuses it too, docs/SERVER.md "What Hibernate's InformixDialect tests record").
        return exclusions.closed()

    @property
    def datetime_microseconds(self) -> Rule:
        # DATETIME keeps at most FRACTION(5): 10-microsecond resolution.
        return exclusions.closed()

    @property
    def timestamp_microseconds(self) -> Rule:
        return exclusions.closed()  # as datetime_microseconds

    @property
    def time_microseconds(self) -> Rule:
        return exclusions.closed()  # as datetime_microseconds

    @property
    def empty_inserts(self) -> Rule:
        # INSERT needs a VALUES list or a SELECT; there is no DEFAULT VALUES form.
        return exclusions.closed()

    @property
    def empty_inserts_executemany(self) -> Rule:
        return exclusions.closed()  # as empty_inserts

    @property
    def returning(self) -> Rule:
        return exclusions.closed()  # INSERT/UPDATE/DELETE have no RETURNING clause

    @property
    def fk_constraint_option_reflection_ondelete_restrict(self) -> Rule:
        # The only referential action Informix has is ON DELETE CASCADE.
        return exclusions.closed()

    @property
    def fk_constraint_option_reflection_ondelete_noaction(self) -> Rule:
        return exclusions.closed()  # as above

    @property
    def foreign_key_constraint_option_reflection_onupdate(self) -> Rule:
        return exclusions.closed()  # no ON UPDATE actions at all

    @property
    def on_update_cascade(self) -> Rule:
        return exclusions.closed()  # no ON UPDATE actions at all

    @property
    def deferrable_fks(self) -> Rule:
        return exclusions.closed()  # constraints have no DEFERRABLE clause

    @property
    def sql_expression_limit_offset(self) -> Rule:
        # SKIP and FIRST take an integer literal or a host variable, not an expression.
        return exclusions.closed()

    @property
    def table_value_constructor(self) -> Rule:
        return exclusions.closed()  # no VALUES (...) as a table
