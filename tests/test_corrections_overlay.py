"""How the corrected reading is shown (issue 31): the 「校」 mark around exactly the corrected
characters in 橫排 and 直排, and a long paged section whose corrections change the length of
its text (the pages' cuts, the API's page bounds, the links of search hits and the highlights
follow the corrected text)."""
import re
from html.parser import HTMLParser

import pytest

from corrections.workflow import accept, propose
from reader import paging

from .test_corrections import NOTE, URL, account, people  # noqa: F401 - people: a fixture
from .test_paging import hit_in, one_long_piece, pages_of_100  # noqa: F401 - fixtures


class _PieceText(HTMLParser):
    """The characters inside the pieces (``id="s1-pN"``) of a page, without the 「校」 links
    and the visually hidden labels."""

    def __init__(self):
        super().__init__()
        self.stack, self.text = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        inside = bool(self.stack) and self.stack[-1][0]
        skip = bool(self.stack) and self.stack[-1][1]
        piece = re.fullmatch(r"s\d+-p\d+", attrs.get("id") or "") is not None
        skip = skip or attrs.get("class") in ("corr-mark", "visually-hidden")
        self.stack.append((inside or piece, skip))

    def handle_endtag(self, tag):
        self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] and not self.stack[-1][1]:
            self.text.append(data)


def shown_text(html: str) -> str:
    """The characters of the section's pieces on a reading page: no marks, labels or tags."""
    parser = _PieceText()
    parser.feed(html.split('<div class="text-body"', 1)[1].split("</div>", 1)[0])
    return "".join(parser.text)


def corrected(seed_juan, people, start, end, replacement, piece=3):
    p = propose(people["contributor"], seed_juan, kind="text", section=1, piece=piece, start=start, end=end,
                replacement=replacement, deletion=not replacement, reason="他本")
    return accept(p, people["editor"])


def link(p) -> str:
    """The 「校」 link of ``p`` as the reading page writes it."""
    title = (f"校正 #{p.pk}：「{p.original}」→「{p.replacement}」；cx 提出，{p.reviewed_at:%Y-%m-%d} 採納；他本")
    return (f'<a class="corr-mark" href="/corrections/{p.pk}/" title="{title}"><span aria-hidden="true">校</span>'
            f'<span class="visually-hidden">已校正：{title}</span></a>')


def test_the_mark_sits_around_the_corrected_characters_in_horizontal_and_vertical(client, seed_juan, people):
    at = NOTE.index("君君")  # 11: the second 君 is the first character of the note's second 直排 cell
    p = corrected(seed_juan, people, at, at + 2, "君上君")
    horizontal = client.get(URL + "1/").content.decode()
    assert (f'<span class="note layer-commentary" data-layer="注" id="s1-p3" role="note">'
            f'<span class="visually-hidden">注：</span>{NOTE[:at]}<span class="corrected">君上君</span>{link(p)}'
            f'{NOTE[at + 2:]}</span>') in horizontal
    assert horizontal.count('class="corr-mark"') == 1  # not repeated after the passage
    vertical = client.get(URL + "1/?layout=vertical").content.decode()
    note = vertical[vertical.index('id="s1-p3"'):vertical.index('<span class="text" id="s1-p4"')]
    cells = [cell.removesuffix("</span>") for cell in re.split(r'<span class="wc wc-\d+">', note.removesuffix("</span>"))[1:]]
    # the corrected characters run over two cells: each cell wraps its part, the mark follows the last
    assert cells == [NOTE[:at] + '<span class="corrected">君</span>',
                     f'<span class="corrected">上君</span>{link(p)}' + NOTE[at + 2:at + 12],
                     NOTE[at + 12:]]
    # a highlight inside the corrected place stays inside its frame
    lit = client.get(URL + "1/?hl=上&layout=horizontal").content.decode()
    assert f'<span class="corrected">君<mark>上</mark>君</span>{link(p)}' in lit
    # the text as imported has no mark
    assert "corrected" not in client.get(URL + "1/?text=imported").content.decode()


def test_a_deletion_is_marked_where_the_characters_were(client, seed_juan, people):
    at = NOTE.index("政教")
    p = corrected(seed_juan, people, at, at + 1, "")
    html = client.get(URL + "1/").content.decode()
    assert f"{NOTE[:at]}{link(p)}{NOTE[at + 1:]}</span>" in html


