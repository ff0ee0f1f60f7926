"""Each edition knows its script (issue 28): detected at import from the characters it uses,
given by ``import_texts --script`` or the admin, shown on the edition page and in the API."""
from django.core.management import call_command

from characters import simplified
from characters.simplified import MIXED, SIMPLIFIED, TRADITIONAL, count_script, detect_script
from reader.importers.loader import import_file
from reader.models import Edition, Juan

from .conftest import SHARED

CORPUS = SHARED / "corpus"
SIMPLIFIED_TEXT = CORPUS / "other" / "yili_shigong_zengzhu_simplified.txt"


def test_the_script_of_the_shared_texts():
    text = SIMPLIFIED_TEXT.read_text(encoding="utf-8")
    count = count_script(text)
    assert (count.simplified, count.traditional) == (2787, 169)
    assert detect_script(count) == SIMPLIFIED
    seed = count_script((CORPUS / "seed" / "lishu_gangmu_juan10.txt").read_text(encoding="utf-8"))
    assert (seed.simplified, seed.traditional) == (96, 3120) and detect_script(seed) == TRADITIONAL
    # a 四部叢刊 print of a Song edition writes 为 国 礼 无 (俗字): still traditional
    song = count_script((CORPUS / "kanripo-jingbu" / "KR1e0003" / "KR1e0003_035.txt").read_text(encoding="utf-8"))
    assert 0.3 < song.simplified_share < simplified.TRADITIONAL_SHARE and detect_script(song) == TRADITIONAL
    # every other juan of the shared Kanripo folders is traditional
    for folder in ("kanripo", "kanripo-commentary"):
        for path in sorted((CORPUS / folder).rglob("*.txt"))[::7]:
            assert detect_script(count_script(path.read_text(encoding="utf-8"))) == TRADITIONAL, path
    # half and half is mixed; a few telling characters are too few to tell
    assert detect_script(simplified.ScriptCount(65, 35)) == MIXED
    assert detect_script(simplified.ScriptCount(5, 0)) == TRADITIONAL


def test_what_a_simplified_form_stands_for():
    assert simplified.readings("后") == {"后", "後"} and simplified.readings("当") == {"當", "噹"}
    assert simplified.readings("则") == {"則"} and simplified.readings("後") == frozenset()
    assert simplified.is_ambiguous("于") and not simplified.is_ambiguous("则")
    key = simplified.reading_key("后")
    assert key is not None and 0x10F000 <= ord(key) < 0x110000 and simplified.reading_of_key(key) == "后"
    assert simplified.reading_keys("後") == {key} and simplified.reading_keys("后") == {key}
    assert simplified.reading_keys("於") == {simplified.reading_key("于")}
    assert simplified.index_translation(TRADITIONAL) == {}
    assert simplified.index_translation(MIXED)[ord("当")] == ord(simplified.reading_key("当"))


def test_an_import_detects_the_script_and_the_option_gives_it(db, client, tmp_path):
    juan = import_file(SIMPLIFIED_TEXT).juan
    edition = Edition.objects.get(pk=juan.edition_id)
    assert (edition.script, edition.script_given) == (SIMPLIFIED, False)
    assert (juan.__class__.objects.get(pk=juan.pk).simplified_forms, Juan.objects.get(pk=juan.pk).traditional_forms) \
        == (2787, 169)
    data = client.get(f"/api/editions/{edition.pk}/").json()
    assert data["script"] == "simplified"
    page = client.get(edition.get_absolute_url()).content.decode()
    assert "字體：簡體 (simplified)（一簡對多繁之字，如「后」「于」「当」，可由其所代之各字檢得） · 據用字判定" in page
    seed = import_file(CORPUS / "seed" / "lishu_gangmu_juan10.txt").juan.edition
    assert (seed.script, seed.script_given) == (TRADITIONAL, False)
    # given: kept, and no longer detected
    call_command("import_texts", str(CORPUS / "seed" / "lishu_gangmu_juan10.txt"), "--script", "mixed", verbosity=0)
    seed.refresh_from_db()
    assert (seed.script, seed.script_given) == (MIXED, True)
    call_command("import_texts", str(CORPUS / "seed" / "lishu_gangmu_juan10.txt"), verbosity=0)
    seed.refresh_from_db()
    assert (seed.script, seed.script_given) == (MIXED, True)
    assert "字體：繁簡混合 (mixed)" in client.get(seed.get_absolute_url()).content.decode()


def test_the_admin_sets_the_script(db, admin_client):
    juan = import_file(CORPUS / "seed" / "lishu_gangmu_juan10.txt").juan
    edition = juan.edition
    version = Juan.objects.get(pk=juan.pk).version
    form = admin_client.get(f"/admin/reader/edition/{edition.pk}/change/").content.decode()
    assert 'name="script"' in form
    response = admin_client.post(f"/admin/reader/edition/{edition.pk}/change/", {
        "work": edition.work_id, "slug": edition.slug, "label": edition.label, "kanripo_id": "", "kanripo_edition": "",
        "collection": edition.collection, "script": "simplified"})
    assert response.status_code == 302
    edition.refresh_from_db()
    assert (edition.script, edition.script_given) == (SIMPLIFIED, True)
    assert Juan.objects.get(pk=juan.pk).version > version   # indexed again under the new keys


def test_hits_found_through_a_simplified_form_say_how_they_were_read(db, client, search_backend):
    from .conftest import index_all

    juan = import_file(SIMPLIFIED_TEXT).juan
    seed = import_file(CORPUS / "seed" / "lishu_gangmu_juan10.txt").juan
    index_all(search_backend)
    data = client.get("/api/search/", {"q": "後", "edition": juan.edition.slug, "page_size": 100}).json()
    assert data["count"] == 41
    assert {(h["match"], h.get("reading")) for h in data["results"]} == {("后", "後")}
    # the form searched for itself, or a traditional edition: no reading to tell
    same = client.get("/api/search/", {"q": "后", "edition": juan.edition.slug, "page_size": 5}).json()
    assert same["count"] == 41 and all("reading" not in h for h in same["results"])
    trad = client.get("/api/search/", {"q": "後", "edition": seed.edition.slug, "page_size": 100}).json()
    assert trad["count"] == 31 and {h["match"] for h in trad["results"]} == {"後"}
    assert all("reading" not in h for h in trad["results"])
    # the reading page highlights what search found
    page = client.get(juan.get_absolute_url() if hasattr(juan, "get_absolute_url") else
                      f"/works/{juan.edition.slug}/juan/{juan.number}/", {"hl": "後"})
    assert page.status_code == 200
    assert page.content.decode().count('<mark') >= 41


def test_the_script_evaluation_figures():
    from characters.scripts import evaluation

    a, b, c = evaluation.score_scripts(SIMPLIFIED_TEXT.read_text(encoding="utf-8"),
                                       (CORPUS / "seed" / "lishu_gangmu_juan10.txt").read_text(encoding="utf-8"))
    assert (a.found, a.pairs, a.matches - a.wrong, a.matches) == (4184, 4204, 3948, 4349)
    assert a.recall > 0.99 and sorted(a.missed) == ["畝→亩", "視→视", "釁→衅"]
    assert (b.found, b.pairs, b.matches - b.wrong, b.matches) == (3916, 3923, 3887, 3930)
    assert b.recall > 0.99 and b.precision > 0.985
    # in the traditional seed no 后 is found by 後, no 于 by 於
    assert (c.found, c.pairs, c.wrong) == (0, 1172, 0)
