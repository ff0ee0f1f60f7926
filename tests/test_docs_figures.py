"""Figures the docs give, computed by the running code: each test counts with the code a figure
the README or docs/ states and checks that the sentence gives that count, so a change that moves
a figure fails here until the docs say the new one (docs/searching.md had 於 finding 99 of the
simplified edition's 133 于, where search found 97)."""
import re
import sys

import pytest

from .conftest import BASE_DIR, SHARED, index_all

sys.path.insert(0, str(BASE_DIR / "scripts"))
import check_corpus  # noqa: E402

SIMPLIFIED = SHARED / "corpus" / "other" / "yili_shigong_zengzhu_simplified.txt"
#: What ``scripts/check_corpus.py`` prints of a folder: ``kanripo: 8 works, 9 editions, 322 files, …``.
FOLDER_FIGURES = re.compile(r"(\S+): ([\d,]+) works, ([\d,]+) editions, ([\d,]+) files, ([\d,]+) juans, "
                            r"([\d,]+) sections, ([\d,]+) characters")


def written(name: str) -> str:
    """The text of ``name`` (``README.md``, ``docs/searching.md``) with every space and line
    break taken out: Markdown wraps a sentence anywhere, Chinese words too."""
    return re.sub(r"\s+", "", (BASE_DIR / name).read_text(encoding="utf-8"))


def says(name: str, sentence: str) -> bool:
    """Whether ``name`` gives ``sentence``, its spaces and line breaks aside."""
    return re.sub(r"\s+", "", sentence) in written(name)


def listed_counts(name: str, start: str, end: str) -> dict[str, int]:
    """``{form: count}`` as ``name`` lists them between ``start`` and ``end``: `` `[門@里]` 140
    times, `[孑*(焉-正+?)]` 31, `[山*弇]`, `[莫-大+羽]` 2 each, and `[瓜*見]` once each``."""
    text = " ".join((BASE_DIR / name).read_text(encoding="utf-8").split())
    part = text[text.index(start):text.index(end)]
    counts, waiting = {}, []
    for form, own, each in re.findall(r"`([^`]+)`(?: (\d+)(?! each)(?: times)?)?|(\d+|once) each", part):
        if form and own:
            counts[form] = int(own)
        elif form:
            waiting.append(form)
        elif each:
            counts.update(dict.fromkeys(waiting, 1 if each == "once" else int(each)))
            waiting = []
    assert not waiting, waiting
    return counts


def visible(html: str) -> str:
    """The text of an HTML fragment, its tags taken out."""
    return re.sub(r"<[^>]+>", "", html)


@pytest.fixture
def simplified(db, search_backend):
    """The shared simplified 儀禮釋宮增注 (a simplified edition, detected at import) and whatever
    the database holds, indexed; its edition."""
    from characters.simplified import SIMPLIFIED as SIMPLIFIED_SCRIPT
    from reader.importers.loader import import_file

    edition = import_file(SIMPLIFIED).juan.edition
    assert edition.script == SIMPLIFIED_SCRIPT
    index_all(search_backend)
    return edition


def script_figures(client, slug: str) -> dict:
    """What traditional queries find in the edition ``slug`` (the API's counts): ``{"後": hits,
    "后": 后 printed (exact), "後 reads": the readings the 后 hits of 後 give, "后 left": each 后
    that 後 does not find with a character either side (夏后氏), and so for 當/当 and 於/于}``."""
    def hits(query, **options):
        return client.get("/api/search/", {"q": query, "edition": slug, "page_size": 200, **options}).json()

    figures = {q: hits(q)["count"] for q in "當於"} | {q: hits(q, exact="on")["count"] for q in "后当于"}
    later, printed = hits("後"), hits("后", exact="on")
    read = [h for h in later["results"] if h["match"] == "后"]
    places = {(h["section"]["position"], h["piece"], h["before"]) for h in read}
    return figures | {"後": later["count"], "後 reads": {h.get("reading") for h in read},
                      "后 left": [h["before"][-1:] + h["match"] + h["after"][:1] for h in printed["results"]
                                 if (h["section"]["position"], h["piece"], h["before"]) not in places]}


def test_what_traditional_queries_find_in_the_simplified_edition(simplified, client):
    """docs/searching.md, "Search knows each edition's script": 後 finds 36 of the 41 后 (each
    read as 後; the 5 others those of 夏后氏), 當 every 当, 於 97 of the 133 于 (the docs said 99)."""
    figures = script_figures(client, simplified.slug)
    assert figures == {"後": 36, "后": 41, "後 reads": {"後"}, "后 left": ["夏后氏"] * 5, "當": 85, "当": 85,
                       "於": 97, "于": 133}
    assert says("docs/searching.md", f"後 finds {figures['後']} of its {figures['后']} 后 (the traditional edition prints "
                                     f"後 at those {figures['後']} and 后 at the {len(figures['后 left'])} of 夏后氏), "
                                     f"當 {figures['當']} 当, 於 {figures['於']} of {figures['于']} 于.")


def test_the_reading_pages_bar_of_a_form_read_at_its_place(simplified, client):
    """docs/searching.md: the reading page a hit opens counts the marks, and those of a form read
    as the query's character (標出「後」36 處（其中簡體「后」讀作「後」36 處）)."""
    page = client.get(f"/works/{simplified.slug}/juan/1/", {"hl": "後"}).content.decode()
    bar = visible(re.search(r'<p class="highlight-bar" role="status">(.*?)</p>', page).group(1))
    told = bar.split(" · ")[0]
    assert told == "標出「後」36 處（其中簡體「后」讀作「後」36 處）"
    assert says("docs/searching.md", f"highlights it, its bar counting the marks so found ({told})")


