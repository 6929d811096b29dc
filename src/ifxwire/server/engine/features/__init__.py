"""Layer 4 of the engine: features built on the SQL layer -- SPL, triggers, smart
large objects, composite and distinct types, privileges, views, DDL execution and
cross-database access.

It imports ``core``, ``schema`` and ``sql``; the session layer above ties them together.
"""
