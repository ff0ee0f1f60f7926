"""Where a book's markup stands for one character (``characters.units``, decision 0033): a lost
character (an ASCII ``?`` in running text, Kanripo's mark where the transcription has no character)
and a description of a character Unicode lacks (``[門@里]``, CBETA's composition notation) are one
unit each. The contract: every backend (positional, Whoosh, the plain scan) gives the plain scan's
hits on texts holding both; KWIC, highlights, the plain counts and collation read them alike."""
from dataclasses import replace

import pytest

from characters.units import LOST, UNITS, cut, description_key
from search.matching import find_occurrences, match_passage
from search.query_units import query_units
from search.backends import SearchQuery, get_search_backend
from search.documents import documents_for_juan
from search.query import parse_query

from .conftest import SHARED
from .test_search_contract import BACKENDS, _hits, _reference

HANSHU = SHARED / "corpus" / "kanripo-commentary" / "KR2a0007" / "KR2a0007_100.txt"
ZHOULI = SHARED / "corpus" / "kanripo" / "KR1d0002" / "KR1d0002_012.txt"

#: Lines of the shared corpus (漢書 卷一百, 毛詩注疏 卷二十, 周禮 卷十二, 漢書 卷九十三, 禮記集說
#: 卷四十) and two of Latin text with ``?`` and ``[…]`` (a tls file's comment, as text here).
MARKED = {
    "m:1": "而流夜光也應龍?於潢汙魚黿媟之",
    "m:2": "匪鱣匪鮪?逃于淵𫝊鶉鵰也",
    "m:3": "里之中載師職曰園[門@里]二十而一近郊什",
    "m:4": "淳于長字子[孑*(焉-正+?)](○宋祁曰[孑*(焉-正+?)]越本",
    "m:5": "為?則不特因形移易矣",
    "m:6": "vol. I, p. ??? 龍於潢 [on a side] 園門二",
    "m:7": "廣[門@里]廣門?[車*犬]&KR1969;?",
}
MARKED_QUERIES = [
    "龍於潢", "龍?於", "應龍?於潢汙", "鮪逃", "鮪?逃", "?逃于淵", "為則", "為?則", "園門", "園?二", "[門@里]",
    "園[門@里]二", "門", "里", "門里", "子[孑*(焉-正+?)]", "[孑*(焉-正+?)]越", "焉", "廣?廣", "?[車*犬]", "車",
    "[車*犬]&KR1969;", "&KR1969;?", "p", "於潢", "門?", "[門@里] OR 龍?於", "龍 NEAR/1 於", "廣 -[車*犬]",
]


@pytest.fixture(params=sorted(BACKENDS))
def backend(request, settings, tmp_path, seed_juan):
    settings.SEARCH_BACKENDS = {"contract": {"BACKEND": BACKENDS[request.param], "PATH": tmp_path / "ix",
                                             "NAME": f"contract-{tmp_path.name}", "LOCK_TIMEOUT": 1.0}}
    b = get_search_backend("contract")
    doc = documents_for_juan(seed_juan)[0]
    docs = [replace(doc, doc_id=k, text=v, piece_starts=[(0, 0)]) for k, v in MARKED.items()]
    assert b.rebuild(docs) == 7
    return b, docs


