"""A line the import read as a heading that an accepted structure correction makes text (此行是正文,
decision 0067) is text of the layer chosen where it stands, and its section, which the line titled,
is named as an untitled section is, everywhere: the section page's title and 引用, the juan page's
contents, the API's ``title`` and ``name``, search (the line found as 經文, no longer among the
titles), a hit's ``section.title`` in the API and the CSV; reverting restores it all. The stored
pieces and ``Section.title`` never change. A hit's ``section.title`` reads a heading a correction
made (此行是標題) too.

欽定書經傳說彙纂 (KR1b0046) 卷六 prints each sentence of the 書 on a line of its own over 蔡沈's 集傳 and
the sayings it collects: the import reads 「大戰于甘乃召六卿」 as §2's heading and title."""
import csv
import io
import re

import pytest
from django.test import Client

from corrections.models import Proposal
from corrections.workflow import ReviewError, accept, propose, revert
from reader.citation import section_label, section_names, section_title
from reader.importers.loader import import_file
from reader.models import Section

from .conftest import SHARED, index_all
from .test_corrected_headings import imported, section_two
from .test_corrections import people  # noqa: F401 - people: a fixture

SHUJING = SHARED / "corpus" / "kanripo-jingbu" / "KR1b0046" / "KR1b0046_008.txt"
LINE = "大戰于甘乃召六卿"
#: §2 untitled: its name is its opening words, the line's, cut as a name is.
OPENING = "大戰于甘乃召六卿…"
CITED = "〔清〕王頊齡奉敕撰《欽定書經傳說彙纂》卷六「{}」（四庫全書・文淵閣本，葉 8-2a）"
#: A phrase of §2 (集傳's), its hits' section named by §2's title.
PHRASE = "方伯不能討"


def names(client, work_id) -> tuple:
    """How §2 is named: the section page's <title>, <h1> and 引用; the juan page's table of contents; the
    API section's and juan's title and name; a hit in §2 in the API and in the CSV; the library's own
    section_title, section_label and section_names."""
    page = client.get("/works/KR1b0046/juan/8/2/").content.decode()
    juan = client.get("/works/KR1b0046/juan/8/").content.decode()
    api = client.get(f"/api/works/{work_id}/juans/8/sections/2/").json()
    in_juan = client.get(f"/api/works/{work_id}/juans/8/").json()["chapters"][0]["sections"][1]
    api_hit = client.get("/api/search/", {"q": PHRASE}).json()["results"][0]["section"]
    rows = list(csv.DictReader(io.StringIO(b"".join(client.get("/api/search/export/csv/", {"q": PHRASE}).streaming_content)
                                            .decode("utf-8-sig"))))
    section = Section.objects.get(juan__work_id=work_id, position=2)
    return (re.search(r"<title>[^<]*</title>", page)[0], re.search(r'<h1 class="section-page-title">.*?</h1>', page)[0],
            re.findall(r"[^>]*「[^」]*」（四庫全書・文淵閣本，葉 8-2a）", page), re.findall(r'<li><a href="#s2">[^<]*</a>', juan),
            (api["title"], api["name"], api["citation"]), (in_juan["title"], in_juan["name"]), api_hit,
            [(r["section"], r["section_title"]) for r in rows],
            section_title(section), section_label(section), section_names({("KR1b0046", 8, 2)}))


def expected(title: str, name: str) -> tuple:
    """``names`` when §2 is titled ``title`` ("" for none) and named ``name``."""
    return (f"<title>{name} · 欽定書經傳說彙纂（四庫全書・文淵閣本）卷六 · 經注閱讀</title>",
            f'<h1 class="section-page-title">{name} <small>欽定書經傳說彙纂（四庫全書・文淵閣本）卷六 §2</small></h1>',
            [CITED.format(name)], [f'<li><a href="#s2">{name}</a>'],
            (title, name, CITED.format(name) + " http://testserver/works/KR1b0046/juan/8/2/"), (title, name),
            {"position": 2, "title": title, "name": name}, [("2", name)],
            title, f"§2「{name}」", {("KR1b0046", 8, 2): name})


def layers(search_backend) -> tuple:
    """Where 「大戰于甘乃召六卿」 is found: its hits' layers (經文 or 標題) and pieces."""
    from search.backends import SearchQuery

    found = search_backend.search(SearchQuery(LINE))
    return sorted((h.layer, h.section_position, h.piece_position) for h in found.hits)


