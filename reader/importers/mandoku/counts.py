"""The count line that closes a poem (詩經's 章句 count): ``山有樞三章章八句`` after 山有樞.

The editions of 詩經 (毛詩注疏, the 四部叢刊 毛詩, 欽定詩經傳說彙纂) print after each poem, on
a line of its own printed lower than the poem, its name and how it is divided: how many 章
(stanzas) and how many 句 in each (``蟋蟀三章章八句``, ``揚之水三章二章章六句一章四句``; 鄭玄's
division, then the old one after 故言: ``關雎五章章四句故言三章一章章四句二章章八句``), and after
the last poem of a group the group's totals (``唐國十二篇三十三章二百三句``). The line CLOSES
the poem it names, as a 右 line closes the part it names (``structure.CLOSER``): the poem's 序
and its stanzas come before it, the next poem's 序 (or text) after it. So the line ends the
poem's section and is kept in it as the book's text, and the section's title is the poem's
name the line gives (山有樞), never a title of what follows. What the book prints after it
lower still (欽定詩經傳說彙纂's 集説 on the whole poem, ``　　　集説(…)`` under
``　　柏舟二章章七句``), in small print only (its editors' 案), or on lines going on with its
paragraph (its 音義 and 疏), belongs to the poem too; a group's totals right after the last poem's count close the same section.

A poem is one section up to ``POEM_LIMIT`` characters (a poem cut for size at a line break was
cut inside a stanza: 綢繆 卷十 ended a section at 見此粲者 and opened the next with
子兮子兮如此粲者何); a longer one is cut for size as other text is. Books that print such a
count inside other text (經典釋文's lemma ``關雎五章章四句故言三章其一章…`` at the top of the
column, 十三經注疏正字's ``野有蔓草二章章六句(二章誤三章)``, a 樂譜's ``鹿鳴三章章八句黄鍾清宫``)
print no count line: the line must be indented, a paragraph of its own, and hold only the count
(then its notes). Pure.
"""
from __future__ import annotations

import re

from ..document import NOTE, TEXT, SectionDoc
from .units import Unit

_NUM = "[一二三四五六七八九十百]+"
#: 句, or 旬 (毛詩注疏 卷九 prints ``伐檀三章章九旬``).
_JU = "[句旬]"
#: A poem's division: 三章章八句, 一章八句, 三章二章章六句一章四句 (the 四部叢刊 毛詩 prints
#: 北山's ``六章章六句三章章四句`` without the 三 after 六章, and 采蘋's ``三章章句`` without the
#: number of 句).
_DIVISION = rf"{_NUM}章(?:(?:章(?:{_NUM})?|{_NUM}){_JU}(?:{_NUM}章章?{_NUM}{_JU})*|(?:{_NUM}章章?{_NUM}{_JU})+)"
#: The count line's text: the poem's name, its division (and the old one after 故言), or a group's
#: name and totals (周南之國十一篇三十六章百五十九句); a layer's marker word may end the full-size
#: text before the line's notes (``…二章章八句音義(…)疏(…)``, 毛詩注疏 卷一).
COUNT = re.compile(
    rf"(?P<name>[^\s()<>¶\u3000/○〇章句]{{1,8}}?)"
    rf"(?P<count>{_DIVISION}(?:故言{_DIVISION})?|(?P<group>{_NUM}篇){_NUM}章{_NUM}{_JU})"
    r"(?P<marker>音義|[疏䟽])?")
#: A layer's marker word between the count line's notes (``音義(…)疏(…)``).
MARKER = re.compile("音義|[疏䟽]")
#: A poem (its 序, stanzas and notes, then its count line) is one section up to this many
#: characters of text and notes: 290 of the 306 poems of 毛詩注疏 (the longest, 關雎 with the
#: 大序 and their 疏, holds about 17,700).
POEM_LIMIT = 9600


