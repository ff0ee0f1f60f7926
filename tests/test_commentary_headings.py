"""Headings and bylines of the commentary books (``../shared/corpus/kanripo-commentary``):
a 篇 heading is a chapter and a byline is metadata, never searchable main text
(docs/importing.md, "Headings and bylines")."""
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE, SMALLPRINT, TEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku

from .conftest import SHARED

CORPUS = SHARED / "corpus"


def parse(rel: str):
    path = CORPUS / rel if isinstance(rel, str) else rel
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw
    return doc


def main_text(doc, chapter=0, limit=20):
    """The first ``limit`` characters of the main text of ``doc.chapters[chapter]``."""
    text = "".join(p.text for s in doc.chapters[chapter].sections for p in s.pieces
                   if p.kind == TEXT)
    return text[:limit]


def test_hanshu_byline_with_offices_and_a_chapter_in_parts():
    """前漢書: the second byline line leads 顏師古 with his offices (正議大夫行祕書少監琅邪縣開國子),
    and the 篇 heading 高帝紀第一上 ends with its part: both are metadata, not the classic."""
    doc = parse("kanripo-commentary/KR2a0007/KR2a0007_001.txt")
    assert doc.bylines == [
        {"dynasty": "漢", "place": "", "name": "班固", "role": "撰"},
        {"dynasty": "唐", "place": "", "name": "顏師古", "role": "注"},
    ]
    assert (doc.dynasty, doc.author) == ("漢", "班固撰　〔唐〕顏師古注")
    assert [c.title for c in doc.chapters] == ["高帝紀第一上", "卷一上考證", "高帝紀第一下", "卷一下考證"]
    assert main_text(doc) == "高祖沛豐邑中陽里人也姓劉氏母媼嘗息大澤之"
    assert main_text(doc, 2, 7) == "五年冬十月漢王"


def test_a_marker_word_inside_a_preface_is_text():
    """孝經注疏's front matter (目錄, 提要, 孝經序 with its 疏) prints no commentary inside a
    sentence: 注 in 「近觀孝經舊注踳駮尤甚」 and 「分注錯經」 is a word of 唐玄宗's preface, while
    周禮注疏's 原目 opens each chapter's note with 注 after the 篇 title."""
    doc = parse(SHARED / "corpus/kanripo-jingbu/KR1f0004/KR1f0004_000.txt")
    pieces = doc.all_pieces()
    assert [(p.kind, p.layer) for p in pieces if p.text in ("近觀孝經舊注踳駮尤甚", "分注錯經理亦條貫")] == [
        (TEXT, "paratext"), (TEXT, "paratext")]  # the 卷首's preface: 序跋 (decision 0039)
    assert not [p.text for p in pieces if p.kind == LABEL and p.layer == COMMENTARY]
    yuanmu = parse(SHARED / "corpus/kanripo-jingbu/KR1d0003/KR1d0003_000.txt")
    notes = [(p.layer_name, p.text[:6]) for p in yuanmu.all_pieces() if p.kind == NOTE and p.layer == COMMENTARY]
    assert notes == [("注", "象天所立之官"), ("注", "象地所立之官"), ("注", "象春所立之官"),
                     ("注", "象夏所立之官"), ("注", "象秋所立之官"), ("注", "象冬所立官也")]


def test_chuci_heading_with_its_group_and_the_byline_under_it():
    """楚辭 卷一 prints the 篇 heading with its group (``離騷經章句第一　離騷``) and under it the
    byline of the presented work (``校書郎臣王　逸上``: 臣 … 上) and of the 補注 (``曲阿洪　興祖𥙷注``);
    卷二 prints the byline under the title line. Neither is classic text."""
    doc = parse("kanripo-commentary/KR4a0002/KR4a0002_001.txt")
    assert doc.bylines == [
        {"dynasty": "", "place": "", "name": "王逸", "role": "上"},
        {"dynasty": "", "place": "曲阿", "name": "洪興祖", "role": "𥙷注"},
    ]
    chapter = doc.chapters[-1]
    assert (chapter.title, chapter.category, chapter.heading) == ("離騷經章句第一", "離騷", "離騷經章句第一\u3000離騷")
    assert main_text(doc, len(doc.chapters) - 1, 12) == "離騷經者屈原之所作也屈原"
    second = parse("kanripo-commentary/KR4a0002/KR4a0002_002.txt")
    assert second.bylines == [{"dynasty": "", "place": "", "name": "王逸", "role": "上"}]
    assert [(c.title, c.category) for c in second.chapters] == [("九歌章句第二", "離騷")]
    # the list of 九歌's pieces under the heading is titles, not text (decision 0098): 王逸's 序 opens the text
    assert main_text(second, 0, 4) == "九歌者屈"


def test_chuci_title_line_note_is_hong_xingzus():
    """The note on 楚辭 卷一's title line runs on over eight lines of small print before the 篇
    heading; it cites the 隋 and 唐 catalogues: a note on the book by who made it as printed, 洪興祖
    (補注, decided by the layout; 楚辭補注 prints the same note under his byline), not 王逸's 章句
    (his notes start under the heading)."""
    doc = parse("kanripo-commentary/KR4a0002/KR4a0002_001.txt")
    first = doc.chapters[0]
    assert first.heading is None
    assert [(p.kind, p.layer, p.layer_name, p.commentator, p.layer_basis, p.text[:12]) for s in first.sections
            for p in s.pieces] == [(NOTE, COMMENTARY, "補注", "洪興祖", LAYOUT, "隋唐書志有皇甫遵訓參解楚")]  # the title line's words too
    # under the heading: 王逸's 序, whose notes are 洪興祖's, then the classic with 王逸's 章句
    assert [(p.layer, p.commentator) for p in doc.chapters[1].sections[0].pieces if p.kind == NOTE][:1] == [
        (COMMENTARY, "洪興祖")]
    classic = next(s for s in doc.chapters[1].sections if s.pieces[0].text.startswith("帝"))
    assert [(p.layer, p.commentator) for p in classic.pieces if p.kind == NOTE][:1] == [(COMMENTARY, "王逸")]


