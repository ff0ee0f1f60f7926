"""A juan's heads printed as deep as each other over its text (``lines.heads_over_text``): 讀禮通考
(KR1d0051, ``../shared/corpus/kanripo``) prints its 門 and 目 each on a line of its own two or more
columns in, the text at the top of the column; where a 門 has parts it prints the part as deep as the
門 (卷六十六 ``　　䘮儀節二十九`` over ``　　國恤一`` over ``　　　顧命``) or the 目 as deep as the part (卷十九
``　　喪期十九`` over ``　　　國恤二`` over ``　　　天子服母后``). Each line is a heading of the stack, the
deepest (last) the section's title; they were read as one line of text (``䘮儀節二十九國恤一``). Each file
still writes back byte for byte (``parse_written_back``)."""
from reader.citation import citation_text
from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.loader import import_file
from reader.importers.mandoku.lines import heads_over_text

from .conftest import SHARED
from .conftest import parse_written_back as parse

TONGKAO = SHARED / "corpus" / "kanripo" / "KR1d0051"


def head(path, n: int = 4) -> list[tuple[str, str, str]]:
    """The first ``n`` pieces of the juan's first section: (kind, layer, text)."""
    section = parse(path).chapters[0].sections[0]
    return [(p.kind, p.effective_layer, p.text) for p in section.pieces[:n]]


def test_two_heads_as_deep_over_the_text_are_two_headings():
    assert heads_over_text("　　䘮儀節二十九¶", "　　國恤一¶", ["<pb:KR1d0051_WYG_066-1a>¶", "　　　顧命¶", "周書顧命惟四月…¶"])
    assert heads_over_text("　　　國恤二¶", "　　　天子服母后¶", ["晉書禮志泰始四年…¶"])
    # a heading with its note closed on its line may stand under them (卷七十)
    assert heads_over_text("　　喪儀節三十三¶", "　　國恤五¶", ["　　　南宋大喪通儀下(附遼金/二代儀)¶", "南郊請諡…¶"])
    # a list's entries, several lines as deep before anything less deep, are left as read
    assert not heads_over_text("　　卷一¶", "　　學而¶", ["　　卷二¶", "　　爲政¶", "　　卷三¶", "正文¶"])
    # ... and so are two lines over lines printed deeper (a list's heading over its first group) or as deep
    assert not heads_over_text("　　引用姓氏¶", "　　秦¶", ["　　　孔氏(鲋/)　(子魚/)¶", "　　　伏氏(勝/)¶"])
    assert not heads_over_text("　　為政第二¶", "　　凡二十四章¶", ["　　子曰為政以德…¶"])
    # one column in, small print on the line, a line longer than a heading, or a blank line under them: no stack
    assert not heads_over_text("　彖下傳¶", "　咸感也¶", ["咸感也…¶"])
    assert not heads_over_text("　　引用姓氏¶", "　　周(附)¶", ["荀氏…¶"])
    assert not heads_over_text("　　喪具二¶", "　　棺束¶", ["¶", "檀弓棺束…¶"])
    # the text printed two columns in, a line raised in honour under its first short line (通鑑輯覽's 卷首)
    assert not heads_over_text("　　御製歴代通鑑輯覽序¶", "　　編年之書莫備於¶",
                               ["皇祖御批之資治通鑑綱目蓋是書集三編為一部自三皇¶", "　　以至元末明初振綱挈目…¶"])
    # a line opening with 右 says what is above it, and the line under it goes on with it
    assert not heads_over_text("　　右某書三篇世所傳¶", "　　舊藏善本¶", ["某甲曰學¶"])


def test_the_heads_of_a_juan_of_the_state_mourning():
    """卷六十六, 六十七, 七十: the 門 (喪儀節), its part (國恤) and the 目, each a heading; the 目 titles the
    section (卷六十七's is closed by 右初崩, which titles it)."""
    assert head(TONGKAO / "KR1d0051_066.txt") == [
        (LABEL, "classic", "䘮儀節二十九"), (LABEL, "classic", "國恤一"), (LABEL, "classic", "顧命"),
        (TEXT, "classic", "周書顧命惟四月哉生魄王不懌")]
    sixty_six = parse(TONGKAO / "KR1d0051_066.txt")
    assert [s.title for s in sixty_six.chapters[0].sections[:2]] == ["顧命", ""]  # the next cut for size
    assert not any("國恤" in p.text for p in sixty_six.all_pieces() if p.kind == TEXT)
    assert head(TONGKAO / "KR1d0051_067.txt") == [
        (LABEL, "classic", "喪儀節三十"), (LABEL, "classic", "國恤二"), (LABEL, "classic", "周大喪儀"),
        (TEXT, "classic", "喪大記疾病君徹縣")]
    assert parse(TONGKAO / "KR1d0051_067.txt").chapters[0].sections[0].title == "初崩"
    seventy = parse(TONGKAO / "KR1d0051_070.txt").chapters[0].sections[0]
    assert seventy.title == "南宋大喪通儀下"
    assert [(p.kind, p.text) for p in seventy.pieces[:4]] == [
        (LABEL, "喪儀節三十三"), (LABEL, "國恤五"), (LABEL, "南宋大喪通儀下"), (NOTE, "附遼金二代儀")]


