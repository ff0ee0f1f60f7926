"""Commentary layers as data (issue 12): stored per piece, read back, filled in by the migration."""
import ast
import importlib
import re

import pytest
from django.core.management import CommandError, call_command

from django.apps import apps

from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, READINGS, SUBCOMMENTARY, TEXT, PieceDoc
from reader.pieces import EDITORIAL, PARATEXT
from reader.importers.loader import juan_to_document, load_document, render_source
from reader.models import Piece
from reader.display import Display, display_controls, fit_to_layers, nearest_layer_choice
from reader.reading import glosses as make_glosses

from .conftest import BASE_DIR, SEED, index_all, index_folder, kept_for_the_class
from .layered import zhushu_document
from .test_reading_modes import section_html, text_of


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
    # the models stand on the bottom layers only: Django, the standard library, character and
    # catalogue knowledge, and reader's own vocabulary, slug rule, rule for writing a work's
    # people (reader.people, which stands on the catalogue alone) and rules for naming and
    # choosing editions (reader.editions, pure: no import of its own), the numerals of juan
    # labels (reader.numerals, pure) and the juan labels' reading (reader.juan_labels, which stands
    # on the numerals alone), and the 屬 a work is shelved under (reader.shelving, which stands on
    # the catalogue and the folding table alone); never the loader or search
    allowed = {"__future__", "re", "reader.pieces", "reader.slugs", "reader.people", "reader.editions",
               "reader.numerals", "reader.juan_labels", "reader.shelving"}
    outside = {m for m in modules if m.split(".")[0] not in ("django", "characters", "catalogue")} - allowed
    assert outside == set()
    assert not {m for m in modules if m.startswith(("reader.importers", "search", "collation", "api", "pages"))}


# -- search by layer: page, API, command -------------------------------------------------------------


@pytest.fixture(scope="class")
def _zhushu_juan(_seeded, django_db_blocker, tmp_path_factory):
    """The small 注疏 juan stored beside the session's seed, and a Whoosh index of both, built once
    for the tests of a class (``kept_for_the_class``): the juan's id and the index's
    ``SEARCH_BACKENDS`` entry."""
    from django.test import override_settings

    from search.backends import get_search_backend

    params = index_folder(tmp_path_factory.mktemp("zhushu"))

    def build():
        juan = load_document(zhushu_document(), index=False).juan
        with override_settings(SEARCH_BACKENDS={"default": params}):
            index_all(get_search_backend())
        return juan.pk, params

    yield from kept_for_the_class(django_db_blocker, build)


@pytest.fixture
def zhushu(_zhushu_juan, seed_juan, settings):
    """The small 注疏 juan, with the seed, in the default index (the class's)."""
    from reader.models import Juan

    juan_id, params = _zhushu_juan
    settings.SEARCH_BACKENDS = {"default": params}
    return Juan.objects.select_related("work", "edition").get(pk=juan_id)


def _api(client, **params):
    response = client.get("/api/search/", params)
    assert response.status_code == 200, response.content
    return response.json()


# -- reading by layer -------------------------------------------------------------------------------

ZHUSHU_URL = "/works/周禮注疏-測試/juan/1/"  # the slug rule makes （） a -


def _sections(client, **params):
    response = client.get(ZHUSHU_URL, params)
    assert response.status_code == 200
    body = response.content.decode()
    return body, [section_html(body, n) for n in (1, 2)]


def _passages(section: str) -> str:
    return " | ".join(text_of(p) for p in re.findall(r'<p class="passage">(.*?)</p>', section, re.S))


def _glosses(section: str) -> list[tuple[str, str]]:
    return [(text_of(dt), text_of(dd)) for dt, dd in
            re.findall(r'<dt class="lemma">(.*?)</dt><dd>(.*?)</dd>', section, re.S)]


def _layer_choices(body: str) -> list[str]:
    return re.findall(r'data-setting="layers" data-value="([\w-]+)"', body)


