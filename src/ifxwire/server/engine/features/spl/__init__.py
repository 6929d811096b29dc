"""SPL (stored procedure language): parser, binder, interpreter and routine calls
(a part of the features layer)."""
