"""A juan's 層次核對 (``collation.juanlayers``): the page ``/works/<slug>/juan/<n>/layers/``, the
API's ``…/juans/<n>/layer-check/``, the juan page's link and the collation page's offer, on
論語注疏 卷四 (里仁第四, ``KR1h0007_004.txt``) against 論語 四部叢刊 卷二 (八佾第三 and 里仁第四,
``KR1h0005_002.txt``), a shared pair (issue 27): the figures are those ``check_layers`` prints for
the two files, and for the two stored editions with ``--juan 4``.
"""
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from collation import juanlayers
from collation.juanlayers import Reference, edition_stamp, juan_check, references_of
from reader.importers.loader import import_file
from reader.models import Edition, Juan, Work

from .conftest import SHARED
from .test_corrections import people  # noqa: F401 - a fixture

CORPUS = SHARED / "corpus"
EDITION_FILE = CORPUS / "kanripo-jingbu" / "KR1h0007" / "KR1h0007_004.txt"
REFERENCE_FILE = CORPUS / "kanripo-references" / "KR1h0005" / "KR1h0005_002.txt"

#: What ``check_layers`` prints for the pair (files or stored editions): the page's figures.
FIGURES = [
    "  classic stored as classic:        99.58 % (475 of 477 aligned; 1,194 in the reference)",
    "  commentary stored as commentary:  100.00 % (472 of 472 aligned; 2,209 in the reference)",
    "  worst places (edition: layers other than the classic in 〔…〕; reference: small print in (…)):",
    "      2  classic stored otherwise  KR1h0007_004.txt:105",
    "         edition:   行〔何注：孔曰放依也每事依利而行多怨孔曰取怨之道〕子曰能以禮讓",
    "         reference: (國曰放依也每事依利而行也)多怨(孔安國曰取怨之道也)子曰能",
]


