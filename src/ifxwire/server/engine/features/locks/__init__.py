"""Row and table locks for the engine's row-lock mode (docs/SERVER.md, "Locks and isolation"):
the lock table (``manager``) and the undo log (``undo``)."""