def test_cut_reads_a_lost_character_and_a_description_as_one_unit_each():
    assert UNITS == 3
    door = description_key("[門@里]")
    assert 0x40000 <= ord(door) < 0xC0000 and door == description_key("[門@里]") != description_key("[門@龠]")
    assert cut("應龍?於潢") == ("應龍" + LOST + "於潢", [0, 1, 2, 3, 4], [1, 2, 3, 4, 5], ["", "", "", "", "", ""])
    assert cut("園[門@里]二") == ("園" + door + "二", [0, 1, 6], [1, 6, 7], ["", "", "", ""])
    # a ``?`` inside a description is part of it; one right after it is a lost character
    assert cut("子[孑*(焉-正+?)]?")[0] == "子" + description_key("[孑*(焉-正+?)]") + LOST
    # two lost characters side by side are two units; after Latin text ``?`` is punctuation
    assert cut("鮪??逃")[0] == "鮪" + LOST * 2 + "逃"
    assert cut("p. ??? 龍")[:2] == ("p龍", [0, 7]) and cut("WATSON??")[0] == "WATSON"
    # a bracketed title or Latin text in brackets is no description: its characters are units
    assert cut("[提要]")[0] == "提要" and cut("[on a side]")[0] == "onaside"
    assert cut("[門]@里")[0] == "門里"


def test_a_query_types_a_description_as_written_and_its_question_mark_is_no_wildcard():
    assert query_units("[門@里]").codes == (description_key("[門@里]"),)
    assert query_units("龍?於").codes == ("龍", None, "於")
    assert query_units("[孑*(焉-正+?)]?").codes == (description_key("[孑*(焉-正+?)]"), None)
    term = parse_query("[孑*(焉-正+?)]子").clauses[0].positives[0]
    assert (term.has_wildcard, term.literal_runs()) == (False, ["[孑*(焉-正+?)]子"])
    term = parse_query("[門@里]?二").clauses[0].positives[0]
    assert (term.has_wildcard, term.literal_runs()) == (True, ["[門@里]", "二"])
    # a description's ``*`` is no mistake for ``?`` (the hint a query that finds nothing gets)
    from search.hints import suggestions
    assert suggestions("[車*犬]") == [] and [s.query for s in suggestions("[車*犬]射*")] == ["[車*犬]射?"]


def test_no_phrase_reads_across_a_lost_character_and_no_component_is_found_inside_a_description():
    text = MARKED["m:1"]
    assert find_occurrences(text, "龍於潢") == [] and find_occurrences(text, "龍於潢", exact=True) == []
    assert find_occurrences(text, "龍?於") == [(6, 9)] and text[6:9] == "龍?於"
    text = MARKED["m:3"]
    assert find_occurrences(text, "園門") == find_occurrences(text, "門") == []
    assert find_occurrences(text, "[門@里]") == [(8, 13)] and find_occurrences(text, "園?二") == [(7, 14)]
    assert match_passage(parse_query("[門@里] OR 載師"), text, exact=True) == [(3, 5), (8, 13)]


@pytest.mark.parametrize("exact", [False, True])
def test_every_backend_reads_lost_and_described_characters_as_the_plain_scan(backend, exact):
    b, docs = backend
    ref = _reference(docs)
    for q in MARKED_QUERIES:
        query = SearchQuery(q, exact=exact)
        got, want = b.search(query), ref.search(query)
        assert (got.count, got.passages) == (want.count, want.passages), q
        assert _hits(got.hits) == _hits(want.hits), q
    counts = {q: b.search(SearchQuery(q, exact=exact)).count for q in MARKED_QUERIES}
    assert counts == {
        "龍於潢": 1, "龍?於": 1, "應龍?於潢汙": 1, "鮪逃": 0, "鮪?逃": 1, "?逃于淵": 1, "為則": 0, "為?則": 1,
        "園門": 1, "園?二": 2, "[門@里]": 2, "園[門@里]二": 1, "門": 2, "里": 1, "門里": 0, "子[孑*(焉-正+?)]": 1,
        "[孑*(焉-正+?)]越": 1, "焉": 0, "廣?廣": 1, "?[車*犬]": 1, "車": 0, "[車*犬]&KR1969;": 1, "&KR1969;?": 1,
        "p": 1, "於潢": 2, "門?": 2, "[門@里] OR 龍?於": 3, "龍 NEAR/1 於": 4, "廣 -[車*犬]": 0}, exact
    # 龍於潢 and 園門 are found only in the Latin line, where ``?`` is punctuation (m:6)
    assert [(h.doc_id, h.match) for h in b.search(SearchQuery("龍於潢", exact=exact)).hits] == [("m:6", "龍於潢")]
    assert [(h.doc_id, h.match) for h in b.search(SearchQuery("園門", exact=exact)).hits] == [("m:6", "園門")]
    assert [(h.doc_id, h.match) for h in b.search(SearchQuery("門?", exact=exact)).hits] == \
        [("m:6", "門二"), ("m:7", "門?")]


