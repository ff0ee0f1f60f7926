"""Which classic a commentary edition comments on, by Kanripo's catalogue (decision 0100): the one
rule the layer check (``collation.juanlayers``: the references of an edition), the facets
(``reader.book_writers``: a commentary book's main text is its classic's author's) and a classic's
own text (``plain_text_author``) read.

The catalogue files the works on a book in the book's 類, under titles that open with the book's
name, and lists the book's own text there too: the classics of 經部 by an entry of the plain text
(``周禮(正文)``, ``儀禮(正文)``; ``catalogue.PLAIN_TEXT``), the books of the other 部 by their own
entry (史記 KR2a0001, 楚辭 KR4a0001, 文選 KR4h0001). A work is a commentary edition of a classic
(``classic_of``) in two ways:

* **A book named after its notes** (``commentary_word``: a title ending in the word for notes on a
  classic, ``COMMENTARY_TITLE``: 注疏, 句讀, 集解, 補注, 章句, 索隱, 正義 …; 李太白集注, 史記集解)
  comments on the longest title of a catalogue entry of its 類 that its title opens with
  (``catalogue_titles``; read as ``reader.shelving.book_opening`` reads a title for its 屬: folded, an
  imperial prefix left out, 周官 read as 周禮), other than its own entry and an entry that is itself
  named after its notes (in 經部 a title ending in 傳 too, ``CLASSICS_BRANCH``: 蘇軾's 書傳 is notes on the
  書, so 董鼎's 書傳輯錄纂註, on 蔡沈's 書集傳, comments on no book the catalogue lists; decision 0117):
  儀禮鄭註句讀 → 儀禮 (not 儀禮鄭註: the title's last word only is its notes),
  欽定儀禮義疏 → 儀禮, 論語集解義疏 → 論語, 周易註疏 → 周易 (not 王弼's 周易註, another commentary),
  仪礼释宫増注 → 儀禮釋宮 (江永 adds notes to 李如圭's book), 史記集解 → 史記, 楚辭補注 → 楚辭;
  or whose title less that word is a classic's own text (``周禮(正文)``) less its closing 傳
  (``ZHUAN``): the catalogue lists 春秋穀梁傳(正文) and its commentaries as 春秋穀梁注疏 (春秋左傳注疏
  and 春秋公羊傳注疏 keep it), 春秋穀梁注疏 → 春秋穀梁傳; not another book less its 傳 (周禮注疏 is
  not on 王應電's 周禮傳). A book whose classic the catalogue does not list under a title it
  opens with comments on none the check can find (莊子注: the catalogue files 莊子 as 南華真經; 水經注; 道德真經注; 春秋正義).
* **A classic printed with its notes under the classic's own name**: a work whose catalogue entry
  names only commentators (``reader.catalogue_writers.annotates``: 注, 傳, 箋, 集解, 音義 …, nobody
  who wrote the text) and whose title is the title of another catalogue entry of its 類: 周禮
  KR1d0002 (鄭玄 注, 陸德明 音義; 周禮(正文) KR1d0001), 儀禮 KR1d0026 (鄭玄 注), 論語 KR1h0005 (何晏
  集解). 史記 KR2a0001 names 司馬遷 撰 first: the book itself, though it prints three commentaries.

A work the catalogue does not list (no Kanripo ID, ``import_texts --class``) is read by the entries
of the 類 it is given; an unclassified one by none.

**A classic's own text takes its author from the classic's commentary edition**
(``plain_text_author``, decision 0054): the catalogue lists a classic's own text (``春秋左傳(正文)``)
with nobody, but an entry of its 類 that comments on that classic by the rule above (春秋左傳注疏) may
name the classic's author first, in an author's role, before its commentators (左丘明 撰, then 杜預
注 …): he is the author of the text alone too.

Pure: the catalogue is shipped data, read once.
"""
from __future__ import annotations

import re
from functools import lru_cache

from catalogue.catalogue import PLAIN_TEXT, CatalogueEntry, Person, class_of, entries_of, entry
from characters.folding import fold

from .catalogue_writers import annotates, writes_main_text
from .shelving import book_opening

