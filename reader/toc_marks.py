"""A juan's list of sections names a chapter before its first section where the sections' names say
nothing without it (decision 0134).

A book of anecdotes titles each 條 by its number within its 門 (「1」, 「2」 …, decision 0124), cited as
〈德行第一〉「1」; a list of the juan's sections reading 1 … 45, 1 … 100 would not say which 門 each number
is in. And the editors' notes bound in the same file (世説新語校語, a chapter 〈校語〉) title their
sections by the 門 they are on (德行第一 …), the names of the juan's 門 themselves: listed alone they
look like the 門, and the reader following 德行第一 lands in the notes. So where a listed section is
titled by a number alone (a part's 上 or 下 before it) or by the name of a titled chapter of the juan,
the list names each titled chapter before its first listed section, as the citation does (〈德行第一〉1,
〈校語〉德行第一); other juans' lists are unchanged. Pure: views in, no query.
"""
from __future__ import annotations

#: The part of a 門 printed in two 卷 a 條's number may carry (「下1」, ``anecdotes.PARTS``).
PARTS = "上中下"


def mark_chapters(chapter_views) -> None:
    """Set ``chapter_mark`` on the first listed ``SectionView`` of each titled chapter of
    ``chapter_views`` (``reading.ChapterView`` in juan order) when some listed section's title is a
    number alone or a titled chapter's name (see the module docstring); "" on every other view."""
    names = {cv.chapter.title for cv in chapter_views if cv.chapter.title}
    titles = [v.section.title or "" for cv in chapter_views for v in cv.sections]
    needed = any(t and (t.lstrip(PARTS).isdigit() or t in names) for t in titles)
    for cv in chapter_views:
        for k, view in enumerate(cv.sections):
            view.chapter_mark = cv.chapter.title if needed and k == 0 and cv.chapter.title else ""