def test_a_description_is_one_character_of_a_kwic_line(backend):
    b, _ = backend
    hit = b.search(SearchQuery("園", context=2)).hits[0]
    assert (hit.doc_id, hit.before, hit.match, hit.after) == ("m:3", "職曰", "園", "[門@里]二")
    hit = b.search(SearchQuery("龍?於", context=3)).hits[0]
    assert (hit.before, hit.match, hit.after) == ("光也應", "龍?於", "潢汙魚")
    hit = b.search(SearchQuery("廣", context=1)).hits[1]
    assert (hit.before, hit.match, hit.after) == ("[門@里]", "廣", "門")   # the description: one character
    hit = b.search(SearchQuery("廣門", context=2)).hits[0]
    assert (hit.before, hit.match, hit.after) == ("廣[門@里]", "廣門", "?[車*犬]")


def test_the_plain_counts_read_them_as_the_docs_state():
    """``scripts/search_counts.py`` (``check_corpus --search-counts``) shares no code with the
    analysis: its own reading of a description and a lost character gives the same counts."""
    import sys

    from .conftest import BASE_DIR
    sys.path.insert(0, str(BASE_DIR / "scripts"))
    from search_counts import exact_count, folded_pattern, folded_text

    texts = list(MARKED.values())
    folded = "\n".join(folded_text(t) for t in texts)
    for q in ("龍於潢", "於潢", "園門", "門", "里", "焉", "車", "鮪逃", "為則", "廣門"):
        want = sum(len(find_occurrences(t, q)) for t in texts)
        assert len(folded_pattern(q).findall(folded)) == want, q
        assert exact_count(texts, q) == sum(len(find_occurrences(t, q, exact=True)) for t in texts), q
    assert [exact_count(texts, q) for q in ("門", "龍於潢", "焉")] == [2, 1, 0]


def test_collation_takes_a_description_for_one_character():
    from collation.align import align, tokens

    assert tokens("園[門@里]二") == ["園", "[門@里]", "二"]
    assert [(s.lemma, s.reading, s.cls) for s in align("載師職曰園[門@里]二十", "載師職曰園廛二十")] == \
        [("[門@里]", "廛", "character")]
    assert [(s.lemma, s.reading, s.cls, s.gaiji) for s in align("載師職曰園[門@里]二十", "載師職曰園二十")] == \
        [("[門@里]", "", "unencoded", True)]   # a character Unicode lacks, which the witness drops
    # a lost character is text: the witness's 潛 reads another character there, not added text
    assert [(s.lemma, s.reading, s.cls) for s in align("匪鱣匪鮪?逃于淵", "匪鱣匪鮪潛逃于淵")] == [("?", "潛", "character")]
    assert [(s.lemma, s.reading, s.cls) for s in align("鮪?逃", "鮪逃")] == [("?", "", "missing")]


