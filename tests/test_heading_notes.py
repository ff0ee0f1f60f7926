"""A heading's own note is kept with the heading (its marker too, where one leads it), and a
note on the juan's title line that runs on into the small print under it is one note."""
import json

import pytest

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, LAYOUT, NOTE, TEXT
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.models import Piece
from search.backends import get_search_backend
from search.backends.base import SearchQuery
from search.indexing import rebuild_from_database

from .conftest import SHARED

BOOKS = SHARED / "corpus" / "kanripo-commentary"
NANHUA = BOOKS / "KR5c0139" / "KR5c0139_002.txt"   # 南華真經註疏 卷二: 內篇齊物論第二(夫自是而非彼美/…)
CHUCI = BOOKS / "KR4a0002" / "KR4a0002_001.txt"    # 楚辭 卷一: 楚辭卷第一(隋唐書志有皇甫遵訓參解楚辭/…)
HEADING_NOTE = "夫自是而非彼美己而惡人物莫不皆然然故是非雖異而彼我均也"


@pytest.fixture
def nanhua(empty_transactional_db, settings, tmp_path):
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                            "PATH": tmp_path / "index"}}
    juan = import_file(NANHUA).juan
    rebuild_from_database(get_search_backend())
    return juan


@pytest.mark.django_db(transaction=True)
def test_the_heading_note_is_shown_with_the_heading(nanhua, client):
    html = client.get(nanhua.get_absolute_url()).content.decode()
    heading = html.index('<h2 class="chapter-title">內篇齊物論第二</h2>')
    note = html.index('<p class="heading-note">')
    first_section = html.index('<section class="section" id="s1"')
    assert heading < note < html.index(HEADING_NOTE) < first_section
    assert html.count(HEADING_NOTE) == 1  # not again in the first section


@pytest.mark.django_db(transaction=True)
def test_the_heading_note_is_exported_with_the_heading(nanhua, client):
    base = f"/api/editions/{nanhua.edition.pk}/juans/{nanhua.number}"
    chapter = json.loads(client.get(f"{base}/").content)["chapters"][0]
    assert (chapter["title"], [p["text"] for p in chapter["heading_notes"]]) == ("內篇齊物論第二", [HEADING_NOTE])
    assert chapter["sections"][0]["pieces"][0]["text"].startswith("南郭子綦隱几而坐")
    tei = client.get(f"{base}/export/tei/").content.decode()
    head = tei[tei.index("<head>內篇齊物論第二"):]
    assert head[:head.index("</head>")].endswith(HEADING_NOTE + "</note>")
    section = json.loads(client.get(f"{base}/sections/1/").content)  # the section API holds all its pieces
    assert [p["text"] for p in section["pieces"][:2]] == [HEADING_NOTE, chapter["sections"][0]["pieces"][0]["text"]]
    assert client.get(f"{base}/export/source/").content == NANHUA.read_bytes()
    assert render_source(nanhua) == NANHUA.read_text(encoding="utf-8")


@pytest.mark.django_db(transaction=True)
def test_the_heading_note_is_found_and_linked_in_its_place(nanhua):
    found = get_search_backend().search(SearchQuery("彼我均也", exact=True))
    assert [(h.layer, h.section_position, h.piece_position) for h in found.hits] == [("commentary", 1, 0)]


