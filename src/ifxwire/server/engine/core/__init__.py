"""Layer 1 of the engine: values, Informix types, sqlcodes and the engine's error.

Nothing here knows about the catalogue, SQL text or a session; every other layer
builds on these names.  See docs/ARCHITECTURE.md ("The engine's layers").
"""
