"""A poem's count line (``山有樞三章章八句``) closes the poem's section and names it
(reader/importers/mandoku/counts.py), in the three editions of 詩經 the shared corpus holds."""
from reader.importers.document import CLASSIC, LABEL, NOTE, TEXT
from reader.importers.mandoku import parse_mandoku
from reader.importers.mandoku.check import structure_faults

from .conftest import SHARED
from .conftest import parse_written_back as parse  # written back byte for byte

CORPUS = SHARED / "corpus"
HEAD = "# -*- mode: mandoku-view; -*-\n#+TITLE: {title}\n#+PROPERTY: ID KR9z0003\n#+PROPERTY: BASEEDITION WYG\n"

#: 毛詩注疏 卷十 (唐風): each poem's name, its 序's first words, and the count line that ends it
TANG = [
    ("蟋蟀", "序蟋蟀刺晉僖公也", "蟋蟀三章章八句"),
    ("山有樞", "序山有樞刺晉昭公也", "山有樞三章章八句"),
    ("揚之水", "序揚之水刺晉昭公也", "揚之水三章二章章六句一章四句"),
    ("椒聊", "序椒聊刺晉昭公也", "椒聊二章章六句"),
    ("綢繆", "序綢繆刺晉亂也", "綢繆三章章六句"),
    ("杕杜", "序杕杜刺時也", "杕杜二章章九句"),
    ("羔裘", "序羔裘刺時也", "羔裘二章章四句"),
    ("鴇羽", "序鴇羽刺時也", "鴇羽三章章七句"),
    ("無衣", "序無衣美晉武公也", "無衣二章章三句"),
    ("有杕之杜", "序有杕之杜刺晉武公也", "有杕之杜二章章六句"),
    ("葛生", "序葛生刺晉獻公也", "葛生五章章四句"),
    ("采苓", "序采苓刺晉獻公也", "采苓三章章八句"),
]


def _texts(section):
    return [p for p in section.pieces if p.kind == TEXT]


def test_each_poem_of_a_maoshi_juan_is_one_section_named_by_its_count_line():
    """毛詩注疏 卷十: a section for each poem, from its 序 to its count line, titled with the poem's
    name (山有樞's section was titled 「蟋蟀三章章八句」 and held 序揚之水 and 揚之水); the count line
    is the classic's text at the section's end, and the group's totals end the last poem's."""
    doc = parse(CORPUS / "kanripo-jingbu" / "KR1c0004" / "KR1c0004_010.txt")
    sections = doc.chapters[0].sections
    assert [s.title for s in sections] == [name for name, _, _ in TANG]
    for section, (name, preface, count) in zip(sections, TANG):
        texts = _texts(section)
        assert texts[0].text.startswith(preface), name
        closing = texts[-1] if name != "采苓" else texts[-2]
        assert (closing.text, closing.effective_layer) == (count, CLASSIC), name
        assert section.pieces[-1] is closing or name == "采苓", name
    assert _texts(sections[-1])[-1].text == "唐國十二篇三十三章二百三句"
    assert [s.line for s in sections[1:4]] == [85, 130, 194]  # each at its 序's line
    # 綢繆 is whole: its third stanza 「…今夕何夕見此粲者…子兮子兮如此粲者何」 was cut in two
    chou = [p.text for p in _texts(sections[4]) if p.effective_layer == CLASSIC]
    assert chou[-3:] == ["今夕何夕見此粲者", "子兮子兮如此粲者何", "綢繆三章章六句"]
    assert not any(s.continues_paragraph for s in sections)
    assert structure_faults(doc) == []