def test_a_heading_made_text_is_classic_text_and_its_section_untitled_everywhere_then_reverted(
        client, empty_db, search_backend, people, django_capture_on_commit_callbacks):
    juan, stored = imported(SHUJING, search_backend)
    assert stored[0] == ("label", "classic", LINE)
    assert Section.objects.get(juan=juan, position=2).title == LINE
    assert names(client, juan.work_id) == expected(LINE, LINE)
    assert layers(search_backend) == [("commentary", 2, 4), ("title", 2, 0)]  # and quoted in a note
    p = propose(people["contributor"], juan, kind="structure", section=2, piece=0, start=0, end=2, structure="text",
                reason="周禮經文，頂格大字，非標題", evidence="周禮注疏卷一")
    assert (p.structure, p.new_layer, p.start, p.end, p.original) == ("text", "classic", 0, 8, LINE)
    with django_capture_on_commit_callbacks(execute=True):  # the page cache's stamp moves
        accept(p, people["editor"])
    # the juan as accepting reindexes it once its transaction commits (the import's reindex, which the
    # test's transaction never commits, would take it in: tests/test_structure_corrections.py commits)
    index_all(search_backend)
    assert names(client, juan.work_id) == expected("", OPENING)
    assert layers(search_backend) == [("classic", 2, 0), ("commentary", 2, 4)]
    # the line is shown as text of the classic, its 「校」 after it; no heading; the stored rows are as imported
    page = client.get("/works/KR1b0046/juan/8/2/?layout=horizontal").content.decode()
    assert (f'<p class="passage"><span class="text corrected-text" id="s2-p0">{LINE}</span><a class="corr-mark" '
            f'href="/corrections/{p.pk}/" title="校正 #{p.pk}：結構 → 此行是正文（經） (this line is text: classic)；cx 提出，') in page
    assert '<h3 class="visually-hidden" id="s2-title">§2「大戰于甘乃召六卿…」</h3>' in page
    api = client.get(f"/api/works/{juan.work_id}/juans/8/sections/2/").json()
    assert api["pieces"][0] == {
        "position": 0, "paragraph": 0, "kind": "text", "layer": "classic", "layer_name": "", "commentator": "",
        "layer_basis": api["pieces"][0]["layer_basis"], "text": LINE, "source_tag": "", "source": "", "pages": [],
        "corrections": [{"id": p.pk, "kind": "structure", "start": 0, "end": 8, "imported": "heading",
                         "corrected": "text", "url": f"http://testserver/corrections/{p.pk}/"}]}
    assert section_two(juan) == stored
    assert Section.objects.get(juan=juan, position=2).title == LINE
    with django_capture_on_commit_callbacks(execute=True):
        revert(p, people["editor2"], reason="版式如此")
    index_all(search_backend)
    assert names(client, juan.work_id) == expected(LINE, LINE)
    assert layers(search_backend) == [("commentary", 2, 4), ("title", 2, 0)]  # and quoted in a note


def test_the_layer_chosen_and_the_proposal_refused_where_the_line_is_text_or_the_layer_is_not_a_structures(
        empty_db, people):
    juan = import_file(SHUJING).juan
    who = people["contributor"]
    p = propose(who, juan, kind="structure", section=3, piece=0, start=0, end=1, structure="text",
                new_layer="commentary", reason="r")
    assert (p.new_layer, p.shown_change) == ("commentary", "此行是正文（注） (this line is text: commentary)")
    # the line after it is text already (集傳重其事…): nothing to make text
    with pytest.raises(ReviewError, match=r"^此段匯入時已是正文，並非標題"):
        propose(who, juan, kind="structure", section=3, piece=1, start=0, end=1, structure="text", reason="r")
    # a layer belongs to 此行是正文 alone; a forged layer is refused, never stored
    with pytest.raises(ReviewError, match=r"^只有「此行是正文」須選層次"):
        propose(who, juan, kind="structure", section=3, piece=0, start=0, end=1, structure="heading",
                new_layer="classic", reason="r")
    for forged in ("<script>", "classic\u202e", "經", "x" * 500):
        with pytest.raises(ReviewError, match=r"^無此層次 "):
            propose(who, juan, kind="structure", section=4, piece=0, start=0, end=1, structure="text",
                    new_layer=forged, reason="r")
    assert Proposal.objects.count() == 1
    # nor may an editor's forged layer or structure be accepted
    with pytest.raises(ReviewError, match=r"^無此層次 '<script>'"):
        accept(p, people["editor"], new_layer="<script>")
    with pytest.raises(ReviewError, match=r"^無此結構 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' \(unknown structure\)$"):
        accept(p, people["editor"], structure="x" * 500)
    p.refresh_from_db()
    assert (p.status, p.structure, p.new_layer) == ("pending", "text", "commentary")
    # an editor may choose another layer before accepting, logged; the section's name reads it
    accept(p, people["editor"], new_layer="classic")
    p.refresh_from_db()
    assert (p.structure, p.new_layer) == ("text", "classic")
    assert list(p.audit.values_list("action", "detail")) == [
        ("proposed", "r"), ("edited", "layer commentary → classic"), ("accepted", "")]
    assert section_names({("KR1b0046", 8, 3)}) == {("KR1b0046", 8, 3): "王曰嗟六事之人予…"}


