"""The ifxwire benchmark suite: ``python bench/run.py`` (see docs/BENCHMARKS.md)."""
