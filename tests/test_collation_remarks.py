"""洪興祖's collation remarks inside 王逸's notes (楚辭補注 KR4a0003, 楚辭 四部叢刊 KR4a0002): after 王逸's
words and before 補曰, in the same small print, 一作…, 一本…, 五臣云… are 洪興祖's 補注, not 王逸's 章句
(``reader.importers.mandoku.collation_remarks``, decision 0096). On real files of ``../shared/corpus``."""
import pytest

from reader.importers.mandoku.collation_remarks import lemma, remark_start

from .conftest import SHARED, parse_written_back

CHUCI = SHARED / "corpus" / "kanripo-commentary"


def _note_after(doc, classic: str):
    """The (commentator, layer_name, text) of each stored part of the note on the classic words ``classic``."""
    pieces = doc.all_pieces()
    at = next(k for k, p in enumerate(pieces) if p.kind == "text" and p.text == classic)
    out = []
    for p in pieces[at + 1:]:
        if p.kind != "note":
            break
        out.append((p.commentator, p.layer_name, p.text[:14]))
    return out


def test_a_remark_opens_with_the_word_it_is_about():
    """一作 takes the longest end of the words before it that the classic line prints (蒸 of 蕙肴蒸兮蘭藉,
    an entity one character), else the note's last character, never a sentence's 也; 一本, 五臣云 open
    the remark themselves; 或曰 and 一曰 are 王逸's own."""
    assert remark_start("蕙肴以蕙草蒸肉也藉所以藉飯食也易曰藉用白茅也蒸一作䒱一作烝", "蕙肴蒸兮蘭藉") == 22
    assert lemma("言已修飾清潔以瑶玉為席美玉為瑱", "瑶席兮玉瑱") == 1
    assert lemma("嬋媛猶牽引也", "女嬃之嬋媛兮") == 0
    assert lemma("舍止也&KR1577;", "神&KR1577;兩而無舍") == 8
    assert lemma("體疲病而憂貧也萎", "", own=False) == 0
    assert remark_start("皇皇考也覽觀也揆度也初始也覽一作鑒一本余下有于字", "皇覽揆余初度兮") == 13
    assert remark_start("豐隆雲師一曰雷師或曰雲神", "吾令豐隆乘雲兮") is None


def test_a_reading_the_classic_prints_names_its_word_itself():
    """卷四 心絓結而不解兮(絓懸一作結絓): the note repeats no word of the classic before 一作, and the reading it
    gives, 結絓, is the classic's 絓結 as another copy orders it: the remark opens with 一作 and 王逸's gloss 絓懸
    stays whole (it was cut 絓|懸一作結絓, the lemma falling back on the note's last character). A reading of one
    character, or one whose word the classic does not print, still takes the note's last character (「辭一作詞
    志一作意」 on 詞靈脩而隕志兮: the reading is 詞, 志 the next remark's word)."""
    assert remark_start("絓懸一作結絓", "心絓結而不解兮") == 2
    assert remark_start("啇風西風肅急貌一作肅肅", "商風肅而害生兮") == 7
    assert remark_start("隕墮也易曰有隕自天也辭一作詞志一作意", "詞靈脩而隕志兮") == 10
    for book in ("KR4a0003", "KR4a0002"):
        pieces = parse_written_back(CHUCI / book / f"{book}_004.txt", readme=True).all_pieces()
        # 悲回風's line (哀郢 prints the same line earlier, its note 絓懸 then 補曰…)
        notes = [[(p.commentator, p.layer_name, p.text) for p in pieces[k + 1:k + 3]]
                 for k, p in enumerate(pieces) if p.kind == "text" and p.text == "心絓結而不解兮"]
        assert notes[-1] == [("王逸", "章句", "絓懸"), ("洪興祖", "補注", "一作結絓")]


def test_the_remarks_after_wang_yi_are_hong_xingzus_in_both_editions():
    """卷二 東皇太一 瑶席兮玉瑱: 王逸's gloss, 洪興祖's 瑱一作鎭, his 補曰…; 卷一 皇覽揆余初度兮: 王逸's gloss,
    then 覽一作鑒一本余下有于字五臣云… 洪興祖's (it was 章句（王逸） whole). The files write back the same."""
    for book, classic in (("KR4a0003", "瑶席兮玉瑱"), ("KR4a0002", "瑶席兮玉瑱")):
        doc = parse_written_back(CHUCI / book / f"{book}_002.txt", readme=True)
        assert _note_after(doc, classic)[:2] == [("王逸", "章句", "瑶石之次玉者詩云報之以瓊瑶"), ("洪興祖", "補注", "瑱一作鎭")]
    doc = parse_written_back(CHUCI / "KR4a0003" / "KR4a0003_001.txt", readme=True)
    assert _note_after(doc, "皇覽揆余初度兮") == [("王逸", "章句", "皇皇考也覽觀也揆度也初始也"),
                                             ("洪興祖", "補注", "覽一作鑒一本余下有于字五臣云")]


@pytest.mark.slow
def test_every_juan_of_both_books():
    """Over every juan of both editions: 王逸's notes hold no 一作, 一本, 一云, 五臣 nor 釋文 left, and the
    parts and characters of each man (王逸 178,528 → 142,816 characters of the two books before the rule)."""
    totals = {}
    for book in ("KR4a0003", "KR4a0002"):
        for path in sorted((CHUCI / book).glob("*.txt")):
            for p in parse_written_back(path, readme=True).all_pieces():
                if p.kind == "note" and p.commentator in ("王逸", "洪興祖"):
                    n, chars = totals.get((book, p.commentator), (0, 0))
                    totals[(book, p.commentator)] = (n + 1, chars + len(p.text))
                    if p.commentator == "王逸":
                        assert not any(w in p.text for w in ("一作", "一本", "一云", "五臣", "釋文")), p.text
    # KR4a0002 洪興祖 3,772 parts: two of his notes run on over a lost page (卷十三 page 9, 卷十六 page 10) are
    # two printed notes, each part of its piece (decision 0098), the same characters
    assert totals == {("KR4a0003", "洪興祖"): (3978, 84515), ("KR4a0003", "王逸"): (3631, 73109),
                      ("KR4a0002", "洪興祖"): (3772, 81574), ("KR4a0002", "王逸"): (3452, 69714)}


def test_a_one_that_ends_an_ordinal_opens_no_remark():
    """「…第一無經字」 is 第一 then 無經字, not the remark 一無: the first remark is 釋文 after it; 一無 opens
    one where nothing numbers it (「一無歌字」)."""
    assert remark_start("屈原第一無經字釋文", "") == 7
    assert remark_start("第一", "") is None
    assert remark_start("一無歌字", "") == 0
