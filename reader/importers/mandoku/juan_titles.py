"""A juan's label as Kanripo's tables write it: read once where they compose it twice, and
given where they leave a file of front matter unnamed. Pure.

Kanripo names a file of a book bound inside the work (周易註疏 holds 王弼's 周易略例, its files
titled ``#+TITLE: 周易註疏__周易略例``) by that book's title and then the heading the file
prints: ``#+PROPERTY: JUAN 周易略例周易略例序`` for the heading 周易略例序, ``周易略例周易略例``
for the heading 周易略例 (KR1a0007_038, _040; the Readme's table writes the same). Where the
heading already begins with the book's title, the title is written twice; the label is the
heading (``周易略例序``, ``周易略例``), as the book prints it. In the shared corpus these two
labels are the only ones so composed (every ``#+PROPERTY: JUAN`` and Readme title checked).
"""
from __future__ import annotations

import re

from ..document import JuanDocument

#: A label that is a title (two characters or more) followed by a heading that begins with
#: that title again: ``周易略例`` + ``周易略例序``.
REPEATED = re.compile(r"^(?P<title>.{2,}?)(?P<heading>(?P=title).*)$", re.S)


def unrepeated(label: str) -> str:
    """``label`` without a title written before a heading that begins with it
    (``周易略例周易略例序`` → ``周易略例序``, ``周易略例周易略例`` → ``周易略例``); any other label as
    it is (``卷一``, ``周易略例考證``, ``關關雎鳩``: one character twice is no title)."""
    m = REPEATED.match(label or "")
    return m["heading"] if m else label


#: A part's name that Kanripo writes in brackets (``#+PROPERTY: JUAN [進表]``, ``[提要]``, ``[跋語]``,
#: ``[景祐刋正箚子]``): the book prints the part with no title of its own and Kanripo names it; its
#: ``Readme.org`` writes the name without them (周易註疏 ``[[file:KR1a0007_002.txt::002-1a][周易註疏 進表]]``).
#: Not a name the label prints after a title (``序[魏了翁]``: ``paratext.LABEL_NAME``).
SUPPLIED_NAME = re.compile(r"^\[(?P<name>[^\[\]\s]+)\]$")


def part_name(value: str) -> str:
    """A ``#+PROPERTY: JUAN`` value as the part's name: a name Kanripo supplies in brackets without
    them, as its Readme writes it (``[進表]`` → ``進表``, ``SUPPLIED_NAME``); any other as it is
    (``卷一``, ``序[魏了翁]``)."""
    m = SUPPLIED_NAME.match(value)
    return m["name"] if m else value


#: A title of front matter (序, 敘, 目錄, 提要, 凡例, 跋, 表 at its end: 南華眞經序, 周禮正義序)
#: printed alone on its line: a short run of characters, no space, no note.
FRONT_TITLE = re.compile(r"^[^\s()<>/\u3000¶]{0,14}(?:序|敘|目[錄録]|提要|凡例|跋|表)$")


def front_matter_label(doc: JuanDocument) -> str:
    """The label of a file of front matter that neither Kanripo's table nor a ``#+PROPERTY: JUAN``
    names (Kanripo's file 0, its table writing only 0: 南華真經註疏 KR5c0139_000): the first title
    it prints, as the table names the front matter it does name (周禮注疏 目録・周禮正義序・…):
    its first chapter's title, else its first section's, else that section's first paragraph,
    when that is a title of front matter alone (``FRONT_TITLE``: ``南華眞經序`` over 郭象's
    byline; not a section titled by its 右 closer, 經典釋文 KR1g0003_000's
    ``經典釋文三十原書文淵閣秘籍也不知何``). "" for any other file, or when the first such text is no
    title of front matter (then it is 卷〇, as any unlabelled file is 卷 and its number)."""
    if doc.juan_label or doc.file_sequence != 0:
        return ""
    for chapter in doc.chapters:
        first = chapter.title
        for section in chapter.sections:
            if first:
                break
            first = section.title or ("".join(p.text for p in section.paragraphs[0]) if section.paragraphs else "")
        if first:
            return first if FRONT_TITLE.match(first) else ""
    return ""
