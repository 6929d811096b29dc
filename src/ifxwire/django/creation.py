"""Test databases: ``CREATE DATABASE name WITH LOG`` (a logged database, so the test
framework's transactions work) and ``DROP DATABASE``, from a connection with no database."""

from __future__ import annotations

from typing import Any

from django.db.backends.base.creation import BaseDatabaseCreation


class DatabaseCreation(BaseDatabaseCreation):
    def sql_table_creation_suffix(self) -> str:
        return " WITH LOG"

    def _execute_create_test_db(self, cursor: Any, parameters: dict[str, Any],
                                keepdb: bool = False) -> None:
        try:
            cursor.execute(f"CREATE DATABASE {parameters['dbname']}{parameters['suffix']}")
        except Exception as exc:
            if keepdb and getattr(getattr(exc, "__cause__", None), "sqlcode", None) == -330:
                return  # -330: the database exists
            raise

    def _destroy_test_db(self, test_database_name: str, verbosity: int) -> None:
        with self._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE {self.connection.ops.quote_name(test_database_name)}")
