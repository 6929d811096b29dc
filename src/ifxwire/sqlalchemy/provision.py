"""Hooks SQLAlchemy's test suite (``sqlalchemy.testing``) calls for this dialect."""

from __future__ import annotations

from typing import Any

from sqlalchemy.testing.provision import (
    drop_all_schema_objects_pre_tables,
    get_temp_table_name,
    temp_table_keyword_args,
)


@temp_table_keyword_args.for_db("informix")
def _informix_temp_table_keyword_args(cfg: Any, eng: Any) -> dict[str, Any]:
    return {"prefixes": ["TEMP"]}


@get_temp_table_name.for_db("informix")
def _informix_get_temp_table_name(cfg: Any, eng: Any, base_name: str) -> str:
    return base_name


@drop_all_schema_objects_pre_tables.for_db("informix")
def _informix_drop_views_and_sequences(cfg: Any, eng: Any) -> None:
    from sqlalchemy import inspect, text

    with eng.begin() as conn:
        insp = inspect(conn)
        for view in insp.get_view_names():
            conn.execute(text(f'DROP VIEW "{view}"'))
        for seq in insp.get_sequence_names():
            conn.execute(text(f'DROP SEQUENCE "{seq}"'))
