"""SQLAlchemy's dialect compliance suite, unchanged (sqlalchemy.testing.suite)."""

from sqlalchemy.testing.suite import *  # noqa: F403
