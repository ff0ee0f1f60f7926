"""A book bound into another's files (``reader.importers.mandoku.bound_books``): the 四部叢刊 files
of 春秋正義 (KR1e0003) go on, after each juan's end title, with the same juan of 胡安國's 春秋傳
(``#+PROPERTY: FILE SB05n0584-…春秋胡氏傳…``; the catalogue's KR1e0036 胡氏春秋傳). Its 經 is the
classic, told by the shipped 春秋經, the rest 胡安國's 傳; every file writes back byte for byte."""
from collections import Counter

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, REFERENCE, SUBCOMMENTARY, TEXT
from reader.importers.mandoku.bound_books import bound_parts

from .conftest import SHARED
from .conftest import parse_written_back as parse  # written back byte for byte

ZHENGYI = SHARED / "corpus" / "kanripo-jingbu" / "KR1e0003"


def texts(doc, first, last):
    """``[(layer, commentator, text)]`` of the text pieces from the one opening with ``first`` to
    the one opening with ``last``."""
    pieces = [p for p in doc.all_pieces() if p.kind == TEXT]
    a = next(k for k, p in enumerate(pieces) if p.text.startswith(first))
    b = next(k for k, p in enumerate(pieces) if p.text.startswith(last))
    return [(p.effective_layer, p.commentator, p.text[:11]) for p in pieces[a:b + 1]]


def test_the_parts_of_another_book():
    """A part whose page images are another book's (its ``#+PROPERTY: FILE``): 春秋正義 卷三十's second
    part; not 卷三十一's, nor 世説新語's 校語 and text, nor 尚書正義's ``尚書正義.xml``."""
    def parts(path, title):
        return bound_parts(path.read_text(encoding="utf-8").split("\n"), title)

    lines = (ZHENGYI / "KR1e0003_030.txt").read_text(encoding="utf-8").split("\n")
    assert parts(ZHENGYI / "KR1e0003_030.txt", "春秋正義") == [(739, len(lines), "春秋胡氏傳")]  # its 740th line on
    assert parts(ZHENGYI / "KR1e0003_031.txt", "春秋正義") == []
    corpus = SHARED / "corpus"
    assert parts(corpus / "kanripo-commentary" / "KR3l0002" / "KR3l0002_001.txt", "世説新語") == []
    assert parts(corpus / "kanripo-jingbu" / "KR1b0003" / "KR1b0003_000.txt", "尚書正義") == []


def test_hu_anguos_commentary_and_its_classic():
    """卷三十 (哀公下): the 經 entries, each ending on a short line (or filling its line exactly:
    十年春…陽生卒), are the classic; 胡安國's 傳 after each is his, named after the book (傳)."""
    doc = parse(ZHENGYI / "KR1e0003_030.txt")
    assert texts(doc, "八年春王正月", "按左氏公㑹吴伐齊") == [
        (CLASSIC, "", "八年春王正月宋公入曹以"), (COMMENTARY, "胡安國", "此滅曹也曷爲不言滅滅者"),
        (COMMENTARY, "胡安國", "入曹以曹伯陽歸而削其見"), (CLASSIC, "", "吴伐我"),
        (COMMENTARY, "胡安國", "吴爲邾故興師伐魯兵加國"), (COMMENTARY, "胡安國", "及與吴盟者諱之也來戰于"),
        (COMMENTARY, "胡安國", "之今魯未及虧不能少待遂"), (COMMENTARY, "胡安國", "吴盟者欲見其實而深諱之"),
        (CLASSIC, "", "夏齊人取讙及闡歸邾子益"), (CLASSIC, "", "卒齊人歸讙及闡"),
        (COMMENTARY, "胡安國", "按左氏邾子益齊出也魯以"),
        (COMMENTARY, "胡安國", "泯也以此見國君去惡而不"), (CLASSIC, "", "九年春王二月葬𣏌僖公宋"),
        (CLASSIC, "", "秋宋公伐鄭冬十月"), (CLASSIC, "", "十年春王二月邾子益來奔"),
        (COMMENTARY, "胡安國", "按左氏公㑹吴伐齊齊人弑")]
    hu = next(p for p in doc.all_pieces() if p.text.startswith("此滅曹也"))
    assert (hu.layer_name, hu.layer_basis) == ("傳", REFERENCE)
    chars = Counter()
    for p in doc.all_pieces():
        chars[(p.effective_layer, p.commentator)] += len(p.text)
    assert chars[(COMMENTARY, "胡安國")] == 2902 and chars[(SUBCOMMENTARY, "孔穎達")] == 16947


def test_a_short_entry_read_otherwise_is_the_classic_still():
    """卷一: 夏五月鄭伯克叚于鄢 (the reference writes 段) is the 經; the 序 of 胡安國 before 元年 is his."""
    doc = parse(ZHENGYI / "KR1e0003_001.txt")
    assert texts(doc, "元年", "夏五月鄭伯克叚于鄢")[0] == (CLASSIC, "", "元年")
    assert texts(doc, "夏五月鄭伯克叚于鄢", "用兵大事也")[:2] == [
        (CLASSIC, "", "夏五月鄭伯克叚于鄢"), (COMMENTARY, "胡安國", "用兵大事也必君臣合謀而")]
    assert texts(doc, "孟子曰王者之迹熄", "孟子曰王者之迹熄") == [(COMMENTARY, "胡安國", "孟子曰王者之迹熄而詩亡")]


def test_front_matter_with_no_classic_is_left_as_it_is():
    """卷首 (KR1e0003_000): the book's 序 and 表 print no 經: nothing of them changes."""
    doc = parse(ZHENGYI / "KR1e0003_000.txt")
    assert not any(p.layer_basis == REFERENCE for p in doc.all_pieces())


def test_hu_anguos_signature_is_the_parts_byline_and_its_people():
    """卷一's 春秋傳 signs under its title 「左朝散郎充徽猷閣待制提舉江州太平觀賜紫金魚袋臣胡安國奉」 /
    「聖旨纂修」 (聖旨 raised to a line of its own): it was stored as 胡安國's 傳, then as a label. It is a byline
    wrapped onto a second line, laid out under the part's title as every such byline
    (``header.Header.wrapped_byline``), and 胡安國 the people of the part's first section
    (``bound_books.head_signer``)."""
    doc = parse(ZHENGYI / "KR1e0003_001.txt")
    assert not [p for p in doc.all_pieces() if "臣胡安國" in p.text]
    section = doc.chapters[1].sections[0]
    assert (section.title, section.line) == ("隱公上", 792)
    assert [(b["name"], b["role"]) for b in section.bylines] == [("胡安國", "奉聖旨纂修")]
    assert texts(doc, "孟子曰王者之迹熄", "孟子曰王者之迹熄") == [(COMMENTARY, "胡安國", "孟子曰王者之迹熄而詩亡")]
