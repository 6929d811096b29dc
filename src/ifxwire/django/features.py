"""What the Informix backend supports; each flag turned off names the Informix limitation."""

from __future__ import annotations

from django.db.backends.base.features import BaseDatabaseFeatures


class DatabaseFeatures(BaseDatabaseFeatures):
    minimum_database_version = (12, 10)
    # INSERT ... VALUES takes one row (no multi-row VALUES list): bulk_create inserts row by
    # row, and SERIAL values come back one per INSERT through SQ_INSERTDONE (lastrowid).
    has_bulk_insert = False
    can_return_columns_from_insert = False  # Informix has no INSERT ... RETURNING
    can_return_rows_from_bulk_insert = False
    # Informix has no "INSERT ... ON CONFLICT" / "INSERT IGNORE" (MERGE only).
    supports_ignore_conflicts = False
    supports_update_conflicts = False
    supports_update_conflicts_with_target = False
    uses_savepoints = True
    can_release_savepoints = True
    # DDL runs inside a transaction and is undone by ROLLBACK in a logged database.
    can_rollback_ddl = True
    # A SERIAL column is given a value on INSERT without naming it: "INSERT INTO t (id)
    # VALUES (0)" asks for the next one.
    supports_unspecified_pk = False
    # Informix has no DEFAULT keyword inside VALUES.
    supports_default_keyword_in_insert = False
    supports_default_keyword_in_bulk_insert = False
    # DATETIME keeps no time zone (no TIMESTAMP WITH TIME ZONE, no AT TIME ZONE).
    supports_timezones = False
    has_zoneinfo_database = False
    # DATETIME ... FRACTION(5) is the finest: ten microseconds.
    time_cast_precision = 5
    # INTERVAL DAY(9) TO FRACTION(5) is a native duration; DATETIME - DATETIME is an INTERVAL.
    has_native_duration_field = True
    supports_temporal_subtraction = True
    # Regular expressions: Informix has only LIKE and MATCHES (no REGEXP operator).
    supports_regex_backreferencing = False
    # SELECT ... FOR UPDATE is a cursor attribute in Informix, refused on joins and ordered
    # or aggregated selects; the backend does not offer it.
    has_select_for_update = False
    # Informix does not read FIRST/SKIP in a subquery of IN (...).
    allow_sliced_subqueries_with_in = False
    # SQLite rebuilds; Informix has no ALTER TABLE with several clauses Django could combine.
    supports_combined_alters = False
    # RENAME INDEX exists in Informix and the server; not offered until Django's tests of it
    # have been run against it.
    can_rename_index = False
    # Constraints are checked per statement; Django's disable_constraint_checking defers the
    # referential ones to COMMIT (SET CONSTRAINTS ALL DEFERRED, base.py), but constraints are
    # not created deferrable, which is what this flag tells Django's tests.
    can_defer_constraint_checks = False
    supports_deferrable_unique_constraints = False
    # Informix: an index is on columns (functional indexes need a UDR); no WHERE clause in
    # CREATE INDEX, no INCLUDE columns.
    supports_expression_indexes = False
    supports_partial_indexes = False
    supports_functions_in_partial_indexes = False
    supports_covering_indexes = False
    # A UNIQUE constraint allows one NULL only in Informix.
    supports_nullable_unique_constraints = False
    supports_partially_nullable_unique_constraints = False
    # Boolean conditions are not values in a projection (written as CASE WHEN instead).
    supports_boolean_expr_in_select_clause = False
    supports_comparing_boolean_expr = False
    # No JSON type in Informix's built-in scalar types (BSON/JSON are not stored here).
    supports_json_field = False
    can_introspect_json_field = False
    has_json_object_function = False
    supports_json_field_contains = False
    supports_primitives_in_json_field = False
    # Collations are per database (DB_LOCALE), not per column; no COLLATE clause.
    supports_collation_on_charfield = False
    supports_collation_on_textfield = False
    supports_non_deterministic_collations = False
    # No table or column comments in Informix.
    supports_comments = False
    # No generated columns in Informix.
    supports_stored_generated_columns = False
    supports_virtual_generated_columns = False
    # Informix has no NULLS FIRST / NULLS LAST; NULL sorts first ascending.
    supports_order_by_nulls_modifier = False
    nulls_order_largest = False
    order_by_nulls_first = True
    # No sequence behind a SERIAL to reset (ALTER TABLE MODIFY to SERIAL(n) is not served).
    supports_sequence_reset = False
    # OLAP windows: Informix 12.10+ has them.
    supports_over_clause = True
    supports_frame_range_fixed_distance = False
    supports_frame_exclusion = False
    # Compound selects: SKIP/FIRST apply to the outer select only.
    supports_slicing_ordering_in_compound = False
    supports_parentheses_in_compound = False
    # Informix has no tuple comparison ((a, b) IN (...)).
    supports_tuple_lookups = False
    # BYTE/TEXT cannot be grouped, ordered or compared.
    allows_group_by_lob = False
    supports_index_on_text_field = False
    # A cast to VARCHAR(n) and DECIMAL(p, s) works; Informix CAST truncates strings.
    supports_cast_with_precision = True
    can_clone_databases = False
    supports_aggregate_filter_clause = False
    supports_logical_xor = False
    supports_unlimited_charfield = False
    # ALTER TABLE ... ADD CONSTRAINT with the FK is separate; inline REFERENCES works.
    can_create_inline_fk = True
    indexes_foreign_keys = True
    # The test database is created WITH LOG, so transactions work.
    atomic_transactions = True
    closed_cursor_error_class = Exception
    requires_literal_defaults = True
    supports_expression_defaults = False
    # A DATE cannot be compared to a 'YYYY-MM-DD' string held in a parameter typed CHAR?
    # It can: Informix converts strings to DATE per DBDATE and ISO.
    supports_date_lookup_using_string = True
    introspected_field_types = {  # noqa: RUF012 (Django declares it as a class dict)
        **BaseDatabaseFeatures.introspected_field_types,
        "AutoField": "AutoField",
        "BigAutoField": "BigAutoField",
        "SmallAutoField": "AutoField",
        "PositiveIntegerField": "IntegerField",
        "PositiveBigIntegerField": "BigIntegerField",
        "PositiveSmallIntegerField": "SmallIntegerField",
        "DurationField": "DurationField",
        "GenericIPAddressField": "CharField",
    }
    # Literal parameters and some functions need types the server cannot infer.
    rounds_to_even = False
    # A SELECT needs a FROM clause: the one-row collection-derived table.
    bare_select_suffix = " FROM TABLE(SET{1})"