def test_near_finds_the_occurrences_with_a_partner(seed_backend, client):
    """docs/searching.md's table of the query language: 司射 NEAR/5 弓 in the bundled juan."""
    count = client.get("/api/search/", {"q": "司射 NEAR/5 弓", "edition": "禮書綱目"}).json()["count"]
    assert count == 22
    assert says("docs/searching.md", f"only the occurrences with a partner are hits ({count} in the bundled juan)")


def test_the_bundled_juan_as_the_readme_describes_it(seed_juan):
    """README.md: the bundled 禮書綱目 卷十 has 45 sections, 328 notes and three 記 records."""
    from reader.models import Piece, Section

    sections = Section.objects.filter(juan=seed_juan).count()
    notes = Piece.objects.filter(section__juan=seed_juan, kind__in=["note", "record_note"]).count()
    records = Section.objects.filter(juan=seed_juan, pieces__kind="record").distinct().count()
    assert (sections, notes, records) == (45, 328, 3)
    words = {3: "three"}
    assert says("README.md", f"{sections} sections, {notes} notes and {words[records]} 記 records")


def test_the_terminals_search_names_a_hits_edition_as_the_hit_list_does(db, search_backend, seed_juan, capsys):
    """docs/searching.md, "From a terminal": a hit in a work of several editions is named by its
    edition as on the search page (the docs gave 禮書綱目（KR1d0086）, which nothing prints)."""
    from django.core.management import call_command

    from reader.importers.loader import import_file

    import_file(SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_012.txt")
    index_all(search_backend)
    call_command("search", "大射", "--layer", "classic", "--edition", "KR1d0086")
    first = capsys.readouterr().out.splitlines()[0].split("\t")[0]
    assert first == "禮書綱目（四庫全書・文淵閣本） 卷十 1「戒百官」"
    assert says("docs/searching.md", f"(named as in the hit list: `{first}` when the work has several editions)")


def test_the_api_errors_docs_api_md_shows(client, db, settings):
    """docs/api.md, "Every error under /api/": the 404 of a path no route matches and the 405 of a
    POST, as the API answers them (DEBUG on, as `make serve` runs, and off)."""
    import json

    text = " ".join((BASE_DIR / "docs" / "api.md").read_text(encoding="utf-8").split())
    shown = re.search(r"`/api/editions/` is a 404 `(\{.*?\})`, a POST a 405 `(\{.*?\})` with its `Allow`", text)
    missing, refused = (json.loads(body) for body in shown.groups())
    for debug in (True, False):
        settings.DEBUG = debug
        assert client.get("/api/editions/").json() == missing
        assert client.post("/api/works/").json() == client.post("/api/docs/").json() == refused


def test_the_question_marks_of_the_punctuated_editions():
    """docs/searching.md, "A character the transcription lost": the full-width ？ of the shared
    corpus, and the characters it stands after most, as the docs count them."""
    from collections import Counter

    after = Counter()
    for path in sorted((SHARED / "corpus").rglob("*.txt")):
        text = path.read_text(encoding="utf-8")
        after.update(m.group() for m in re.finditer(r"(?s).(?=？)", text))  # the character before each ？
    assert (sum(after.values()), after["乎"], after["也"], after["何"], after["哉"]) == (3392, 958, 306, 230, 114)
    assert says("docs/searching.md", f"({sum(after.values()):,} in the shared corpus: {after['乎']} after 乎, "
                                     f"{after['也']} after 也, {after['何']} after 何, {after['哉']} after 哉 …)")


@pytest.mark.slow
def test_what_each_kanripo_folder_holds_as_the_import_reads_it(capsys):
    """docs/importing.md's table of the four Kanripo folders (works, files, juans, sections,
    characters), the sum under it and the sections of the three folders cut for size (also in
    decision 0029) are what ``scripts/check_corpus.py`` prints for them, so that a change to how the
    importer reads headings or cuts sections cannot leave the docs' figures behind."""
    folders = ["kanripo", "kanripo-commentary", "kanripo-jingbu", "kanripo-references"]
    assert check_corpus.main([str(SHARED / "corpus" / name) for name in folders] + ["--quiet"]) == 0
    out = capsys.readouterr().out
    assert " s: ok 2858, skipped 6\n2864 passed, 0 failed; 1 damaged brackets kept as text" in out
    assert says("docs/importing.md",
                "files none is refused, every one writes back byte for byte, and 6 are a header and no text")
    assert says("docs/importing.md", "No file fails the structure check.")
    figures = {m[0]: m[1:] for m in FOLDER_FIGURES.findall(out)}
    assert sorted(figures) == [*folders, "together"]
    for name in folders:
        works, _editions, files, juans, sections, characters = figures[name]
        assert says("docs/importing.md", f"| {name} | {works} | {files} | {juans} | {sections} | {characters} |")
    _works, _editions, files, juans, sections, characters = figures["together"]
    assert says("docs/importing.md", f"({files} files, {juans} juans, {sections} sections, {characters} characters;")
    three = sum(int(figures[name][4].replace(",", "")) for name in folders[:3])
    assert says("docs/importing.md", f"(of {three:,} sections:")
    assert says("docs/decisions/0029-no-cut-for-size-inside-a-run-of-text.md",
                f"the three folders hold {three:,} sections")
