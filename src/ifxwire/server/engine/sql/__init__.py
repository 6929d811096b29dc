"""Layer 3 of the engine: the Informix dialect, statement forms and their
translation to SQLite, with the SQL functions the translation relies on.

It imports ``core`` and ``schema``.
"""