def test_the_shared_corpus_marks_lost_characters_and_descriptions_so():
    """The rule follows how Kanripo's files are made: every description in ``[…]`` of the shared
    corpus is one of the forms ``DESCRIPTION`` reads (244, 20 forms, 20 keys), a bracket that is
    none is a title in a header or Latin text; an ASCII ``?`` outside a description stands in
    Chinese text (16, each where the print has a character) or in Latin comment lines (8),
    never as a question mark, which the punctuated editions write ``？``."""
    import re
    from collections import Counter

    from characters.units import DESCRIPTION, LOST_RUN

    described, others, lost, latin = Counter(), Counter(), [], 0
    for path in sorted((SHARED / "corpus").rglob("*.txt")):
        text = path.read_text(encoding="utf-8")
        if "?" not in text and "[" not in text:
            continue
        described.update(m.group() for m in DESCRIPTION.finditer(text))
        others.update(m.group() for m in re.finditer(r"\[[^\[\]\n]*\]", text) if not DESCRIPTION.fullmatch(m.group()))
        rest = DESCRIPTION.sub("", text)
        for m in LOST_RUN.finditer(rest):
            lost.append((path.name, rest.count("\n", 0, m.start()) + 1, len(m.group())))
        latin += rest.count("?") - sum(len(m.group()) for m in LOST_RUN.finditer(rest))
    assert (sum(described.values()), len(described), len({description_key(d) for d in described})) == (244, 20, 20)
    assert described.most_common(3) == [("[門@里]", 140), ("[孑*(焉-正+?)]", 31), ("[車*犬]", 22)]
    assert all(not re.search(r"[*/@+]", b) or " " in b for b in others), others
    assert sum(n for *_, n in lost) == 16 and latin == 8
    assert ("KR2a0007_100.txt", 571, 1) in lost and ("KR1c0004_020.txt", 480, 1) in lost
    # docs/searching.md gives these figures: every form with its count, the lost and the Latin `?`
    from .test_docs_figures import listed_counts, says

    assert listed_counts("docs/searching.md", "The shared corpus has", "(the held-back histories") == dict(described)
    assert says("docs/searching.md", f"The shared corpus has {sum(described.values())}, of {len(described)} forms:")
    assert says("docs/searching.md", f"the other {sum(others.values())} brackets of the shared corpus are labels")
    assert says("docs/searching.md", f"an ASCII `?` outside a description stands {sum(n for *_, n in lost)} times in "
                                     f"Chinese text and {latin} times in the Latin comment lines of the tls files")


@pytest.mark.django_db(transaction=True)
def test_a_lost_character_in_hanshu_is_found_by_a_wildcard_only(search_backend):
    """漢書 卷一百 line 571 prints 應龍潛於潢汙; Kanripo's transcription has ``?`` for 潛."""
    from reader.importers.loader import import_file
    from reader.models import Piece

    juan = import_file(HANSHU).juan
    texts = list(Piece.objects.filter(section__juan=juan).values_list("text", flat=True))
    assert sum(t.count("應龍?於潢汙") for t in texts) == 1
    for exact in (False, True):
        assert search_backend.search(SearchQuery("龍於潢", exact=exact)).count == 0
        hits = search_backend.search(SearchQuery("龍?於", exact=exact)).hits
        assert [h.match for h in hits] == ["龍?於"], exact
        assert search_backend.search(SearchQuery("?于篇籍", exact=exact)).count == 1   # line 1119: 潛于篇籍
        assert search_backend.search(SearchQuery("論語也于篇籍", exact=exact)).count == 0


@pytest.mark.django_db(transaction=True)
def test_a_description_in_zhouli_is_one_character_found_as_written(search_backend, client):
    from reader.importers.loader import import_file, render_source

    juan = import_file(ZHOULI).juan
    assert render_source(juan) == ZHOULI.read_text(encoding="utf-8")   # the stored text is the file's
    hits = search_backend.search(SearchQuery("[門@里]", context=2)).hits
    assert [(h.before, h.match, h.after, h.layer) for h in hits] == [
        ("曰園", "[門@里]", "二十", "commentary"), ("外反", "[門@里]", "直連", "readings")]   # 音義, after another
    assert search_backend.search(SearchQuery("園門")).count == 0
    assert search_backend.search(SearchQuery("園?二")).count == 1
    page = client.get(juan.get_absolute_url(), {"hl": "園[門@里]"}).content.decode()
    assert page.count("<mark>園[門@里]</mark>") == 2
