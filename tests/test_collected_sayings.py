"""周禮訂義 prints the 周禮 flush, the sayings it collects one column lower at full size, each opened by
the man's name and 曰 (more beside them in small print, each after ○), and 王與之's own 愚案 one column
lower again, as its 編集條例 says (``reader.importers.mandoku.collected_sayings``, docs/decisions/0071):
the flush lines are the classic, the sayings the commentary (義), each man's words his, named as the
book's 編類姓氏世次 says it quotes him, and each 愚案 王與之's."""
from collections import Counter

from characters.folding import fold
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, TEXT
from reader.importers.mandoku.collected_sayings import quoted_names

from .test_collected_blocks import layer_chars, pieces
from .test_commentary_editions import parse

JUAN1 = "kanripo-jingbu/KR1d0010/KR1d0010_001.txt"  # 卷一 天官冢宰 (tuned on)
JUAN8 = "kanripo-jingbu/KR1d0010/KR1d0010_008.txt"  # 卷八 醫師 (held back: little small print)


def test_the_sayings_are_their_mens_and_the_yuan_wang_yuzhis():
    """卷一: 「惟王建國」 flush is the classic; 「　鄭康成曰建立也…」 鄭玄's; 「　　愚案先儒見周公作洛…」 王與之's
    (it was the classic); 「○王氏曰…」 inside a saying 王安石's, as the list says (臨川王氏 今作王氏)."""
    doc = parse(JUAN1)
    got = pieces(doc)
    k = next(i for i, p in enumerate(got) if p[4] == "惟王建國")
    assert [(kind, layer, name, who, text[:8]) for kind, layer, name, who, text in got[k - 6:k + 2]] == [
        (TEXT, CLASSIC, "", "", "天官冢宰"),
        (TEXT, COMMENTARY, "義", "王與之", "愚案天於萬物無所"),
        (TEXT, COMMENTARY, "義", "賈公彥", "賈氏曰冢大也"),
        (TEXT, COMMENTARY, "義", "王安石", "○王氏曰爾雅曰山"),
        (TEXT, COMMENTARY, "義", "賈公彥", "賈氏曰宰者調和膳"),
        (NOTE, COMMENTARY, "義", "王安石", "○王氏曰宰以制割"),
        (TEXT, CLASSIC, "", "", "惟王建國"),
        (TEXT, COMMENTARY, "義", "鄭玄", "鄭康成曰建立也司"),
    ]
    assert got[k + 2][:4] == (TEXT, COMMENTARY, "義", "王與之") and got[k + 2][4].startswith("愚案先儒見周公作洛")
    # a note of several sayings, each after its ○, each its man's; the saying goes on after it
    k = next(i for i, p in enumerate(got) if p[4] == "體國經野")
    assert [(kind, who, text[:6]) for kind, _, _, who, text in got[k + 1:k + 5]] == [
        (TEXT, "鄭玄", "鄭康成曰體猶"), (NOTE, "李嘉㑹", "○李嘉㑹曰經"), (TEXT, "鄭玄", "經謂為之里數"),
        (NOTE, "項安世", "○項氏曰為之")]
    # the passages of the classic printed on a line of their own are the classic, not titles; the
    # 總論 headings printed lower stay titles
    assert [s.title for s in doc.sections if s.title] == ["總論", "總論六典", "總論", "總論", "總論典法則"]
    assert layer_chars(doc) == Counter({(TEXT, COMMENTARY): 6539, (NOTE, COMMENTARY): 1780, (TEXT, CLASSIC): 356,
                                        (LABEL, CLASSIC): 15})
    assert not any(p.text.startswith("愚案") and p.effective_layer == CLASSIC for p in doc.all_pieces())


def test_a_juan_of_little_small_print_is_read_by_the_same_rule():
    """卷八 (held back): its sayings were all 王與之's, as if he wrote them (one author's 解 printed one lower);
    now each is its man's, and 「食醫中士二人」, flush under the last full line of a saying, is the classic."""
    doc = parse(JUAN8)
    got = pieces(doc)
    assert [(layer, who, text[:6]) for _, layer, _, who, text in got[:5]] == [
        (CLASSIC, "", "天官冡宰下醫"), (COMMENTARY, "鄭玄", "鄭康成曰醫師"), (COMMENTARY, "賈公彥", "○賈氏曰凡言"),
        (COMMENTARY, "陳宏甫", "○陳宏甫曰人"), (COMMENTARY, "薛衡", "○薛平仲曰膳")]
    assert (TEXT, CLASSIC, "", "", "食醫中士二人") in got
    assert Counter(p.commentator for p in doc.all_pieces() if p.effective_layer == COMMENTARY).most_common(3) == [
        ("賈公彥", 35), ("鄭玄", 33), ("鄭鍔", 27)]
    assert layer_chars(doc) == Counter({(TEXT, COMMENTARY): 9966, (NOTE, COMMENTARY): 2529, (TEXT, CLASSIC): 924})


def test_a_name_is_the_man_the_books_list_gives():
    """編類姓氏世次: 「鄭氏(𤣥字康成…今作鄭康成)」, 「賈氏(公彦…今作賈氏)」, 「鄭氏(衆字仲師…今作鄭司農)」, the first
    鄭氏 and 劉氏 listed (鄭興, 劉敞: 「以氏言者或同姓數人以前說者為氏」); 王氏詳説 whom the list does not know."""
    names = quoted_names()["KR1d0010"]
    assert len(names) == 49
    assert [names[fold(n)] for n in ("鄭康成", "賈氏", "鄭司農", "鄭氏", "劉氏", "王氏", "劉執中", "黄氏", "王氏詳説")] == [
        "鄭玄", "賈公彥", "鄭衆", "鄭興", "劉敞", "王安石", "劉彛", "黃度", "王氏詳説"]


def test_the_front_matter_is_not_read_so():
    """The 卷首 (序, 編集條例, 序周禮興廢 with its own 愚案) is the book's front matter, 序跋 as before."""
    doc = parse("kanripo-jingbu/KR1d0010/KR1d0010_000.txt")
    assert not any(p.layer_name == "義" for p in doc.all_pieces())