def test_the_part_as_deep_as_the_topic():
    """卷十九 (喪期), 九十六 (喪具), 一百十二 (喪制): the part or the topic printed as deep as the one above it."""
    assert head(TONGKAO / "KR1d0051_019.txt", 3) == [
        (LABEL, "classic", "喪期十九"), (LABEL, "classic", "國恤二"), (LABEL, "classic", "天子服母后")]
    assert head(TONGKAO / "KR1d0051_096.txt", 2) == [(LABEL, "classic", "喪具二"), (LABEL, "classic", "棺束")]
    assert head(TONGKAO / "KR1d0051_112.txt", 3) == [
        (LABEL, "classic", "喪制五"), (LABEL, "classic", "守禮下"), (LABEL, "classic", "奪情不起")]
    assert [parse(TONGKAO / f"KR1d0051_{n}.txt").chapters[0].sections[0].title for n in ("019", "096", "112")] == [
        "天子服母后", "棺束", "奪情不起"]


def test_juans_that_print_each_head_deeper_are_unchanged():
    """卷六十五, 七十七: the 門 over the 目 a column deeper, read so before. 卷九十三: lines of text broken short
    before a word raised in honour (``　　鑾駕南廵親詣孝陵拜奠`` over ``　　特諭嚴禁樵牧春秋二祭有司``), inside the juan,
    stay one paragraph of text."""
    assert head(TONGKAO / "KR1d0051_065.txt", 3) == [
        (LABEL, "classic", "喪儀節二十八"), (LABEL, "classic", "誄"), (TEXT, "classic", "周禮春官太祝作六辭以通上下親疏逺近六曰誄")]
    assert parse(TONGKAO / "KR1d0051_077.txt").chapters[0].sections[0].title == "外國弔喪"
    raised = [p.text for p in parse(TONGKAO / "KR1d0051_093.txt").all_pieces() if "鑾駕南廵" in p.text]
    assert len(raised) == 1 and "鑾駕南廵親詣孝陵拜奠特諭嚴禁樵牧春秋二祭有司" in raised[0]


def test_the_juan_is_cited_under_its_topic(db):
    juan = import_file(TONGKAO / "KR1d0051_066.txt").juan
    first = juan.sections.order_by("position").first()
    assert first.title == "顧命"
    assert citation_text(first) == "〔清〕徐乾學《讀禮通考》卷六十六「顧命」（四庫全書・文淵閣本，葉 66-1a）"


def test_two_names_over_a_figure_are_two_labels_and_three_a_list():
    """禮書 (KR1d0084, kanripo-jingbu, not looked at while the rule was made) prints at a juan's head the names
    of the things its figures show, two columns in: two such names are two labels (卷八十三 隂厭, 陽厭, read
    as the text 隂厭陽厭; the section titled by the last, as a juan with one name is titled by it, 冕服),
    three or more as deep are a list and stay as read (卷四十八 漆几, 文貝, 雕玉)."""
    books = SHARED / "corpus" / "kanripo-jingbu" / "KR1d0084"
    assert head(books / "KR1d0084_082.txt", 2) == [(LABEL, "classic", "隂厭"), (LABEL, "classic", "陽厭")]
    assert parse(books / "KR1d0084_082.txt").chapters[0].sections[0].title == "陽厭"
    assert head(books / "KR1d0084_047.txt", 1) == [(TEXT, "classic", "漆几文貝雕玉")]


def test_a_longer_noted_line_under_a_heading_is_the_next_heading():
    """A noted line longer than an author's name under a heading of words alone, printed deeper, is the next
    heading (讀禮通考 卷一百五 ``　　變禮五`` over ``　　　喪中冠子嫁子娶婦(止備冠禮…)``; 禮書綱目 附録卷中 ``　　論琴`` over
    ``　　　以琴證論古今法(十六條/)``); under a line of text (儀禮鄭註句讀's 儀禮監本正誤 ``　君貺寡君…誤以又拜送``
    over ``　　置君貺句之上(…)``) it goes on with that entry as before."""
    assert head(TONGKAO / "KR1d0051_105.txt", 3) == [
        (LABEL, "classic", "變禮五"), (LABEL, "classic", "喪中冠子嫁子娶婦"), (NOTE, "commentary", "止備冠禮其昬嫁詳違禮條")]
    gangmu = parse(SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_089.txt").chapters[0].sections[0]
    assert (gangmu.title, [(p.kind, p.text) for p in gangmu.pieces[:2]]) == (
        "以琴證論古今法", [(LABEL, "論琴"), (LABEL, "以琴證論古今法")])
    errata = parse(SHARED / "corpus" / "kanripo" / "KR1d0038" / "KR1d0038_018.txt")
    assert [p.kind for p in errata.all_pieces() if p.text == "置君貺句之上"] == [TEXT]
