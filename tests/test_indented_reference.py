"""A commentary printed at full size one lower than the flush classic, beside small print, told by
the shipped reference of the classic (``reader.importers.mandoku.indented.reference_indent_layers``):
春秋大全's 胡安國 傳."""
from collections import Counter

from reader.importers.document import CLASSIC, COMMENTARY, LAYOUT, REFERENCE, TEXT, JuanDocument
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.indented import full_size_writer

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"

#: Six 經 entries of 隱公元年 flush, each with a note in small print and a paragraph of commentary one
#: lower ending in a scholar's note, as 春秋大全 prints them; then an entry with the 左傳 in small print
#: below it, and its commentary.
ENTRIES = ["元年春王正月", "三月公及邾儀父盟于蔑", "夏五月鄭伯克段于鄢", "秋七月天王使宰咺來歸惠公仲子之賵",
           "九月及宋人盟于宿", "冬十有二月祭伯來"]
COMMENTS = ["即位之一年必稱元年者明人君之職當體元以正其始也", "邾附庸國也儀父其字也附庸之君未王命例稱名",
            "段驕而莊公養成其惡待其亂而後討之", "仲子惠公之妾也天王不當賵之而使宰來賵", "宿小國也盟者惡之信不由中質無益也",
            "祭伯畿内諸侯也不稱使私來也非王命也"]


def _book(title: str) -> str:
    body = "".join(f"{e}(甲乙/丙丁)¶\n\u3000{c}(汪氏/曰戊)¶\n" for e, c in zip(ENTRIES, COMMENTS))
    return (f"# -*- mode: mandoku-view; -*-\n#+TITLE: {title}\n#+PROPERTY: ID KR9z0001\n"
            f"#+PROPERTY: BASEEDITION WYG\n<pb:KR9z0001_WYG_001-1a>¶\n{body}公子益師卒(甲乙/丙丁)¶\n"
            "(左傳公不與小斂/故不書日)¶\n\u3000大夫卒而不日者恩不足也公不與小斂(汪氏/曰己)¶\n")


def _layers(doc) -> list[tuple[str, str, str]]:
    return [(p.text, p.effective_layer, p.effective_basis) for p in doc.all_pieces() if p.kind == TEXT]


def test_the_indented_paragraphs_of_a_book_on_the_chunqiu_are_its_commentary():
    text = _book("春秋某書")
    doc = parse_mandoku(text, "KR9z0001_001.txt")
    assert render_mandoku(doc) == text
    expected = []
    for e, c in zip(ENTRIES, COMMENTS):
        expected += [(e, CLASSIC, "default"), (c, COMMENTARY, LAYOUT)]
    assert _layers(doc) == expected + [("公子益師卒", CLASSIC, "default"), ("大夫卒而不日者恩不足也公不與小斂", COMMENTARY, LAYOUT)]


def test_an_indented_entry_of_the_classic_among_few_paragraphs_reads_nothing():
    """Past ``INDENTED_IN_REFERENCE`` of the indented paragraphs in the reference (here 1 of 8, 桓公
    元年's 三月公會鄭伯于垂鄭伯以璧假許田), the indentation is no mark of the commentary: the juan
    keeps its order."""
    last = "\u3000大夫卒而不日者恩不足也公不與小斂(汪氏/曰己)¶\n"
    text = _book("春秋某書").replace(last, last + "(左傳/)¶\n\u3000三月公會鄭伯于垂鄭伯以璧假許田(甲乙/丙丁)¶\n"
                                           "(左傳/)¶\n\u3000戎者夷狄也公會之非禮也(汪氏/曰己)¶\n")
    doc = parse_mandoku(text, "KR9z0001_001.txt")
    assert render_mandoku(doc) == text
    assert {(layer, basis) for _, layer, basis in _layers(doc)} == {(CLASSIC, "default")}


def test_a_book_with_no_reference_keeps_its_order():
    """The same pages in a book whose title names no classic the project ships: nothing tells the
    indented paragraphs from the classic's (a 注疏 edition's entries, 毛詩's stanzas), all stay."""
    doc = parse_mandoku(_book("某書"), "KR9z0001_001.txt")
    assert {(layer, basis) for _, layer, basis in _layers(doc)} == {(CLASSIC, "default")}


def test_chunqiu_daquan_stores_hu_anguos_zhuan_as_commentary():
    """春秋大全 卷三 (KR1e0074_003): every full-size character, by layer and how it was decided."""
    path = JINGBU / "KR1e0074" / "KR1e0074_003.txt"
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, "kanripo-jingbu/KR1e0074/KR1e0074_003.txt")
    assert render_mandoku(doc) == raw
    counts = Counter()
    for p in doc.all_pieces():
        if p.kind == TEXT:
            counts[(p.effective_layer, p.layer_name, p.commentator, p.effective_basis)] += len(p.text)
    # the 傳 is 胡安國's: the book's 凡例 「諸傳以胡氏為主大字録於經後」, the catalogue's 胡氏春秋傳 (KR1e0074_000
    # names him in its 提要 alone; indented.FULL_SIZE_COMMENTARY)
    assert dict(counts) == {(COMMENTARY, "傳", "胡安國", LAYOUT): 3871, (CLASSIC, "", "", "default"): 1684,
                            (CLASSIC, "", "", REFERENCE): 9}
    pieces = {p.text: p for p in doc.all_pieces() if p.kind == TEXT}
    assert (pieces["春王三月叔姬歸于紀"].effective_layer, pieces["七年"].effective_layer) == (CLASSIC, CLASSIC)
    hu = pieces["叔姬伯姬之娣非夫人也則何以書古者諸侯一娶九女"]
    assert (hu.effective_layer, hu.effective_basis, hu.commentator, hu.layer_name) == (COMMENTARY, LAYOUT, "胡安國", "傳")
    entry = pieces["三月鄭伯使宛來歸祊"]  # a 經 entry the transcription prints one lower
    assert (entry.effective_layer, entry.effective_basis) == (CLASSIC, REFERENCE)


def test_only_a_book_whose_fanli_names_its_full_size_commentary_credits_a_writer():
    """``indented.full_size_writer``: 春秋大全's 凡例 names 胡氏's 傳, the catalogue's 胡氏春秋傳 (KR1e0036) is
    胡安國's; 周禮訂義 (KR1d0010), whose indented sayings are many men's, names nobody, nor a book
    the catalogue does not list."""
    assert full_size_writer(JuanDocument(work_title="春秋大全", kanripo_id="KR1e0074")) == ("胡安國", "傳")
    assert full_size_writer(JuanDocument(work_title="周禮訂義", kanripo_id="KR1d0010")) == ("", "")
    assert full_size_writer(JuanDocument(work_title="春秋大全", kanripo_id="")) == ("", "")
