"""Drop-in faces of other Informix drivers' APIs, built on ifxwire's public API only.

* :mod:`ifxwire.compat.ifxpy`: IfxPy's module API (``import ifxwire.compat.ifxpy as IfxPy``).
* :mod:`ifxwire.compat.IfxPyDbi`: IfxPy's PEP 249 module (``import ifxwire.compat.IfxPyDbi``).

They exist so that a program written for IfxPy, which no longer builds on current Python,
runs after changing its import line (docs/IFXPY.md lists what matches and what does not).
"""
