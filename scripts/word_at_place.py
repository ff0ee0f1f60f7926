"""Whether a find of script-aware search is right: by the graph a traditional edition prints
there (``found_as_printed``), by the word the place writes (``one_word_at``: 於 at a 于 that writes
the preposition; docs/decisions/0036 and 0037), the target reading the pairs the simplification
merges (``merged_by_simplification``: 於/于) by the word and every other pair by the graph
(docs/decisions/0082), with the
places where a text names a character rather than uses it (``names_a_character``: 古文幹為肝) and
the pairs the variant tables call one character (``variant_table_pairs``). Used by
``script_search_eval`` to sort and count the wrong finds. Pure Python, no Django.
"""
from __future__ import annotations

import re
from pathlib import Path

from characters import simplified as sc
from characters.folding import fold_char


VARIANT_SOURCES = ("twedu-variants.txt", "hydzd-variants.txt", "dypytz-variants.txt")


def variant_table_pairs(data: Path) -> set[frozenset]:
    """Pairs of characters the Taiwan MOE table, 漢語大字典 or the 1955 異體字整理表 (CJKVI's
    ``twedu``, ``hydzd``, ``dypytz`` files under ``data/variants``) give as one character
    written two ways (``A,…/variant…,B`` lines); empty when the files are missing."""
    return set().union(*(_variant_pairs(data / "variants" / name) for name in VARIANT_SOURCES))


def _variant_pairs(path: Path) -> set[frozenset]:
    """The ``A,…/variant…,B`` pairs of one CJKVI variant table; empty when the file is missing."""
    out: set[frozenset] = set()
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            p = line.split(",")
            if len(p) >= 3 and "/variant" in p[1] and len(p[0]) == 1 and len(p[2]) == 1 and p[0] != p[2]:
                out.add(frozenset((p[0], p[2])))
    return out


#: The simplification's table of variant forms (CJKVI's ``dypytz``: the 1955 第一批異體字整理表 as the
#: 1988 revision gives it), whose pairs a simplified edition prints as one character.
SIMPLIFICATION_VARIANTS = "dypytz-variants.txt"


def merged_by_simplification(data: Path, exceptions: Path) -> set[frozenset]:
    """The pairs of standard characters that a traditional edition keeps apart (``apart`` in
    ``exceptions``, ``characters/data/fold_exceptions.tsv``) and that a simplified edition prints as
    one character because the simplification's variant table makes one a variant of the other
    (``SIMPLIFICATION_VARIANTS`` under ``data/variants``: ``于,dypytz/variant/1988,於``): on the shared
    data, 於/于 alone (后/後 is two characters the simplification writes with one form, not a variant
    pair). In such an edition the graph a traditional edition chose is not in the text; the target
    reads a find of one graph at the other by the word at the place (``one_word_at``; docs/decisions/0082).
    Empty when the table is missing."""
    apart = set()
    for line in exceptions.read_text(encoding="utf-8").splitlines():
        p = line.split("\t")
        if not line.startswith("#") and len(p) >= 2 and p[1] == "apart" and len(p[0]) == 2:
            apart.add(frozenset(p[0]))
    return _variant_pairs(data / "variants" / SIMPLIFICATION_VARIANTS) & apart


def found_as_printed(query: str, printed: str) -> bool:
    """Whether a search for ``query`` finds the character ``printed`` in a traditional edition (its
    key there, ``characters.simplified.text_keys``, among ``query_keys(query)``): the character
    itself or one it folds with, a form the edition writes for it (虫 for 蟲, 冲 for 沖:
    ``traditional_variants.tsv`` 'find'), a gaiji read as it. The label a place of a traditional
    edition gives: a simplified edition's place found by ``query`` is right when the traditional
    edition's own place is."""
    return sc.text_keys(printed) in sc.query_keys(query)


