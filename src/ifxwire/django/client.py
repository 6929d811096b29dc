"""``manage.py dbshell``: ifxwire's own shell (``python -m ifxwire``), no CSDK needed."""

from __future__ import annotations

import sys
from typing import Any

from django.db.backends.base.client import BaseDatabaseClient


class DatabaseClient(BaseDatabaseClient):
    executable_name = sys.executable

    @classmethod
    def settings_to_cmd_args_env(cls, settings_dict: dict[str, Any],
                                 parameters: list[str]) -> tuple[list[str], dict[str, str] | None]:
        url = "informix://"
        if settings_dict.get("USER"):
            url += settings_dict["USER"] + "@"
        url += f"{settings_dict.get('HOST') or '127.0.0.1'}:{settings_dict.get('PORT') or 9088}"
        url += "/" + (settings_dict.get("NAME") or "")
        args = [sys.executable, "-m", "ifxwire", url]
        if settings_dict.get("PASSWORD"):
            args += ["--password", settings_dict["PASSWORD"]]
        return [*args, *parameters], None
