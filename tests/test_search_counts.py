"""Search counts per layer equal a plain count, on a few files of every folder of the
shared corpus (``scripts/check_corpus.py --search-counts`` runs the same check on every file).

The plain count (``scripts/search_counts.py``) reads the stored pieces and shares no code
with ``search.documents``; the engine is the positional index the site runs. Each file's stored
juans also write back byte for byte."""
import sys
from pathlib import Path

import pytest

from .conftest import SHARED

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import search_counts  # noqa: E402
from reader.models import Juan  # noqa: E402
from search import documents  # noqa: E402

CORPUS = SHARED / "corpus"
#: Two files of each Kanripo folder (a 注疏 edition, 六臣註文選, 水經注 and 南華真經註疏 among
#: them: notes split by commentator, full-size commentary told by indentation, marked
#: blocks) and the plain forms.
FILES = [
    "kanripo/KR1d0086/KR1d0086_010.txt", "kanripo/KR1e0001/KR1e0001_001.txt",
    "kanripo-jingbu/KR1a0007/KR1a0007_001.txt", "kanripo-jingbu/KR1d0057/KR1d0057_002.txt",
    "kanripo-commentary/KR4h0003/KR4h0003_001.txt", "kanripo-commentary/KR2k0058/KR2k0058_002.txt",
    "kanripo-commentary/KR5c0139/KR5c0139_002.txt",
    "kanripo-references/KR1a0001/KR1a0001_001.txt", "kanripo-references/KR1h0005/KR1h0005_001.txt",
    "other/lienu_zhuan_crlf.txt", "other/yili_shigong_zengzhu_simplified.txt",
    "seed/lishu_gangmu_juan10.txt",
]


@pytest.mark.usefixtures("empty_db")
@pytest.mark.parametrize("name", FILES)
def test_search_counts_per_layer_equal_a_plain_count(name, tmp_path):
    rows, writes_back = search_counts.check_file(CORPUS / name, tmp_path / "index")
    assert writes_back
    assert {row.mode for row in rows} == {"exact", "folded"}
    assert {row.what for row in rows} >= {"frequent", "rare", "phrase"}
    assert [r for r in rows if r.engine != r.plain] == []


@pytest.mark.usefixtures("empty_db")
def test_every_juan_of_a_plain_text_book_is_counted(tmp_path):
    """列女傳 holds eight juans (卷之一 … 卷之八): each juan's classic is counted on its own, so
    the most frequent character's row comes once per juan, each with the plain count of that juan."""
    rows = search_counts.counts_for_file(CORPUS / "other" / "lienu_zhuan_crlf.txt", tmp_path / "index")
    firsts = [(r.query, r.engine, r.plain) for r in rows if r.layer == "classic" and r.what == "frequent"]
    # the file's 之 between one juan heading and the next, less those of the headings and titles
    assert firsts == [("之", 345, 345), ("之", 181, 181), ("之", 220, 220), ("之", 190, 190),
                      ("之", 244, 244), ("之", 331, 331), ("之", 245, 245), ("之", 194, 194)]