def _words(u: Unit, indented: bool = True) -> str | None:
    """The full-size words of a paragraph shaped as a count line (see ``count_line``), or None."""
    if u.kind != "para" or not u.new_para or (indented and u.indent < 1) or u.label or u.entry or not u.pieces \
            or u.pieces[0].kind != TEXT or any(p.kind not in (TEXT, NOTE) for p in u.pieces):
        return None
    words = [p for p in u.pieces if p.kind == TEXT and not (p is not u.pieces[0] and MARKER.fullmatch("".join(p.chunks)))]
    return "".join("".join(p.chunks) for p in words).rstrip("¶")


def count_line(u: Unit, indented: bool = True, rest: Unit | None = None) -> re.Match | None:
    """The match of ``COUNT`` when ``u`` is a count line: a paragraph of its own, indented, its
    full-size text only the count (wrapped over lines or not, a note between its words:
    欽定詩經傳說彙纂 ``閟宫九章五章章十七句(内第四章/脱一句)二章章八句``), its notes, and the
    marker words between them (``MARKER``); None otherwise. A layer's marker word is taken only
    before a note. ``indented`` False: at any indentation (a group's totals right after its last
    poem's count, printed flush in the 四部叢刊 毛詩: ``唐國十二篇三十三章二百三句``). ``rest``: the
    paragraph after ``u``, indented too, as the rest of a count wrapped onto a line printed
    higher or lower (the 四部叢刊 毛詩 ``　　　　　雨無正七章二章章十句二章章`` over
    ``　　　　八句三章章六句``)."""
    words = _words(u, indented)
    if words is None:
        return None
    last = u
    if rest is not None:
        more = _words(rest)
        if more is None:
            return None
        words, last = words + more, rest
    m = COUNT.fullmatch(words)
    if m and m["marker"] and last.pieces[-1].kind == TEXT:
        return None
    return m


def poem_ends(run: list[Unit]) -> dict[int, tuple[int, str]]:
    """``{count: (last, name)}`` for each count line of ``run`` (a run of units): ``last`` is the
    index of the last unit of the poem's section (the count line, the units going on with its
    paragraph, those printed lower than it (the 四部叢刊 毛詩 prints the rest of 長發's count,
    ``一章九句一章六句``, a column lower) or in small print only (an editors' note on the poem,
    欽定詩經傳說彙纂 ``　(案詩序木瓜…)`` under 木瓜's 集説), and a group's totals right after
    it), ``name`` the poem's (a group's name when only its totals close the section)."""
    ends: dict[int, tuple[int, str]] = {}
    k = 0
    while k < len(run):
        m = count_line(run[k])
        last = k
        if not m and k + 1 < len(run):
            m = count_line(run[k], rest=run[k + 1])  # wrapped onto a paragraph of its own
            last = k + 1
        if not m:
            k += 1
            continue
        name = m["name"]
        indent = run[k].indent
        while last + 1 < len(run):
            u = run[last + 1]
            total = count_line(u, indented=False)
            if total and total["group"]:
                indent = u.indent  # a group's totals: what it prints lower is on the group
            elif u.new_para and u.indent <= indent and any(p.kind != NOTE for p in u.pieces):
                break
            last += 1
        ends[k] = (last, name)
        k = last + 1
    return ends


def count_names(sections: list[SectionDoc]) -> set[str]:
    """The poems' names the count lines among ``sections``' paragraphs give (氓 in ``氓六章章十句``,
    般 in ``般(音/盤)一章七句``, 雨無正 in a count wrapped onto a paragraph of its own): titles the book
    gives, as a 右 closer does, to the poem's sections (one cut for size too), whatever their
    length or their first words (江有汜 opens the poem it names)."""
    words = ["".join(p.text for p in para if p.kind == TEXT and not MARKER.fullmatch(p.text))
             for s in sections for para in s.paragraphs]
    found = (COUNT.fullmatch(w) for w in words + [a + b for a, b in zip(words, words[1:])])
    return {m["name"] for m in found if m is not None}
