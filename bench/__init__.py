"""Benchmarks and checks under load: measurement only, never imported by the product.

``run.py`` is ``make bench`` (its figures go to docs/performance.md); the other modules are
its steps or tools beside it (docs/architecture.md, "Benchmark"). Run them as scripts from
the repository's root (``.venv/bin/python bench/run.py --help``)."""
