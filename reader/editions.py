"""Which texts are editions of one work (issue 14): the rule shared by the import and by the
migration that made editions of the old one-edition works. Pure: no ORM.

Two texts are editions of one work when they have the same Kanripo ID (KR1d0086 and its WYG
copy KR1d0086-WYG), or when a text from another source (the seed, a headless file) has the
title of exactly one Kanripo work and no author that contradicts it (the seed's 禮書綱目 by
江永 and Kanripo's KR1d0086 禮書綱目)."""
from __future__ import annotations


def authors_agree(a: str, b: str) -> bool:
    """True when two bylines can be one author: equal, or one of them unknown ("")."""
    return not a or not b or a == b


def work_groups(works: list[tuple[int, str, str, str]]) -> list[list[int]]:
    """``works``: ``(id, title, author, kanripo_id)`` of one-edition works. Returns the groups
    of ids that are one work (each sorted, oldest id first; only groups of two or more)."""
    by_kanripo: dict[str, list[int]] = {}
    for pk, _title, _author, kid in works:
        if kid:
            by_kanripo.setdefault(kid, []).append(pk)
    info = {pk: (title, author) for pk, title, author, _ in works}
    groups = {kid: sorted(ids) for kid, ids in by_kanripo.items()}
    for pk, title, author, kid in works:
        if kid:
            continue
        matches = [k for k, ids in groups.items()
                   if any(info[i][0] == title for i in ids)
                   and authors_agree(next((info[i][1] for i in ids if info[i][1]), ""), author)]
        if len(matches) == 1:
            groups[matches[0]] = sorted(groups[matches[0]] + [pk])
    return [ids for ids in groups.values() if len(ids) > 1]


#: Kanripo's edition codes (``#+PROPERTY: BASEEDITION``/``WITNESS``, the ``_WYG_`` of a page
#: break, a branch's name) and the editions they stand for, as the 版本 table of each
#: repository's ``Readme.org`` names them (``|       WYG|【四庫全書・文淵閣】|``: 39 of the
#: shared corpus's Readme files give WYG so, 20 SBCK, 3 HFL, 2 ZTDZ, 1 each CK-KZ and YP-C);
#: ``tls`` has no such table: its files are the punctuated text of the Thesaurus Linguae
#: Sericae (``../shared/corpus/SOURCES.md``).
KANRIPO_EDITIONS = {
    "WYG": "四庫全書・文淵閣",
    "SBCK": "四部叢刊",
    "HFL": "正統道藏・涵芬樓版",
    "ZTDZ": "正統道藏・三家本",
    "CK-KZ": "重刊道藏輯要",
    "YP-C": "原版道藏輯要",
    "tls": "TLS標點",
}


#: What names an edition from another source after its collection: a plain-text copy
#: (the seed's 欽定四庫全書・純文字本), not a print's transcription with its pages.
PLAIN_TEXT = "純文字本"
#: The script a plain-text copy is written in, named in its edition's name when it is not the
#: classics' own (``Edition.script``, ``characters.simplified.SCRIPTS``): 簡體 for a copy in
#: simplified characters (the 殆知閣 仪礼释宫増注), 繁簡混合 for one that prints both.
SCRIPT_NAMES = {"simplified": "簡體", "mixed": "繁簡混合"}


def edition_name(*, slug: str, label: str, kanripo_id: str, kanripo_edition: str, collection: str,
                 script: str = "traditional") -> str:
    """How an edition is named in words on every page, in citations and in the API.

    A name given with ``import_texts --edition`` (``label`` other than the Kanripo folder it
    defaults to) wins. A Kanripo edition is named after the edition its text was transcribed
    from (``KANRIPO_EDITIONS``) with 本: ``四庫全書・文淵閣本`` for the repository's ``master``
    (KR1d0086: Kanripo's text, normalised); a branch copy (its folder is the ID and the
    edition's code, KR1d0086-WYG: the text as that print writes it, before normalisation)
    adds ・原字, a folder of another name after the ID its name's rest (KR1d0086-CUT:
    ``四庫全書・文淵閣本・CUT``). An unknown code is named by itself (``XYZ本``). Another source is named by
    its label, else its collection with ・純文字本 (``欽定四庫全書・純文字本``: the seed, a plain-text
    copy of the collection's print, told apart from Kanripo's transcriptions of the same print,
    named 四庫全書・文淵閣本 beside it), else ``純文字本``, never its slug (the title of the book,
    which says nothing of the edition: 列女傳's edition was named 列女傳); a Kanripo edition that
    names no edition code is named by its folder (``KR1d0001``). A copy from another source
    written in another script than the classics' (``script``: ``SCRIPT_NAMES``) says so: ``欽定四庫全書・
    純文字本・簡體``, and without a collection ``簡體純文字本``."""
    if label and not (kanripo_id and label == slug):
        return label
    if kanripo_id and kanripo_edition:
        base = KANRIPO_EDITIONS.get(kanripo_edition, kanripo_edition) + "本"
        branch = slug[len(kanripo_id) + 1:] if slug.startswith(kanripo_id + "-") else ""
        if not branch:
            return base
        return base + ("・原字" if branch.lower() == kanripo_edition.lower() else "・" + branch)
    script_name = SCRIPT_NAMES.get(script, "")
    if collection:
        return f"{collection}・{PLAIN_TEXT}" + (f"・{script_name}" if script_name else "")
    return script_name + PLAIN_TEXT if script_name or not kanripo_id else slug  # a Kanripo folder without its code: KR1d0001


def reading_edition(editions: list[tuple[int, int, str, str]]) -> int | None:
    """The edition a reader opens a work on (its address ``/works/<work>/`` and the catalogue's
    link): ``editions`` as ``(id, juans, kanripo_id, slug)``; returns an id, None for none.

    The fullest edition, the one with the most juans (files: a Kanripo repository's whole
    book before one juan copied from elsewhere); among equals a Kanripo repository's own text
    (its ``master``, the base edition the others are compared with) before a branch copy
    (``KR1d0086-WYG``) before a text from another source; then the oldest."""
    def rank(e):
        pk, juans, kanripo_id, slug = e
        kind = 0 if kanripo_id and slug == kanripo_id else 1 if kanripo_id else 2
        return (-juans, kind, pk)
    return min(editions, key=rank)[0] if editions else None