def test_the_title_line_note_of_chuci_is_one_note():
    raw = CHUCI.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(CHUCI), (CHUCI.parent / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == raw
    assert (doc.work_title, doc.juan_label) == ("楚辭", "卷第一")
    assert doc.header_lines[-1] == "<pb:KR4a0002_SBCK_001-1a>¶"  # the title line is no longer header layout
    first = doc.all_pieces()[0]
    assert (first.kind, first.layer, first.layer_name, first.commentator, first.layer_basis) == (NOTE, COMMENTARY, "補注", "洪興祖", LAYOUT)
    assert first.text.startswith("隋唐書志有皇甫遵訓參解楚辭七卷郭璞注十卷宋處士諸葛楚辭音一卷")
    assert first.text.endswith("至唐傳楚辭者皆祖騫公之音") and len(first.text) == 195
    assert first.layout[:3] == [(0, "楚辭卷第一("), (13, "/"), (26, ")¶\n(")]


def test_a_heading_note_before_the_group_leaves_the_group_the_chapters_category():
    """楚辭補注 卷九 prints ``招䰟章句第九(䰟一作/魂下同)　楚詞``, 洪興祖's note on the title before its group,
    where its other juans print the group right after the title (卷八 ``九辯章句第八　楚詞``): 楚詞 is the
    chapter's category, as 卷八's is (it was 「　楚詞」, text of 王逸's 序 between the note and 「招䰟者…」), the
    note the chapter's first piece, the heading's note; the file writes back byte for byte."""
    from .conftest import parse_written_back

    books = SHARED / "corpus" / "kanripo-commentary" / "KR4a0003"
    doc = parse_written_back(books / "KR4a0003_009.txt", readme=True)
    assert [(c.title, c.category, c.heading) for c in doc.chapters] == [("招䰟章句第九", "楚詞", "招䰟章句第九")]
    assert [(p.kind, p.layer_name, p.commentator, p.text) for p in doc.all_pieces()[:3]] == [
        (NOTE, "補注", "洪興祖", "䰟一作魂下同"), (TEXT, "序", "王逸", "招䰟者宋玉之所作也"),
        (NOTE, "補注", "洪興祖", "李善以招䰟為小招以有大招故也")]
    assert doc.all_pieces()[0].layout == [(0, "("), (3, "/"), (6, ")\u3000楚詞¶\n")]
    eight = parse_written_back(books / "KR4a0003_008.txt", readme=True)
    assert [(c.title, c.category) for c in eight.chapters] == [("九辯章句第八", "楚詞")]


JINGBU = SHARED / "corpus" / "kanripo-jingbu" / "KR1g0003"   # 經典釋文 (四部叢刊)


def test_a_heading_whose_note_comes_before_its_number_is_a_heading_with_its_note():
    """經典釋文 glosses a 篇's name where its heading prints it, before the number (春秋左氏音義
    ``莊公(名同桓公子母文姜/諡法勝敵克亂曰莊)第三　杜氏　盡三十二年``, 春秋榖梁音義 ``桓公(名允桓王/九年即位)第二
    范甯集解``): 24 such headings in 8 juans were text glued to the first lemma (``第三　杜氏　盡三十二年經元年遜于``).
    Each is a chapter titled by the name and number, the words after it its category (the commentator
    it reads taken out, as in ``僖中第六　杜氏　盡二十六年``), and its note the chapter's first piece, the
    heading's own note; the words after the note are layout, so the file writes back byte for byte."""
    raw = (JINGBU / "KR1g0003_015.txt").read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(JINGBU / "KR1g0003_015.txt"))
    assert render_mandoku(doc) == raw
    # a heading whose note fills its line prints its commentary and last year on the next (``桓公(…)第二`` over
    # ``　　　…　杜氏　盡十八年``): the rest of the heading, its category and layout, not a section's title
    assert [(c.title, c.category, c.heading) for c in doc.chapters[1:]] == [
        ("春秋經傳集解隱公第一", "盡十一年", "春秋經傳集解"), ("桓公第二", "盡十八年", "桓公"), ("莊公第三", "盡三十二年", "莊公"), ("閔公第四", "盡二年", "閔公"),
        ("僖公上第五", "盡三十三年", "僖公上")]
    assert doc.chapters[2].sections[0].paragraphs[0][0].layout[-1] == (
        26, ")第二¶\n" + "\u3000" * 9 + "杜氏\u3000盡十八年¶\n")
    assert not [s.title for s in doc.sections if "杜氏" in s.title] and not [
        p.text for c in doc.chapters[1:] for s in c.sections for p in s.pieces if "杜氏" in p.text and "盡" in p.text]
    first = doc.chapters[3].sections[0].paragraphs[0]
    assert [(p.kind, p.text) for p in first[:2]] == [(NOTE, "名同桓公子母文姜諡法勝敵克亂曰莊"), ("text", "經元年遜于")]
    assert first[0].layout == [(0, "("), (8, "/"), (16, ")第三　杜氏　盡三十二年¶\n")]
    assert not [p.text for p in doc.all_pieces() if "第三" in p.text and "杜氏" in p.text]
    raw = (JINGBU / "KR1g0003_022.txt").read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(JINGBU / "KR1g0003_022.txt"))
    assert render_mandoku(doc) == raw
    assert [c.title for c in doc.chapters] == ["", "春秋榖梁傳隱公第一", "桓公第二", "莊公第三", "閔公第四", "僖公第五",
                                               "文公第六", "宣公第七", "成公第八", "襄公第九", "昭公第十", "定公第十一", "哀公第十二"]
    assert {c.category for c in doc.chapters} == {""}  # 范甯集解: the 注 the 篇 reads, no category
    assert doc.chapters[1].sections[0].title == ""  # 范甯集解 printed under 隱公's heading: its rest, no title
    assert doc.chapters[2].sections[0].paragraphs[0][0].text == "名允桓王九年即位"