class TestOnTheZhushuJuan:
    """Search and reading by layer on the small 注疏 juan (``zhushu``, stored and indexed once for the
    class)."""

    def test_api_layer_accepts_several_layers(self, client, zhushu):
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

    def test_api_unknown_layer_is_400(self, client, zhushu):
        response = client.get("/api/search/", {"q": "王", "layer": "commentary,sub"})
        assert response.status_code == 400
        assert response.json() == {"layer": [
            "未知的範圍「sub」；可選：經文（經）、注、音義、疏、按語、小字、序跋、各層注釋、記、標題、讀者注記，或書中所題的層名（如 "
            "章句、補注） (unknown layer 'sub'; choose from all, classic, commentary, readings, subcommentary, editorial, "
            "smallprint, paratext, notes, records, titles, annotation, or by the names the pages show: those above "
            "and a book's own names of its layers, a hit's layer_name)"]}
        # a book's own name for a layer keeps what the book names so (decision 0109): 鄭注, not the 疏 or 音義
        named = client.get("/api/search/", {"q": "王", "layer": "鄭注", "page_size": 200}).json()
        assert (named["count"], sorted({h["layer_name"] for h in named["results"]})) == (1, ["鄭注"])
        assert _api(client, q="王", layer="commentary")["count"] == 4

    def test_api_layer_takes_the_names_the_pages_show(self, client, zhushu):
        """``layer=注`` is ``layer=commentary``: each layer choice by its Chinese name as the search
        page's boxes and the hit lists name it, 經 beside 經文, in simplified characters too; the
        answer is the English name's, whole."""
        def same(chinese, english):
            got, wanted = (_api(client, q="王建國", work=zhushu.work_id, layer=x) for x in (chinese, english))
            # a search the layer emptied names the layer as it was asked for (小字 or smallprint)
            assert {k: v for k, v in got.items() if k != "unfiltered"} == \
                {k: v for k, v in wanted.items() if k != "unfiltered"}, (chinese, english)
            assert ("unfiltered" in got) == ("unfiltered" in wanted) == (got["count"] == 0)
            return got
        data = same("注,音義,疏", "commentary,readings,subcommentary")
        assert [(h["layer"], h["layer_name"], h["before"], h["after"]) for h in data["results"]] == [
            ("commentary", "鄭注", "建立也", ""), ("readings", "音義", "惟音維", ""),
            ("subcommentary", "疏", "釋曰惟", "者王建國"), ("subcommentary", "疏", "釋曰惟王建國者", "")]
        assert data["count"] == 4 and data["passages"] == 3
        for chinese, english in (("經", "classic"), ("經文", "classic"), ("经文", "classic"), ("音义", "readings"),
                                 ("按語", "editorial"), ("按语", "editorial"), ("記", "records"), ("标题", "titles"),
                                 ("各層注釋", "notes"), ("各层注释", "notes"), ("小字", "smallprint"),
                                 ("序跋", "paratext"), ("讀者注記", "annotation")):
            same(chinese, english)
        assert [(h["layer"], h["match"]) for h in same("經", "classic")["results"]] == [("classic", "王建國")]
        assert [(h["layer"], h["layer_name"], h["before"]) for h in same("按語，記", "editorial,records")["results"]] == [
            ("editorial", "按", "按此"), ("record", "記", "記")]
        # the search page ticks the boxes of the layers named so, and its chip names them
        page = client.get("/search/", {"q": "王建國", "work": zhushu.work_id, "layer": "音義，疏"}).content.decode()
        assert re.findall(r'<input type="checkbox" name="layer" value="(\w+)" checked>', page) == [
            "readings", "subcommentary"]
        assert '<p class="summary"><strong>3</strong> 處' in page

    def test_search_page_offers_layers_and_names_them(self, client, zhushu):
        page = client.get("/search/", {"q": "王建國", "work": zhushu.work_id, "layer": ["readings", "subcommentary"]})
        html = page.content.decode()
        assert re.findall(r'<input type="checkbox" name="layer" value="(\w+)"( checked)?>', html) == [
            ("classic", ""), ("commentary", ""), ("readings", " checked"), ("subcommentary", " checked"),
            ("editorial", ""), ("smallprint", ""), ("paratext", ""), ("records", ""), ("titles", ""), ("annotation", "")]
        assert re.findall(r'<span class="layer layer-(\w+)">([^<]+)</span>', html) == [
            ("readings", "音義"), ("subcommentary", "疏"), ("subcommentary", "疏")]
        assert '<p class="summary"><strong>3</strong> 處' in html

    def test_search_command_takes_several_layers(self, zhushu, capsys):
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

    @pytest.mark.parametrize("layers,first,second", [
        ("all", "惟王建國注建立也王建國音義惟音維王建國辨方正位疏釋曰惟王建國者王建國",
         "體國經野設官分職注體猶分也經謂為之里數以為民極按按此王建國之大略"),
        ("classic", "惟王建國辨方正位", "體國經野設官分職以為民極"),
        ("commentary", "惟王建國注建立也王建國辨方正位", "體國經野設官分職注體猶分也經謂為之里數以為民極"),
        ("subcommentary", "惟王建國注建立也王建國音義惟音維王建國辨方正位疏釋曰惟王建國者王建國",
         "體國經野設官分職注體猶分也經謂為之里數以為民極"),
    ])
    def test_each_layer_choice_shows_its_layers(self, client, zhushu, layers, first, second):
        for layout in ("horizontal", "vertical"):
            body, (s1, s2) = _sections(client, layers=layers, layout=layout)
            assert f'class="reading-main notes-inline layers-{layers} layout-{layout} script-orig"' in body
            assert (_passages(s1), _passages(s2)) == (first, second), layout
        # every layer keeps its class and its name, the marker word is the layer's label
        _, (s1, _) = _sections(client, layers=layers, layout="horizontal")
        if layers == "all":
            assert ('<span class="layer-label layer-subcommentary" data-layer="疏" id="s1-p6">疏</span>'
                    '<span class="note layer-subcommentary" data-layer="疏" id="s1-p7" role="note">'
                    '<span class="visually-hidden">疏：</span>釋曰惟王建國者王建國</span>') in s1

    @pytest.mark.parametrize("layers,first,second", [
        # each note opens with its label, its layer's name and writer (鄭注; the record's note, signed
        # by nobody, 注)
        ("only-commentary", [("惟王建國", "鄭注建立也王建國")], [("體國經野設官分職", "鄭注體猶分也經謂為之里數"),
                                                            ("記王建國", "注記注王記")]),  # the record's note too
        ("only-readings", [("惟王建國", "音義惟音維王建國")], []),
        ("only-subcommentary", [("惟王建國辨方正位", "疏釋曰惟王建國者王建國")], []),
    ])
    def test_one_layer_alone_with_the_words_it_explains(self, client, zhushu, layers, first, second):
        for layout in ("horizontal", "vertical"):
            body, (s1, s2) = _sections(client, layers=layers, layout=layout)
            assert f'class="reading-main notes-only layers-{layers} layout-{layout} script-orig"' in body
            assert (_glosses(s1), _glosses(s2)) == (first, second)

    def test_a_highlight_in_a_hidden_layer_opens_that_note(self, client, zhushu):
        _, (s1, _) = _sections(client, layers="classic", hl="釋曰")
        assert _passages(s1) == "惟王建國辨方正位3釋曰惟王建國者王建國"
        assert '<span class="note-ref has-mark"><input type="checkbox" class="note-toggle" id="t-s1-p7" checked>' in s1

    def test_layer_choice_is_a_plain_link_kept_in_the_cookie(self, client, zhushu):
        response = client.get(ZHUSHU_URL, {"layers": "commentary", "notes": "hidden"})
        assert response.cookies["display"].value == "notes:hidden|layers:commentary|layout:horizontal|script:orig|size:m"
        body = response.content.decode()
        # from 白文, choosing a layer shows it (the link also sets the commentary back inline)
        assert re.findall(r'<a href="([^"]+)" rel="nofollow" title="[^"]+" data-setting="layers" data-value="only-readings"',
                          body) == ["/works/%E5%91%A8%E7%A6%AE%E6%B3%A8%E7%96%8F-%E6%B8%AC%E8%A9%A6/juan/1/"
                                    "?notes=inline&amp;layers=only-readings"]
        client.cookies["display"] = "layers:only-subcommentary"
        _, (s1, _) = _sections(client)
        assert _glosses(s1) == [("惟王建國辨方正位", "疏釋曰惟王建國者王建國")]

    def test_a_url_asking_for_notes_only_lists_every_layer_whatever_the_cookie_remembers(self, client, zhushu):
        client.get(ZHUSHU_URL, {"layers": "only-readings"})  # 音義附經, remembered in the cookie
        assert client.cookies["display"].value == "notes:inline|layers:only-readings|layout:horizontal|script:orig|size:m"
        _, (s1, _) = _sections(client)
        assert _glosses(s1) == [("惟王建國", "音義惟音維王建國")]  # a URL without settings: the cookie's
        body, (s1, s2) = _sections(client, notes="only")  # 只看注: 鄭注 and 疏 as well as 音義
        assert 'class="reading-main notes-only layers-all layout-horizontal script-orig"' in body
        assert (_glosses(s1), _glosses(s2)) == (
            [("惟王建國", "鄭注建立也王建國"), ("（承上）", "音義惟音維王建國"), ("辨方正位", "疏釋曰惟王建國者王建國")],
            [("體國經野設官分職", "鄭注體猶分也經謂為之里數"), ("以為民極", "按按此王建國之大略"), ("記王建國", "注記注王記")])
        _, (s1, _) = _sections(client, notes="only", layers="only-readings")  # the URL narrows it itself
        assert _glosses(s1) == [("惟王建國", "音義惟音維王建國")]

    def test_api_gives_each_piece_its_layer(self, client, zhushu):
        data = client.get(f"/api/works/{zhushu.work_id}/juans/1/").json()
        pieces = data["chapters"][0]["sections"][0]["pieces"]
        assert [(p["kind"], p["layer"], p["layer_name"], p["text"]) for p in pieces] == [
            ("text", "classic", "", "惟王建國"), ("label", "commentary", "注", "注"),
            ("note", "commentary", "鄭注", "建立也王建國"), ("label", "readings", "音義", "音義"),
            ("note", "readings", "音義", "惟音維王建國"), ("text", "classic", "", "辨方正位"),
            ("label", "subcommentary", "疏", "疏"), ("note", "subcommentary", "疏", "釋曰惟王建國者王建國"),
        ]

    def test_layer_choices_offered_are_those_the_text_has(self, client, zhushu):
        # the 注疏 juan holds every layer: every choice
        body, _ = _sections(client)
        assert _layer_choices(body) == ["all", "commentary", "subcommentary", "only-commentary",
                                        "only-readings", "only-subcommentary"]  # 經 is 白文 of the notes group
        # the seed has one layer of notes: 經注 and 注疏 would show what 全 shows, 音義/疏 are absent,
        # and 注附經 lists what 只看注 lists; the group names that layer and shows or hides it
        # (it was left out, a group of one choice)
        seed = client.get("/works/禮書綱目/juan/10/").content.decode()
        assert _layer_choices(seed) == ["all", "classic"] and '>只看注</a>' in seed
        group = seed.split('aria-labelledby="ctl-layers">')[1].split("</div>")[0]
        assert group == ('<span class="control-label" id="ctl-layers">層次</span>'
                         '<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/?layers=all" rel="nofollow" '
                         'title="經文與注（本卷只有此一層）" data-setting="layers" data-value="all" class="current" '
                         'aria-current="true">經注</a>'
                         '<a href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/?layers=classic" rel="nofollow" '
                         'title="只看經文，隱去注" data-setting="layers" data-value="classic">經</a>')
        # 經 shows the classic alone, marked in both groups; 經注 shows the notes again
        alone = client.get("/works/禮書綱目/juan/10/", {"layers": "classic"}).content.decode()
        assert 'data-setting="layers" data-value="classic" class="current" aria-current="true">經</a>' in alone
        assert 'data-setting="notes" data-value="hidden" class="current" aria-current="true">白文</a>' in alone
        assert not re.search(r'class="note[" ]', alone.split('class="reading-main')[1])
        assert re.search(r'class="note[" ]', seed.split('class="reading-main')[1])
        hidden = client.get("/works/禮書綱目/juan/10/", {"notes": "hidden"}).content.decode()
        assert re.findall(r'data-setting="layers" data-value="(\w+)" class="current"', hidden) == ["classic"]
        assert ('href="/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juan/10/?notes=inline&amp;layers=all" rel="nofollow" '
                'title="經文與注（本卷只有此一層）" data-setting="layers" data-value="all">經注</a>') in hidden
        # a choice set by URL or cookie is still shown, as the current one
        seed = client.get("/works/禮書綱目/juan/10/", {"layers": "only-subcommentary"}).content.decode()
        assert _layer_choices(seed) == ["all", "only-subcommentary"]
        assert 'data-value="only-subcommentary" class="current" aria-current="true"' in seed

    def test_a_one_layer_choice_shows_only_as_the_notes_choice(self, client, zhushu):
        """注附經 lists the notes as 只看注 does, whatever ``notes`` the cookie holds: after
        旁注, 只看注 is the notes choice marked current (旁注 was), and 旁注 leads back to every layer."""
        url = f"/works/{zhushu.edition.slug}/juan/1/"
        client.get(url, {"notes": "beside"})
        body = client.get(url, {"layers": "only-commentary"}).content.decode()
        current = re.findall(r'data-setting="(\w+)" data-value="([\w-]+)" class="current"', body)
        assert ("notes", "only") in current and ("notes", "beside") not in current
        assert ("layers", "only-commentary") in current
        beside = re.search(r'href="([^"]+)" rel="nofollow" title="[^"]*" data-setting="notes" data-value="beside"', body)
        assert "layers=all" in beside.group(1) and "notes=beside" in beside.group(1)

    def test_a_remembered_layer_choice_the_juan_cannot_show_falls_back_to_the_nearest(self, client, zhushu):
        # 疏附經 chosen on the 注疏 juan is remembered in the cookie …
        client.get(f"/works/{zhushu.edition.slug}/juan/1/", {"layers": "only-subcommentary"})
        assert "layers:only-subcommentary" in client.cookies["display"].value
        # … and the seed (no 疏) reads as the nearest page it offers, its notes listed each with
        # the classic (只看注, marked current): no 「（本節無疏）」, no 疏附經 button
        seed = client.get("/works/禮書綱目/juan/10/").content.decode()
        assert "（本節無疏）" not in seed and 'class="note' in seed
        assert _layer_choices(seed) == ["all", "classic"]
        assert re.findall(r'data-setting="notes" data-value="(\w+)" class="current"', seed) == ["only"]
        assert 'class="reading-main notes-only layers-all layout-horizontal script-orig"' in seed
        # the choice stays remembered for the 注疏 juan, which can show it
        back = client.get(f"/works/{zhushu.edition.slug}/juan/1/").content.decode()
        assert 'data-value="only-subcommentary" class="current" aria-current="true"' in back
        # a choice the seed holds is kept from the cookie: the classic alone, offered as 白文
        client.get("/works/禮書綱目/juan/10/", {"layers": "classic"})
        seed = client.get("/works/禮書綱目/juan/10/").content.decode()
        assert 'data-setting="notes" data-value="hidden" class="current" aria-current="true">白文</a>' in seed
        assert seed.count('class="current"') == 6  # 校正本, 白文, 經, 橫排, 原字, 中
        assert 'data-setting="layers" data-value="classic" class="current" aria-current="true">經</a>' in seed