def test_the_other_editions_of_the_poems_close_them_the_same_way():
    """Held out while the rule was made: the 四部叢刊 毛詩 (kanripo-references KR1c0002), which prints
    the 序 flush with no 序 marker and the count line four columns in, the group's totals flush.
    Its 唐風 has the poems of 毛詩注疏 卷十 but prints no count line after 山有樞, so 山有樞 and
    揚之水 are one section (the book does not say where 山有樞 ends)."""
    doc = parse(CORPUS / "kanripo-references" / "KR1c0002" / "KR1c0002_006.txt")
    tang = doc.chapters[0].sections
    assert [s.title for s in tang] == [name for name, _, _ in TANG if name != "山有樞"]
    assert [_texts(s)[0].text[:4] for s in tang[:3]] == ["蟋蟀刺晉", "山有樞刺", "椒聊刺晉"]
    assert [_texts(s)[-1].text for s in tang[-2:]] == ["葛生五章章四句", "唐國十二篇三十三章二百三句"]
    # its count wrapped onto a line printed higher (``　　　　　雨無正七章二章章十句二章章`` over
    # ``　　　　八句三章章六句``) closes 雨無正; no count is printed after 巧言, so 巧言 and 何人斯 are one
    # section, named by 何人斯's count
    xiaoya = parse(CORPUS / "kanripo-references" / "KR1c0002" / "KR1c0002_012.txt").chapters[0].sections
    assert [s.title for s in xiaoya] == ["節南山", "正月", "十月之交", "雨無正", "小旻", "小宛", "小弁", "何人斯", "巷伯"]
    assert [p.text for p in _texts(xiaoya[3])][-2:] == ["雨無正七章二章章十句二章章", "八句三章章六句"]
    assert _texts(xiaoya[7])[0].text.startswith("巧言刺幽王也")
    # 欽定詩經傳說彙纂 卷四: the 集説 printed lower than the count (on the whole poem) and the editors'
    # 案 in small print after it stay with the poem; the next poem opens flush
    doc = parse(CORPUS / "kanripo-jingbu" / "KR1c0044" / "KR1c0044_006.txt")
    titles = [s.title for s in doc.chapters[0].sections]
    assert titles[:6] == ["柏舟", "牆有茨", "君子偕老", "桑中", "鶉之奔奔", "定之方中"]
    assert titles[-3:] == ["伯兮", "有狐", "木瓜"]
    first, last = doc.chapters[0].sections[0], doc.chapters[0].sections[-1]
    assert [(p.kind, p.text) for p in first.pieces if p.kind in (TEXT, LABEL)][-2:] == [
        (TEXT, "柏舟二章章七句"), (LABEL, "集説")]  # the label of the block it leads (block_labels)
    assert _texts(doc.chapters[0].sections[1])[0].text.startswith("牆有茨不可埽")
    marks = [(p.kind, p.text[:8]) for p in last.pieces if p.text.startswith(("木瓜三章", "案", "衛國十篇"))]
    assert marks == [(TEXT, "木瓜三章章四句"), (NOTE, "案詩序木瓜羙齊桓"), (TEXT, "衛國十篇三十四章")]


def test_a_count_line_is_indented_alone_on_its_line():
    """The rule on a made-up book: the count (and a note on it) closes the poem; the 集説 printed
    lower goes with it; a count inside a flush line (經典釋文's lemma), or with words after it (a
    樂譜's ``鹿鳴三章章八句黄鍾清宫``), closes nothing."""
    raw = HEAD.format(title="詩説") + (
        "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳(注/)午未¶\n"
        "　　兔罝三章章四句(鄭/云)¶\n"
        "　　　集説(某氏曰…/)¶\n"
        "壬癸子丑寅卯辰巳午未申酉戌亥(注/)甲乙¶\n"
        "　　十畝之間二章章三句¶\n"
        "午未申酉戌亥甲乙丙丁戊己庚辛(注/)壬癸¶\n"
        "關雎五章章四句故言三章¶\n"
        "　鹿鳴三章章八句黄鍾清宫¶\n"
        "丙丁戊己庚辛壬癸子丑寅卯辰巳(注/)午未¶\n")
    doc = parse_mandoku(raw, "KR9z0003_001.txt")
    sections = doc.chapters[0].sections
    # (the 樂譜's line is the heading it is in such a book)
    assert [s.title for s in sections] == ["兔罝", "十畝之間", "", "鹿鳴三章章八句黄鍾清宫"]
    assert [p.text for p in sections[0].pieces] == ["甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳", "注", "午未", "兔罝三章章四句", "鄭云", "集説", "某氏曰…"]
    assert [p.text for p in sections[2].pieces] == ["午未申酉戌亥甲乙丙丁戊己庚辛", "注", "壬癸關雎五章章四句故言三章"]
    assert [p.text for p in sections[3].pieces][-1] == "午未"


def test_the_citation_and_the_hits_name_the_poem(client, db):
    """毛詩注疏 卷十 imported: each section's citation names the poem it holds (「從子于鵠」, of 揚之水,
    was cited under 「山有樞三章章八句」), and a search hit in it carries that title."""
    from reader.importers.loader import import_file
    from reader.models import Section, Work
    from search.signals import muted

    with muted():
        import_file(CORPUS / "kanripo-jingbu" / "KR1c0004" / "KR1c0004_010.txt")
    work = Work.objects.get(kanripo_id="KR1c0004")
    data = client.get(f"/api/works/{work.id}/juans/10/").json()
    sections = [s for c in data["chapters"] for s in c["sections"]]
    assert [s["citation"].split("〈唐〉")[1].split("」")[0] + "」" for s in sections[:3]] == ["「蟋蟀」", "「山有樞」", "「揚之水」"]
    assert "《毛詩注疏》卷十〈唐〉「揚之水」" in sections[2]["citation"], sections[2]["citation"]
    assert sections[2]["citation"].endswith("/works/KR1c0004/juan/10/3/")
    held = Section.objects.filter(juan__edition__work=work, pieces__text__contains="從子于鵠").distinct()
    assert [s.title for s in held] == ["揚之水"]
