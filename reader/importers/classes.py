"""The class of Kanripo's catalogue of a work from another source: the class it prints for itself
(a 四庫 提要 page's 部 and 類), found by name (``printed_class``), else the class of the one work of
the catalogue it is, by its title and its author named with his dynasty (``listed_class``)."""
from catalogue.catalogue import bus, classes, entries_of, get_class
from characters.folding import fold

from ..person_names import dynasty_key

#: The fewest characters of a title read as part of a catalogue title (``listed_class``): one
#: character names too many books (as ``reader.places.MIN_PART``).
MIN_TITLE = 2


def printed_class(siku_class: tuple[str, ...]) -> tuple[str, str]:
    """``(class code, 屬)`` of Kanripo's catalogue for the class a 四庫 提要 page prints
    (``JuanDocument.siku_class``, ``("经部", "礼类", "仪礼之属")`` → ``("KR1d", "儀禮之屬")``):
    the 類 of that name under that 部, else the 部 alone, the names compared folded (a
    simplified print's 礼类 is the catalogue's 禮類; the 四庫's classes are Kanripo's). The 屬
    as the catalogue writes such names (folded); ``("", "")`` when nothing matches. An
    ``import_texts --class`` or the admin overrides it."""
    if not siku_class:
        return "", ""
    bu, lei, shu = (fold(name) for name in siku_class)
    known = classes().values()
    bu_code = next((c.code for c in known if c.level == "bu" and fold(c.name) == bu), "") if bu else ""
    lei_code = next((c.code for c in known if c.level == "lei" and fold(c.name) == lei
                     and (not bu_code or c.parent == bu_code)), "") if lei else ""
    return (lei_code, shu) if lei_code else (bu_code, "")


def listed_class(title: str, author: str, dynasty: str) -> tuple[str, str]:
    """``(class code, 屬)`` of the one work of Kanripo's catalogue that a work from another source
    is: its title holds ``title`` (folded; ``MIN_TITLE`` characters or more: the chtxt 列女傳 is the
    catalogue's 古列女傳, as its own preface, 古列女傳序, calls it) and one of its people is
    ``author`` of ``dynasty``, as the text's byline prints them (〔漢〕劉向: the catalogue's 劉向 of
    漢; a person is one by name and dynasty, decision 0032; ``person_names.dynasty_key``). The
    catalogue's class is the 四庫's (古列女傳 is 史部 傳記類, KR2g). ``("", "")`` when the byline
    names no author or no dynasty (the seed prints 婺源江永撰: a native place, no dynasty), or when
    no work or several answer (列女傳 of 劉向 alone, not 解縉's 古今列女傳 of 明). An
    ``import_texts --class`` or the admin overrides it."""
    if len(title) < MIN_TITLE or not author or not dynasty:
        return "", ""
    key, name, era = fold(title), fold(author), dynasty_key(dynasty)
    found = {e.kr_id: e for bu in bus() for e in entries_of(bu.code)
             if key in fold(e.title) and any(fold(p.name) == name and dynasty_key(p.dynasty or e.dynasty) == era
                                             for p in e.people)}
    if len(found) != 1:
        return "", ""
    listed = next(iter(found.values()))
    return (listed.cls, listed.shu) if get_class(listed.cls) else ("", "")
