"""A serving process's hand-over from one index generation to the next (``Handover``).

A process that serves requests (a gunicorn worker: ``gunicorn.conf.py`` calls
``PositionalIndexBackend.follow_in_background``) loads a generation swapped in by another
process (an import's write, ``pull_index``) in a thread of its own and warms it there,
while its requests keep answering from the generation it loaded before; the new one answers
from the moment it is warm. Without this, the first requests after the swap loaded it
themselves, each thread that asked its own copy, and waited while they did, and the tables
kept per index version were read again by each (docs/decisions/0042-a-worker-warms-a-new-generation-before-it-answers.md).

What the process answers from is always a whole generation: the old one until the new one is
warm, and the old one's files stay readable meanwhile (a swap keeps the previous generation's
folder for readers, and open files outlive their removal). A process that writes the index
itself (an import, an edit saved in the admin) reads what it wrote at once, and a write
always starts from the current generation, never from the one still answering
(``PositionalIndexBackend._corpus(now=True)``). Everywhere else (commands, tests) a new
generation is loaded by the first search that sees it, as before.
"""
from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path

from django.db import connections

from .corpus import Corpus

logger = logging.getLogger(__name__)

#: In a thread warming a new generation: that generation's corpus, which its searches (the
#: warmers') read and whose name ``version()`` gives there.
warming: ContextVar[Corpus | None] = ContextVar("positional_warming", default=None)
#: In a request (``PositionalIndexBackend.one_generation``): ``{link: the corpus it answers from}``,
#: the first one its searches or ``version()`` read for each index, so that a page kept under the
#: version came from it. Read once: a worker whose first search after a swap started the hand-over
#: answered from the generation before while the page cache's key, read from the link before that
#: search, named the new one, and the old answer was served under it by every worker after the swap.
requested: ContextVar[dict[str, Corpus] | None] = ContextVar("positional_requested", default=None)


class Handover:
    """The state of the hand-over in one process (one per backend class: the class keeps the
    loaded generations). ``enabled`` and ``warmers`` are set by ``follow``; ``serving``:
    ``{link: the corpus answering for it}``; ``preparing``: ``{(link, target): thread}``;
    ``failed``: the ``(link, target)`` a thread could not load (the next search loads it
    itself and meets the error); ``written``: the ``(link, target)`` this process wrote."""

    def __init__(self):
        self.enabled = False
        self.warmers: tuple[Callable[[], object], ...] = ()
        self.serving: dict[str, Corpus] = {}
        self.preparing: dict[tuple[str, str], threading.Thread] = {}
        self.failed: set[tuple[str, str]] = set()
        self.written: set[str] = set()
        self.lock = threading.Lock()

    def follow(self, warmers: tuple[Callable[[], object], ...] = ()) -> None:
        """Hand over in the background from now on; ``warmers`` are called in the warming
        thread once the new corpus is loaded (each with ``warming`` set: a search there reads
        the new generation), before it answers."""
        self.enabled, self.warmers = True, tuple(warmers)

    def serve(self, link: str, corpus: Corpus, named: set[str]) -> None:
        """``corpus`` answers from now on for ``link``; the corpora kept for links not in ``named``
        (the indexes the settings name now) are let go: each memory-mapped array of a kept
        corpus is memory the process holds, and kept per link for ever, every index folder a
        process had searched stayed (a test process: one per test that made an index)."""
        with self.lock:
            for other in [other for other in self.serving if other != link and other not in named]:
                del self.serving[other]
            self.serving[link] = corpus

    def answering(self, link: str, target: str, load: Callable[[str, str], Corpus],
                  install: Callable[[str, str, Corpus], None], warm: Callable[[Corpus], None]) -> Corpus | None:
        """The corpus to answer from while ``link`` points to ``target``, a generation not
        loaded yet: the one loaded before for ``link`` (a thread loading ``target`` with
        ``load(link, target)``, warming it with ``warm`` and the warmers, and installing it
        with ``install`` started unless one runs), or None when the caller is to load it
        itself (not following, nothing loaded before, its folder gone, written by this
        process, or a thread failed to load it)."""
        if not self.enabled or (link, target) in self.written or (link, target) in self.failed:
            return None
        with self.lock:
            previous = self.serving.get(link)
            if previous is None or not previous.path.is_dir():
                return None
            if (link, target) not in self.preparing:
                thread = threading.Thread(target=self._prepare, args=(link, target, load, install, warm),
                                          name=f"index-handover-{target}", daemon=True)
                self.preparing[(link, target)] = thread
                thread.start()
        return previous

    def _prepare(self, link: str, target: str, load, install, warm) -> None:
        try:
            corpus = load(link, target)
            token = warming.set(corpus)
            try:
                warm(corpus)
                for warmer in self.warmers:
                    warmer()
            finally:
                warming.reset(token)
        except Exception as exc:  # noqa: BLE001 - the next search loads it itself and meets the error
            logger.warning("search index generation %s not loaded in the background: %s", target, exc)
            self.failed.add((link, target))
        else:
            install(link, target, corpus)
        finally:
            with self.lock:
                self.preparing.pop((link, target), None)
            connections.close_all()  # this thread's own (a warmer may have opened one): nothing else would close them

    def running(self, link: str) -> threading.Thread | None:
        """The thread warming a generation for ``link``, if one runs (tests wait for it)."""
        with self.lock:
            return next((t for (where, _), t in self.preparing.items() if where == link), None)

    def answering_name(self, link: str) -> str | None:
        """The name of the generation answering for ``link`` while the one it points to warms
        (``version()``: caches keyed by it then keep what the answers came from), else None."""
        corpus = warming.get()
        if corpus is not None:
            return Path(corpus.path).name
        if not self.preparing:
            return None
        try:
            target = os.readlink(link)
        except OSError:
            return None
        if (link, target) in self.preparing:
            previous = self.serving.get(link)
            return None if previous is None else Path(previous.path).name
        return None