@pytest.mark.usefixtures("empty_db")
def test_search_counts_of_the_seed(tmp_path):
    """The seed's rows, whole: the classic read across its notes (戒射【…】宰戒) and not into them
    (戒射將有: 將有 opens the note after 戒射), notes with their source tags, the 記 records read
    across their notes and across punctuation, and their notes, and the titles, each written with
    its closer's 右; folded, 决 finds the 決 the classic mostly writes (27, of which 决 itself is
    2) and 郷 the 鄉 of the notes."""
    rows, writes_back = search_counts.check_file(CORPUS / "seed" / "lishu_gangmu_juan10.txt", tmp_path / "index")
    assert writes_back
    assert [tuple(row) for row in rows] == [
        ("classic", "於", 190, 190, "exact", "", "frequent"), ("classic", "驁", 1, 1, "exact", "", "rare"),
        ("classic", "右隈上", 1, 1, "exact", "", "phrase"), ("classic", "戒射宰戒", 1, 1, "exact", "", "across"),
        ("classic", "戒射將有", 0, 0, "exact", "", "into next"),
        ("classic", "决", 27, 27, "folded", "", "variant"), ("classic", "右隈上", 1, 1, "folded", "", "phrase"),
        ("classic", "戒射宰戒", 1, 1, "folded", "", "across"),
        ("commentary", "也", 374, 374, "exact", "", "frequent"), ("commentary", "寢", 1, 1, "exact", "", "rare"),
        ("commentary", "魯之間", 1, 1, "exact", "", "phrase"),
        ("commentary", "郷", 23, 23, "folded", "", "variant"), ("commentary", "魯之間", 1, 1, "folded", "", "phrase"),
        ("record", "君", 7, 7, "exact", "", "frequent"), ("record", "爵", 1, 1, "exact", "", "rare"),
        ("record", "俟君樂", 1, 1, "exact", "", "phrase"), ("record", "而俟君樂", 1, 1, "exact", "", "across"),
        ("record", "以授 君在", 1, 1, "exact", "", "across ○"), ("record", "旌獲註見", 0, 0, "exact", "", "into next"),
        ("record", "俟君樂", 1, 1, "folded", "", "phrase"), ("record", "以授君在", 1, 1, "folded", "", "punctuation"),
        ("record", "而俟君樂", 1, 1, "folded", "", "across"), ("record", "以授君在", 1, 1, "folded", "", "across ○"),
        ("record_note", "君", 7, 7, "exact", "", "frequent"), ("record_note", "酌", 1, 1, "exact", "", "rare"),
        ("record_note", "觚於公", 1, 1, "exact", "", "phrase"),
        ("record_note", "郷", 2, 2, "folded", "", "variant"), ("record_note", "觚於公", 1, 1, "folded", "", "phrase"),
        ("record_note", "自酌郷射", 1, 1, "folded", "", "punctuation"),
        ("title", "右", 46, 46, "exact", "", "frequent"), ("title", "入", 1, 1, "exact", "", "rare"),
        ("title", "立賓及", 1, 1, "exact", "", "phrase"),
        ("title", "眂", 2, 2, "folded", "", "variant"), ("title", "立賓及", 1, 1, "folded", "", "phrase"),
    ]
    assert search_counts.exact_count(search_counts.plain_texts(Juan.objects.get())["classic"], "决") == 2


@pytest.mark.usefixtures("empty_db")
def test_search_counts_of_every_layer_of_a_zhushu_juan(tmp_path):
    """左傳注疏 卷三 (KR1e0004_003): the classic, 杜預's 注, 陸德明's 音義, 孔穎達's 疏 and the
    editors' 考證, each counted; the classic read across its notes and across the ○ that
    opens the next entry (成也○翼九: exact with the ○, folded without it), and each
    commentator's notes with ``commentator`` set."""
    rows = search_counts.counts_for_file(CORPUS / "kanripo-jingbu/KR1e0004/KR1e0004_003.txt", tmp_path / "index")
    assert {row.layer for row in rows} == {"classic", "commentary", "readings", "subcommentary", "editorial", "title"}
    assert [tuple(r) for r in rows if r.what.startswith(("across", "into next"))] == [
        ("classic", "渝平夏五", 1, 1, "exact", "", "across"), ("classic", "成也○翼九", 1, 1, "exact", "", "across ○"),
        ("classic", "渝平和而", 0, 0, "exact", "", "into next"), ("classic", "渝平夏五", 1, 1, "folded", "", "across"),
        ("classic", "成也翼九", 1, 1, "folded", "", "across ○")]
    assert [tuple(r) for r in rows if r.commentator] == [
        ("commentary", "也", 91, 91, "exact", "杜預", "frequent"),
        ("readings", "反", 154, 154, "exact", "陸德明", "frequent"),
        ("subcommentary", "之", 503, 503, "exact", "孔穎達", "frequent")]
    assert [tuple(r) for r in rows if r.what == "variant"] == [
        ("classic", "徳", 7, 7, "folded", "", "variant"), ("commentary", "眀", 8, 8, "folded", "", "variant"),
        ("editorial", "夲", 4, 4, "folded", "", "variant"), ("readings", "本", 10, 10, "folded", "", "variant"),
        ("subcommentary", "㑹", 35, 35, "folded", "", "variant")]
    assert [tuple(r) for r in rows if r.layer == "title"] == [
        ("title", "經", 6, 6, "exact", "", "frequent"), ("title", "證", 1, 1, "exact", "", "rare"),
        ("title", "三考證", 1, 1, "exact", "", "phrase"), ("title", "三考證", 1, 1, "folded", "", "phrase")]


