"""The label that leads a block of notes (``reader.importers.mandoku.block_labels``): 御纂周易折中's
本義, 程傳, 集說 and 欽定春秋傳說彙纂's 左傳, 胡傳, 公羊, 榖梁 are labels of the notes they lead, no
word of the classic; the stored text is unchanged."""
from collections import Counter
from pathlib import Path

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.block_labels import appended_label
from reader.importers.mandoku.check import structure_faults

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def _read(path: Path):
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, str(path), (path.parent / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == text
    return doc


def _labels(doc) -> Counter:
    return Counter((p.text, p.effective_layer) for s in doc.sections for p in s.pieces if p.kind == LABEL)


def test_the_yi_prints_its_block_labels_as_labels_of_the_notes():
    """御纂周易折中 (KR1a0117_006, 上經 乾): 本義, 程傳 and 集説 open its blocks, each a label of the
    notes it leads; 集説 is printed under the block before it, never at the head of a printed
    paragraph, and is a label as 本義 is."""
    doc = _read(JINGBU / "KR1a0117" / "KR1a0117_006.txt")
    pieces = [p for s in doc.sections for p in s.pieces]
    first = next(k for k, p in enumerate(pieces) if p.text == "乾元亨利貞")
    assert [(p.kind, p.effective_layer, p.text[:4]) for p in pieces[first:first + 7]] == [
        (TEXT, CLASSIC, "乾元亨利"), (LABEL, COMMENTARY, "本義"), ("note", COMMENTARY, "六畫者伏"),
        ("note", COMMENTARY, "正固然後"), (LABEL, COMMENTARY, "程傳"), ("note", COMMENTARY, "上古聖人"),
        (LABEL, COMMENTARY, "集説")]
    assert _labels(doc) == Counter({("本義", COMMENTARY): 52, ("程傳", COMMENTARY): 56, ("集説", COMMENTARY): 51,
                                    ("周易上經", CLASSIC): 1})


def test_a_block_label_the_line_end_cuts_is_one_label():
    """御纂周易折中 prints a block's label where the block before it ends, and at the column's foot the
    line end may cut it: 卷二十八 (KR1a0117_013) ``　本義(過剛不中居下之上…/…故貞字連下句為義)程`` over
    ``　傳(處旅之道…``. 程 was text of the classic after 本義's note and 傳 a label paragraph of the classic
    opening a section of its own; they are the label 程傳 of the note it leads, its line end inside it,
    and the block stays in its section. 卷六 (KR1a0117_006) had four such: 程傳 56 times, 傳 none."""
    doc = _read(JINGBU / "KR1a0117" / "KR1a0117_013.txt")
    pieces = [p for s in doc.sections for p in s.pieces]
    k = next(k for k, p in enumerate(pieces) if p.text.startswith("過剛不中居下之上故其象占如此喪"))
    assert [(p.kind, p.effective_layer, p.text[:6]) for p in pieces[k - 1:k + 3]] == [
        (LABEL, COMMENTARY, "本義"), ("note", COMMENTARY, "過剛不中居下"), (LABEL, COMMENTARY, "程傳"),
        ("note", COMMENTARY, "處旅之道以柔")]
    assert pieces[k + 1].layout == [(1, "¶\n\u3000")]
    section = next(s for s in doc.sections if pieces[k] in s.pieces)
    assert pieces[k + 1] in section.pieces  # no section cut at the 傳
    assert not [p for p in pieces if p.text in ("程", "傳")]


def test_the_chunqiu_labels_its_blocks_by_their_commentaries():
    """欽定春秋傳說彙纂 (KR1e0094_005, 隱公 七年 to 十年): each block of notes is led by the commentary or
    kind it collects, 集説 and 附錄左傳 once each in the other form of 集說 and 附録左傳; all are labels of the notes, none is classic text."""
    doc = _read(JINGBU / "KR1e0094" / "KR1e0094_005.txt")
    got = _labels(doc)
    assert {k: n for k, n in got.items() if k[1] == COMMENTARY} == {
        ("集說", COMMENTARY): 33, ("左傳", COMMENTARY): 22, ("胡傳", COMMENTARY): 20, ("榖梁", COMMENTARY): 13,
        ("公羊", COMMENTARY): 10, ("附録左傳", COMMENTARY): 6, ("附錄左傳", COMMENTARY): 1,
        ("集説", COMMENTARY): 1}
    texts = Counter(p.text for s in doc.sections for p in s.pieces if p.kind == TEXT)
    assert texts["集說"] == texts["左傳"] == texts["公羊"] == 0


def test_a_tables_field_is_no_block_label():
    """後漢書 律曆志 (KR2a0009_013) prints each of the 二十四氣 as rows of fields, a field's name and its
    value in small print set apart by a space from the next field: ``　日所在(斗二十度百一/十分八分退二)　黄道去極百一十五度``.
    日所在 opens 24 such rows but leads no block of notes: it stays a word of the text, each time, while
    欽定春秋傳說彙纂's 集說, whose note a space alone follows at its line's end (``集說(…)　``), is a label."""
    doc = _read(SHARED / "corpus" / "kanripo-commentary" / "KR2a0009" / "KR2a0009_013.txt")
    pieces = [p for s in doc.sections for p in s.pieces]
    fields = [k for k, p in enumerate(pieces) if p.text == "日所在"]
    assert len(fields) == 24 and {(pieces[k].kind, pieces[k].effective_layer) for k in fields} == {(TEXT, CLASSIC)}
    first = fields[0]
    assert [(p.kind, p.text[:10]) for p in pieces[first:first + 3]] == [
        (TEXT, "日所在"), ("note", "斗二十度百一十分八分"), (TEXT, "\u3000黄道去極百一十五度")]
    assert not [p for p in pieces if p.kind == LABEL and p.effective_layer == COMMENTARY]
    doc = _read(JINGBU / "KR1e0094" / "KR1e0094_010.txt")
    spaced = [k for s in doc.sections for para in s.paragraphs for k, p in enumerate(para)
              if p.text == "集說" and k + 2 < len(para) and para[k + 2].text == "\u3000"]
    assert spaced and {p.kind for s in doc.sections for p in s.pieces if p.text == "集說"} == {LABEL}


def test_a_cut_for_size_keeps_a_labelled_block_with_the_classic_it_explains():
    """A label opens no entry (``entries.keep_entries_whole``): once the labels are read, a section
    cut for size that opened with a block (``集說(…)``) apart from the classic words it explains is
    joined back to them. 欽定春秋傳說彙纂 卷三 (KR1e0094_003): ``春王正月`` and its 左傳, 公羊, 穀梁 and
    集說 blocks are one section (line 78, 9 pieces), where 集說 and its note opened a section of their
    own at line 92; 14 sections became 13 (14 again since 隱公, under the 集說 on the whole book, titles a
    section of its own: ``part_glued_labels``). 春秋大全 卷二十二 (KR1e0074_022, ``附録(…)`` a label): the
    classic ``六月癸酉…`` opens the section of its 左傳 note (line 222), which had opened one at line
    226. 欽定詩經傳說彙纂 KR1c0044_011 (``集説(…)``) likewise: no structure fault in any of the three."""
    doc = _read(JINGBU / "KR1e0094" / "KR1e0094_003.txt")
    assert structure_faults(doc) == [] and len(doc.sections) == 14
    section = doc.sections[2]
    assert section.line == 78 and [(p.kind, p.effective_layer, p.text[:4]) for p in section.pieces] == [
        (TEXT, CLASSIC, "春王正月"), (LABEL, COMMENTARY, "左傳"), (NOTE, COMMENTARY, "元年春王"),  # the 經 (classic_titles)
        (LABEL, COMMENTARY, "公羊"), (NOTE, COMMENTARY, "春者何歲"), (LABEL, COMMENTARY, "穀梁"),
        (NOTE, COMMENTARY, "雖無事必"), (LABEL, COMMENTARY, "集說"), (NOTE, COMMENTARY, "孔氏穎逹")]
    doc = _read(JINGBU / "KR1e0074" / "KR1e0074_022.txt")
    assert structure_faults(doc) == [] and len(doc.sections) == 20
    section = doc.sections[8]
    assert section.line == 222 and [(p.kind, p.effective_layer, p.text[:6]) for p in section.pieces] == [
        (TEXT, CLASSIC, "六月癸酉季孫"), (NOTE, COMMENTARY, "左傳孫桓子還")]
    doc = _read(JINGBU / "KR1c0044" / "KR1c0044_011.txt")
    assert structure_faults(doc) == [] and len(doc.sections) == 12


def test_an_appended_block_is_labelled_by_its_heading_word_and_what_it_collects():
    """欽定春秋傳說彙纂 卷一 (KR1e0094_003) prints three times, after a sentence's 集說 block, what it appends
    from the 左傳 on the events the 經 does not record: ``　附錄左傳(夏四月費伯帥師城/郎不書非公命也)`` (line
    222), at the height of its 左傳 blocks. Printed three times, fewer than a label's count
    (``structure.BLOCK_LABEL``), 附錄左傳 was a word of the classic; it is the heading word 附錄 and a block
    label of the juan (左傳), so the label of its block (``block_labels.appended_label``), as 卷三 and the
    juans that print it six times or more have it. A word that only begins with 附錄 is not one."""
    doc = _read(JINGBU / "KR1e0094" / "KR1e0094_003.txt")
    pieces = [p for s in doc.sections for p in s.pieces]
    appended = [k for k, p in enumerate(pieces) if p.text == "附錄左傳"]
    assert [(pieces[k].kind, pieces[k].effective_layer, pieces[k + 1].kind, pieces[k + 1].text[:7]) for k in appended] == [
        (LABEL, COMMENTARY, NOTE, "夏四月費伯帥師"), (LABEL, COMMENTARY, NOTE, "八月紀人伐夷夷"),
        (LABEL, COMMENTARY, NOTE, "冬十月庚申改葬")]
    assert _labels(doc)[("附錄左傳", COMMENTARY)] == 3 and _labels(doc)[("左傳", COMMENTARY)] == 12
    assert appended_label("附錄左傳", frozenset({"左傳", "集說"})) and appended_label("附録左傳", frozenset({"左傳"}))
    assert not appended_label("附錄經傳", frozenset({"左傳"})) and not appended_label("左傳", frozenset({"左傳"}))
    assert structure_faults(doc) == [] and len(doc.sections) == 14  # (隱公 a section: test_classic_titles)


def test_a_jing_sentence_alone_over_a_label_is_parted_from_it_inside_a_juan():
    """欽定春秋傳說彙纂 卷十九 (KR1e0094_021) sets its page 44a a column deeper: 「　　秋八月螽」 as deep as the
    label under it, 「　　胡傳(…)」, which the line loop ran on into it (秋八月螽胡傳, the classic); 卷二十九
    (KR1e0094_031) 「春王正月公即位」 over 「穀梁(…)」 alike. A sentence of the 經 (it stands whole in the shipped
    春秋經) alone on its line over a block label is the 經, the label the block's: parted anywhere in a
    book of the 春秋, as at a juan's head; the 經 sentence no title (``classic_titles``)."""
    for name, jing, label in (("KR1e0094_021.txt", "秋八月螽", "胡傳"), ("KR1e0094_031.txt", "春王正月公即位", "穀梁")):
        doc = _read(JINGBU / "KR1e0094" / name)
        pieces = [p for s in doc.sections for p in s.pieces]
        k = next(k for k, p in enumerate(pieces) if p.text.startswith(jing))
        assert [(p.kind, p.effective_layer, p.text) for p in pieces[k:k + 2]] == [
            (TEXT, CLASSIC, jing), (LABEL, COMMENTARY, label)]
        assert not [s.title for s in doc.sections if s.title.startswith(jing)]
