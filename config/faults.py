"""Fault injection for the crash tests (tests/test_faults.py): with the environment variable
``CLASSICS_CRASH_AT`` set to a stage name, the process kills itself with SIGKILL when it
reaches that stage, as a power cut or the OOM killer would. Unset (always, outside those
tests), ``crash_point`` is one dictionary look-up.

Stages, in the order an import reaches them:

``import-before-commit``   the juan's rows are written, its transaction not committed
``import-after-commit``    committed; the index not yet written (single file: the on-commit
                           reindex; a batch import: before ``indexing …``)
``index-write``            half-way through writing the index (new generation half written;
                           Whoosh: deletions made, documents not all added)
``index-before-swap``      the new index is complete, ``current`` not yet switched
``index-after-swap``       ``current`` switched, old generations not yet cleaned up

A rebuild reaches the three ``index-…`` stages.
"""
import os
import signal

STAGES = ("import-before-commit", "import-after-commit", "index-write", "index-before-swap", "index-after-swap")


def crash_point(stage: str) -> None:
    """Kill this process (SIGKILL) if ``CLASSICS_CRASH_AT`` names ``stage``."""
    if os.environ.get("CLASSICS_CRASH_AT") == stage:
        os.kill(os.getpid(), signal.SIGKILL)