def test_a_line_made_text_takes_no_other_structure_till_reverted(empty_db, people):
    juan = import_file(SHUJING).juan
    made = propose(people["contributor"], juan, kind="structure", section=2, piece=0, start=0, end=1,
                   structure="text", reason="經文")
    accept(made, people["editor"])
    heading = propose(people["contributor"], juan, kind="structure", section=2, piece=0, start=0, end=1,
                      structure="heading", reason="標題")
    with pytest.raises(ReviewError, match=f"^與已採納的提議 #{made.pk} 同處"):
        accept(heading, people["editor"])  # one structure a line: revert the first
    revert(made, people["editor2"], reason="是標題")
    accept(heading, people["editor"])


def test_the_proposal_form_offers_the_layer_of_a_line_made_text(client, empty_db, people):
    juan = import_file(SHUJING).juan
    c = Client()
    c.force_login(people["contributor"])
    form = c.get("/corrections/propose/KR1b0046/8/", {"section": 2, "piece": 0, "start": 0, "end": 4}).content.decode()
    assert '<option value="text">此行是正文 (this line is text)</option>' in form
    assert re.search(r'<div class="kind-field" data-kinds="layer structure" data-structure="text">\s*<label for="id_new_layer">'
                     r'<span class="field-name" data-label-structure="此行是正文時所屬層次，未選為經 \(the layer of a line made '
                     r'text: 經 unless chosen\)">層次 \(layer\)</span> <span class="field-kinds">（層次校正、結構校正）</span>', form)
    response = c.post("/corrections/propose/KR1b0046/8/", {"kind": "structure", "section": 2, "first": 1, "last": 4,
                                                          "structure": "text", "new_layer": "", "reason": "經文"})
    assert response.status_code == 302, response.content.decode()[:2000]
    p = Proposal.objects.get()
    assert (p.piece_position, p.structure, p.new_layer) == (0, "text", "classic")
    history = c.get(f"/corrections/{p.pk}/").content.decode()
    assert "「大戰于甘乃召六卿」 → 此行是正文（經） (this line is text: classic)" in history
    assert juan.number == 8


def test_collation_reads_a_heading_made_text_as_text_not_as_the_sections_title(client, empty_db, people, tmp_path):
    """Collation (``collation.service.collate_juan``, the API) reads each edition's section titles as corrected:
    a title whose line a 此行是正文 correction made text is none, and the line is collated as the text it became,
    not as a title as well. 欽定書經傳說彙纂 卷六 against a second copy of the same file (KR1b0046-copy): before any
    correction nothing differs; with §2's 「大戰于甘乃召六卿」 made text in the base alone, the base's §2 is untitled,
    its line is text the copy lacks there (the copy prints it as its heading and title, collated as added);
    with the copy's made text too, nothing differs again, the line text in both; ``text=imported`` collates the
    stored titles and pieces."""
    base = import_file(SHUJING).juan
    folder = tmp_path / "KR1b0046-copy"
    folder.mkdir()
    (folder / SHUJING.name).write_bytes(SHUJING.read_bytes())
    copy = import_file(folder / SHUJING.name).juan

    def section_two(**params) -> dict:
        answer = client.get(f"/api/editions/{base.edition_id}/juans/8/collation/", {"with": "KR1b0046-copy", **params})
        assert answer.status_code == 200
        return answer.json()["sections"][1]

    untouched = {"position": 2, "title": LINE, "name": LINE, "counterparts": {"KR1b0046-copy": 2}, "variants": []}
    assert section_two() == untouched
    made = propose(people["contributor"], base, kind="structure", section=2, piece=0, start=0, end=2, structure="text",
                   reason="書經文，非標題")
    accept(made, people["editor"])

    def reading(text, cls, note=False):
        return {"witness": "KR1b0046-copy", "text": text, "class": cls, "gaiji": False, "note": note, "section": False,
                "corrected": False}
    assert section_two() == {
        "position": 2, "title": "", "name": OPENING, "counterparts": {"KR1b0046-copy": 2}, "variants": [
            {"piece": None, "kind": "title", "start": 0, "end": 0, "lemma": "", "readings": [reading(LINE, "added")]},
            {"piece": 0, "kind": "text", "start": 0, "end": 8, "lemma": LINE, "readings": [reading("", "missing")]},
            {"piece": 1, "kind": "text", "start": 0, "end": 0, "lemma": "", "readings": [reading(LINE, "added", True)]}]}
    assert section_two(text="imported") == untouched
    accept(propose(people["contributor"], copy, kind="structure", section=2, piece=0, start=0, end=2, structure="text",
                   reason="同上"), people["editor"])
    assert section_two() == {**untouched, "title": "", "name": OPENING}
    assert section_two(text="imported") == untouched
    assert Section.objects.get(juan=base, position=2).title == LINE  # the stored title never changes
