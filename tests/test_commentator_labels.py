"""Who wrote a note, as the reading page labels it: one rule for every note of a commentator.

荀子 (Kanripo KR3a0002, 四部叢刊本, 卷第一) is commented by 楊倞 alone, as its byline says
(〔周〕荀況撰　〔唐〕楊倞注). The page named him on the first note of each paragraph (a tag 楊倞
before the note's hidden label, its text 「楊倞注（楊倞）：…」) and on none of the others
(「注（楊倞）：…」). The book's one commentator is now named by the byline alone, and every note of
his is labelled alike (``reader.templatetags.pieces``, ``reader.people.sole_commentator``)."""
import re
from html.parser import HTMLParser

from django.test import Client

from reader.importers.loader import import_file
from reader.models import Juan, Piece
from reader.people import sole_commentator
from search.signals import muted

from .conftest import SHARED

XUNZI = SHARED / "corpus" / "kanripo-commentary" / "KR3a0002" / "KR3a0002_001.txt"
TAG = re.compile(r'<span class="layer-tag commentator" aria-hidden="true">([^<]+)</span>')


class _Notes(HTMLParser):
    """The text of each note (``role="note"``) of a page, its labels included, as a copy of it reads."""

    def __init__(self):
        super().__init__()
        self.depth, self.current, self.notes = 0, None, []

    def handle_starttag(self, tag, attrs):
        if self.current is not None:
            self.depth += 1
        elif ("role", "note") in attrs:
            self.current, self.depth = [], 1

    def handle_endtag(self, tag):
        if self.current is not None:
            self.depth -= 1
            if not self.depth:
                self.notes.append("".join(self.current))
                self.current = None

    def handle_data(self, data):
        if self.current is not None:
            self.current.append(data)


def notes_of(html: str) -> list[str]:
    parser = _Notes()
    parser.feed(html)
    return parser.notes


def test_every_note_of_the_books_one_commentator_is_labelled_alike(db):
    with muted():
        juan = import_file(XUNZI).juan
    juan = Juan.objects.select_related("work", "edition").get(pk=juan.pk)
    assert sole_commentator(juan.work, juan.edition) == "楊倞"
    stored = Piece.objects.filter(section__juan=juan, kind="note")
    assert (stored.count(), set(stored.values_list("commentator", "layer_name"))) == (477, {("楊倞", "注")})
    client = Client()
    page = client.get("/works/KR3a0002/juan/1/", {"notes": "inline", "layout": "horizontal"}).content.decode()
    # the printed byline, then its people, name him above the text
    assert ('<p class="writers"><span class="writers-label">著者</span><span class="writer">荀況<span class="writer-facts">'
            '（周，撰）</span></span><span class="writer">楊倞<span class="writer-facts">（唐，注）</span></span></p>') in page
    assert TAG.findall(page) == []  # was ['楊倞'] × 4: the first note of each of the juan's 4 sections
    notes = notes_of(page)
    # each printed note labelled once (a note's parts, filed in two columns, go on in one voice)
    labelled = [n for n in notes if n.startswith("注（楊倞）：")]
    assert (len(notes), len(labelled)) == (477, 166)
    assert not [n for n in notes if "楊倞" in n and not n.startswith("注（楊倞）：")]
    assert notes[:4] == ["注（楊倞）：以喻學則才", "過其本性也", "注（楊倞）：輮屈槁枯暴乾挺直也", "晏子春秋作不復羸矣"]
    # a section page, and 旁注, say the same
    section = client.get("/works/KR3a0002/juan/1/2/", {"notes": "inline"}).content.decode()
    assert TAG.findall(section) == [] and notes_of(section)[0].startswith("注（楊倞）：")
    beside = client.get("/works/KR3a0002/juan/1/", {"notes": "beside"}).content.decode()
    assert TAG.findall(beside) == []


def test_a_books_one_commentator_is_the_one_person_besides_its_makers():
    """``sole_commentator`` by the catalogue's people (no query): the people besides the book's
    author and compiler (撰, 著, 編, 輯) when they are one."""
    from reader.models import Edition, Work

    def sole(kanripo_id):
        return sole_commentator(Work(kanripo_id=kanripo_id, title=""), Edition(kanripo_id=kanripo_id))

    assert {k: sole(k) for k in ("KR3a0002", "KR2a0012", "KR4h0002", "KR3l0002", "KR4h0003", "KR1d0003",
                                 "KR2a0001", "KR2a0009", "KR1d0086")} == {
        "KR3a0002": "楊倞",  # 〔周〕荀況撰　〔唐〕楊倞注
        "KR2a0012": "裴松之",  # 三國志: 陳壽撰, 裴松之注
        "KR4h0002": "李善",  # 文選: 蕭統編, 李善註
        "KR3l0002": "劉孝標",  # 世說新語: 劉義慶撰, 劉孝標注
        "KR4h0003": "",  # 六臣註文選: 李善 and the five 臣
        "KR1d0003": "",  # 周禮注疏: 鄭玄注, 賈公彥疏, 陸德明音義
        "KR2a0001": "",  # 史記: 裴駰集解, 司馬貞索隱, 張守節正義
        "KR2a0009": "",  # 後漢書: 李賢注, 劉昭注志
        "KR1d0086": ""}  # 禮書綱目: 江永撰 alone


