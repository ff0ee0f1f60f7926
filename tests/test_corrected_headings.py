"""A line an accepted structure correction makes a heading (此行是標題) titles its untitled
section everywhere the section is named, as a text correction's characters are read: the
section page's title and 引用, the juan page's table of contents and 引用, the API's ``title``
and ``name``, the hit lists, a hit's ``section.title`` in the API and its CSV; reverting gives the section its name again (``reader.citation.
section_title``, read through ``reader.signals.pieces_named``). The stored pieces never change."""
import csv
import io
import re

from corrections.workflow import accept, propose, revert
from reader.citation import section_label, section_names, section_title
from reader.importers.loader import import_file
from reader.models import Piece, Section

from .conftest import SHARED, index_all
from .test_corrections import account, people  # noqa: F401 - people: a fixture

XUNZI = SHARED / "corpus" / "kanripo-commentary" / "KR3a0002" / "KR3a0002_001.txt"
#: 荀子 卷第一 §2's first line, untitled: named by its opening words until a correction makes it a heading.
LINE = "古之學者爲已今之學者爲人君子之學也以美其身小人之學也以爲禽犢"
OPENING = "古之學者爲已今之…"
CITED = "〔周〕荀況\u3000〔唐〕楊倞注《荀子》卷第一〈勸學篇第一〉「{}」（四部叢刊本，葉 1-6b）"


def names(client, work_id) -> tuple:
    """How §2 is named: the section page's <title>, <h1> and 引用; the juan page's table of contents and
    §2's 引用; the API section's and juan's title, name and citation; a search hit in §2 on the hit list
    and in the API; the library's own section_title, section_label and section_names."""
    page = client.get("/works/KR3a0002/juan/1/2/").content.decode()
    juan = client.get("/works/KR3a0002/juan/1/").content.decode()
    api = client.get(f"/api/works/{work_id}/juans/1/sections/2/").json()
    in_juan = client.get(f"/api/works/{work_id}/juans/1/").json()["chapters"][0]["sections"][1]
    hits = client.get("/search/", {"q": "故不問而告"}).content.decode()
    api_hit = client.get("/api/search/", {"q": "故不問而告"}).json()["results"][0]["section"]
    rows = list(csv.DictReader(io.StringIO(b"".join(client.get("/api/search/export/csv/", {"q": "故不問而告"})
                                                    .streaming_content).decode("utf-8-sig"))))
    section = Section.objects.select_related("juan__edition", "juan__work").get(juan__work_id=work_id, position=2)
    return (re.search(r"<title>[^<]*</title>", page)[0], re.search(r'<h1 class="section-page-title">.*?</h1>', page)[0],
            re.findall(r"[^>]*「[^」]*」（四部叢刊本，葉 1-6b）", page), re.findall(r'<li><a href="#s2">[^<]*</a>', juan),
            re.findall(r"[^>]*「[^」]*」（四部叢刊本，葉 1-6b）", juan),
            (api["title"], api["name"], api["citation"]), (in_juan["title"], in_juan["name"]),
            re.findall(r'<a class="where"[^>]*>[^<]*</a>', hits), api_hit, [(r["section"], r["section_title"]) for r in rows],
            section_title(section), section_label(section), section_names({("KR3a0002", 1, 2)}))


def expected(title: str, name: str) -> tuple:
    """``names`` when §2 is titled ``title`` ("" for none) and named ``name``."""
    hit = ('<a class="where" href="/works/KR3a0002/juan/1/2/?hl=%E6%95%85%E4%B8%8D%E5%95%8F%E8%80%8C%E5%91%8A#s2-p4">'
           f"荀子 卷第一〈勸學篇第一〉 §2「{name}」</a>")
    return (f"<title>{name} · 荀子（四部叢刊本）卷第一 · 經注閱讀</title>",
            f'<h1 class="section-page-title">{name} <small>荀子（四部叢刊本）卷第一 §2</small></h1>',
            [CITED.format(name)], [f'<li><a href="#s2">{name}</a>'], [CITED.format(name)],
            (title, name, CITED.format(name) + " http://testserver/works/KR3a0002/juan/1/2/"), (title, name),
            [hit], {"position": 2, "title": title, "name": name}, [("2", name)],
            title, f"§2「{name}」", {("KR3a0002", 1, 2): name})


def section_two(juan) -> list[tuple[str, str, str]]:
    """``(kind, layer, text)`` of the stored pieces of ``juan``'s §2, in order."""
    return list(Piece.objects.filter(section__juan=juan, section__position=2).order_by("position")
                .values_list("kind", "layer", "text"))