def run(*args) -> list[str]:
    out = StringIO()
    call_command("check_layers", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.fixture
def pair(db):
    """論語注疏 卷四 and 論語 四部叢刊 卷二, stored: the juan of 論語注疏."""
    juan = import_file(EDITION_FILE).juan
    import_file(REFERENCE_FILE)
    return Juan.objects.select_related("work", "edition").get(pk=juan.pk)


def test_the_files_give_the_figures():
    # the same pair read from its files: the whole edition (one file) and its juan 4 alike
    assert run(str(EDITION_FILE), str(REFERENCE_FILE))[1:] == FIGURES
    assert run(str(EDITION_FILE), str(REFERENCE_FILE), "--juan", "4")[1:] == FIGURES
    # a juan the edition does not have is named, with the ones it has (it printed 0 of 0 aligned)
    with pytest.raises(CommandError) as info:
        run(str(EDITION_FILE), str(REFERENCE_FILE), "--juan", "3")
    assert str(info.value) == f"{EDITION_FILE} has no juan 3 (its juans: 4)"


def test_the_reference_is_the_work_the_catalogue_names_as_the_classic(pair):
    refs = references_of(pair.edition)
    assert [(r.edition.slug, r.edition.work.title, r.judges) for r in refs] == [("KR1h0005", "論語", [])]
    # the classic itself is no commentary edition: nothing to check it against
    assert references_of(Edition.objects.get(slug="KR1h0005")) == []


def test_the_api_payload_whole(pair, client):
    response = client.get(f"/api/editions/{pair.edition_id}/juans/4/layer-check/")
    assert response.status_code == 200
    ref = Edition.objects.get(slug="KR1h0005")
    assert response.json() == {
        "edition": {"id": pair.edition_id, "slug": "KR1h0007", "work": "論語注疏", "name": "四庫全書・文淵閣本"},
        "juan": {"number": 4, "label": "卷四", "url": "/works/KR1h0007/juan/4/"},
        "references": [{
            "reference": {"id": ref.pk, "slug": "KR1h0005", "work": "論語", "name": "四部叢刊本"},
            "judges": [],
            "classic": {"aligned": 477, "stored_as_classic": 475, "share": "99.58 %", "in_reference": 1194},
            "commentary": {"aligned": 472, "stored_as_commentary": 472, "share": "100.00 %", "in_reference": 2209},
            "not_counted": {"other_commentary": 0, "other_commentators": [], "disputed": 0},
            "places": [{
                "kind": "classic", "what": ["classic stored otherwise", "他本之經，此本存為注等"], "characters": 2,
                "section": 2, "url": "/works/KR1h0007/juan/4/2/",
                "edition": "行〔何注：孔曰放依也每事依利而行多怨孔曰取怨之道〕子曰能以禮讓",
                "reference": "(國曰放依也每事依利而行也)多怨(孔安國曰取怨之道也)子曰能",
            }],
            "command": "manage.py check_layers KR1h0007 KR1h0005 --juan 4",
        }],
    }
    # the command it names prints the same figures and place (named by its stored section)
    assert run("KR1h0007", "KR1h0005", "--juan", "4") == [
        "KR1h0007 juan 4 against KR1h0005", *FIGURES[:3],
        "      2  classic stored otherwise  KR1h0007 卷四 §2", *FIGURES[4:]]
    # the work's address reads its default edition; by slug too; a reference named by slug
    assert client.get(f"/api/works/{pair.work_id}/juans/4/layer-check/?with=KR1h0005").json() == response.json()
    # a name that is no reference: 400 naming those there are; the classic's own juan: none held, none listed
    bad = client.get(f"/api/editions/{pair.edition_id}/juans/4/layer-check/?with=KR1h0003")
    assert bad.status_code == 400
    assert "「KR1h0003」不是論語注疏之經的他本（可核對：KR1h0005）" in bad.json()["with"][0]
    # the classic's own juan has none: a 404 saying the edition is itself the reference, whatever
    # ``with`` names (it answered 200 with references [], or 400 「…」不是論語之經的他本（可核對：）)
    said = ("論語（四部叢刊本）本身是他書核對層次所據之本（論語注疏之層次以之核對），無可核對層次（this edition is itself a "
            "reference: the layers of 論語注疏 are checked against it, and the library holds none to check its own against）")
    for query in ("", f"?with={ref.pk}", f"?with={pair.edition_id}"):
        none = client.get(f"/api/editions/{ref.pk}/juans/2/layer-check/{query}")
        assert (none.status_code, none.json()["detail"]) == (404, said)


def test_the_page_shows_the_figures_and_links_each_place(pair, client):
    response = client.get("/works/KR1h0007/juan/4/layers/")
    assert response.status_code == 200
    html = response.content.decode()
    assert ('<tbody><tr><th scope="row">經（大字）</th><td>477</td><td>475</td><td>99.58 %</td></tr>\n'
            '<tr><th scope="row">注（小字）</th><td>472</td><td>472</td><td>100.00 %</td></tr></tbody>') in html
    assert "<h3 id=\"places-" in html and "不合之處 1 處</h3>" in html
    assert ('<strong>他本之經，此本存為注等</strong> <span lang="en">(classic stored otherwise)</span>，2 字，'
            '<a href="/works/KR1h0007/juan/4/2/">第 2 節</a>') in html
    assert "<code>manage.py check_layers KR1h0007 KR1h0005 --juan 4</code>" in html
    # a juan of the classic's work has no reference: said, 404; a name that is none: 400
    for query in ("", "?with=KR1h0005"):
        missing = client.get(f"/works/KR1h0005/juan/2/layers/{query}")
        assert missing.status_code == 404
        html = missing.content.decode()
        assert ('<p class="error" role="alert">論語（四部叢刊本）本身是他書核對層次所據之本（論語注疏之層次以之核對），'
                '無可核對層次 (this edition is itself a reference: the layers of 論語注疏 are checked against it, and the '
                'library holds none to check its own against)</p>') in html
        assert "本書經、注同大" not in html  # the explanation of a check it has not
    assert "本書經、注同大，只標注之起處；經文何處復起，由匯入時判定。" in response.content.decode()  # 注 at full size
    wrong = client.get("/works/KR1h0007/juan/4/layers/?with=nothing")
    assert wrong.status_code == 400 and "「nothing」不是論語注疏之經的他本（可核對：KR1h0005）" in wrong.content.decode()


def test_the_juan_page_links_it_only_where_a_reference_is_held(pair, client):
    link = '<a href="/works/KR1h0007/juan/4/layers/">層次核對</a>（經、注之分對照論語）'
    assert link in client.get("/works/KR1h0007/juan/4/").content.decode()
    assert "層次核對" not in client.get("/works/KR1h0005/juan/2/").content.decode()


def test_the_collation_offers_it_for_the_classic_instead_of_no_such_edition(pair, client):
    response = client.get("/works/KR1h0007/juan/4/collate/?with=KR1h0005")
    html = response.content.decode()
    assert response.status_code == 200
    assert "沒有「KR1h0005」這個版本" not in html
    assert ('論語（四部叢刊本）是論語注疏所注之經的他本，另為一書，不與本書逐字對校；本卷經、注之分與之相合幾何，見'
            '<a href="/works/KR1h0007/juan/4/layers/?with=KR1h0005">層次核對</a>。') in html
    # a name that is neither an edition of the work nor a reference is still refused
    assert client.get("/works/KR1h0007/juan/4/collate/?with=KR1h0003").status_code == 400


def test_one_alignment_serves_the_pair_until_either_edition_changes(pair, monkeypatch):
    calls = []
    real = juanlayers.check_by_juan
    monkeypatch.setattr(juanlayers, "check_by_juan", lambda *a, **k: calls.append(1) or real(*a, **k))
    ref = references_of(pair.edition)[0]
    assert juan_check(pair, ref).classic_ok == 475
    assert juan_check(pair, ref).classic_ok == 475
    assert len(calls) == 1
    before = edition_stamp(ref.edition)
    import_file(REFERENCE_FILE)  # written again: a new version, so a new stamp
    assert edition_stamp(ref.edition) != before
    assert juan_check(pair, Reference(Edition.objects.get(slug="KR1h0005"))).classic_ok == 475
    assert len(calls) == 2


def test_an_accepted_annotation_or_layer_correction_leaves_the_kept_check(pair, people, monkeypatch):
    # the check reads the pieces as imported: an accepted annotation or a layer correction (and its
    # revert) bumps the juan's version, not the stamp of what the check reads, so it is not aligned again
    from corrections.workflow import accept, propose, revert

    calls = []
    real = juanlayers.check_by_juan
    monkeypatch.setattr(juanlayers, "check_by_juan", lambda *a, **k: calls.append(1) or real(*a, **k))
    ref = references_of(pair.edition)[0]
    assert juan_check(pair, ref).classic_ok == 475
    stamp, version = edition_stamp(pair.edition), pair.version
    note = propose(people["contributor"], pair, kind="annotation", section=1, piece=1, start=0, end=1,
                   replacement="里仁", reason="篇名")
    accept(note, people["editor"])
    layer = propose(people["contributor"], pair, kind="layer", section=1, piece=1, start=0, end=1,
                    new_layer="commentary", reason="試")
    accept(layer, people["editor"])
    revert(layer, people["editor2"], reason="非是")
    assert Juan.objects.get(pk=pair.pk).version != version
    assert edition_stamp(pair.edition) == stamp
    assert juan_check(Juan.objects.get(pk=pair.pk), ref).classic_ok == 475
    assert len(calls) == 1


def edition(title: str, kanripo_id: str) -> Edition:
    """A work titled ``title`` and its one edition, both keyed ``kanripo_id``, with no juan."""
    work = Work.objects.create(title=title, slug=kanripo_id, kanripo_id=kanripo_id)
    return Edition.objects.create(work=work, slug=kanripo_id, kanripo_id=kanripo_id)


@pytest.mark.django_db
def test_an_edition_with_no_reference_is_told_why():
    maoshi, shiji, liji = edition("毛詩注疏", "KR1c0004"), edition("史記", "KR2a0001"), edition("禮記", "KR1d0052")
    # a 注疏 before its references are imported (it said 毛詩注疏不是注釋之書，或本館無其經文之他本)
    assert juanlayers.why_none(maoshi) == (
        "毛詩注疏是毛詩之注疏，本館未藏毛詩之他本，無可核對層次",
        "毛詩注疏 is a commentary (注疏) on 毛詩, and the library holds no other edition of 毛詩 to check its layers against")
    assert juanlayers.why_none(liji) == ("禮記不是注釋之書，無可核對層次",
                                         "禮記 is not a commentary on a classic: it has no layers to check")
    edition("史記集解", "KR2a0002")
    assert juanlayers.why_none(shiji)[0] == f"史記（{shiji.name}）本身是他書核對層次所據之本（史記集解之層次以之核對），無可核對層次"
    # the reference of a shared pair, its commentary held
    edition("左傳注疏", "KR1e0004")
    dulin = edition("春秋經傳集解杜林合注", "KR1e0092")
    assert juanlayers.why_none(dulin)[0] == (
        f"春秋經傳集解杜林合注（{dulin.name}）本身是他書核對層次所據之本（左傳注疏之層次以之核對），無可核對層次")


def test_the_explanation_follows_where_the_book_prints_its_notes(db):
    # 史記集解 and 楚辭補注 print their notes in small print between the classic's words; 論語注疏 its 注
    # at full size after the label 注 (the fixture's pair: test_the_page_shows_the_figures_and_links_each_place)
    for path in ("KR2a0002/KR2a0002_001.txt", "KR4a0003/KR4a0003_001.txt"):
        juan = import_file(CORPUS / "kanripo-commentary" / path).juan
        assert juanlayers.notes_in_small_print(juan) is True
    assert juanlayers.notes_in_small_print(import_file(EDITION_FILE).juan) is False


@pytest.mark.django_db
def test_the_shared_pairs_name_a_reference_and_its_judges():
    # 周禮注疏 (KR1d0003): 周禮句解 (KR1d0012) judged with the 四部叢刊 周禮 (KR1d0002), then that 周禮
    # alone, as ``layercheck.PAIRS`` gives them; the 周禮 is also the work its title names as its classic
    zhushu, jujie, sbck = edition("周禮注疏", "KR1d0003"), edition("周禮句解", "KR1d0012"), edition("周禮", "KR1d0002")
    assert [(r.edition, r.judges) for r in references_of(zhushu)] == [(jujie, [sbck]), (sbck, [])]
    sbck.work.delete()
    assert [(r.edition, r.judges) for r in references_of(Edition.objects.get(pk=zhushu.pk))] == [(jujie, [])]


@pytest.fixture
def committed_pair(transactional_db, search_backend, settings, monkeypatch):
    """The pair stored and committed (the check's thread reads it on a connection of its own),
    the requests given a budget and the layer check a wait of 0.05 s, its clock held still at
    1000.0 s with no rate measured yet; the alignment waits for ``release`` (an event) before it
    is made. Yields ``(juan, release, calls)``: ``calls``, the editions aligned, one per alignment."""
    import threading

    settings.REQUEST_BUDGET_SECONDS, settings.LAYER_CHECK_SECONDS = 20, 0.05
    juan = import_file(EDITION_FILE).juan
    import_file(REFERENCE_FILE)
    monkeypatch.setattr(juanlayers.CHECKS, "clock", lambda: 1000.0)
    monkeypatch.setattr(juanlayers.CHECKS, "rate", None)
    monkeypatch.setattr(juanlayers, "MEASURED", {})
    monkeypatch.setattr(juanlayers, "RATES", {})
    release, calls, real = threading.Event(), [], juanlayers._aligned

    def held(edition, reference):
        calls.append(edition.slug)
        release.wait(30)
        return real(edition, reference)

    monkeypatch.setattr(juanlayers, "_aligned", held)
    try:
        yield Juan.objects.select_related("work", "edition").get(pk=juan.pk), release, calls
    finally:
        release.set()
        juanlayers.CHECKS.settle()


def test_the_first_request_starts_the_check_and_is_told_when_to_come_back(committed_pair, client, monkeypatch, caplog):
    """The check goes on past the request's wait (``LAYER_CHECK_SECONDS``) in a thread of its own:
    the page and the API answer 503 with ``Retry-After`` (the two editions' 7,266 characters at
    ``SECONDS_PER_CHAR``, here 0.01 s: 72.66 s) saying it is being made; a request meanwhile starts
    no second one; once made, both answer with its figures, read from what was kept. A reference
    written again (a new stamp) is checked again, in the background as the first time, and the
    ``Retry-After`` is then the time the pair's last alignment took (2.5 s on the clock here: 3 s),
    not its size's (it said 11 s of 論語注疏 with 論語, aligned in 0.5 s)."""
    juan, release, calls = committed_pair
    started = juanlayers.CHECKS.started
    monkeypatch.setattr(juanlayers, "SECONDS_PER_CHAR", 0.01)
    now, held = [1000.0], juanlayers._aligned

    def timed(edition, reference):  # the alignment takes 2.5 s on the test's clock
        found = held(edition, reference)
        now[0] += 2.5
        return found

    monkeypatch.setattr(juanlayers, "_aligned", timed)
    monkeypatch.setattr(juanlayers.CHECKS, "clock", lambda: now[0])
    chars = Juan.objects.filter(edition__slug__in=["KR1h0007", "KR1h0005"]).values_list("char_count", flat=True)
    assert sorted(chars) == [3404, 3862]
    page = client.get("/works/KR1h0007/juan/4/layers/")
    html = page.content.decode()
    assert page.status_code == 503 and page["Retry-After"] == "73"
    # the log says what happened: no time budget ran out (it said "time budget (20 s) exceeded … while checking the layers")
    assert [r.getMessage() for r in caplog.records if r.name == "django.request" and r.levelname == "WARNING"] == [
        "503 on /works/KR1h0007/juan/4/layers/: layer check not made within the 0.05 s a request waits for it; it goes "
        "on (Retry-After 73 s)"]
    assert "<h1>請稍候，73 秒後再試 (503)</h1>" in html
    assert ("<p>正在核對層次：全書須先與論語（四部叢刊本）逐字對齊，所需時間超過一次請求可等候的時限（0.05 秒）；"
            "核對不因此中止，完成後即存留。請 73 秒後再試：屆時直接讀取已完成的核對。</p>") in html
    assert ('<p lang="en">The layers of this book are being checked: the whole edition is aligned with 論語 (四部叢刊本) '
            "first, which takes longer than a request may wait (0.05 s); it goes on without this request and is kept "
            "when done. Try again in 73 s: the check is then read from what was kept.</p>") in html
    # the page tries again by itself after the wait (static/js/retry.js), with a link to try at once
    assert '<p class="retry" data-retry-after="73"><a href="/works/KR1h0007/juan/4/layers/">立即重試</a>' in html
    api = client.get(f"/api/editions/{juan.edition_id}/juans/4/layer-check/")
    assert api.status_code == 503 and api["Retry-After"] == "73"
    assert api.json() == {
        "detail": "正在核對層次：全書須先與論語（四部叢刊本）逐字對齊，所需時間超過一次請求可等候的時限（0.05 秒）；核對不因此中止，"
                  "完成後即存留（The layers of this book are being checked: the whole edition is aligned with 論語 (四部叢刊本) "
                  "first, which takes longer than a request may wait (0.05 s); it goes on without this request and is kept "
                  "when done.）",
        "kind": "time_budget",
        "narrow": "請 73 秒後再試：屆時直接讀取已完成的核對（Try again in 73 s: the check is then read from what was kept.）"}
    assert calls == ["KR1h0007"] and juanlayers.CHECKS.started == started + 1  # the second started none

    release.set()
    juanlayers.CHECKS.settle()
    assert juanlayers.CHECKS.rate is None  # 7,266 characters: under the 10,000 a rate is measured from
    done = client.get(f"/api/editions/{juan.edition_id}/juans/4/layer-check/?with=KR1h0005")
    assert done.status_code == 200
    (ref,) = done.json()["references"]
    assert (ref["classic"], ref["commentary"], len(ref["places"])) == (
        {"aligned": 477, "stored_as_classic": 475, "share": "99.58 %", "in_reference": 1194},
        {"aligned": 472, "stored_as_commentary": 472, "share": "100.00 %", "in_reference": 2209}, 1)
    shown = client.get("/works/KR1h0007/juan/4/layers/")
    assert shown.status_code == 200 and '<td>477</td><td>475</td><td>99.58 %</td>' in shown.content.decode()
    assert calls == ["KR1h0007"]  # read from what was kept

    assert juanlayers.MEASURED == {(juan.edition_id, ref["reference"]["id"]): 2.5}
    import_file(REFERENCE_FILE)  # the reference written again: a new stamp, a new check
    release.clear()
    again = client.get("/works/KR1h0007/juan/4/layers/")
    assert again.status_code == 503 and again["Retry-After"] == "3" and calls == ["KR1h0007", "KR1h0007"]
    assert "請 3 秒後再試" in again.content.decode()
    release.set()
    juanlayers.CHECKS.settle()
    assert client.get("/works/KR1h0007/juan/4/layers/").status_code == 200 and len(calls) == 2


def test_a_pair_never_aligned_is_reckoned_by_its_size_at_the_slowest_rate_measured(committed_pair, client,
                                                                                    monkeypatch):
    """楚詞補注's first check (KR4a0003) said 「請 1 秒後再試」 and took about 5 s: a pair never aligned in the
    process was reckoned at the last pair's rate, and once past that, 1 s after each 503. Now a pair never
    aligned is its editions' characters at the slowest rate a pair was aligned at here
    (``juanlayers.expected_seconds``, ``RATES``): 論語注疏 卷四 with 論語 卷二, 7,266 characters, after pairs
    aligned at 80 µs and 150 µs a character: 1.09 s, 2 s; the pair's own last time once it has one
    (``MEASURED``); and a check running past its estimate is expected to run as long again as it has
    (``config.kept_work.OVERDUE_AGAIN``), not 1 s."""
    juan, release, calls = committed_pair
    assert juanlayers.expected_seconds((1, 2), 367_581) is None  # none aligned yet: SECONDS_PER_CHAR
    monkeypatch.setattr(juanlayers, "RATES", {(91, 92): 0.000080, (93, 94): 0.000150})
    assert juanlayers.expected_seconds((1, 2), 367_581) == pytest.approx(55.13715)
    monkeypatch.setattr(juanlayers, "MEASURED", {(1, 2): 5.0})
    assert juanlayers.expected_seconds((1, 2), 367_581) == 5.0
    now = [1000.0]
    monkeypatch.setattr(juanlayers.CHECKS, "clock", lambda: now[0])
    first = client.get(f"/api/editions/{juan.edition_id}/juans/4/layer-check/")
    assert first.status_code == 503 and first["Retry-After"] == "2"  # 7,266 × 150 µs = 1.09 s
    while not juanlayers.CHECKS.begun:  # the check's thread has taken it (calls it before it waits for release)
        release.wait(0.01)
    (key,) = juanlayers.CHECKS.begun
    now[0] += 1.0  # run 1 s of an expected 1.09 s: 0.09 s left, 1 s at least
    assert juanlayers.CHECKS.expected_wait(key, 7266, juanlayers.expected_seconds((0,), 7266)) == 1
    now[0] += 3.0  # run 4 s of it: as long again
    again = client.get(f"/api/editions/{juan.edition_id}/juans/4/layer-check/")
    assert again.status_code == 503 and again["Retry-After"] == "4" and calls == ["KR1h0007"]
    release.set()
    juanlayers.CHECKS.settle()
    assert client.get(f"/api/editions/{juan.edition_id}/juans/4/layer-check/").status_code == 200


def test_a_check_made_within_the_wait_is_answered_at_once_and_a_crowded_one_says_when(committed_pair, client,
                                                                                       settings, monkeypatch):
    """Made within ``LAYER_CHECK_SECONDS`` (ten minutes here, so that no loaded machine makes it
    late), the first request gets the figures. When ``CHECKS`` takes no more (``Crowded``), the
    503 says other checks are being made and when the first is expected to end: here one of
    100,000 characters at the default 50 µs a character, begun 2 s ago on the held clock: 3 s."""
    from config.kept_work import Crowded

    juan, release, calls = committed_pair
    release.set()
    settings.LAYER_CHECK_SECONDS = 600
    started = juanlayers.CHECKS.started
    response = client.get(f"/api/editions/{juan.edition_id}/juans/4/layer-check/")
    assert response.status_code == 200 and response.json()["references"][0]["classic"]["stored_as_classic"] == 475
    assert juanlayers.CHECKS.started == started + 1 and calls == ["KR1h0007"]
    juanlayers.CHECKS.forget()

    def crowded(key, compute, wait, size=0):
        raise Crowded("5 layer-check computations running or waiting")

    monkeypatch.setattr(juanlayers.CHECKS, "answer", crowded)
    monkeypatch.setattr(juanlayers.CHECKS, "begun", {"another pair": (998.0, 100_000)})
    page = client.get("/works/KR1h0007/juan/4/layers/")
    assert page.status_code == 503 and page["Retry-After"] == "3"
    assert "<p>其他層次核對正在進行，本卷的未能開始；其中最先的預計 3 秒後完成。請 3 秒後再試。</p>" in page.content.decode()


@pytest.mark.django_db
def test_the_classic_is_the_one_the_catalogue_files_the_book_under():
    # 儀禮鄭註句讀 comments on 儀禮 (it looked for 儀禮鄭註: the title less its last word); 欽定儀禮義疏
    # and 論語集解義疏 likewise (欽定儀禮義, 論語集解義); 周禮句解 on 周禮 (it looked for 周禮句)
    yili, judou, yishu = edition("儀禮", "KR1d0026"), edition("儀禮鄭註句讀", "KR1d0038"), edition("欽定儀禮義疏", "KR1d0037")
    lunyu, yishu_lunyu = edition("論語", "KR1h0005"), edition("論語集解義疏", "KR1h0006")
    baiwen, zhengzhu, jujie = edition("周禮", "KR1d0001"), edition("周禮", "KR1d0002"), edition("周禮句解", "KR1d0012")
    assert [r.edition for r in references_of(judou)] == [yili]
    assert [r.edition for r in references_of(yishu)] == [yili]
    assert [r.edition for r in references_of(yishu_lunyu)] == [lunyu]
    assert [r.edition for r in references_of(jujie)] == [baiwen, zhengzhu]
    # 周禮 KR1d0002 prints 周禮 with 鄭玄's 注 and 陸德明's 音義 (the catalogue names only them): its
    # classic is checked against the plain text KR1d0001; the plain text itself has nothing to check
    assert [r.edition for r in references_of(zhengzhu)] == [baiwen]
    assert references_of(baiwen) == []
    assert juanlayers.why_none(baiwen)[0] == (
        f"周禮（{baiwen.name}）本身是他書核對層次所據之本（周禮、周禮句解之層次以之核對），無可核對層次")
    # 儀禮 KR1d0026 (鄭玄 注) has no other edition of 儀禮 here: it is the others' reference
    assert references_of(yili) == []
    assert juanlayers.why_none(yili)[0] == (
        f"儀禮（{yili.name}）本身是他書核對層次所據之本（儀禮鄭註句讀、欽定儀禮義疏之層次以之核對），無可核對層次")


@pytest.mark.django_db
def test_a_commentary_whose_classic_is_not_held_or_not_listed_is_told_so():
    zhengzhu = edition("周禮", "KR1d0002")
    assert juanlayers.why_none(zhengzhu) == (
        f"周禮（{zhengzhu.name}）是周禮經注之本，本館未藏周禮之他本，無可核對層次",
        f"周禮 ({zhengzhu.name}) prints 周禮 with its commentary, and the library holds no other edition of 周禮 to "
        f"check its layers against")
    # the catalogue files 莊子 as 南華真經: 莊子注's title opens with no book of its class
    assert juanlayers.why_none(edition("莊子注", "KR5c0138")) == (
        "莊子注是注釋之書（注），目錄所載其類之書無其所注者，無可核對層次",
        "莊子注 is a commentary (注), and the catalogue lists no book of its class it comments on: there is "
        "nothing to check its layers against")


#: 儀禮鄭註句讀 卷七 (大射儀, ``KR1d0038_007.txt``) and 儀禮 鄭氏注 (四部叢刊) 卷七, a pair no shared pair names.
JUDOU_FILE = CORPUS / "kanripo" / "KR1d0038" / "KR1d0038_007.txt"
YILI_FILE = CORPUS / "kanripo" / "KR1d0026" / "KR1d0026_007.txt"


def test_judou_is_checked_against_the_yili_it_finds(db, client):
    """Imported, 儀禮鄭註句讀 finds 儀禮 as its reference and its juan's 層次核對 gives what
    ``check_layers`` prints for the two files: 99.95 % of 儀禮's classic stored as classic, and all of
    its commentary stored as commentary: the reference's notes are 鄭玄's, whom 儀禮鄭註句讀's byline
    and catalogue entry (張爾岐) do not name, but the book prints them (found in its text,
    ``layercheck.other_commentators``), so they are counted."""
    juan = import_file(JUDOU_FILE).juan
    import_file(YILI_FILE)
    ref = Edition.objects.get(slug="KR1d0026")
    assert [r.edition for r in references_of(juan.edition)] == [ref]
    body = client.get(f"/api/editions/{juan.edition_id}/juans/7/layer-check/").json()
    [found] = body["references"]
    assert found["reference"] == {"id": ref.pk, "slug": "KR1d0026", "work": "儀禮", "name": "四部叢刊本"}
    assert (found["classic"], found["commentary"], found["not_counted"]) == (
        {"aligned": 6626, "stored_as_classic": 6623, "share": "99.95 %", "in_reference": 6707},
        {"aligned": 6822, "stored_as_commentary": 6822, "share": "100.00 %", "in_reference": 7013},
        {"other_commentary": 0, "other_commentators": [], "disputed": 0})
    assert found["command"] == "manage.py check_layers KR1d0038 KR1d0026 --juan 7"
    # the command it names prints the same, and so do the two files
    assert run("KR1d0038", "KR1d0026", "--juan", "7", "--worst", "0") == [
        "KR1d0038 juan 7 against KR1d0026",
        "  classic stored as classic:        99.95 % (6,623 of 6,626 aligned; 6,707 in the reference)",
        "  commentary stored as commentary:  100.00 % (6,822 of 6,822 aligned; 7,013 in the reference)",
    ]
    assert run(str(JUDOU_FILE), str(YILI_FILE), "--worst", "0")[1:] == [
        "  classic stored as classic:        99.95 % (6,623 of 6,626 aligned; 6,707 in the reference)",
        "  commentary stored as commentary:  100.00 % (6,822 of 6,822 aligned; 7,013 in the reference)",
    ]


@pytest.mark.slow
def test_the_whole_books_the_catalogue_pairs():
    """Commentary editions the catalogue's classic gives a reference (decision 0100), whole, from their
    folders: 儀禮鄭註句讀 and 儀禮經傳通解 against 儀禮 鄭氏注, whose notes (鄭玄's) they print under their own
    makers' names and are measured by (decision 0107), and 周禮 鄭氏注 against the plain 周禮."""
    kanripo = CORPUS / "kanripo"
    assert run(str(kanripo / "KR1d0038"), str(kanripo / "KR1d0026"), "--worst", "0")[1:] == [
        "  classic stored as classic:        99.80 % (54,193 of 54,297 aligned; 55,489 in the reference)",
        "  commentary stored as commentary:  99.99 % (76,067 of 76,070 aligned; 78,361 in the reference)",
    ]
    # 儀禮經傳通解: the end of a 鄭注 its transcription leaves unmarked at a printed line's start is the note's
    # where 儀禮's text holds the classic on both sides (decision 0122, 卷十九 君之服位者也…); what its
    # transcription leaves unmarked inside a line stays the classic (卷二十一 …內圓外方曰簋)竹簠方者器名也…)
    tongjie = run(str(CORPUS / "kanripo-jingbu" / "KR1d0085"), str(kanripo / "KR1d0026"), "--worst", "200")
    assert tongjie[1:3] == [
        "  classic stored as classic:        99.86 % (27,540 of 27,578 aligned; 55,489 in the reference)",
        "  commentary stored as commentary:  94.78 % (36,457 of 38,464 aligned; 78,361 in the reference)",
    ]
    assert not [line for line in tongjie if "KR1d0085_019.txt:66" in line]
    assert tongjie[4:6] == [
        "     25  commentary stored as classic  KR1d0085_021.txt:249",
        "         edition:   〔注：內方曰簠內圓外方曰簋〕竹簠方者器名也以竹為之狀如簋而方如今寒具筥筥者圜此方耳圜音圓其實棗蒸栗擇兼執之",
    ]
    assert run(str(kanripo / "KR1d0002"), str(kanripo / "KR1d0001"), "--worst", "0")[1:] == [
        "  classic stored as classic:        99.83 % (48,213 of 48,291 aligned; 49,384 in the reference)",
        "  commentary stored as commentary:  — (0 of 0 aligned; 0 in the reference)",
    ]