@pytest.mark.django_db
def test_a_long_paged_section_follows_corrections_that_change_its_length(client, one_long_piece):
    """Stored: 射 × 120 then 侯 × 130 (pages cut at 100 and 200). Two corrections: 射射射射
    (98–102, across the first cut) → 弓, and 侯侯 (150–152) → 侯侯侯侯侯."""
    from search.backends import SearchQuery
    from search.documents import documents_for_juan
    from search.service import hit_url

    people = {"contributor": account("cx", "contributor"), "editor": account("ex", "editor")}
    bow = corrected(one_long_piece, people, 98, 102, "弓", piece=0)
    more = corrected(one_long_piece, people, 150, 152, "侯" * 5, piece=0)
    text = "射" * 98 + "弓" + "射" * 18 + "侯" * 133
    paging._long.clear()
    url = one_long_piece.sections.get().get_absolute_url()
    pages = [client.get(f"{url}?page={n}").content.decode() for n in (1, 2, 3)]
    # the first cut (at 100 in the text as imported) falls inside the corrected place: the whole
    # new text goes to the next page; the second moves with the text (-3 + 3); nothing lost or twice
    shown = [shown_text(page) for page in pages]
    assert shown == ["射" * 98, "弓" + "射" * 18 + "侯" * 83, "侯" * 50 + "注也"]
    assert "".join(shown)[:-2] == text
    assert f'<span class="corrected">弓</span>{link(bow)}' in pages[1] and "corr-mark" not in pages[0]
    assert [page.count('class="corr-mark"') for page in pages] == [0, 2, 0]  # 弓 and 侯 × 5
    assert f'<span class="corrected">{"侯" * 5}</span>' in pages[1]
    # the section API gives the same parts, each bounded in the corrected text
    base = f"/api/editions/{one_long_piece.edition_id}/juans/{one_long_piece.number}/sections/1/"
    api = [client.get(f"{base}?page={n}").json() for n in (1, 2, 3)]
    assert [(a["pages"]["starts_at"], a["pages"]["ends_at"]) for a in api] == [
        ({"piece": 0, "offset": 0}, {"piece": 0, "offset": 98}),
        ({"piece": 0, "offset": 98}, {"piece": 0, "offset": 200}),
        ({"piece": 0, "offset": 200}, {"piece": 1, "offset": 2})]
    assert "".join(a["pieces"][0]["text"] for a in api) == text
    # a search hit (in the corrected text the index holds) links to the page that shows it
    doc = next(d for d in documents_for_juan(one_long_piece) if d.layer == "classic")
    assert doc.text == text
    links = [hit_url(hit_in(one_long_piece, doc, at, at + 1), SearchQuery("弓")) for at in (97, 98, 199, 200, 248)]
    assert [re.search(r"page=(\d)", u).group(1) if "page=" in u else "1" for u in links] == ["1", "2", "2", "3", "3"]
    # a highlight on the page of the corrected place marks it there
    lit = client.get(f"{url}?page=2&hl=弓").content.decode()
    assert f'<span class="corrected"><mark>弓</mark></span>{link(bow)}' in lit
    assert more.status == bow.status == "accepted"


def test_offsets_map_between_the_text_as_imported_and_the_corrected_text():
    from corrections.overlay import imported_offset, shown_offset

    changes = [(2, 4, 1), (6, 7, 3), (9, 10, 0)]  # 2–4 → one character, 6–7 → three, 9–10 deleted
    assert [shown_offset(changes, o) for o in range(12)] == [0, 1, 2, 2, 3, 4, 5, 8, 9, 10, 10, 11]
    # inside a new text: the last character of the span it replaced (its page, see shown_offset)
    assert [imported_offset(changes, o) for o in range(11)] == [0, 1, 3, 4, 5, 6, 6, 6, 7, 8, 10]


def test_a_text_correction_changes_only_the_characters_it_makes_other():
    from corrections.overlay import edit
    assert edit(10, 13, "帝高陽", "帝髙陽") == (11, 12, 1)
    assert edit(0, 2, "君君", "君上君") == (1, 1, 1)  # an insertion between the two
    assert edit(4, 6, "將有", "") == (4, 6, 0)  # a deletion
    assert edit(0, 10, "從&KR1969;聲", "從&KR1970;聲") == (1, 9, 8)  # a gaiji is one character, never cut
    assert edit(3, 5, "之事", "之事") == (5, 5, 0)  # nothing changed
    assert edit(3, 6, "之事", "之士") == (3, 6, 2)  # a text other than the span's: the whole span


def test_a_sections_name_reads_its_corrected_text_everywhere(client, empty_db, search_backend, people):
    """荀子 卷第一 §1 is untitled, named by its opening words, which the file prints 「君子曰學不可以巳…」
    (巳 for 已). After an accepted 巳→已 the section page and its citation said 已 (they read the
    overlaid pieces) while the quotation map, the hit lists and every other list named it by the
    stored 巳 (``reader.citation.classic_runs`` read the pieces as imported): all now read 已, and
    the stored text keeps its 巳."""
    from reader.citation import section_label, section_names
    from reader.importers.loader import import_file
    from reader.models import Piece, Section

    from .conftest import SHARED, index_all

    juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR3a0002" / "KR3a0002_001.txt").juan
    index_all(search_backend)
    piece = next(p for p in Piece.objects.filter(section__juan=juan, section__position=1).order_by("position")
                 if "學不可以巳" in p.text)
    at = piece.text.index("學不可以巳") + 4
    p = propose(people["contributor"], juan, kind="text", section=1, piece=piece.position, start=at, end=at + 1,
                replacement="已", reason="巳為已之誤")
    accept(p, people["editor"])
    assert Piece.objects.get(pk=piece.pk).text == piece.text   # the stored text is kept
    section = Section.objects.select_related("juan__edition", "juan__work").get(juan=juan, position=1)
    assert (section.title, section_label(section)) == ("", "§1「君子曰學不可以已…」")
    assert section_names({("KR3a0002", 1, 1)}) == {("KR3a0002", 1, 1): "君子曰學不可以已…"}
    quotations = client.get("/works/KR3a0002/juan/1/quotations/").content.decode()
    assert "§1「君子曰學不可以已…」" in quotations and "學不可以巳" not in quotations
    # the name the section page gives it, from the pieces it shows
    assert "<title>君子曰學不可以已… · " in client.get("/works/KR3a0002/juan/1/1/").content.decode()