def _read_jingbu(name: str):
    raw = (JINGBU / name).read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(JINGBU / name))
    assert render_mandoku(doc) == raw
    return doc


def _heading_notes(chapter) -> list[tuple[str, str, list]]:
    return [(p.kind, p.text, p.layout) for p in chapter.sections[0].paragraphs[0]]


def test_a_heading_that_glosses_its_words_over_a_line_end_is_one_heading_with_its_notes():
    """經典釋文 prints the first 篇 of a book under the book's title and glosses each word of the heading
    that needs it, the number too; where the notes fill the line the heading runs on at the top of the
    next column (春秋左氏音義 卷十五, lines 38-40: ``春秋經傳集解(佳買反舊…/…)隱`` / ``公(名息姑…/…)第一(此不題
    …/…)`` / ``　…杜氏　盡十一年``). It was text of the classic, 春秋經傳集解 and 隱 glued to the 序's last
    lemmas and ``杜氏　盡十一年傳惠公`` a lemma; it is the chapter 春秋經傳集解隱公第一 (as 春秋榖梁音義
    titles its ``春秋榖梁傳隱公(…)第一``), its three notes the heading's own, its words layout."""
    doc = _read_jingbu("KR1g0003_015.txt")
    chapter = doc.chapters[1]
    assert (chapter.title, chapter.category, chapter.heading) == ("春秋經傳集解隱公第一", "盡十一年", "春秋經傳集解")
    assert _heading_notes(chapter) == [
        (NOTE, "佳買反舊夫子之經與丘明之傳各卷杜氏合而釋之故曰經傳集解", [(0, "("), (14, "/"), (27, ")隱¶\n公")]),
        (NOTE, "名息姑惠公之子母聲子諡法不尸其位曰隱", [(0, "("), (9, "/"), (18, ")第一")]),
        (NOTE, "此不題左氏傳公羊榖梁二傳旣顯姓別之此不言自見",
         [(0, "("), (11, "/"), (22, ")¶\n" + "\u3000" * 10 + "杜氏\u3000盡十一年¶\n")])]
    assert [(p.kind, p.text) for p in chapter.sections[0].paragraphs[1][:2]] == [
        (TEXT, "傳惠公"), (NOTE, "名不皇諡法愛人好與曰惠其子隱公讓國之君")]
    assert doc.chapters[0].sections[-1].paragraphs[-1][-2].text == "拭面"  # the 序 ends with its lemma
    # 春秋公羊音義 卷二十一, lines 16-17: the title glossed, then the name and number; the commentary on the
    # next line with its own note (``　　　何休學(學者言…)``): a heading's note too, 何休學 no category
    doc = _read_jingbu("KR1g0003_021.txt")
    chapter = doc.chapters[1]
    assert (chapter.title, chapter.category, chapter.heading) == ("春秋公羊經傳解詁隱公第一", "", "春秋公羊經傳解詁")
    assert _heading_notes(chapter) == [
        (NOTE, "佳買反下音古訓也", [(0, "("), (4, "/"), (8, ")隱公第一¶\n\u3000\u3000\u3000何休學")]),
        (NOTE, "學者言爲此經之學即注述之意", [(0, "("), (7, "/"), (13, ")¶\n")])]
    assert [c.title for c in doc.chapters[1:4]] == ["春秋公羊經傳解詁隱公第一", "桓公第二", "莊公第三"]