LIUCHEN = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_001.txt"
CHUCI = SHARED / "corpus" / "kanripo-commentary" / "KR4a0002" / "KR4a0002_004.txt"
#: a commentator's tag and the words after it, up to the next tag
TAGGED = re.compile(r'<span class="layer-tag commentator" aria-hidden="true">([^<]+)</span>'
                    r'<span class="visually-hidden">[^<]*</span>([^<]*)')


def _paragraphs(page: str, position: int) -> list[str]:
    section = re.search(rf'<section class="section" id="s{position}".*?</section>', page, re.S).group(0)
    return re.findall(r'<p class="passage">(.*?)</p>', section, re.S)


def test_the_rest_of_a_note_in_the_next_paragraph_is_not_labelled_again(db):
    """六臣註文選 卷一 §3: 李善's note on 班孟堅 runs on from the byline's line to the top of the
    next column (…載籍顯 | 宗時除…), whose rest keeps its own stored paragraph: the page showed a second
    李善 before 宗時除. The rest reads on from the paragraph before (one note: no tag, no second
    hidden label), and the page shows it in that paragraph, one bracket round the note
    (``SectionView.shown_paragraphs``: 「…博貫載籍顯〕」 / 「〔宗時除蘭臺令史…」 before)."""
    with muted():
        import_file(LIUCHEN)
    client = Client()
    page = client.get("/works/KR4h0003/juan/1/3/", {"notes": "inline", "layout": "horizontal"}).content.decode()
    paragraphs = _paragraphs(page, 3)
    assert len(paragraphs) == 3
    assert ('<span class="note joins-previous joins-next layer-commentary" data-layer="注" id="s3-p2" '
            'role="note">人也年九歳能屬文長遂博貫載籍顯</span><span class="note joins-previous joins-next '
            'layer-commentary" data-layer="注" id="s3-p5" role="note">宗時除蘭臺令史遷為郎乃上兩都賦大將軍</span>') \
        in paragraphs[1]
    assert paragraphs[1].startswith('<span class="byline section-byline" id="s3-p1">班孟堅</span>')
    assert paragraphs[1].endswith('陽西土父老怨帝不都長安固作兩都賦以諷</span>')
    assert paragraphs[2].startswith('<span class="text" id="s3-p9">或曰賦者古詩之流也</span>')
    # no tag in the section (李善 before 宗時除 was the first of four: the others, test below)
    assert TAGGED.findall(page) == []
    assert page.count('<span class="visually-hidden">注（李善）：</span>') == 18  # 19 with the one before 宗時除
    # the same on the juan's page
    juan = client.get("/works/KR4h0003/juan/1/", {"notes": "inline", "layout": "horizontal"}).content.decode()
    assert _paragraphs(juan, 3) == paragraphs


def test_a_new_note_at_a_paragraphs_head_keeps_its_label(db):
    """楚辭 卷四 §17: the note on 悲回風 (a paragraph of its own, after a paragraph whose last note
    is 王逸's too) is a new note and keeps its tag 王逸; its rest (終沈汨羅…, stored in the next paragraph,
    shown in 悲回風's) has none. Every other tag: one before each part after another man's (洪興祖's 補曰 and his
    collation remarks, 一作…, 一云…, decision 0096; 補曰 names his layer, not him, so it is tagged too)."""
    with muted():
        import_file(CHUCI)
    page = Client().get("/works/KR4a0002/juan/4/17/", {"notes": "inline", "layout": "horizontal"}).content.decode()
    tags = TAGGED.findall(page)
    assert [(who, words[:6]) for who, words in tags] == [
        ("王逸", "言已欲隨衆容"), ("洪興祖", "𥙷曰此言楚國"), ("王逸", "又欲罔然芒芒"), ("洪興祖", "補曰此言楚國"),
        ("王逸", "言欲軋沕已心"), ("洪興祖", "軋一作乹注云"), ("王逸", "雖欲長驅無所"), ("洪興祖", "一作馳逶蛇之"),
        ("王逸", "登山入水周六"), ("洪興祖", "漂一作飄翻一"), ("王逸", "雖逺念君在旁"), ("洪興祖", "補曰翼疾趨也"),
        ("王逸", "思如流水遊楚"), ("洪興祖", "補曰汜濫也音"), ("王逸", "伴俱也㢮毀也"), ("洪興祖", "補曰伴讀若背"),
        ("王逸", "炎氣南方火也"), ("洪興祖", "𥙷曰液音亦神"), ("王逸", "言已上觀炎陽"), ("洪興祖", "補曰七發云江"),
        ("王逸", "黃棘棘刺也枉"), ("洪興祖", "補曰言已所以"), ("王逸", "介子推也"), ("洪興祖", "一云放放逐也"),
        ("王逸", "無適言巳思慕"), ("洪興祖", "補曰刻勵也著"), ("王逸", "兾幸也言巳"), ("洪興祖", "一無昔字"),
        ("王逸", "悐悐欲利皃也"), ("洪興祖", "悐一作逖"), ("王逸", "適之"), ("洪興祖", "補曰越絶書曰"),
        ("王逸", "申徒狄也遇闇"), ("洪興祖", "𥙷曰莊子云申"), ("王逸", "驟數也"), ("洪興祖", "一本作而君"),
        ("王逸", ""),  # 任負也… after the page break (<span class="pb">)
        ("洪興祖", "一云任重石石"), ("王逸", "絓懸"), ("洪興祖", "一作結絓"), ("王逸", "蹇産猶詰屈也"),
        ("洪興祖", "一本無此二句"), ("王逸", "此章言小人之")]
    last = _paragraphs(page, 17)[-1]
    assert last.startswith('<span class="label" id="s17-p73">悲回風</span><span class="note joins-next layer-commentary"')
    assert ('</span><span class="note joins-previous layer-commentary" data-layer="章句" id="s17-p75" role="note">'
            '終沈汨羅從子胥申徒以畢其志也<span class="pb"') in last


