"""苖 writes 苗 and 亐 writes 于 in the texts we hold (decision 0090): search folds each pair, the
rare-merge report records 亐's merge into 于 with its source, and the character page calls 苗 the
正字 of 苖 and 于 that of 亐 instead of listing them as forms search keeps apart.

A new user's ``q=帝高陽之苗裔兮`` found 楚辭補注 but missed 六臣註文選, which prints 苖 (卷三十二
line 21, 「帝髙陽之苖裔兮」), while ``/chars/苖/`` listed 苗 as a variant."""
from characters.dictionary import lookup
from characters.folding import fold_char, query_alternatives
from characters.scripts import rare_merges
from reader.importers.loader import import_file

from .conftest import SHARED, index_all

LIUCHEN_LISAO = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_032.txt"
CHUCI_BUZHU = SHARED / "corpus" / "kanripo-commentary" / "KR4a0003" / "KR4a0003_001.txt"
JSON = "application/json"


def test_miao_and_yu_fold_with_their_forms_and_kui_stays_apart():
    assert (fold_char("苖"), fold_char("苗"), fold_char("𡩈")) == ("苗", "苗", "苗")
    assert (fold_char("亐"), fold_char("于"), fold_char("𠂌")) == ("于", "于", "于")
    assert fold_char("虧") == "虧" and fold_char("亏") == "虧" and fold_char("於") == "於"
    assert query_alternatives("苖") == {"苗"} and query_alternatives("亐") == {"于"}


def test_the_rare_merge_report_records_yu_and_its_source():
    r = rare_merges.report()
    assert r.undecided == []
    by_pair = {(d.common, d.rare): d for d in rare_merges.read_decisions()}
    d = by_pair[("于", "亐")]
    assert (d.common_count, d.rare_count, d.sources, d.decision) == (83881, 6, "亐-于:hydzd+policy", "fold")
    assert d.reason.startswith("by hand (fold_exceptions.tsv): 亐 is a form of 于 (漢語大字典 lists it under 于;")
    assert ("虧", "亐") not in by_pair          # no longer in 虧's class at all
    # 苗 1,727 against 苖 690: not a rare merge, decided as two standard characters (Big5 both)
    assert ("苗", "苖") not in by_pair
    freq = rare_merges.read_frequencies()
    assert (freq["苗"], freq["苖"], freq["亐"]) == (1727, 690, 6)


def test_the_character_page_calls_the_common_form_the_standard(client, db):
    di = client.get("/chars/苖/", HTTP_ACCEPT=JSON).json()
    assert (di["standard"], di["variants"], di["searched_together"]) == (["苗"], ["𡩈"], ["苗", "𡩈"])
    assert [r["reading"] for r in di["readings"]] == ["dí", "miáo"]
    miao = client.get("/chars/苗/", HTTP_ACCEPT=JSON).json()
    assert (miao["standard"], miao["searched_together"]) == (["苗"], ["𡩈", "苖"])
    assert miao["variants"] == ["𡩈", "苖", "猫"] and miao["relations"]["苖"] == ["moe>"]
    yu_form = client.get("/chars/亐/", HTTP_ACCEPT=JSON).json()
    assert (yu_form["standard"], yu_form["searched_together"]) == (["于"], ["于", "𠂌"])
    yu = client.get("/chars/于/", HTTP_ACCEPT=JSON).json()
    assert yu["searched_together"] == ["亐"] and yu["variants"] == ["亏", "扵", "丂", "亐"]
    assert lookup("于").related == ["亏", "扵", "丂"]   # 亏 (虧's simplified form) kept apart
    html = client.get("/chars/苖/", {"format": "html"}).content.decode()
    assert '<dt>正字</dt><dd class="char-list"><a href="/chars/%E8%8B%97/">苗</a></dd>' in html
    assert "異體字表所列，檢索時分開" not in html


def test_a_query_for_miao_finds_the_liuchen_wenxuan_that_prints_its_form(seed_juan, search_backend, client):
    import_file(LIUCHEN_LISAO)
    import_file(CHUCI_BUZHU)
    index_all(search_backend)
    for q in ("帝高陽之苗裔兮", "帝高陽之苖裔兮"):
        body = client.get("/api/search/", {"q": q}).json()
        titles = sorted(hit["work"]["title"] for hit in body["results"])
        assert (body["count"], titles) == (2, ["六臣註文選", "楚辭補注"]), q