def test_a_layer_choice_a_text_does_not_offer_is_read_as_the_nearest_it_offers():
    only_notes, with_readings = frozenset({CLASSIC, COMMENTARY}), frozenset({CLASSIC, COMMENTARY, READINGS})
    with_sub = frozenset({CLASSIC, SUBCOMMENTARY})
    # a one-layer list (疏附經, 音義附經) where that layer is missing: 只看注, every note listed with its classic
    assert nearest_layer_choice("only-subcommentary", only_notes) == ("all", "only")
    assert nearest_layer_choice("only-readings", frozenset({CLASSIC, COMMENTARY, SUBCOMMENTARY})) == ("all", "only")
    # 注疏 on a book with 注 and 音義 shows what 全 shows; 經注 on a book of 疏 alone shows the classic (白文)
    assert nearest_layer_choice("subcommentary", with_readings) == ("all", None)
    assert nearest_layer_choice("commentary", with_sub) == ("classic", None)
    remembered = Display(notes="beside", layers="only-subcommentary")
    assert fit_to_layers(remembered, {}, only_notes) == Display(notes="only", layers="all")
    assert fit_to_layers(Display(notes="hidden", layers="only-readings"), {}, only_notes) == Display(notes="hidden")
    assert fit_to_layers(remembered, {"layers": "only-subcommentary"}, only_notes) == remembered  # asked in the URL
    assert fit_to_layers(remembered, {}, frozenset({CLASSIC, COMMENTARY, SUBCOMMENTARY})) == remembered  # offered