#: The formulas before a character that name it rather than use it: a variant reading (古文X為Y,
#: 今文…皆為X, 故書X, 或作, 誤作, 間作, 當為, 讀若, 本亦作; not the verb of 作于人之身), a pronunciation (音X).
_NAMING_BEFORE = re.compile(r"(?:(?:或|當|本|誤|亦|皆|字|間)作|音|古文|今文|故書|(?:文|或|當|讀|本|亦|皆)[為曰如若])$")
#: After it: the character named (X字), its pronunciation (X音…, X某反: a 反切; 於文反正為乏 is no 反切).
_NAMING_AFTER = re.compile(r"^(?:字|音|.反(?!正))")


def names_a_character(before: str, after: str) -> bool:
    """Whether a place between ``before`` and ``after`` (the characters round it) is one where the
    text names a character rather than uses it (古文幹為肝, 今文並皆為併, 干依註音豻, 宁音佇): a
    collation note or a gloss, where only the graph printed is right, whatever word it writes.
    Used to sort the wrong finds by cause (``Direction.named``), not in the scores."""
    return bool(_NAMING_BEFORE.search(before) or _NAMING_AFTER.match(after))


#: 于's words that 於 never writes (漢語大字典 于: 于于 自得貌 and 于喁 the sound of a song, 于嗟 and
#: 唱于 an interjection, 于歸 and 于征 'to go', the names 單于, 淳于, 鮮于, 于越, 于菟) and 於's
#: (於乎 and 於戲 as 嗚呼, 於菟 the tiger, 於陵 a place): the one word written 於 or 于 is the
#: preposition yú, everything else is another word.
_YU_APART = re.compile(r"于于|于喁|于嗟|唱于|于歸|于征|單于|淳于|鮮于|于越|于菟|於乎|於戲|於菟|於陵")
_YU = frozenset("於于")
#: The pairs measured by word at the place (docs/decisions/0036 and 0037): two graphs that the
#: variant tables (``variant_table_pairs``) call one character, each with the words only one of them
#: writes, listed from the dictionaries' entries (漢語大字典, the MOE table's 說明), never from the
#: wrong finds, each a word of the text that marks the place; a find of one graph at the other is the
#: same word everywhere else:
#: - 於/于: ``_YU_APART``;
#: - 鐘/鍾: the bell is written either way; 鍾 alone writes the measure (a number or 釜 before it,
#:   曰鍾), 'to gather' (鍾情, 鍾愛, 所鍾) and the names (鍾子期, 鍾離, 鍾儀, 鍾會, 鍾繇, 周禮's
#:   鍾氏 the dyer);
#: - 修/脩: 'to cultivate, to repair, long' either way; 脩 alone the dried meat (束脩, 脯脩, 腶脩);
#: - 鑑/鑒: one character in every use (the mirror, to reflect, to examine): no word apart;
#: - 嘆/歎: one character in every use (to sigh, to chant, to praise: 漢語大字典 嘆 同"歎"): none;
#: - 朴/樸: 'uncarved wood, simple' either way; 朴 alone the tree and its bark (厚朴) and 朴刀.
#: A pair whose graphs write other words that no word of the text marks is not listed: at such a
#: place only a reader can tell the word, so the graph decides. So 御 'to drive' beside 禦 'to ward
#: off', 游 'to swim' beside 遊, 覆 'to overturn' beside 復, 閒 'between' beside 閑; and, read in
#: the texts held back, 後/后 (周禮's 后 the queen stands alone: 王獻尸后亞祼, 內宗佐后), 註/注 (注
#: 'to put into' and 'a beak': 令禽注于虞中, 以注鳴者) and 嚮/向 (the name 叔向).
ONE_WORD_APART = {
    _YU: _YU_APART,
    frozenset("鐘鍾"): re.compile(r"[一二三四五六七八九十百千萬數釜]鍾|曰鍾|鍾情|鍾愛|所鍾|鍾子|鍾離|鍾儀|鍾會|鍾繇|鍾氏"),
    frozenset("修脩"): re.compile(r"束脩|脯脩|脩脯|腶脩"),
    frozenset("鑑鑒"): re.compile(r"(?!)"),
    frozenset("嘆歎"): re.compile(r"(?!)"),
    frozenset("朴樸"): re.compile(r"厚朴|朴刀"),
}


