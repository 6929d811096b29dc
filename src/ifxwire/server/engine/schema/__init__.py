"""Layer 2 of the engine: the catalogue (tables, columns, routines, system tables).

It imports only ``core``.  Features that keep catalogue rows of their own (triggers,
SPL routines, named row and distinct types, smart-large-object tables) register a
loader with :mod:`.catalog` rather than being imported by it.
"""