def imported(path, backend):
    """The juan of ``path`` imported and indexed in ``backend``, and its §2's stored pieces (``section_two``)."""
    juan = import_file(path).juan
    index_all(backend)
    return juan, section_two(juan)


def test_a_line_made_a_heading_titles_its_section_everywhere_and_reverting_restores_it(
        client, empty_db, search_backend, people, django_capture_on_commit_callbacks):
    juan, stored = imported(XUNZI, search_backend)
    assert stored[0] == ("text", "classic", LINE)
    assert names(client, juan.work_id) == expected("", OPENING)
    p = propose(people["contributor"], juan, kind="structure", section=2, piece=0, start=0, end=1, structure="heading",
                reason="此行是篇中小題")
    with django_capture_on_commit_callbacks(execute=True):  # the page cache's stamp moves
        accept(p, people["editor"])
    # the juan as accepting reindexes it once its transaction commits (the import's reindex, which the test's
    # transaction never commits, would take it in): a hit's section.title is the corrected title
    index_all(search_backend)
    assert names(client, juan.work_id) == expected(LINE, LINE)
    # the line is shown as the heading it is, its 「校」 after it; the stored pieces are as imported
    page = client.get("/works/KR3a0002/juan/1/2/?layout=horizontal").content.decode()
    assert f'<span class="label corrected-heading" id="s2-p0">{LINE}</span><a class="corr-mark" href="/corrections/{p.pk}/"' \
        in page
    assert section_two(juan) == stored
    with django_capture_on_commit_callbacks(execute=True):
        revert(p, people["editor2"], reason="此行是正文")
    index_all(search_backend)
    assert names(client, juan.work_id) == expected("", OPENING)


def test_the_section_json_gives_each_corrected_piece_its_corrections(client, seed_juan, people):
    """/api/works/<id>/juans/<n>/sections/<m>/ gives a piece an accepted correction changed its
    ``corrections`` (id, kind, where in the piece's text, the value as imported and the corrected
    one, the history page), as the reading page marks it with 「校」; the other pieces have no such key."""
    editor = people["editor"]
    text = propose(people["contributor"], seed_juan, kind="text", section=1, piece=4, start=2, end=4,
                   replacement="百僚", reason="他本作百僚")
    layer = propose(people["contributor"], seed_juan, kind="layer", section=1, piece=4, start=0, end=9,
                    new_layer="commentary", reason="注文")
    structure = propose(people["contributor"], seed_juan, kind="structure", section=1, piece=6, start=0, end=1,
                        structure="heading", reason="標題")
    part = propose(people["contributor"], seed_juan, kind="layer", section=1, piece=8, start=0, end=4,
                   new_layer="commentary", reason="前四字為注")
    for p in (text, layer, structure, part):
        accept(p, editor)
    api = client.get(f"/api/works/{seed_juan.work_id}/juans/10/sections/1/").json()
    pieces = {p["position"]: p for p in api["pieces"]}
    history = "http://testserver/corrections/{}/"
    assert pieces[4] == {
        "position": 4, "paragraph": pieces[4]["paragraph"], "kind": "text", "layer": "commentary", "layer_name": "注",
        "commentator": "", "layer_basis": pieces[4]["layer_basis"], "text": "宰戒百僚有事於射者", "source_tag": "",
        "source": "", "pages": [], "corrections": [
            {"id": layer.pk, "kind": "layer", "start": 0, "end": 9, "imported": "classic", "corrected": "commentary",
             "url": history.format(layer.pk)},
            {"id": text.pk, "kind": "text", "start": 2, "end": 4, "imported": "百官", "corrected": "百僚",
             "url": history.format(text.pk)}]}
    assert pieces[6] == {
        "position": 6, "paragraph": pieces[6]["paragraph"], "kind": "label", "layer": "classic", "layer_name": "",
        "commentator": "", "layer_basis": pieces[6]["layer_basis"],
        "text": "射人戒諸公卿大夫射司士戒士射與贊者", "source_tag": "", "source": "", "pages": [], "corrections": [
            {"id": structure.pk, "kind": "structure", "start": 0, "end": 17, "imported": "", "corrected": "heading",
             "url": history.format(structure.pk)}]}
    # a layer correction of part of a piece: the part it is of carries it
    assert [(p["text"], p["layer"], p.get("piece_offset"), p.get("corrections")) for p in api["pieces"]
            if p["position"] == 8] == [
        ("前射三日", "commentary", 0, [{"id": part.pk, "kind": "layer", "start": 0, "end": 4, "imported": "classic",
                                         "corrected": "commentary", "url": history.format(part.pk)}]),
        ("宰夫戒宰及司馬射人宿視滌", "classic", 4, None)]
    assert [p["position"] for p in api["pieces"] if "corrections" in p] == [4, 6, 8]