#: The pairs whose graphs share one word that a word of the text marks, while each writes other
#: words no word marks (docs/decisions/0037, "The pairs left on 莊子注, read by the dictionaries"): a find
#: of one graph at the other is the same word only inside one of the words listed, each a word the
#: dictionaries give written with either graph (漢語大字典, 漢語大詞典; the variant tables join each
#: pair: 漢語大字典 注/註, 御/禦 and 遊/游, the 1955 table 注/註, 游/遊 and 閑/閒), never taken from
#: the wrong finds:
#: - 注/註: the commentary and to annotate, 注疏, 注解, 注釋, 箋注, 傳注, 集注, 補注; 注 alone 'to
#:   pour, to put into, a beak' is not marked;
#: - 御/禦: 'to ward off', 御寇 (also the name 列御寇, 列禦寇), 御侮, 防御,
#:   抵御; 御 alone 'to drive, imperial, to serve' is not marked;
#: - 游/遊: 'to roam, to play', 逍遙遊, 遊戲, 遊說, 交遊, 遨遊; 游 alone 'to
#:   swim, to float' and the pennant (旒) are not marked;
#: - 閑/閒: 'leisure, idle', 閑暇, 安閑, 閑居, 清閑, 悠閑, 燕閑; 閑
#:   alone 'a fence, to guard' and 閒 'between' (jiàn) are not marked.
#: 係/繫 (no variant table joins them; Unihan gives no semantic variant), 發/髮 and 余/餘 (余 'I',
#: no word marks it) are not listed, nor 復/覆: their shared 反復 (漢語大詞典 反覆) spans two words of
#: the unpunctuated texts held back (祝反復位, 丁仲反復方目反, the gloss 反復也 '反 is 復').
ONE_WORD_SHARED = {
    frozenset("注註"): re.compile(r"[注註][疏解釋]|[箋傳集補][注註]"),
    frozenset("御禦"): re.compile(r"[御禦][寇侮]|[防抵][御禦]"),
    frozenset("游遊"): re.compile(r"逍遙[游遊]|[游遊][戲說]|[交遨][游遊]"),
    frozenset("閑閒"): re.compile(r"[閑閒][暇居]|[安清悠燕][閑閒]"),
}


def _covered(pattern: re.Pattern, text: str, at: int) -> bool:
    """Whether a match of ``pattern`` in ``text`` (overlapping matches too) covers position ``at``."""
    return any(m.start() <= at < m.start() + len(m.group(1))
               for m in re.finditer(f"(?=({pattern.pattern}))", text) if m.group(1))


def one_word_at(query: str, printed: str, before: str, after: str) -> bool:
    """Whether a find of ``query`` at a place that prints ``printed`` (``before`` and ``after``: the
    characters round it) is the same word written another way: for a pair of ``ONE_WORD_APART``, 於
    at a 于 (or 于 at a 於) that writes the preposition yú (至于廟門 as 至於廟門), 鐘 at the 鍾 of
    鍾鼓, 樸 at the 朴 of 其朴自成; not one of the words only one graph writes (單于, 其覺于于, 三鍾, 束脩:
    a word of the list that covers the place); for a pair of ``ONE_WORD_SHARED``, only inside a word
    both graphs write (註 at the 注 of 注疏, 禦 at the 御 of 列御寇); never at a place that names the
    character (``names_a_character``: 本或作於). The measure of docs/decisions/0036 and 0037, beside the
    target's, which counts graphs."""
    pair = frozenset((query, printed))
    apart, shared = ONE_WORD_APART.get(pair), ONE_WORD_SHARED.get(pair)
    if (apart is None and shared is None) or query == printed or names_a_character(before, after):
        return False
    text, at = before + printed + after, len(before)
    if shared is not None:   # read on the folded text (列御冦 as 列御寇, 逍遥遊 as 逍遙遊)
        return _covered(shared, "".join(map(fold_char, text)), at)
    return not _covered(apart, text, at)
