"""Change data capture: the ``syscdcv1`` routines, the change log and capture sessions
(docs/CDC_SERVER.md). Importing it registers its hooks (core/hooks.py ``CAPTURE``, sql/hooks.py)."""

from .routines import register

register()
