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
    assert "〔周〕荀況撰　〔唐〕楊倞注" in page  # the byline names him, above the text
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