def test_the_other_glossed_headings_of_the_book_of_readings():
    """The same layout elsewhere in 經典釋文: 莊子音義 ``内篇(…)逍(…)遥(如/字)`` / ``(亦作/摇)遊(…)第一　郭象``, its
    note on 遥 running over the line end; 周易音義 ``周(…)易(…)上經(上/者)`` / ``(對下…)乾(卦/名)傳(…)第一(亦作/弟)``
    over ``　王弼注(…)``; on one line 毛詩音義 ``鄘(音/容)柏舟第四(鄭云…)`` and 莊子音義 ``天運(司馬作/天貟)第十四(以義/名篇)``.
    Where the note of its number runs on over the next column, the heading takes it whole (周易音義 ``周易繫(…)辭(…)``
    / ``(…)上第七(本亦作繫辭/…)`` / ``(作繫辭上傳…)韓伯注(…)``: 韓伯注 after it is the chapter's byline,
    ``pian_bylines``). Not a heading: a
    full line of lemmas closed by its note over a heading of its own (周禮音義 ``其潘(…)灡(…)戔餘(…)可䙝(息列/反)``
    / ``春官宗伯第三``)."""
    doc = _read_jingbu("KR1g0003_026.txt")
    # 郭象 after the number names the 注 the 篇 is read in (as 杜氏 does): no group of the heading
    assert (doc.chapters[0].title, doc.chapters[0].category, doc.chapters[0].heading) == ("内篇逍遥遊第一", "", "内篇")
    assert [(p.text, p.layout[-1]) for p in doc.chapters[0].sections[0].paragraphs[0]] == [
        ("内者對外立名說文云篇書也字從竹從艹者草名耳非也", (23, ")逍")), ("音銷亦作消", (5, ")遥")),
        ("如字亦作摇", (5, ")遊")), ("如字亦作游逍遥遊者篇名義取閒放不拘怡適自得", (21, ")第一\u3000郭象¶\n"))]
    doc = _read_jingbu("KR1g0003_002.txt")
    assert [(c.title, c.heading) for c in doc.chapters[:2]] == [("周易上經乾傳第一", "周"), ("周易上經泰傳第二", "周易上經泰傳第二")]
    assert [p.text[:4] for p in doc.chapters[0].sections[0].paragraphs[0]] == [
        "代名也周", "盈隻反此", "上者對下", "卦名", "直戀反以", "亦作弟", "本亦作王"]
    chapter = next(c for c in doc.chapters if c.title == "周易繫辭上第七")
    assert [(p.kind, p.text[:6]) for p in chapter.sections[0].paragraphs[0][:5]] == [
        (NOTE, "徐胡詣反本系"), (NOTE, "本亦作&KR"), (NOTE, "本亦作繫辭上"), (LABEL, "韓伯注"), (NOTE, "本亦作韓康伯")]
    assert chapter.sections[0].paragraphs[0][2].text == "本亦作繫辭上王肅本皆作繫辭上傳訖於雜卦皆有傳字本亦有無上字者"
    assert [c.title for c in _read_jingbu("KR1g0003_027.txt").chapters][6:11] == [
        "天運第十四", "刻意第十五", "繕性第十六", "秋水第十七", "至樂第十八"]
    assert "鄘柏舟第四" in [c.title for c in _read_jingbu("KR1g0003_005.txt").chapters]
    # (春官宗伯第三 under that full line: the juan's next 篇, ``divisions.follows_last``)
    assert [c.title for c in _read_jingbu("KR1g0003_008.txt").chapters] == ["天官冢宰第一", "地官司徒第二", "春官宗伯第三"]
    # nor a line that fills its column with words: 水經注 卷三十九 ``　都山卽都龐之嶠(…)五嶺之第三`` over ``　嶺也…``
    path = BOOKS / "KR2k0058" / "KR2k0058_039.txt"
    doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
    assert [c.title for c in doc.chapters] == [""]
    assert [p.text for p in doc.all_pieces() if p.text.startswith("五嶺之第三")] == [
        "五嶺之第三嶺也鍾水卽嶠水也庾仲初曰嶠水南入始興溱水注于海北入桂陽湘水注于江是也"]


