"""Layer 5 of the engine: the engine and its sessions, which run statements,
transactions and batches by calling the layers below.  The wire layer reaches it
through ``ifxwire.server.engine`` (the package's ``__init__``) alone.
"""
