"""Which classic a commentary edition comments on, by Kanripo's catalogue (decision 0100): what the
layer check (``collation.juanlayers``) takes the references of an edition from.

The catalogue files the works on a book in the book's 類, under titles that open with the book's
name, and lists the book's own text there too: the classics of 經部 by an entry of the plain text
(``周禮(正文)``, ``儀禮(正文)``; ``catalogue.PLAIN_TEXT``), the books of the other 部 by their own
entry (史記 KR2a0001, 楚辭 KR4a0001, 文選 KR4h0001). A work is a commentary edition of a classic
(``classic_of``) in two ways:

* **A book named after its notes** (``reader.catalogue_writers.commentary_word``: 注疏, 句讀, 集解,
  補注 …) comments on the longest title of a catalogue entry of its 類 that its title opens with
  (``CatalogueTitles``; read as ``reader.shelving.book_opening`` reads a title for its 屬: folded, an
  imperial prefix left out, 周官 read as 周禮), other than its own entry and an entry that is itself
  named after its notes: 儀禮鄭註句讀 → 儀禮 (not 儀禮鄭註: the title's last word only is its notes),
  欽定儀禮義疏 → 儀禮, 論語集解義疏 → 論語, 周易註疏 → 周易 (not 王弼's 周易註, another commentary),
  仪礼释宫増注 → 儀禮釋宮 (江永 adds notes to 李如圭's book), 史記集解 → 史記, 楚辭補注 → 楚辭. A
  book whose classic the catalogue does not list under a title it opens with comments on none the
  check can find (莊子注: the catalogue files 莊子 as 南華真經; 水經注; 道德真經注; 春秋正義).
* **A classic printed with its notes under the classic's own name**: a work whose catalogue entry
  names only commentators (``reader.catalogue_writers.annotates``: 注, 傳, 箋, 集解, 音義 …, nobody
  who wrote the text) and whose title is the title of another catalogue entry of its 類: 周禮
  KR1d0002 (鄭玄 注, 陸德明 音義; 周禮(正文) KR1d0001), 儀禮 KR1d0026 (鄭玄 注), 論語 KR1h0005 (何晏
  集解). 史記 KR2a0001 names 司馬遷 撰 first: the book itself, though it prints three commentaries.

A work the catalogue does not list (no Kanripo ID, ``import_texts --class``) is read by the entries
of the 類 it is given; an unclassified one by none. Pure: the catalogue is shipped data, read once.
"""
from __future__ import annotations

from functools import lru_cache

from catalogue.catalogue import PLAIN_TEXT, class_of, entries_of, entry
from characters.folding import fold

from .catalogue_writers import annotates, commentary_word
from .shelving import book_opening


@lru_cache(maxsize=64)
def catalogue_titles(code: str) -> tuple[tuple[str, str, str], ...]:
    """``(folded title, title, Kanripo ID)`` of every catalogue entry of the class ``code`` that can
    be a book others comment on: a classic's plain text read as the classic (``周禮(正文)`` → 周禮),
    entries named after their notes left out (周易註); longest title first, then in ID order."""
    found = []
    for listed in entries_of(code):
        title = listed.title.removesuffix(PLAIN_TEXT)
        if listed.cls == code and title and not commentary_word(title):
            found.append((fold(title), title, listed.kr_id))
    return tuple(sorted(found, key=lambda t: -len(t[0])))


def _only_commentators(kanripo_id: str) -> bool:
    """Whether the catalogue's entry of ``kanripo_id`` names people and every one of them annotates
    (``annotates``: 周禮 KR1d0002's 鄭玄 注, 陸德明 音義)."""
    listed = entry(kanripo_id) if kanripo_id else None
    return bool(listed and listed.people) and all(annotates(p.role) for p in listed.people)


def classic_of(title: str, classification: str = "", kanripo_id: str = "") -> str:
    """The title of the classic the work ``title`` comments on, as the catalogue writes it (module
    docstring): 儀禮鄭註句讀 (KR1d0038) → 儀禮, 周禮 (KR1d0002) → 周禮, 春秋穀梁傳注疏 → 春秋穀梁傳; ""
    for a work that is no commentary edition of a book the catalogue lists (禮書綱目, 周禮(正文)
    KR1d0001, 史記 KR2a0001, 莊子注). ``classification``: the work's 類 (``Work.classification``),
    else the one ``kanripo_id`` names; ``kanripo_id``: the work's, whose own entry is no classic of it."""
    code = classification or class_of(kanripo_id)
    notes = bool(commentary_word(title))
    if not code or not (notes or _only_commentators(kanripo_id)):
        return ""
    own = entry(kanripo_id).kr_id if entry(kanripo_id) else ""
    read = book_opening(title)
    for folded, name, kr_id in catalogue_titles(code):
        if kr_id != own and (read.startswith(folded) if notes else read == folded):
            return name
    return ""
