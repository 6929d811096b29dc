"""``ifxwire``: an interactive SQL shell for Informix (extra ``[shell]``); docs/SHELL.md.

The non-interactive parts (``-e``, ``-f``, output formats, describe commands) need nothing
beyond the driver; the interactive prompt needs prompt_toolkit and Pygments.
"""