def test_a_formula_cut_between_the_halves_of_a_double_column_names_its_writer(db):
    """六臣註文選 leads each commentator's part of a note with his formula (善曰, 向曰 …). Where
    the formula is cut where one half of the double column ends and the other begins (卷一 §3:
    「向」 ends a half, 「曰鴻大也…」 opens the next), the page read 「向」 alone, found no formula
    and tagged 呂向 before 向曰. The note's words now read on into its next parts by the same
    writer: 卷一's section pages show no tag (17 before: 李善 11, 呂延濟 3, 呂向, 張銑, 李周翰),
    and each part is still named to a screen reader."""
    from reader.models import Piece
    from reader.templatetags.pieces import opens_with_formula

    assert opens_with_formula(Piece(kind="note", text="向", layer_name="注"), "呂向", "向曰鴻大也") is True
    assert opens_with_formula(Piece(kind="note", text="向", layer_name="注"), "呂向") is False
    with muted():
        juan = import_file(LIUCHEN).juan
    client = Client()
    tags, hidden = [], 0
    for section in juan.sections.order_by("position"):
        page = client.get(f"/works/KR4h0003/juan/1/{section.position}/",
                          {"notes": "inline", "layout": "horizontal"}).content.decode()
        tags += TAGGED.findall(page)
        hidden += len(re.findall(r'<span class="visually-hidden">注（[^）]+）：</span>', page))
        if section.position == 3:
            assert ('<span class="visually-hidden">注（呂向）：</span>向</span><span class="note joins-previous '
                    'layer-commentary" data-layer="注" id="s3-p52" role="note">曰鴻大也言福祥徵應甚盛</span>') in page
    # (416 labels before a middle part with no markup of its own, read in reversed column order, went on
    # from the part before it: 15 parts of 李善's notes, 「…佐命宋」 | 「帝也黄者火之子…」, said once)
    assert (juan.sections.count(), tags, hidden) == (20, [], 401)


SHUIJING = SHARED / "corpus" / "kanripo-commentary" / "KR2k0058"
#: a layer's tag and the words of the note after its hidden label, up to the next tag
LAYER_TAGGED = re.compile(r'<span class="layer-tag" aria-hidden="true">([^<]+)</span>'
                          r'<span class="visually-hidden">[^<]*</span>([^<]*)')


def test_the_columns_of_one_editors_note_are_tagged_once(db):
    """水經注 卷二 files the columns of its editors' 案 notes in reverse (``(刻衍逕字/案流下近)``): the
    note is stored in two parts, read 案流下近 then 刻衍逕字. The page tagged each part 〔案 案流下近
    案 刻衍逕字〕; the second part goes on in the same layer and is not tagged again."""
    with muted():
        juan = import_file(SHUIJING / "KR2k0058_002.txt").juan
    parts = list(Piece.objects.filter(section__juan=juan, kind="note", text__in=("案流下近", "刻衍逕字"))
                 .values_list("layer", "layer_name", "text"))
    assert sorted(parts) == [("editorial", "案", "刻衍逕字"), ("editorial", "案", "案流下近")]
    section = Piece.objects.get(section__juan=juan, kind="note", text="案流下近").section
    page = Client().get(f"/works/KR2k0058/juan/2/{section.position}/",
                        {"notes": "inline", "layout": "horizontal"}).content.decode()
    # as a copy of the page reads each part: its tag, the hidden label of its layer, its words
    assert [n for n in notes_of(page) if n.endswith(("案流下近", "刻衍逕字"))] == ["案案：案流下近", "刻衍逕字"]  # was 案刻衍逕字
    assert ("案", "案流下近") in LAYER_TAGGED.findall(page)