@pytest.mark.django_db(transaction=True)
def test_the_note_before_a_headings_number_is_shown_with_the_heading(client, settings, tmp_path):
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                            "PATH": tmp_path / "index"}}
    juan = import_file(JINGBU / "KR1g0003_022.txt").juan
    html = client.get(juan.get_absolute_url()).content.decode()
    heading = html.index('<h2 class="chapter-title">桓公第二</h2>')
    assert heading < html.index('<p class="heading-note">', heading) < html.index("名允桓王九年即位", heading)
    assert render_source(juan) == (JINGBU / "KR1g0003_022.txt").read_text(encoding="utf-8")


NANHUA_ONE = BOOKS / "KR5c0139" / "KR5c0139_001.txt"   # 卷一: 内篇逍遥遊第一(注夫小大雖殊而/…)
FIRST_NOTE = "夫小大雖殊而放於自得之場則物任其性事稱其能各當其分逍遥一也豈容勝負於其間哉"


@pytest.mark.django_db(transaction=True)
def test_nanhua_counts_its_full_size_notes_names_its_two_writers_and_labels_the_first_marker(
        empty_transactional_db, settings, tmp_path, client):
    """南華真經註疏 卷一 prints 郭象's 注 and 成玄英's 䟽 at full size, each block led by its marker:
    the import counts its 126 blocks as notes (it said 1, the one in small print; 「…故郭¶　注云…」 is
    a word of a 䟽, no marker); the work's
    people are the byline's two writers with their roles (the catalogue lists them with none,
    so the API said 「郭象　成玄英」, two authors of 莊子); and the heading's note, which opens with
    the marker 注, has it as a label, as every block does, shown with the heading."""
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                            "PATH": tmp_path / "index"}}
    result = import_file(NANHUA_ONE)
    juan = result.juan
    pieces = list(Piece.objects.filter(section__juan=juan).order_by("section__position", "position"))
    assert (result.sections, result.notes) == (9, 126)
    assert sum(p.kind == LABEL for p in pieces) == 126  # one note to a marker
    assert [(p.kind, p.layer, p.commentator, p.text) for p in pieces[:3]] == [
        (LABEL, COMMENTARY, "郭象", "注"), (NOTE, COMMENTARY, "郭象", FIRST_NOTE),
        (TEXT, CLASSIC, "", "北冥有魚其名爲鯤鯤之大不知其幾千里也")]
    work = json.loads(client.get(f"/api/works/{juan.work.pk}/").content)
    assert (work["author"], work["people"]) == ("〔晉〕郭象注\u3000〔唐〕成玄英䟽", [
        {"dynasty": "晉", "name": "郭象", "role": "注"}, {"dynasty": "唐", "name": "成玄英", "role": "䟽"}])
    chapter = json.loads(client.get(f"/api/editions/{juan.edition.pk}/juans/{juan.number}/").content)["chapters"][0]
    assert [(p["kind"], p["text"]) for p in chapter["heading_notes"]] == [(LABEL, "注"), (NOTE, FIRST_NOTE)]
    assert render_source(juan) == NANHUA_ONE.read_text(encoding="utf-8")


ZHUANGZI = BOOKS / "KR5c0138" / "KR5c0138_001.txt"  # 莊子注 卷一: the heading's note runs on to the next line