def test_a_text_without_layers_shows_no_layer_group_and_one_of_a_single_layer_names_it(rf):
    request = rf.get("/works/x/juan/1/")
    keys = [g["key"] for g in display_controls(request, Display(), {}, frozenset({CLASSIC}))]
    assert keys == ["notes", "layout", "script", "size"]
    # one layer of notes (注附經 would list what 只看注 lists): the group names it, to show or hide it
    groups = display_controls(request, Display(), {}, frozenset({CLASSIC, COMMENTARY}))
    assert [g["key"] for g in groups] == ["notes", "layers", "layout", "script", "size"]
    assert groups[1] == {"key": "layers", "label": "層次", "options": [
        {"value": "all", "label": "經注", "description": "經文與注（本卷只有此一層）",
         "url": "/works/x/juan/1/?layers=all", "current": True},
        {"value": "classic", "label": "經", "description": "只看經文，隱去注",
         "url": "/works/x/juan/1/?layers=classic", "current": False}]}
    # the page's other settings kept in each link; 白文 is the classic alone, and showing the layer shows the notes
    groups = display_controls(rf.get("/works/x/juan/1/", {"hl": "射"}), Display(notes="hidden", layout="vertical"), {},
                              frozenset({CLASSIC, COMMENTARY}))
    assert [(o["label"], o["url"], o["current"]) for o in groups[1]["options"]] == [
        ("經注", "/works/x/juan/1/?hl=%E5%B0%84&notes=inline&layout=vertical&layers=all", False),
        ("經", "/works/x/juan/1/?hl=%E5%B0%84&notes=hidden&layout=vertical&layers=classic", True)]
    # 按語 alone, named so
    groups = display_controls(request, Display(), {}, frozenset({CLASSIC, EDITORIAL}))
    assert [(o["label"], o["description"]) for o in groups[1]["options"]] == [
        ("經按語", "經文與按語（本卷只有此一層）"), ("經", "只看經文，隱去按語")]
    # 疏 alone has a second choice of its own (疏附經): the choices as before
    groups = display_controls(request, Display(), {}, frozenset({CLASSIC, SUBCOMMENTARY}))
    assert [o["label"] for o in groups[1]["options"]] == ["全", "疏附經"]
    # no classic beside it (a juan of 序跋 alone): nothing to show it with, no group
    keys = [g["key"] for g in display_controls(request, Display(), {}, frozenset({PARATEXT}))]
    assert keys == ["notes", "layout", "script", "size"]
    keys = [g["key"] for g in display_controls(request, Display(), {}, frozenset({CLASSIC, COMMENTARY, READINGS}))]
    assert keys == ["notes", "layers", "layout", "script", "size"]


