"""Bylines as they are printed, against what a heading or a copyist's slip looks like (issue 27): a
heading word (附錄) is no person, and a word set apart in the dynasty slot is the dynasty even where
the copyist slipped (宗 for 宋), the person the book's catalogue entry names
(``reader.importers.bylines``: ``HEADING_WORD``, ``slot_person``)."""
from catalogue.catalogue import Person
from reader.importers.bylines import byline_entries, byline_people, slot_person
from reader.importers.document import CLASSIC, LABEL, NOTE
from reader.importers.loader import import_file
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.models import Edition, Piece
from reader.person_names import person_name
from search.signals import muted

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
APPENDED = JINGBU / "KR1e0094" / "KR1e0094_040.txt"  # 欽定春秋傳說彙纂 卷三十八 「　　附錄經傳」
SLIPPED = JINGBU / "KR1d0057" / "KR1d0057_155.txt"  # 禮記集說 卷一百五十五 「宗　衛湜　撰」


def _read(path):
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, str(path), (path.parent / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == text
    return doc


def test_a_heading_word_is_no_persons_name():
    assert byline_entries("附錄經傳") is None and byline_entries("　　附録經傳") is None
    assert byline_entries("目錄注") is None and byline_entries("宋附錄撰") is None
    assert byline_people("附錄經傳") == []
    # a name that merely holds the characters is still a name, and 附 alone opens none of the words
    assert byline_entries("漢孔安國傳") == [("漢孔安國", "傳")]
    assert byline_entries("宋　附會　撰") == [("宋附會", "撰")]


def test_the_appended_classic_and_zuozhuan_are_a_heading_never_a_byline():
    """卷三十八 heads what it appends after 獲麟 「附錄經傳」, two U+3000 in like a byline: it was read as a
    man 附錄經 and his 傳, the juan's byline, so 85 of its pieces, the heading's note first, carried a
    附錄經 box and the author facet listed 附錄經. The juan prints no byline: nobody. The line is the
    heading of what follows (``piece_heads.note_under_heading``: a heading word and what it collects, its
    note on the lines under it): the first section's title, a LABEL, its note kept with it; it was the
    first piece of the classic."""
    doc = _read(APPENDED)
    assert (doc.bylines, doc.dynasty, doc.native_place, doc.author) == ([], "", "", "")
    first = doc.sections[0]
    assert (first.title, first.line, len(first.paragraphs)) == ("附錄經傳", 10, 1)
    assert [(p.kind, p.effective_layer, p.commentator, p.text[:11]) for p in first.pieces] == [
        (LABEL, CLASSIC, "", "附錄經傳"), (NOTE, "commentary", "", "案聖經絶筆獲麟弟子欲記")]
    assert (doc.sections[1].line, doc.sections[1].pieces[0].text) == (13, "小邾射以句繹來奔")
    assert {p.commentator for s in doc.sections for p in s.pieces} == {""}


def test_a_slip_in_the_dynasty_slot_is_the_catalogues_dynasty():
    listed = (Person("衞湜", "撰", "宋"),)
    assert slot_person("宗衛湜", "宗　衛湜　撰", listed) == Person("衞湜", "撰", "宋")
    assert byline_people("宗　衛湜　撰", listed) == [{"dynasty": "宋", "place": "", "name": "衛湜", "role": "撰"}]
    # not set apart, not the catalogue's person, or no catalogue entry: read as printed
    assert slot_person("宗衛湜", "宗衛湜撰", listed) is None
    assert slot_person("宗衛湜", "宗　衛湜　撰", (Person("衞湜", "撰", ""),)) is None
    assert byline_people("宗　衛湜　撰") == [{"dynasty": "", "place": "", "name": "宗衛湜", "role": "撰"}]
    assert byline_people("宗　王弼　撰", listed) == [{"dynasty": "", "place": "", "name": "宗王弼", "role": "撰"}]
    # a printed dynasty is never replaced
    assert byline_people("宋　衛湜　撰", listed) == [{"dynasty": "宋", "place": "", "name": "衛湜", "role": "撰"}]


def test_liji_jishuo_juan_155_is_wei_shi_of_song_as_in_every_other_juan():
    """禮記集說 卷一百五十五 prints 「宗　衛湜　撰」 where its 159 other juans print 宋 (衛湜 or 衞湜): the site
    made a person 宗衛湜 apart from the catalogue's 衞湜 of 宋. He is 衛湜 as printed, of 宋, named
    衞湜 as the catalogue writes him (decision 0032), and every note he signs is 衞湜's."""
    doc = _read(SLIPPED)
    assert doc.bylines == [{"dynasty": "宋", "place": "", "name": "衛湜", "role": "撰"}]
    assert (doc.dynasty, doc.native_place, doc.author) == ("宋", "", "衛湜")
    assert person_name("衛湜", ["宋"]) == "衞湜"
    assert {p.commentator for s in doc.sections for p in s.pieces} == {"", "衞湜"}
    assert sum(p.commentator == "衞湜" for s in doc.sections for p in s.pieces) == 9


def test_both_juans_imported_name_no_one_else(db):
    with muted():
        appended = import_file(APPENDED).juan
        slipped = import_file(SLIPPED).juan
    assert Edition.objects.get(pk=appended.edition_id).byline == []
    assert Edition.objects.get(pk=slipped.edition_id).byline == [
        {"dynasty": "宋", "place": "", "name": "衛湜", "role": "撰"}]
    assert set(Piece.objects.filter(section__juan=appended).values_list("commentator", flat=True)) == {""}
    assert set(Piece.objects.filter(section__juan=slipped).values_list("commentator", flat=True)) == {"", "衞湜"}


def test_the_pages_name_no_heading_as_a_writer(client, db):
    """The reading page of 卷三十八's first section: before, its note was boxed 附錄經 and a screen
    reader heard 「傳（附錄經）」; 卷一百五十五's page cites the catalogue's 〔宋〕衞湜, never 宗衛湜."""
    with muted():
        import_file(APPENDED)
        import_file(SLIPPED)
    appended = client.get("/works/KR1e0094/juan/40/1/").content.decode()
    assert appended.count("附錄經傳") >= 1 and "（附錄經）" not in appended and "附錄經</" not in appended
    slipped = client.get("/works/KR1d0057/juan/155/1/").content.decode()
    assert "宗衛湜" not in slipped and "〔宋〕衞湜《禮記集說》卷一百五十五「父親醮子而命之迎…」" in slipped