@pytest.mark.django_db(transaction=True)
def test_a_heading_note_run_on_to_the_next_line_is_one_note_with_the_heading(empty_transactional_db, settings,
                                                                              tmp_path, client):
    """莊子注 卷一 prints ``　　内篇逍遥逰第一(夫小大雖殊…各當其)`` over ``　　　(分逍遥一也豈容/勝負於其間哉)``:
    the run-on line, one step further in, was a paragraph of its own, shown as the first
    paragraph of the section after an empty one; both halves are the heading's note, one note: its rest
    hangs a column deeper under the heading (``mandoku.hung_notes``), 各當其分 read across the line."""
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                            "PATH": tmp_path / "index"}}
    juan = import_file(ZHUANGZI).juan
    html = client.get(juan.get_absolute_url()).content.decode()
    first_section = html.index('<section class="section" id="s1"')
    notes = html[html.index('<p class="heading-note">'):first_section]
    assert notes.index("各當其") < notes.index("分逍遥一也") and "北㝠有魚" not in notes
    section = html[first_section:]
    assert '<p class="passage"></p>' not in section and "分逍遥一也" not in section
    assert section.index('<p class="passage">') < section.index("北㝠有魚")
    base = f"/api/editions/{juan.edition.pk}/juans/{juan.number}"
    chapter = json.loads(client.get(f"{base}/").content)["chapters"][0]
    assert (chapter["title"], [p["text"] for p in chapter["heading_notes"]]) == (
        "内篇逍遥逰第一", ["夫小大雖殊而放於自得之場則物任其性事稱其能各當其分逍遥一也豈容勝負於其間哉"])
    assert chapter["sections"][0]["pieces"][0]["text"].startswith("北㝠有魚其名為鯤")


@pytest.mark.django_db(transaction=True)
def test_an_untitled_section_of_notes_alone_has_a_named_contents_link(empty_transactional_db, settings, tmp_path,
                                                                       client):
    """楚辭 卷一 opens with the editors' note on the book (no title, no text of its own, no titled
    chapter over it): its contents link was empty (``<a href="#s1"></a>``); it names the section
    by its place, as lists name such a section (``reader.citation.section_label``)."""
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                            "PATH": tmp_path / "index"}}
    juan = import_file(CHUCI).juan
    html = client.get(juan.get_absolute_url()).content.decode()
    assert '<a href="#s1"></a>' not in html
    assert '<li><a href="#s1">§1</a></li>' in html


MENGZI = SHARED / "corpus" / "kanripo-jingbu" / "KR1h0003" / "KR1h0003_001.txt"   # 孟子注疏 卷一


@pytest.mark.django_db
def test_a_section_of_nothing_but_the_heading_s_notes_shows_them_as_its_text(client):
    """孟子注疏 卷一 §1, listed in the contents as 梁恵王章句上, holds only the notes on that title
    (音義, 趙注, 音義, 疏). They were lifted into the heading's note and §1 showed nothing but 校正
    and 引用: they are §1's text, under its number, with no heading-note paragraph above."""
    juan = import_file(MENGZI).juan
    html = client.get(juan.get_absolute_url()).content.decode()
    assert '<li><a href="#s1">梁恵王章句上</a></li>' in html
    assert '<p class="heading-note">' not in html
    s1 = html[html.index('<section class="section" id="s1"'):html.index('<section class="section" id="s2"')]
    assert '<p class="passage"><span class="layer-label layer-readings" data-layer="音義" id="s1-p0">音義</span>' in s1
    assert [label for label in ("s1-p1", "s1-p3", "s1-p5", "s1-p7") if f'id="{label}" role="note"' in s1] == [
        "s1-p1", "s1-p3", "s1-p5", "s1-p7"]
    assert "丁云案史記梁恵王魏武侯之子名罃罃音鸎" in s1 and s1.count("趙岐所以引而為例") == 1
    section = client.get(juan.get_absolute_url() + "1/").content.decode()
    assert '<p class="heading-note">' not in section and 'id="s1-p7" role="note"' in section
