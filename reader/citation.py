"""Citations of sections in the field's usual form, always in the original characters.

``江永《禮書綱目》卷十〈大射儀〉「右張侯」 http://…/works/禮書綱目/juan/10/2/``: author,
work in 《》, juan as the book titles it, chapter in 〈〉, the section by its 右… line in
「」, then its permalink. The reading pages and the API give the same string.
"""
from __future__ import annotations

from django.utils.encoding import uri_to_iri

from reader.importers.numerals import int_to_chinese


def juan_label(juan) -> str:
    """``卷十`` as the book writes it; ``卷十`` from the number when the file had no title line."""
    if juan.label:
        return juan.label
    try:
        return "卷" + int_to_chinese(juan.number)
    except ValueError:
        return f"卷{juan.number}"


def section_name(section) -> str:
    """The section as a reader refers to it: its 右… line, else its title, else 第 N 節."""
    return section.closer or section.title or f"第{section.position}節"


def citation_text(section, chapter=None) -> str:
    """``江永《禮書綱目》卷十〈大射儀〉「右張侯」``, then in parentheses the edition when it
    is named and the printed page (``（KR1d0086-WYG，葉 12-1b）``). No queries when
    ``section.juan``, its ``work`` and ``edition``, and ``chapter`` or ``section.chapter``
    are loaded."""
    juan = section.juan
    work = juan.work
    chapter = chapter if chapter is not None else section.chapter
    out = [work.cited_author, f"《{work.title}》", juan_label(juan)]
    if chapter is not None and chapter.title:
        out.append(f"〈{chapter.title}〉")
    out.append(f"「{section_name(section)}」")
    where = [edition_name(juan)]
    if getattr(section, "page", ""):
        where.append(f"葉 {section.page_label}")  # the printed page it starts on (Kanripo)
    where = [w for w in where if w]
    if where:
        out.append("（" + "，".join(where) + "）")
    return "".join(out)


def edition_name(juan) -> str:
    """The edition a citation names: a named edition (``import_texts --edition``, a
    Kanripo folder such as ``KR1d0086-WYG``); "" for the unnamed edition of a work."""
    return juan.edition.cited_name


def juan_citation_text(juan, chapters=()) -> str:
    """``江永《禮書綱目》卷十〈大射儀〉`` for a whole juan (its chapter titles, if any), then
    the edition when it is named (``（KR1d0086-WYG）``)."""
    titles = "".join(f"〈{c.title}〉" for c in chapters if c.title)
    name = edition_name(juan)
    return f"{juan.work.cited_author}《{juan.work.title}》{juan_label(juan)}{titles}" + (f"（{name}）" if name else "")


def permalink(request, obj) -> str:
    """The absolute permalink of a section or juan for ``request``'s host, as a reader
    writes it: ``http://host/works/禮書綱目/juan/10/2/`` (an IRI: the characters of the
    title readable, not percent-encoded; browsers and citation managers take it as is)."""
    return uri_to_iri(request.build_absolute_uri(obj.get_absolute_url()))


def citation(section, url: str, chapter=None) -> str:
    """The citation followed by the section's absolute permalink ``url``."""
    return f"{citation_text(section, chapter)} {url}"


def section_citation(section, request, chapter=None) -> str:
    """``citation`` with the permalink built for ``request``'s host (what the reading
    pages show and the API returns)."""
    return citation(section, permalink(request, section), chapter)