def test_a_note_with_nothing_before_it_is_not_said_to_continue(client, seed_juan, search_backend):
    # 音義 on the section's title: the section opens with the note, no main text before it (in
    # the chapter's first section such a note is the heading's own, shown with the heading)
    doc = zhushu_document()
    doc.chapters[0].sections[1].paragraphs[0][:0] = [PieceDoc(NOTE, "冢宰音腫", layer=READINGS, layer_name="音義")]
    zhushu = load_document(doc, index=False).juan
    body = client.get(f"/works/{zhushu.edition.slug}/juan/1/2/", {"layers": "only-readings"}).content.decode()
    glosses = body.split('<dl class="glosses">')[1].split("</dl>")[0]
    assert glosses.count('<div class="gloss">') == 1
    first_gloss = glosses.split('<div class="gloss">')[1]
    assert "（承上）" not in first_gloss and "冢宰音腫" in first_gloss
    assert '<span class="visually-hidden">無所附經文</span>' in first_gloss
    # a note after main text with no words of its own still continues (承上)
    text, note = Piece(kind=TEXT, text="惟王", layer=CLASSIC), Piece(kind=NOTE, text="音", layer="readings")
    assert [g.follows_text for g in make_glosses([note, text, note, note])] == [True, True, True]
    assert [g.follows_text for g in make_glosses([note, text, note, note], after_text=False)] == [False, True, True]
