"""``python -m ifxwire``: the interactive shell (docs/SHELL.md)."""

from __future__ import annotations

from .shell.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main())
