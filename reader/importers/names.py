"""What a catalogue name may hold: a work's title or an edition's name, as an import takes it
from a file (``#+TITLE``, ``#+PROPERTY: BASEEDITION``, a siku file's title line) or from the
command line (``import_texts --work``/``--edition``).

A name is shown as written in the catalogue, every citation, page title and TEI ``<title>``, so
it holds no control or format character (Unicode general category Cc or Cf): a direction control
such as U+202E RIGHT-TO-LEFT OVERRIDE would turn the name round, or what follows it, wherever it
is shown ("Trojan Source", CVE-2021-42574), and a zero-width space would make two names look one.
No title or edition name of the shared Kanripo corpus holds one (2,933 ``#+TITLE`` lines read).
A book's text may hold such a character: it is kept and shown named (``⟨U+202E⟩``); a name is
refused instead, since it has no stored form to keep apart from how it is shown.
"""
from __future__ import annotations

from characters.unseen import named, unseen_at


def catalogue_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a work or edition, or None: ``"an empty name"`` for a name of
    white space only, else ``"'…' holds U+202E RIGHT-TO-LEFT OVERRIDE, which a name does not
    need and which would change how it shows"`` for its first character of category Cc or Cf."""
    if not name.strip():
        return "an empty name"
    index = unshowable_index(name)
    if index is None:
        return None
    return f"{name!r} holds {named(name[index])}, which a name does not need and which would change how it shows"


def unshowable_index(name: str) -> int | None:
    """The index (code points) of ``name``'s first character of category Cc or Cf, or None
    (``characters.unseen.unseen_at``, the rule corrections and annotations are held to)."""
    return unseen_at(name)
