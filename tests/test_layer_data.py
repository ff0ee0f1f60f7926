"""Commentary layers as data (issue 12): stored per piece, read back, filled in by the migration."""
import ast
import importlib
import re

import pytest
from django.core.management import CommandError, call_command

from django.apps import apps

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, SUBCOMMENTARY
from reader.importers.loader import juan_to_document, load_document, render_source
from reader.models import Piece

from .conftest import BASE_DIR, SEED, index_all
from .layered import zhushu_document


def test_loader_stores_layers_and_reads_them_back(empty_db):
    doc = zhushu_document()
    juan = load_document(doc, index=False).juan
    rows = list(Piece.objects.filter(section__juan=juan, section__position=1).order_by("position")
                .values_list("kind", "text", "layer", "layer_name"))
    assert rows == [
        ("text", "惟王建國", "classic", ""), ("label", "注", "commentary", "注"),
        ("note", "建立也王建國", "commentary", "鄭注"), ("label", "音義", "readings", "音義"),
        ("note", "惟音維王建國", "readings", "音義"), ("text", "辨方正位", "classic", ""),
        ("label", "疏", "subcommentary", "疏"), ("note", "釋曰惟王建國者王建國", "subcommentary", "疏"),
    ]
    back = juan_to_document(juan)
    assert [(p.kind, p.text, p.effective_layer, p.layer_name) for p in back.all_pieces()] == \
        [(p.kind, p.text, p.effective_layer, p.layer_name) for p in doc.all_pieces()]
    assert render_source(juan) == doc.render() == (
        "周禮注疏（測試）卷一\n天官冢宰\n惟王建國注【建立也王建國】音義【惟音維王建國】辨方正位疏【釋曰惟王建國者王建國】\n"
        "右惟王建國\n體國經野設官分職注【體猶分也經謂為之里數】以為民極【按此王建國之大略】\n右設官分職 記王建國【記注王 記】\n")


def test_seed_pieces_have_their_default_layers(seed_juan):
    counts = {}
    for kind, layer in Piece.objects.filter(section__juan=seed_juan).values_list("kind", "layer"):
        counts[(kind, layer)] = counts.get((kind, layer), 0) + 1
    assert counts == {("label", CLASSIC): 1, ("note", COMMENTARY): 322, ("record", CLASSIC): 6,
                      ("record_note", COMMENTARY): 6, ("text", CLASSIC): 336}
    assert render_source(seed_juan) == SEED.read_text(encoding="utf-8")


def test_migration_gives_existing_rows_their_default_layer(seed_juan):
    Piece.objects.filter(section__juan=seed_juan).update(layer="")
    migration = importlib.import_module("reader.migrations.0006_piece_layer")
    migration.fill_layers(apps, None)
    layers = dict(Piece.objects.filter(section__juan=seed_juan).values_list("kind", "layer").distinct())
    assert layers == {"label": CLASSIC, "note": COMMENTARY, "record": CLASSIC, "record_note": COMMENTARY,
                      "text": CLASSIC}


def test_a_piece_saved_without_a_layer_gets_the_default_of_its_kind(seed_juan):
    section = seed_juan.sections.get(position=1)
    note = Piece.objects.create(section=section, position=999, paragraph=0, kind=NOTE, text="新注")
    assert (note.layer, note.layer_label, note.is_marker) == (COMMENTARY, "注", False)
    marker = Piece(kind=LABEL, text="疏", layer=SUBCOMMENTARY)
    assert (marker.is_marker, marker.layer_label) == (True, "疏")