#: A book named after its notes on a classic: the word for its notes ends its title (module
#: docstring).
COMMENTARY_TITLE = re.compile(r"(?:[集詳]?解|章句|句讀|索隱|正義|(?:集|箋|詳|補)?[注註](?:疏)?|[注註]?[疏䟽])$")
#: What a 傳 is named by in the title of its own commentary edition: the catalogue lists 春秋穀梁傳(正文)
#: and its commentaries as 春秋穀梁注疏, without the 傳 (春秋左傳注疏 and 春秋公羊傳注疏 keep it).
ZHUAN = "傳"
#: The 部 whose books are the classics (經部): there a 傳 is a commentary on its 經 (蘇軾's 書傳, 張九成's
#: 孟子傳, 伏勝's 尚書大傳), a book named after its notes, but for a 傳 the catalogue lists as a classic's
#: own text (春秋左傳(正文), 春秋公羊傳(正文), 春秋穀梁傳(正文)).
CLASSICS_BRANCH = "KR1"


def commentary_word(title: str) -> str:
    """The word for notes that ends ``title`` (``COMMENTARY_TITLE``): 史記集解 → 集解, 李太白集注 →
    集注, 南華真經註疏 → 註疏; "" for a title that is no more than that word or ends otherwise."""
    match = COMMENTARY_TITLE.search(title or "")
    return match.group() if match and match.start() else ""


@lru_cache(maxsize=64)
def catalogue_titles(code: str) -> tuple[tuple[str, str, str, str], ...]:
    """``(folded title, title, Kanripo ID, bare)`` of every catalogue entry of the class ``code`` that
    can be a book others comment on: a classic's plain text read as the classic (``周禮(正文)`` → 周禮),
    entries named after their notes left out (周易註); ``bare``, for a classic's plain text whose
    title ends in ``ZHUAN``, the folded title less it (春秋穀梁傳(正文) → 春秋穀梁), else ""; longest
    title first, then in ID order."""
    found = []
    for listed in entries_of(code):
        title = listed.title.removesuffix(PLAIN_TEXT)
        if listed.cls == code and title and not commentary_word(title) and not _named_zhuan(listed):
            own_text = listed.title.endswith(PLAIN_TEXT) and title.endswith(ZHUAN)
            found.append((fold(title), title, listed.kr_id, fold(title[:-len(ZHUAN)]) if own_text else ""))
    return tuple(sorted(found, key=lambda t: -len(t[0])))


def _named_zhuan(listed: CatalogueEntry) -> bool:
    """Whether ``listed`` is a 經部 book named after its notes by 傳 (``CLASSICS_BRANCH``): 書傳 KR1b0006
    (蘇軾), not 春秋左傳(正文)."""
    return (listed.cls.startswith(CLASSICS_BRANCH) and listed.title.endswith(ZHUAN)
            and not listed.title.endswith(PLAIN_TEXT))


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
    word = commentary_word(title)
    if not code or not (word or _only_commentators(kanripo_id)):
        return ""
    own = entry(kanripo_id).kr_id if entry(kanripo_id) else ""
    read = book_opening(title)
    less_word = book_opening(title[:-len(word)]) if word else ""
    for folded, name, kr_id, bare in catalogue_titles(code):
        if kr_id != own and (read.startswith(folded) or bare and less_word == bare if word else read == folded):
            return name
    return ""


def plain_text_author(kanripo_id: str) -> tuple[Person, CatalogueEntry] | None:
    """``(the author, the entry naming him)`` for a catalogue entry of a classic's own text that names
    nobody (``catalogue.PLAIN_TEXT``: 春秋左傳(正文) KR1e0001; module docstring): the first person of the
    first catalogue entry of its 類 that comments on that classic (``classic_of``) and whose people open
    with the classic's author and go on to its commentators: his role an author's, given
    (``reader.catalogue_writers.writes_main_text``: 撰, not no role, as 孟子解's bare 蘇轍, who wrote
    notes), and someone after him in a commentator's (春秋左傳注疏 KR1e0004: 左丘明 撰 周, then 杜預 注,
    孔穎達 疏, 陸德明 音義; 公羊高 for 春秋公羊傳 from KR1e0006, 穀梁赤 for 春秋穀梁傳 from 春秋穀梁注疏
    KR1e0010). None for any other entry, for one that names someone, and where no such entry is found
    (周禮(正文): 周禮注疏 names 鄭玄 注 first, a commentator; 周易, 尚書, 毛詩 … likewise): 13 entries of
    the classics' own texts, three take an author."""
    listed = entry(kanripo_id) if kanripo_id else None
    if listed is None or listed.people or not listed.title.endswith(PLAIN_TEXT):
        return None
    classic = listed.title[:-len(PLAIN_TEXT)]
    for other in entries_of(listed.cls):
        people = other.people
        if (len(people) > 1 and people[0].role and writes_main_text(people[0].role)
                and any(not writes_main_text(p.role) for p in people[1:])
                and classic_of(other.title, other.cls, other.kr_id) == classic):
            return people[0], other
    return None