def test_the_volume_label_at_a_juans_head_is_a_label_not_the_classic():
    """史記正義 and 史記集解 print the book's title and the juan's number (史記一, 史記十八) at a
    juan's head: a LABEL (searched as a title), the book's text going on after it; a juan's
    other numbers and a title the work's does not begin with stay text."""
    def head(rel, n=3):
        doc = parse(rel)
        return [(p.kind, p.text[:10]) for p in doc.all_pieces()[:n]], doc
    pieces, doc = head("kanripo-commentary/KR2a0004/KR2a0004_001.txt")
    assert pieces == [(NOTE, "鄭元注中候勑省圖云徳"), (LABEL, "史記一"), (NOTE, "禮云動則左史書之言則")]
    assert doc.all_pieces()[1].layer_basis == LAYOUT and doc.all_pieces()[3].text[:3] == "黄帝者"
    pieces, _ = head("kanripo-commentary/KR2a0004/KR2a0004_018.txt")
    assert pieces == [(NOTE, "髙祖初定天下表明有功"), (LABEL, "史記十八"), (TEXT, "太史公曰古者人臣功有")]
    pieces, _ = head("kanripo-commentary/KR2a0002/KR2a0002_001.txt", 2)  # 史記一(凡是徐氏義…): its note is text
    assert pieces == [(LABEL, "史記一"), (NOTE, "凡是徐氏義稱徐姓名以")]


def test_the_volume_line_under_a_juans_title_is_the_juans_title_not_a_chapters_text():
    """史記集解 prints the book's title and the juan's number on a line of its own under the juan's
    title line and byline (``史記二`` over ``夏本紀第二``): a second title line of the juan, header
    layout, so 卷二 opens with its chapter 〈夏本紀第二〉 and no untitled chapter the juan before
    would be taken to go on with (it was 〈五帝本紀第一〉（續）, §1 「史記二」); 卷一百十五's heading
    朝鮮列傳第五十五 under it is a heading (it was the first words of the text)."""
    for rel, volume, title, first in [("KR2a0002/KR2a0002_002.txt", "史記二¶", "夏本紀第二", "夏禹"),
                                      ("KR2a0002/KR2a0002_030.txt", "史記三十¶", "平凖書第八", "漢書百官表曰大司農屬官"),
                                      ("KR2a0002/KR2a0002_115.txt", "史記一百十五¶", "朝鮮列傳第五十五", "張晏曰朝鮮有濕水洌水")]:
        doc = parse("kanripo-commentary/" + rel)
        assert doc.header_lines[-1] == volume
        assert [c.title for c in doc.chapters] == [title]
        assert doc.chapters[0].heading == title
        assert doc.all_pieces()[0].text.startswith(first)
        assert not any(p.kind == LABEL for p in doc.all_pieces())


def test_a_history_juans_list_of_lives_is_its_chapter_heading():
    """三國志 (四庫) prints no numbered 篇 title: under the juan's title line and bylines it lists the
    lives the juan holds, small print after a name for the lives told inside his (武帝(操): the emperor's
    personal name). The list is the juan's chapter heading (the chapter a citation names: 卷一〈武帝〉), its
    first name the heading, its other names entries of it, its notes nobody's small print; it was §1 of
    an untitled chapter, the juan cited 卷一 with no chapter."""
    doc = parse("kanripo-commentary/KR2a0012/KR2a0012_001.txt")
    chapter = doc.chapters[0]
    assert (chapter.title, chapter.heading) == ("武帝", "武帝")
    first = chapter.sections[0].pieces[:2]
    assert [(p.kind, p.layer, p.layer_basis, p.commentator, p.text[:6]) for p in first] == [
        (NOTE, SMALLPRINT, LAYOUT, "", "操"), (TEXT, "", "", "", "太祖武皇帝沛")]
    doc = parse("kanripo-commentary/KR2a0012/KR2a0012_029.txt")
    chapter = doc.chapters[0]
    assert (chapter.title, chapter.heading) == ("華佗\u3000杜䕫\u3000朱建平\u3000周宣\u3000管輅", "華佗")
    assert [(p.kind, p.text[:8]) for p in chapter.sections[0].pieces[:3]] == [
        (NOTE, "呉普樊阿"), (LABEL, "\u3000杜䕫\u3000朱建平\u3000"), (TEXT, "華佗字元化沛國譙")]
    # a name alone on the list's first line over the lives it lists is the group's own title
    assert parse("kanripo-commentary/KR2a0012/KR2a0012_020.txt").chapters[0].title == "武文世王公"
    # a juan that opens in mid-text (卷十六: no title page) keeps its untitled first chapter
    assert parse("kanripo-commentary/KR2a0012/KR2a0012_016.txt").chapters[0].heading is None