def test_models_do_not_import_the_loader_or_search():
    """Every import in reader/models.py, at the top or inside a function (as render_source once did)."""
    tree = ast.parse((BASE_DIR / "reader" / "models.py").read_text(encoding="utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules.update(a.name for a in node.names)
    assert {m for m in modules if m.split(".")[0] != "django"} == {"__future__", "reader.importers.document", "re"}


# -- search by layer: page, API, command -------------------------------------------------------------


@pytest.fixture
def zhushu(seed_juan, search_backend):
    """The seed and the small 注疏 juan, indexed in an index of this test's own."""
    juan = load_document(zhushu_document(), index=False).juan
    index_all(search_backend)
    return juan


def _api(client, **params):
    response = client.get("/api/search/", params)
    assert response.status_code == 200, response.content
    return response.json()


def test_api_layer_accepts_several_layers(client, zhushu):
    wanted = [("commentary", "鄭注", "建立也", ""), ("readings", "音義", "惟音維", ""),
              ("subcommentary", "疏", "釋曰惟", "者王建國"), ("subcommentary", "疏", "釋曰惟王建國者", "")]
    for params in ({"layer": "commentary,subcommentary,readings"},
                   {"layer": ["commentary", "subcommentary", "readings"]},
                   {"layer": ["commentary", "subcommentary，readings"]}):
        data = _api(client, q="王建國", work=zhushu.work_id, **params)
        assert [(h["layer"], h["layer_name"], h["before"], h["after"]) for h in data["results"]] == wanted, params
    data = _api(client, q="王建國", work=zhushu.work_id, layer="classic")
    assert [(h["layer"], h["layer_name"], h["match"]) for h in data["results"]] == [("classic", "經文", "王建國")]
    data = _api(client, q="王建國", work=zhushu.work_id, layer="editorial,records")
    assert [(h["layer"], h["layer_name"], h["before"]) for h in data["results"]] == [
        ("editorial", "按", "按此"), ("record", "記", "記")]
    # the seed names no layer: its notes are 注 by default, as before
    data = _api(client, q="戒射宰戒", layer="text")
    assert [(h["layer"], h["layer_name"]) for h in data["results"]] == [("classic", "經文")]
    assert _api(client, q="正鵠", layer="notes")["results"][0]["layer_name"] == "注"


def test_api_unknown_layer_is_400(client, zhushu):
    response = client.get("/api/search/", {"q": "王", "layer": "commentary,sub"})
    assert response.status_code == 400
    assert response.json() == {"layer": [
        "未知的範圍「sub」(unknown layer 'sub'; choose from all, classic, commentary, readings, subcommentary, "
        "editorial, smallprint, notes, records, titles)"]}


def test_search_page_offers_layers_and_names_them(client, zhushu):
    page = client.get("/search/", {"q": "王建國", "work": zhushu.work_id, "layer": ["readings", "subcommentary"]})
    html = page.content.decode()
    assert re.findall(r'<input type="checkbox" name="layer" value="(\w+)"( checked)?>', html) == [
        ("classic", ""), ("commentary", ""), ("readings", " checked"), ("subcommentary", " checked"),
        ("editorial", ""), ("smallprint", ""), ("records", ""), ("titles", "")]
    assert re.findall(r'<span class="layer layer-(\w+)">([^<]+)</span>', html) == [
        ("readings", "音義"), ("subcommentary", "疏"), ("subcommentary", "疏")]
    assert '<p class="summary"><strong>3</strong> 處' in html


def test_search_command_takes_several_layers(zhushu, capsys):
    call_command("search", "王建國", "--layer", "commentary,readings", "--layer", "editorial", "--context", "3",
                 "--work", str(zhushu.work_id))
    assert capsys.readouterr().out.splitlines() == [
        "周禮注疏（測試） 卷一 1「惟王建國」\t鄭注\t建立也[王建國]",
        "周禮注疏（測試） 卷一 1「惟王建國」\t音義\t惟音維[王建國]",
        "周禮注疏（測試） 卷一 2「設官分職」\t按\t 按此[王建國]之大略",
        "3 hits in 3 passages",
    ]
    with pytest.raises(CommandError, match="unknown layer 'glosses'"):
        call_command("search", "王", "--layer", "glosses")