@pytest.mark.usefixtures("empty_db")
def test_search_counts_across_the_parts_of_a_note_and_by_commentator(tmp_path):
    """六臣註文選 卷一 files its notes' columns left first: the parts of one note are joined in
    reading order (後今卷旣, read across a join, and folded as 後今巻既), and each of the six
    commentators' notes are counted apart; the editors' 校記 joined the same way (``(之遺美五字/五臣有國家)``,
    read 五臣有國家之遺美五字: 國家之遺 across its columns) is counted in its own layer."""
    rows = search_counts.counts_for_file(CORPUS / "kanripo-commentary/KR4h0003/KR4h0003_001.txt",
                                         tmp_path / "index")
    assert [tuple(r) for r in rows if r.what == "note parts"] == [
        ("commentary", "後今卷旣", 1, 1, "exact", "", "note parts"),
        ("commentary", "後今巻既", 1, 1, "folded", "", "note parts"),
        ("editorial", "國家之遺", 1, 1, "exact", "", "note parts"),
        ("editorial", "國家之遺", 1, 1, "folded", "", "note parts")]
    assert [(r.commentator, r.query, r.engine, r.plain) for r in rows if r.commentator] == [
        ("劉良", "也", 57, 57), ("呂向", "也", 109, 109), ("呂延濟", "也", 121, 121), ("張銑", "也", 110, 110),
        ("李周翰", "也", 81, 81), ("李善", "曰", 1225, 1225)]


@pytest.mark.usefixtures("empty_db")
def test_the_check_finds_an_index_that_reads_the_notes_into_the_classic(tmp_path, monkeypatch):
    """The check can fail: an index that took every piece of the seed for the classic finds the
    classic's 於 in the notes too, and 戒射將有 across the seam into a note."""
    monkeypatch.setattr(documents, "piece_layer", lambda piece: "classic")
    rows = search_counts.counts_for_file(CORPUS / "seed" / "lishu_gangmu_juan10.txt", tmp_path / "index")
    wrong = {(r.query, r.mode, r.what): (r.engine, r.plain) for r in rows if r.engine != r.plain}
    assert wrong[("於", "exact", "frequent")][1] == 190 and wrong[("於", "exact", "frequent")][0] > 190
    assert wrong[("戒射將有", "exact", "into next")] == (1, 0)


def test_the_queries_of_a_layer():
    """The most frequent character, the rarest (the last of those seen once), and three
    characters from the middle of the longest text's longest Han run."""
    assert search_counts.queries(["之之之乎也", "之者"]) == ["之", "者", "之之乎"]
    assert search_counts.queries(["，。"]) == []


def test_a_seam_and_the_plain_counts():
    """A phrase over a seam is two Han characters each side, with the punctuation or ○ between
    them; the exact count leaves invisible code points out, the folded one punctuation and ○
    too, and reads each character as its fold and a gaiji as one character."""
    assert search_counts._seam("大射之儀", "○君有命戒射") == "之儀○君有"
    assert search_counts._seam("大射之儀", "君有") == "之儀君有"
    assert search_counts._seam("大射之儀", "□君有") is None  # □, a lost character, is a character
    assert search_counts._seam("儀", "君有") is None
    # 前漢書 卷一百 writes 應龍?於潢汙 (? for a character it lost): ? in a query is a wildcard
    assert search_counts._seam("易象論", "?于篇籍") is None
    assert search_counts.exact_count(["葛\U000e0100城，葛城", "葛\u200b城"], "葛城") == 3
    assert search_counts.exact_count(["大射，君"], "射君") == 0
    text = search_counts.folded_text("説○之，&KR0007;|文")
    assert len(text) == 5 and text[:2] == "說之" and text[3:] == "|文"
    assert len(search_counts.folded_pattern("說之").findall(text)) == 1
    assert len(search_counts.folded_pattern("之文").findall(text)) == 0  # a gaiji and the cell mark stand between
    assert len(search_counts.folded_pattern("玄").findall(text)) == 1  # &KR0007; is read as 玄


def test_the_spellings_of_a_juan():
    """A folded query writes a character the way the juan writes it less often, or another way
    the juan writes it; 后 and 于, read by their neighbours in a simplified edition, are not
    asked folded there."""
    spellings = search_counts.Spellings(["說説說", "脩修"])
    assert spellings.respell("說") == "説" and spellings.respell("説") == "說" and spellings.respell("之") == "之"
    assert spellings.variant(["說説說之之之之"]) == "説"
    assert spellings.variant(["說之之之之"]) == "説"
    assert spellings.variant(["之之"]) is None
    assert [search_counts.read_by_neighbours(c) for c in "后後于之"] == [True, True, True, False]
