"""The behavioural contract every search backend passes (as django-modelsearch's BackendTests).

Each test runs against every backend in ``BACKENDS``: add a backend there and it must pass.
"""
import json
import re
import shutil
import unicodedata

import pytest
from django.test import override_settings

from search.backends import SearchQuery, get_search_backend
from search.documents import LAYER_GROUPS, documents_for_juan, layers_for

from .conftest import SEED
from .scan import layers_of, scan_count

BACKENDS = {
    "positional": "search.backends.positional.PositionalIndexBackend",
    "whoosh": "search.backends.whoosh.WhooshBackend",
    "memory": "search.backends.memory.MemoryBackend",
}


@pytest.fixture(scope="module", params=sorted(BACKENDS))
def built(request, tmp_path_factory, _seeded, django_db_blocker):
    """A backend of each kind in ``BACKENDS`` holding the seed juan (its 424 passages), built once
    for the module: ``(kind, its SEARCH_BACKENDS entry)``."""
    from reader.models import Juan

    kind = request.param
    params = {"BACKEND": BACKENDS[kind], "PATH": tmp_path_factory.mktemp(f"contract-{kind}") / "ix",
              "NAME": f"contract-built-{kind}", "LOCK_TIMEOUT": 1.0}
    with django_db_blocker.unblock():
        documents = documents_for_juan(Juan.objects.get(edition__slug="禮書綱目", number=10))
    with override_settings(SEARCH_BACKENDS={"contract": params}):
        assert get_search_backend("contract").rebuild(documents) == 424
    return kind, params


@pytest.fixture
def backend(built, settings, seed_juan):
    """The module's backend of the test's kind (``built``), holding the seed: for a test that
    only searches it (one that writes takes ``own_backend``)."""
    settings.SEARCH_BACKENDS = {"contract": built[1]}
    return get_search_backend("contract")


@pytest.fixture
def own_backend(built, settings, tmp_path, seed_juan):
    """A backend of the test's kind holding the seed, the test's own to write to: a copy of the
    module's index folder (the memory backend, which keeps its passages in the process, built
    again from the seed)."""
    kind, params = built
    own = {**params, "PATH": tmp_path / "ix", "NAME": f"contract-{tmp_path.name}"}
    if kind == "memory":
        settings.SEARCH_BACKENDS = {"contract": own}
        assert get_search_backend("contract").rebuild(documents_for_juan(seed_juan)) == 424
    else:
        shutil.copytree(params["PATH"], own["PATH"], symlinks=True)
        settings.SEARCH_BACKENDS = {"contract": own}
    b = get_search_backend("contract")
    assert b.document_count() == 424
    return b


@pytest.fixture(scope="module")
def scan():
    return layers_of(SEED.read_text(encoding="utf-8"))


def test_counts_equal_a_plain_scan(backend, scan):
    everything = [p for v in scan.values() for p in v]
    for phrase in ["鵠", "射", "主人", "司射", "卿大夫", "戒射宰戒", "鄉射記"]:
        assert backend.search(SearchQuery(phrase, exact=True)).count == scan_count(everything, phrase), phrase


def test_layers(backend, scan):
    assert backend.search(SearchQuery("鵠", layers=LAYER_GROUPS["classic"])).count == scan_count(scan["text"], "鵠") == 2
    assert backend.search(SearchQuery("鵠", layers=LAYER_GROUPS["notes"])).count == scan_count(scan["note"], "鵠") == 19
    assert backend.search(SearchQuery("君", layers=LAYER_GROUPS["records"])).count == \
        scan_count(scan["record"] + scan["record_note"], "君")
    assert backend.search(SearchQuery("取矢視算", layers=LAYER_GROUPS["titles"])).count == 2


def test_hits_are_stored_text_in_text_order(backend, seed_text):
    result = backend.search(SearchQuery("君尊"))
    order = [h.text_order for h in result.hits]
    assert order == sorted(order)
    for h in result.hits:
        assert h.before + h.match + h.after in seed_text


def test_main_text_reads_across_notes(backend):
    hit = backend.search(SearchQuery("戒射宰戒", layers=LAYER_GROUPS["classic"])).hits[0]
    assert (hit.section_position, hit.piece_position, hit.match) == (1, 2, "戒射宰戒")


def test_folding_and_exact(backend):
    folded = backend.search(SearchQuery("鼓"))
    assert {h.match for h in folded.hits} == {"鼓", "鼔"}
    exact = backend.search(SearchQuery("鼓", exact=True))
    assert {h.match for h in exact.hits} == {"鼓"}
    assert folded.count > exact.count


def test_query_language(backend):
    assert backend.search(SearchQuery("大射 鵠")).count == 0
    both = backend.search(SearchQuery("鵠 OR 乏")).count
    assert both == backend.search(SearchQuery("鵠")).count + backend.search(SearchQuery("乏")).count
    assert backend.search(SearchQuery("射?獲", exact=True)).count == \
        backend.search(SearchQuery("射?獲", exact=True, layers=LAYER_GROUPS["all"])).count > 0


def test_filters(backend, seed_juan):
    assert backend.search(SearchQuery("鵠", juan_number=9)).count == 0
    assert backend.search(SearchQuery("鵠", work_id=seed_juan.edition_id)).count == 21


def test_replace_and_remove_juan(own_backend, seed_juan):
    docs = documents_for_juan(seed_juan)
    own_backend.replace_juan(seed_juan.pk, [d for d in docs if d.layer == "title"])
    assert own_backend.search(SearchQuery("鵠")).count == 0
    assert own_backend.search(SearchQuery("取矢視算")).count == 2
    assert own_backend.juan_ids() == {seed_juan.pk}
    own_backend.remove_juan(seed_juan.pk)
    assert own_backend.document_count() == 0
    assert own_backend.search(SearchQuery("取矢視算")).count == 0


def _reference(documents):
    """The plain-scan backend over the same documents: the answer every backend must give."""
    from search.backends.memory import MemoryBackend

    ref = MemoryBackend("reference", {"NAME": f"reference-{id(documents)}"})
    ref.rebuild(documents)
    return ref


def _hits(hits):
    return [(h.doc_id, h.start, h.end, h.piece_position, h.before, h.match, h.after, h.passage_hits) for h in hits]


@pytest.mark.parametrize("sort", ["text", "relevance"])
def test_every_hit_and_its_order_equal_a_plain_scan(backend, seed_juan, sort):
    ref = _reference(documents_for_juan(seed_juan))
    for q in ["之", "射", "主人", "大射 OR 鄉射", "射 -主人", "侯 鵠", "射?獲", "大射 射之", "公 卿大夫 OR 賓"]:
        query = SearchQuery(q, sort=sort)
        got, want = backend.search(query), ref.search(query)
        assert (got.count, got.passages) == (want.count, want.passages), q
        assert _hits(got.hits) == _hits(want.hits), q
        for start in (0, 20, 35, got.count - 7):  # pages, as the views slice them
            assert _hits(got.hits[start:start + 20]) == _hits(want.hits[start:start + 20]), (q, start)
        for part in (slice(None, None, -1), slice(10, 0, -3), slice(-5, None), slice(3, 40, 7)):
            assert _hits(got.hits[part]) == _hits(want.hits[part]), (q, part)
        assert _hits([got.hits[-1], got.hits[0]]) == _hits([want.hits[-1], want.hits[0]]), q
        assert got.by_juan() == want.by_juan() and got.by_section() == want.by_section(), q
        assert got.section_counts() == want.section_counts(), q  # the heads the rows are made from


def test_distribution_rows_have_their_keys_in_order_and_are_new_on_every_call(backend):
    results = backend.search(SearchQuery("射"))
    juans, sections = results.by_juan(), results.by_section()
    assert [list(r) for r in juans] == [["work_id", "work_slug", "work_title", "juan", "juan_label", "count"]]
    assert {tuple(r) for r in sections} == {("work_id", "work_slug", "work_title", "juan", "juan_label", "section",
                                              "title", "juan_id", "chapter_id", "count")}
    assert (juans[0]["juan"], juans[0]["count"], len(sections), sum(r["count"] for r in sections)) == (10, 326, 31, 326)
    for row in juans + sections:  # the API deletes what it does not give; a later call is whole again
        del row["work_slug"]
    assert "work_slug" in results.by_juan()[0]
    assert all("work_slug" in r for r in results.by_section())


def test_juan_counts_are_the_rows_by_juan_as_heads_and_counts(backend):
    """``juan_counts()`` (what the API writes its distribution from, api.distribution) is
    ``by_juan()`` as two lists; a juan's head is equal in every search."""
    for q in ["射", "鵠", "大射 OR 鄉射", "獲 -釋獲", "無此字句"]:
        results = backend.search(SearchQuery(q))
        heads, counts = results.juan_counts()
        assert [{**dict(zip(["work_id", "work_slug", "work_title", "juan", "juan_label"], head)), "count": count}
                for head, count in zip(heads, counts)] == results.by_juan(), q
        assert all(type(c) is int for c in counts), q
    heads, counts = backend.search(SearchQuery("射")).juan_counts()
    assert (heads, counts) == ([(heads[0][0], "禮書綱目", "禮書綱目", 10, "卷十")], [326])
    assert backend.search(SearchQuery("鵠")).juan_counts() == (heads, [21])
    assert backend.search(SearchQuery("無此字句")).juan_counts() == ([], [])


def test_overlapping_occurrences_are_counted_left_to_right(own_backend, seed_juan):
    doc = documents_for_juan(seed_juan)[0]
    from dataclasses import replace

    docs = [replace(doc, doc_id="x:1", text="之之之之之乎之之"), replace(doc, doc_id="x:2", text="大射之射之"),
            replace(doc, doc_id="x:3", text="射\x00射")]  # a NUL in stored text is a control character, not a boundary
    own_backend.rebuild(docs)
    ref = _reference(docs)
    for q in ["之之", "之之之", "之?之", "射之 大射", "之 之之", "射?射", "射", "射射"]:
        got, want = own_backend.search(SearchQuery(q)), ref.search(SearchQuery(q))
        assert [(h.doc_id, h.start, h.end) for h in got.hits] == [(h.doc_id, h.start, h.end) for h in want.hits], q
    assert [(h.start, h.end) for h in own_backend.search(SearchQuery("之之")).hits] == [(0, 2), (2, 4), (6, 8)]
    assert [(h.doc_id, h.match) for h in own_backend.search(SearchQuery("射?射")).hits] == [("x:2", "射之射")]
    # a control character is no character: like punctuation, it does not block a match
    assert [(h.doc_id, h.match) for h in own_backend.search(SearchQuery("射射")).hits] == [("x:3", "射\x00射")]


def test_juan_ids_filter(backend, seed_juan):
    assert backend.search(SearchQuery("鵠", juan_ids=frozenset({seed_juan.pk}))).count == 21
    assert backend.search(SearchQuery("鵠", juan_ids=frozenset({seed_juan.pk + 1000}))).count == 0


def _plain_occurrences(text, phrase):
    """Non-overlapping occurrences of ``phrase`` in ``text``, left to right, by str.find."""
    out, i = [], text.find(phrase)
    while i >= 0:
        out.append((i, i + len(phrase)))
        i = text.find(phrase, i + len(phrase))
    return out


def _plain_near(documents, left, right, distance):
    """``left NEAR/distance right`` by a plain scan of every passage, written apart from the
    engine: {doc_id: sorted spans of the occurrences that have a partner close enough}."""
    out = {}
    for d in documents:
        a, b = _plain_occurrences(d.text, left), _plain_occurrences(d.text, right)
        kept = set()
        for x in a:
            for y in b:
                gap = max(x[0], y[0]) - min(x[1], y[1])
                if x != y and gap <= distance:
                    kept.update((x, y))
        if kept:
            spans, end = [], -1
            for s, e in sorted(kept, key=lambda se: (se[0], -se[1])):
                if s >= end:
                    spans.append((s, e))
                    end = e
            out[d.doc_id] = spans
    return out


@pytest.mark.parametrize("left,right,distance", [
    ("射", "侯", 3), ("大射", "君", 6), ("主人", "賓", 10), ("賓", "主人", 0), ("公", "公", 2), ("司射", "射", 1), ("鵠", "正", 5)])
def test_near_equals_a_plain_scan(backend, seed_juan, left, right, distance):
    documents = documents_for_juan(seed_juan)
    want = _plain_near(documents, left, right, distance)
    result = backend.search(SearchQuery(f"{left} NEAR/{distance} {right}", exact=True))
    got = {}
    for h in result.hits:
        got.setdefault(h.doc_id, []).append((h.start, h.end))
    assert got == want
    assert result.passages == len(want)
    assert result.count == sum(len(v) for v in want.values()) > 0


@pytest.mark.parametrize("sort", ["after", "before"])
def test_concordance_sorts_equal_a_sort_computed_here(backend, seed_juan, sort):
    from characters.folding import fold

    ref = _reference(documents_for_juan(seed_juan))
    for q in ["鵠", "射", "大射 OR 鄉射", "射?獲", "侯 鵠"]:
        in_text_order = list(backend.search(SearchQuery(q)).hits)
        position = {(h.doc_id, h.start): i for i, h in enumerate(in_text_order)}

        def chars(text):  # what search compares: punctuation and spaces left out (the seed has no gaiji)
            return "".join(c for c in text if unicodedata.category(c)[0] not in "PZC")

        def key(h):
            text = h.passage.text
            if sort == "after":
                return fold(chars(text[h.end:])[:20]), position[(h.doc_id, h.start)]
            return fold(chars(text[:h.start])[-20:])[::-1], position[(h.doc_id, h.start)]

        want = sorted(in_text_order, key=key)
        got = backend.search(SearchQuery(q, sort=sort))
        assert _hits(got.hits) == _hits(want), q
        assert _hits(got.hits[5:25]) == _hits(want[5:25]), q
        assert _hits(got.hits) == _hits(ref.search(SearchQuery(q, sort=sort)).hits), q
        assert got.by_juan() == ref.search(SearchQuery(q)).by_juan(), q
# -- commentary layers (issue 12) ---------------------------------------------------------------

#: Queries of the layer scans: the 注疏 juan's words, and the 卷首's: 孝經是知 reads 序跋 across the
#: readings printed inside it (``孝經(〇行下/孟反下)(同)是知``), 反 is in the readings, 御製 in a
#: preface's heading, 德行 and 上卷 in the entries of a 目錄, 世說新語 in its headings and text.
LAYER_QUERIES = ["王建國", "王", "建國辨方", "惟", "注", "疏", "音義", "記", "經", "按", "國",
                 "孝經", "孝經是知", "之", "反", "當", "御製", "德行", "上卷", "世說新語", "上"]


@pytest.fixture
def layered(own_backend, seed_juan):
    """The test's own backend holding the seed, a small 注疏 juan and two real 卷首 (tests/layered.py:
    孝經's 序, 世説新語's 序 and 目錄, front matter); the independent scan of them all."""
    from reader.importers.loader import load_document

    from .layered import front_documents, scan_layers, zhushu_document

    doc, fronts = zhushu_document(), front_documents()
    juans = [load_document(d, index=False).juan for d in (doc, *fronts)]
    own_backend.rebuild(documents_for_juan(seed_juan) + [d for juan in juans for d in documents_for_juan(juan)])
    seed = layers_of(SEED.read_text(encoding="utf-8"))
    scanned = scan_layers(doc)
    for front in fronts:
        for layer, passages in scan_layers(front).items():
            scanned[layer] += passages
    scanned["classic"] += seed["text"]
    scanned["commentary"] += seed["note"]
    for layer in ("record", "record_note", "title"):
        scanned[layer] += seed[layer]
    return own_backend, scanned


@pytest.mark.parametrize("choice", [["classic"], ["commentary"], ["readings"], ["subcommentary"], ["editorial"],
                                    ["smallprint"], ["paratext"], ["commentary", "subcommentary"],
                                    ["classic", "readings"], ["paratext", "readings"], ["notes"], ["records"],
                                    ["titles"], ["all"]])
def test_layer_counts_equal_a_plain_scan_of_that_layer(layered, choice):
    backend, scanned = layered
    layers = layers_for(choice)
    passages = [p for layer in layers for p in scanned[layer]]
    for phrase in LAYER_QUERIES:
        result = backend.search(SearchQuery(phrase, layers=layers, exact=True))
        assert result.count == scan_count(passages, phrase), (choice, phrase)
        assert {h.layer for h in result.hits} <= layers


def test_front_matter_is_searched_as_paratext(layered):
    """The two 卷首 (``tests/layered.py``) are 序跋 on every engine: 孝經's 序 read as one passage
    across the 13 readings and the note printed inside it, none of it the classic; the headings
    of 世説新語's 序 and the entries of its 目錄 each a passage of 序跋, its writer's where he signs
    (袁褧). The scan's figures are the books' own."""
    backend, scanned = layered
    assert [scan_count(scanned["paratext"], q) for q in ("孝經", "孝經是知", "當", "反", "德行", "世說新語")] == [
        2, 1, 3, 0, 1, 4]
    assert scan_count(scanned["readings"], "反") == 13
    hits = backend.search(SearchQuery("孝經是知", layers=layers_for("paratext"), exact=True)).hits
    assert [(h.layer, h.passage.layer_name, h.work_title, h.section_title, h.before[-4:], h.match, h.after[:4])
            for h in hits] == [("paratext", "序", "孝經", "唐玄宗皇帝御製", "春秋行在", "孝經是知", "孝者德之")]
    assert [backend.search(SearchQuery(q, layers=layers_for(choice))).count
            for q in ("孝經是知", "德行") for choice in ("classic", "notes", "titles", "all")] == [0, 0, 0, 1, 0, 0, 0, 1]
    hits = backend.search(SearchQuery("世說新語", layers=layers_for("paratext"), exact=True)).hits
    assert [(h.passage.commentator, h.before[-3:], h.after[:3]) for h in hits] == [
        ("袁褧", "刻", "序"), ("", "", "目錄"), ("", "", "目錄"), ("", "佳話爲", "極爲精")]


def test_layer_filter_in_the_zhushu_juan(layered):
    backend, _ = layered
    hits = backend.search(SearchQuery("王建國", layers=layers_for("commentary,subcommentary,readings"))).hits
    assert [(h.layer, h.section_position, h.piece_position, h.before, h.match, h.after) for h in hits
            if h.work_title.startswith("周禮")] == [
        ("commentary", 1, 2, "建立也", "王建國", ""), ("readings", 1, 4, "惟音維", "王建國", ""),
        ("subcommentary", 1, 7, "釋曰惟", "王建國", "者王建國"), ("subcommentary", 1, 7, "釋曰惟王建國者", "王建國", ""),
    ]
    # the classic is read across the commentary, readings and sub-commentary between its runs
    across = backend.search(SearchQuery("建國辨方", layers=layers_for("classic"))).hits
    assert [(h.layer, h.section_position, h.piece_position, h.match) for h in across] == [("classic", 1, 0, "建國辨方")]
    # marker words are labels: in no passage, so 疏 and 音義 are found only where the text has them
    for marker in ("疏", "音義", "注"):
        assert [h.layer for h in backend.search(SearchQuery(marker)).hits if h.work_title.startswith("周禮")] == \
            {"注": ["record_note"]}.get(marker, []), marker  # 注 is text only in the record's note 記注王
    # the seed's 經 label is still a title; its notes are commentary
    assert [h.layer for h in backend.search(SearchQuery("經", layers=layers_for("titles"))).hits] == ["title"]
    assert backend.search(SearchQuery("戒射宰戒", layers=layers_for("classic"))).count == 1
    assert backend.search(SearchQuery("戒射宰戒", layers=layers_for("commentary"))).count == 0





#: Passages full of what is not text (issue 13): punctuation, spaces, variation selectors,
#: zero-width characters, BOM, full-width forms, radicals and gaiji.
NOT_TEXT = {
    "n:1": "大射之儀，君有命。大射之儀君",
    "n:2": "葛\U000e0100城人，葛\ufe00城\u200b人",
    "n:3": "從豆&KR1969;聲，&KR1969;KR1969\x01也",
    "n:4": "ＡＢ１０，AB10 ⼤⻄ 大西",
    "n:5": "之早寡兮，七年\ufeff之早寡兮七年 之 早",
    "n:6": "&KR0221;&KR1969;&KR0221;",
}
NOT_TEXT_QUERIES = [
    "大射之儀君", "大射之儀，君", "儀,君", "儀 君", "君有命", "葛城", "葛\U000e0100城", "葛\u200b城", "城人",
    "從豆?聲", "&KR1969;", "KR1969", "豆?", "?也", "聲?KR", "AB10", "ＡＢ１０", "大西", "⼤⻄", "之早寡兮七年",
    "寡兮，七", "之\ufeff早", "&KR0221;?", "?&KR0221;", "之 早", "之 -早寡", "大射之儀君 OR 葛城",
]


@pytest.mark.parametrize("exact", [False, True])
def test_what_is_not_text_equals_a_plain_scan(own_backend, seed_juan, exact):
    from dataclasses import replace

    doc = documents_for_juan(seed_juan)[0]
    docs = [replace(doc, doc_id=k, text=v, piece_starts=[(0, 0)]) for k, v in NOT_TEXT.items()]
    own_backend.rebuild(docs)
    ref = _reference(docs)
    for q in NOT_TEXT_QUERIES:
        got, want = own_backend.search(SearchQuery(q, exact=exact)), ref.search(SearchQuery(q, exact=exact))
        assert (got.count, got.passages) == (want.count, want.passages), q
        assert _hits(got.hits) == _hits(want.hits), q


def _matches(backend, q, exact=False):
    return [(h.doc_id, h.match) for h in backend.search(SearchQuery(q, exact=exact)).hits]


def test_punctuation_spaces_and_invisibles_do_not_block_a_match(own_backend, seed_juan):
    from dataclasses import replace

    doc = documents_for_juan(seed_juan)[0]
    own_backend.rebuild([replace(doc, doc_id=k, text=v, piece_starts=[(0, 0)]) for k, v in NOT_TEXT.items()])
    assert _matches(own_backend, "大射之儀君") == [("n:1", "大射之儀，君"), ("n:1", "大射之儀君")]
    assert _matches(own_backend, "大射之儀君", exact=True) == [("n:1", "大射之儀君")]
    assert _matches(own_backend, "大射之儀，君", exact=True) == [("n:1", "大射之儀，君")]
    assert _matches(own_backend, "儀,君", exact=True) == []       # the exact mode compares code points
    assert _matches(own_backend, "葛城") == [("n:2", "葛\U000e0100城"), ("n:2", "葛\ufe00城")]
    assert _matches(own_backend, "葛城", exact=True) == [("n:2", "葛\U000e0100城"), ("n:2", "葛\ufe00城")]
    assert _matches(own_backend, "葛\u200b城\ufeff人") == [("n:2", "葛\U000e0100城人"), ("n:2", "葛\ufe00城\u200b人")]
    assert _matches(own_backend, "葛") == [("n:2", "葛\U000e0100"), ("n:2", "葛\ufe00")]  # the selector stays with it
    assert _matches(own_backend, "之早寡兮七年") == [("n:5", "之早寡兮，七年"), ("n:5", "之早寡兮七年")]
    assert _matches(own_backend, "之\ufeff早寡兮七年", exact=True) == [("n:5", "之早寡兮七年")]


def test_width_forms_and_radicals_fold(own_backend, seed_juan):
    from dataclasses import replace

    doc = documents_for_juan(seed_juan)[0]
    own_backend.rebuild([replace(doc, doc_id=k, text=v, piece_starts=[(0, 0)]) for k, v in NOT_TEXT.items()])
    assert _matches(own_backend, "AB10") == [("n:4", "ＡＢ１０"), ("n:4", "AB10")]
    assert _matches(own_backend, "ＡＢ１０") == [("n:4", "ＡＢ１０"), ("n:4", "AB10")]
    assert _matches(own_backend, "ＡＢ１０", exact=True) == [("n:4", "ＡＢ１０")]
    assert _matches(own_backend, "大西") == [("n:4", "⼤⻄"), ("n:4", "大西")]
    assert _matches(own_backend, "⼤⻄") == [("n:4", "⼤⻄"), ("n:4", "大西")]
    assert _matches(own_backend, "大西", exact=True) == [("n:4", "大西")]


def test_a_gaiji_is_one_character(own_backend, seed_juan):
    from dataclasses import replace

    doc = documents_for_juan(seed_juan)[0]
    own_backend.rebuild([replace(doc, doc_id=k, text=v, piece_starts=[(0, 0)]) for k, v in NOT_TEXT.items()])
    assert _matches(own_backend, "從豆?聲") == [("n:3", "從豆&KR1969;聲")]
    assert _matches(own_backend, "&KR1969;") == [("n:3", "&KR1969;"), ("n:3", "&KR1969;"), ("n:6", "&KR1969;")]
    # its letters alone match only the letters written as text, never inside the entity
    assert _matches(own_backend, "KR1969") == [("n:3", "KR1969")]
    assert _matches(own_backend, "?也") == [("n:3", "\x01也")]   # U+0001 is one (unreadable) character
    # 〓, which pages and citations write for a character they cannot show, stands for any one, as ? does:
    # a passage copied from a page finds its place
    assert _matches(own_backend, "從豆〓聲") == [("n:3", "從豆&KR1969;聲")]
    assert _matches(own_backend, "〓也") == [("n:3", "\x01也")]
    assert _matches(own_backend, "&KR0221;?") == [("n:6", "&KR0221;&KR1969;")]
    hit = own_backend.search(SearchQuery("聲", context=2)).hits[0]
    # two characters each side as search reads them: the entity one, the comma taken along and counted none
    assert (hit.before, hit.after) == ("豆&KR1969;", "，&KR1969;K")


#: 楚辭補注 (KR4a0003) 卷十 〈大招〉, the classic's passage around 雜&KR1175;鶬只 (line 163 of
#: KR4a0003_010.txt; KR1175 is a bird Unicode lacks), and the same words punctuated.
DAZHAO = "孔雀盈園畜鸞皇只鵾鴻羣晨雜&KR1175;鶬只鴻鵠代遊曼鷫鷞只"
DAZHAO_PUNCTUATED = "孔雀盈園，畜鸞皇只。鵾鴻羣晨，雜&KR1175;鶬只。鴻鵠代遊，曼鷫鷞只。"


def test_a_kwic_context_takes_a_gaiji_whole_or_not_at_all(own_backend, seed_juan):
    """A hit list showed 「R1175;鶬只[鴻鵠]」 for 鴻鵠 in 楚辭補注 卷十: a context that began inside
    the entity. Every engine's snippet counts the entity as one character and begins and ends
    at a whole one, at every width, in plain and in punctuated text."""
    from dataclasses import replace

    doc = documents_for_juan(seed_juan)[0]
    own_backend.rebuild([replace(doc, doc_id=k, text=v, piece_starts=[(0, 0)])
                         for k, v in (("d:1", DAZHAO), ("d:2", DAZHAO_PUNCTUATED))])

    def kwic(q, width):
        return [(h.doc_id, *h.kwic()) for h in own_backend.search(SearchQuery(q, context=width)).hits]

    assert kwic("鴻鵠", 2) == [("d:1", "鶬只", "鴻鵠", "代遊"), ("d:2", "鶬只。", "鴻鵠", "代遊")]
    assert kwic("鴻鵠", 3) == [("d:1", "&KR1175;鶬只", "鴻鵠", "代遊曼"), ("d:2", "&KR1175;鶬只。", "鴻鵠", "代遊，曼")]
    assert kwic("鴻鵠", 8) == [("d:1", "鵾鴻羣晨雜&KR1175;鶬只", "鴻鵠", "代遊曼鷫鷞只"),
                              ("d:2", "鵾鴻羣晨，雜&KR1175;鶬只。", "鴻鵠", "代遊，曼鷫鷞只")]
    assert kwic("鴻鵠", 15) == [("d:1", "雀盈園畜鸞皇只鵾鴻羣晨雜&KR1175;鶬只", "鴻鵠", "代遊曼鷫鷞只"),
                               ("d:2", "雀盈園，畜鸞皇只。鵾鴻羣晨，雜&KR1175;鶬只。", "鴻鵠", "代遊，曼鷫鷞只")]
    assert kwic("晨雜", 1) == [("d:1", "羣", "晨雜", "&KR1175;"), ("d:2", "羣", "晨，雜", "&KR1175;")]
    assert kwic("晨雜", 2) == [("d:1", "鴻羣", "晨雜", "&KR1175;鶬"), ("d:2", "鴻羣", "晨，雜", "&KR1175;鶬")]
    for q in ("只", "鴻", "鶬", "雜", "&KR1175;"):  # every width: the entity whole or not at all
        for width in range(1, 21):
            for _, before, _, after in kwic(q, width):
                assert not set(re.sub("&KR1175;", "", before + after)) & set("&;KR1175"), (q, width, before, after)


#: A private-use character of the text, the gaiji whose search key is its code point and the
#: character that gaiji is read as: 春秋左傳 (KR1e0001_005) writes 子玉使伯（U+F01DA）, and Kanripo's
#: ``&KR0474;`` (read 釋) has the key U+F01DA (``characters.gaiji.gaiji_key``); U+10F000 is the
#: first reading key of an ambiguous simplified form (``characters.simplified.KEY_BASE``).
PRIVATE_USE = {
    "p:1": "子玉使伯（\U000f01da）",
    "p:2": "子玉使伯（&KR0474;）",
    "p:3": "\U000f01da&KR0474;釋\U0010f000\U000f01da",
}


@pytest.mark.parametrize("exact", [False, True])
def test_a_private_use_character_is_never_the_gaiji_whose_key_is_its_code_point(own_backend, seed_juan, exact):
    """A private-use character of the text is found by itself only, and a gaiji by its entity (and
    the character it is read as) only: U+F01DA was indexed as the key of ``&KR0474;``, so each
    found the other, and 釋 found the text's U+F01DA (``characters.units.own_code``). Every
    engine finds what the plain scan finds, hit by hit."""
    from dataclasses import replace

    from characters.simplified import KEY_BASE, reading_of_key

    doc = documents_for_juan(seed_juan)[0]
    docs = [replace(doc, doc_id=k, text=v, piece_starts=[(0, 0)]) for k, v in PRIVATE_USE.items()]
    own_backend.rebuild(docs)
    pua, entity = "\U000f01da", "&KR0474;"
    assert _matches(own_backend, pua, exact) == [("p:1", pua), ("p:3", pua), ("p:3", pua)]
    assert _matches(own_backend, entity, exact) == [("p:2", entity), ("p:3", entity)] + ([] if exact else [("p:3", "釋")])
    assert _matches(own_backend, "釋", exact) == ([] if exact else [("p:2", entity), ("p:3", entity)]) + [("p:3", "釋")]
    assert _matches(own_backend, pua + entity, exact) == [("p:3", pua + entity)]
    assert _matches(own_backend, entity + pua, exact) == []
    assert _matches(own_backend, "伯" + pua, exact) == ([] if exact else [("p:1", "伯（" + pua)])
    assert _matches(own_backend, "\U0010f000", exact) == [("p:3", "\U0010f000")]
    assert _matches(own_backend, reading_of_key(chr(KEY_BASE)), exact) == []  # the form whose key U+10F000 is
    assert _matches(own_backend, "釋?" + pua, exact) == [("p:3", "釋\U0010f000" + pua)]
    ref = _reference(docs)
    for q in (pua, entity, "釋", pua + entity, "伯" + pua, "?" + pua, pua + "?", "\U0010f000", "使伯?"):
        got, want = own_backend.search(SearchQuery(q, exact=exact)), ref.search(SearchQuery(q, exact=exact))
        assert (got.count, got.passages, _hits(got.hits)) == (want.count, want.passages, _hits(want.hits)), q


def test_commentator_filter(own_backend, seed_juan):
    """``SearchQuery.commentator`` keeps the passages of one commentator (issue 27): a 楚辭
    juan whose notes hold 王逸's 章句 and 洪興祖's 補注; counts equal a plain count."""
    from reader.importers.loader import import_file
    from reader.models import Piece
    from search.signals import muted

    from .conftest import SHARED

    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4a0002" / "KR4a0002_001.txt").juan
    own_backend.rebuild(documents_for_juan(seed_juan) + documents_for_juan(juan))
    for who, phrase in (("王逸", "言"), ("洪興祖", "曰"), ("王逸", "屈原")):
        expected = sum(p.text.count(phrase) for p in Piece.objects.filter(section__juan=juan, commentator=who))
        result = own_backend.search(SearchQuery(phrase, exact=True, commentator=who))
        assert result.count == expected > 0, (who, phrase)
    assert own_backend.search(SearchQuery("之", commentator="鄭玄")).count == 0
    assert own_backend.search(SearchQuery("鵠", commentator=None)).count == \
        own_backend.search(SearchQuery("鵠")).count > 0


def test_layer_counts_and_the_author_filter_equal_a_plain_scan(own_backend, seed_juan):
    """``layer_counts()`` (the hits per juan, layer and commentator: what the author facet of
    ``search.facets`` counts) equals a plain count of each passage, grouped by its edition, juan,
    layer and commentator; ``SearchQuery.written_by`` (the author filter) keeps the passages of
    the people named, the main text (classic, records, titles) naming nobody of its ``main``
    editions and every note naming nobody of its ``unnamed`` ones: a 楚辭 juan whose notes
    hold 王逸's 章句 and 洪興祖's 補注 (and whose prefaces are 王逸's and 劉勰's front matter), 楚辭補注's
    卷首 (its 四庫 editors' passage names nobody), and the seed, whose notes name nobody."""
    from collections import Counter

    from reader.importers.loader import import_file
    from search.backends import WrittenBy
    from search.documents import NOBODYS_UNSIGNED
    from search.signals import muted

    from .conftest import SHARED

    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4a0002" / "KR4a0002_001.txt").juan
        front = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4a0003" / "KR4a0003_000.txt").juan
    documents = documents_for_juan(seed_juan) + documents_for_juan(juan) + documents_for_juan(front)
    # 楚辭補注 卷首's editors' passage (EDITORIAL, naming nobody) is nobody known's (decision 0044);
    # the prefaces of 楚辭 卷一 are their writers' (王逸 3, 劉勰 1)
    assert sum(d.text.count("曰") for d in documents if d.layer in NOBODYS_UNSIGNED and not d.commentator) == 1
    assert sum(d.text.count("曰") for d in documents if d.layer in NOBODYS_UNSIGNED and d.commentator) == 4
    own_backend.rebuild(documents)
    ref = _reference(documents)
    main_layers = {"classic", "record", "title"}
    seed, chuci, buzhu = seed_juan.edition_id, juan.edition_id, front.edition_id
    for phrase in ("曰", "之", "言", "射", "也"):
        plain = Counter()
        for d in documents:
            if d.layer != "annotation":
                plain[(d.work_id, d.juan_number, d.layer, d.commentator)] += d.text.count(phrase)
        heads, counts = own_backend.search(SearchQuery(phrase, exact=True)).layer_counts()
        assert dict(zip(heads, counts)) == {k: n for k, n in plain.items() if n}, phrase
        assert (heads, counts) == ref.search(SearchQuery(phrase, exact=True)).layer_counts(), phrase  # the order
        # ``editors``: the editions whose editors' layer (naming nobody) is kept, as a dynasty filter
        # keeps a 四庫 copy's (search.facets.editors_dynasty)
        for names, main, unnamed, editors in (
                ((), (seed,), (), ()), (("王逸",), (), (), ()), (("王逸", "洪興祖"), (chuci,), (), ()),
                (("洪興祖",), (chuci,), (seed,), ()), ((), (), (seed, chuci), ()), ((), (), (), (buzhu,)),
                (("王逸",), (), (seed,), (seed, buzhu)), ((), (seed,), (), (seed,))):
            want = sum(n for (edition, _, layer, who), n in plain.items()
                       if ((who in names) if who else (edition in main) if layer in main_layers
                           else (edition in editors) if layer == "editorial"
                           else (edition in unnamed and layer not in NOBODYS_UNSIGNED)))
            got = own_backend.search(SearchQuery(phrase, exact=True,
                                                 written_by=WrittenBy(names, main, unnamed, editors)))
            assert got.count == want, (phrase, names, main, unnamed, editors)
            assert sum(got.layer_counts()[1]) == want
        # ``quoted``: a quoted man's part of a collected commentary is kept when ``collected``, whatever
        # ``names`` hold (docs/decisions/0058); here 楚辭補注's two commentators stand for such parts
        quoted = ((chuci, "洪興祖"), (chuci, "王逸"))
        for names, collected in ((("王逸",), ((chuci, "洪興祖"),)), ((), quoted), (("王逸", "洪興祖"), ())):
            want = sum(n for (edition, _, layer, who), n in plain.items()
                       if who and (((edition, who) in collected) if (edition, who) in quoted else who in names))
            got = own_backend.search(SearchQuery(phrase, exact=True, written_by=WrittenBy(
                names, quoted=quoted, collected=collected)))
            assert got.count == want == sum(got.layer_counts()[1]), (phrase, names, collected)
        editors_only = own_backend.search(SearchQuery(phrase, exact=True, written_by=WrittenBy(editors=(buzhu,))))
        assert editors_only.count == sum(n for (edition, _, layer, who), n in plain.items()
                                         if edition == buzhu and layer == "editorial" and not who), phrase
    # 楚辭補注's one editorial 曰, kept by its edition's editors alone
    kept = own_backend.search(SearchQuery("曰", exact=True, written_by=WrittenBy(editors=(buzhu,))))
    assert [(h.layer, h.commentator) for h in kept.hits] == [("editorial", "")]
    # 楚辭 卷一's classic names its writer, 屈原, whom 王逸's 序 names (decision 0106): kept by his name, not by
    # its edition's unnamed main text
    kept = own_backend.search(SearchQuery("曰", exact=True, written_by=WrittenBy(("洪興祖",), (chuci,))))
    assert {(h.layer, h.commentator) for h in kept.hits} == {("commentary", "洪興祖")}
    kept = own_backend.search(SearchQuery("曰", exact=True, written_by=WrittenBy(("洪興祖", "屈原"), (chuci,))))
    assert {(h.layer, h.commentator) for h in kept.hits} == {("classic", "屈原"), ("commentary", "洪興祖")}
    assert own_backend.search(SearchQuery("之", exact=True, written_by=WrittenBy())).count == 0
    assert own_backend.search(SearchQuery("無此字句")).layer_counts() == ([], [])


def test_every_hit_names_its_passages_commentator(own_backend, seed_juan):
    """A hit carries who wrote its passage (``Hit.commentator``: the search page and the API
    name 李善 or 呂延濟 beside 注): in a 楚辭 juan every hit's commentator is its passage's
    (``SearchDocument.commentator``), 王逸 and 洪興祖 both among them, "" for the classic's."""
    from reader.importers.loader import import_file
    from search.signals import muted

    from .conftest import SHARED

    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4a0002" / "KR4a0002_001.txt").juan
    documents = documents_for_juan(juan)
    own_backend.rebuild(documents_for_juan(seed_juan) + documents)
    written_by = {d.doc_id: d.commentator for d in documents}
    hits = own_backend.search(SearchQuery("曰", exact=True, juan_ids=frozenset({juan.id}))).hits
    assert [h.commentator for h in hits] == [written_by[h.doc_id] for h in hits]
    assert {"王逸", "洪興祖"} <= {h.commentator for h in hits}
    filtered = own_backend.search(SearchQuery("言", exact=True, commentator="洪興祖")).hits
    assert len(filtered) > 0 and {h.commentator for h in filtered} == {"洪興祖"}


#: A query of a one-to-many simplified form, and what it finds in a simplified edition (the form
#: itself too) and in a traditional one (itself only): 當 finds 当 (in this book always read 當), 后
#: every 后, 于 every 于; in the traditional seed 后 and 于 stay apart. (後 and 於 find only the
#: places of 后 and 于 read so or undecided: below.)
SCRIPT_QUERIES = {"當": ("当當", "當"), "后": ("后", "后"), "于": ("于", "于"), "发": ("发發髮", "发發髮")}


@pytest.fixture
def scripted(own_backend, db):
    from characters.simplified import SIMPLIFIED
    from reader.importers.loader import import_file

    from .conftest import SHARED

    juan = import_file(SHARED / "corpus" / "other" / "yili_shigong_zengzhu_simplified.txt").juan
    assert juan.edition.script == SIMPLIFIED
    from reader.models import Juan

    docs = [d for j in Juan.objects.all() for d in documents_for_juan(j)]
    own_backend.rebuild(docs)
    return own_backend, juan, docs


def test_a_simplified_edition_is_found_by_every_character_its_forms_stand_for(scripted):
    backend, simplified_juan, docs = scripted
    for query, (in_simplified, in_traditional) in SCRIPT_QUERIES.items():
        for d_script, chars in (("simplified", in_simplified), ("traditional", in_traditional)):
            scanned = sum(ch in chars for d in docs if d.script == d_script for ch in d.text)
            editions = {d.work_id for d in docs if d.script == d_script}
            result = backend.search(SearchQuery(query, edition_ids=tuple(editions)))
            assert result.count == scanned, (query, d_script)
    counts = {q: backend.search(SearchQuery(q, edition_ids=(simplified_juan.edition_id,))).count for q in "當後於"}
    # 後: the 36 后 that Kanripo's traditional edition of the book prints 後 (not the 5 of 夏后氏);
    # 於: the 于 read as 於 or left undecided by their neighbours (of 133: 67 are 於 in that edition)
    assert counts == {"當": 85, "後": 36, "於": 97}
    # the seed keeps 后 (8) and 於 (339) apart from 後 (31) and 于 (1)
    seed = {d.work_id for d in docs if d.script == "traditional"}
    assert [backend.search(SearchQuery(q, edition_ids=tuple(seed))).count for q in "后後于於"] == [8, 31, 1, 339]
    # a phrase across an ambiguous form; the exact mode compares code points
    assert backend.search(SearchQuery("當階", edition_ids=(simplified_juan.edition_id,))).count == \
        sum(d.text.count("当阶") for d in docs if d.script == "simplified")
    assert backend.search(SearchQuery("後", exact=True, edition_ids=(simplified_juan.edition_id,))).count == 0
    assert backend.search(SearchQuery("后", exact=True, edition_ids=(simplified_juan.edition_id,))).count == 41


@pytest.mark.parametrize("engine", ["positional", "whoosh"])
def test_a_write_of_other_juans_keeps_a_simplified_editions_readings(engine, settings, tmp_path, seed_juan):
    """An index written juan by juan (the simplified edition imported, then another juan written
    again: an accepted correction, another import) finds 後, 於 and 當 in the simplified edition
    as a rebuild does: the positional engine rebuilds its newest segments with each write, and
    read back their passages with no script, so 後 found 0 of 36 after the second write."""
    from django.db.models import F

    from characters.simplified import SIMPLIFIED
    from reader.importers.loader import import_file
    from reader.models import Juan
    from search.indexing import reindex_juans

    from .conftest import SHARED

    settings.SEARCH_BACKENDS = {"w": {"BACKEND": BACKENDS[engine], "PATH": tmp_path / "ix", "LOCK_TIMEOUT": 1.0}}
    b = get_search_backend("w")
    assert b.rebuild(documents_for_juan(seed_juan)) == 424
    other = SHARED / "corpus" / "other"
    simplified = import_file(other / "yili_shigong_zengzhu_simplified.txt").juan
    assert simplified.edition.script == SIMPLIFIED
    reindex_juans(b, [(simplified.pk, None)])
    counts = {}
    for step in ("imported", "seed written again", "another work imported"):
        if step == "seed written again" and engine == "positional":
            # the simplified juan's segment names its script; one written before it did (the table
            # taken out here) is told by its reading keys: read as mixed, keyed the same
            segments = b._corpus().segments
            assert [s.scripts for s in segments] == [{simplified.pk: SIMPLIFIED}]
            table = json.loads((segments[0].path / "juans.json").read_text(encoding="utf-8"))
            del table["scripts"]
            (segments[0].path / "juans.json").write_text(json.dumps(table), encoding="utf-8")
            b._loaded.clear()  # as a process that loads that index: the segment is read from its files
            assert [s.scripts for s in b._corpus().segments] == [{simplified.pk: "mixed"}]
        if step == "seed written again":  # as an accepted correction does: a new version, on commit
            Juan.objects.filter(pk=seed_juan.pk).update(version=F("version") + 1)
            reindex_juans(b, [(seed_juan.pk, None)])
        elif step == "another work imported":
            reindex_juans(b, [(import_file(other / "lienu_zhuan_crlf.txt").juan.pk, None)])
        counts[step] = [b.search(SearchQuery(q, edition_ids=(simplified.edition_id,))).count for q in "後於當后于当"]
    assert counts == dict.fromkeys(counts, [36, 97, 85, 41, 133, 85])


def test_public_annotations_are_a_layer_of_their_own_searched_when_asked_for(own_backend, seed_juan):
    """A reader's accepted annotation is one passage of the ``annotation`` layer at the piece it
    annotates; the books' text (the default, ``all``) does not hold it; a revert removes it."""
    from django.contrib.auth.models import Group, User

    from corrections.workflow import accept, propose, revert

    people = []
    for name, role in (("annotator", "contributor"), ("chief", "editor"), ("deputy", "editor")):
        people.append(User.objects.create_user(name))
        people[-1].groups.add(Group.objects.get_or_create(name=role)[0])
    note = propose(people[0], seed_juan, kind="annotation", section=1, piece=3, start=8, end=9,
                   replacement="宰謂天官冢宰", reason="職官", tags=["office"])
    pending = propose(people[0], seed_juan, kind="annotation", section=1, piece=3, start=0, end=1,
                      replacement="未審之注天官", reason="r")
    accept(note, people[1])
    assert own_backend.rebuild(documents_for_juan(seed_juan)) == 425  # the seed's 424 passages and the annotation
    found = own_backend.search(SearchQuery("天官", layers=layers_for("annotation")))
    assert found.count == 1
    hit = found.hits[0]
    assert (hit.layer, hit.section_position, hit.piece_position, hit.before + hit.match + hit.after) == (
        "annotation", 1, 3, "宰謂天官冢宰")
    assert own_backend.search(SearchQuery("天官冢宰")).count == 0  # the books' text: by default
    assert own_backend.search(SearchQuery("天官冢宰", layers=LAYER_GROUPS["all"])).count == 0
    assert own_backend.search(SearchQuery("天官冢宰", layers=layers_for("classic,annotation"))).count == 1
    assert own_backend.search(SearchQuery("鵠")).count == \
        own_backend.search(SearchQuery("鵠", layers=layers_for("all"))).count
    assert own_backend.search(SearchQuery("未審之注", layers=layers_for("annotation"))).count == 0  # pending: not public
    revert(note, people[2], reason="誤")
    assert own_backend.rebuild(documents_for_juan(seed_juan)) == 424
    assert own_backend.search(SearchQuery("天官", layers=layers_for("annotation"))).count == 0
    assert pending.status == "pending"


def test_one_backend_per_alias_made_again_when_its_settings_change(settings, tmp_path):
    """``get_search_backend`` answers the same object while the alias's settings stay equal, a new
    one when ``SEARCH_BACKENDS`` is replaced (``settings``, ``override_settings``) or edited in place."""
    settings.SEARCH_BACKENDS = {"a": {"BACKEND": BACKENDS["memory"], "NAME": "a"}}
    first = get_search_backend("a")
    assert get_search_backend("a") is first and first.name == "a"
    settings.SEARCH_BACKENDS = {"a": {"BACKEND": BACKENDS["memory"], "NAME": "b"}}
    second = get_search_backend("a")
    assert second is not first and second.name == "b"
    settings.SEARCH_BACKENDS["a"]["NAME"] = "c"
    assert get_search_backend("a").name == "c"
    with override_settings(SEARCH_BACKENDS={"a": {"BACKEND": BACKENDS["whoosh"], "PATH": tmp_path / "ix"}}):
        assert type(get_search_backend("a")).__name__ == "WhooshBackend"
        assert get_search_backend("a").path == tmp_path / "ix"
    assert get_search_backend("a").name == "c"


#: Queries on a 表 (十二諸侯年表, KR2a0001_202, cells closed by ``|``): phrases inside one cell,
#: phrases the cells side by side would make if read across (十五十, 元年五), wildcards beside a
#: cell mark (元年?, ?元年), NEAR over two cells of a row, a query that writes the mark.
TABLE_QUERIES = ["二十四", "元年", "十五十", "元年五", "元年?", "?元年", "元年??", "十?十", "公?元年", "元年|五",
                 "元年 NEAR/2 十", "晉 NEAR/3 楚", "晉 楚", "元年 OR 十五十"]


@pytest.fixture
def biao(own_backend, db):
    from reader.importers.loader import import_file
    from search.signals import muted

    from .conftest import SHARED

    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR2a0001" / "KR2a0001_202.txt").juan
    docs = documents_for_juan(juan)
    own_backend.rebuild(docs)
    return own_backend, docs


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("sort", ["text", "after", "before"])
def test_a_table_is_searched_cell_by_cell_as_a_plain_scan(biao, exact, sort):
    """A cell mark is a boundary (``characters.units.CELL_BOUNDARY``): every backend finds exactly
    the plain scan's hits in a 表, in its order, sorted by what follows or precedes a hit up to the
    cell's end."""
    backend, docs = biao
    ref = _reference(docs)
    for q in TABLE_QUERIES:
        query = SearchQuery(q, exact=exact, sort=sort)
        got, want = backend.search(query), ref.search(query)
        assert (got.count, got.passages) == (want.count, want.passages), q
        assert _hits(got.hits) == _hits(want.hits), q


def test_no_phrase_runs_from_one_cell_into_the_next(biao):
    """二十四 is counted in the cells one by one (the stored text cut at its cell marks), not in the
    text read across (``二|十四`` is two years of two states); 十五十 and 元年五 stand only across a
    mark; a ``?`` is no cell mark; NEAR finds two cells of one row, the mark counting as one."""
    backend, docs = biao
    cells = [cell for d in docs for cell in d.text.split("|")]
    across = sum(d.text.replace("|", "").count("二十四") for d in docs)
    assert backend.search(SearchQuery("二十四", exact=True)).count == sum(c.count("二十四") for c in cells) == 83
    assert across == 101  # 18 more: a number ending one cell and one opening the next
    assert [backend.search(SearchQuery(q)).count for q in ("十五十", "元年五", "元年|五")] == [0, 0, 0]
    assert [sum(d.text.count(q) for d in docs) for q in ("十五|十", "元年|五")] == [56, 6]  # what they would find
    assert all("|" not in h.match for q in ("元年?", "?元年", "公?元年", "十?十") for h in backend.search(SearchQuery(q)).hits)
    near = backend.search(SearchQuery("元年 NEAR/1 五", exact=True)).hits
    assert sum(h.match == "五" and h.passage.text[h.start - 1] == "|" for h in near) > 0  # 元年|五: one row


def test_a_query_of_cell_marks_is_refused():
    from search.query import QueryError, parse_query

    with pytest.raises(QueryError, match="沒有可檢索的字"):
        parse_query("||")


# -- catalogue order ---------------------------------------------------------------------------------


@pytest.fixture
def two_classes(own_backend, seed_juan, db):
    """The test's own backend holding the seed (禮書綱目, classed in 經部 禮類) and then, written after it
    (a segment of its own in the positional engine), 列女傳 classed in 史部 傳記類 (KR2g): by
    title 列 (U+5217) comes before 禮 (U+79AE), in the catalogue 經 before 史. Returns the
    backend, both works' passages and the two editions' slugs in catalogue order."""
    from reader.importers.loader import import_file
    from reader.models import Juan

    from .conftest import SHARED

    lienu = import_file(SHARED / "corpus" / "other" / "lienu_zhuan_crlf.txt").juan.work
    for work, code in ((seed_juan.work, "KR1d"), (lienu, "KR2g")):  # as the admin or `import_texts --class` sets it
        work.classification = code
        work.save(update_fields=["classification"])
    assert (seed_juan.work.title, lienu.title) == ("禮書綱目", "列女傳")
    assert lienu.title < seed_juan.work.title
    seed_docs = documents_for_juan(seed_juan)
    lienu_docs = [d for j in Juan.objects.filter(work=lienu).select_related("work", "edition")
                  for d in documents_for_juan(j)]
    own_backend.rebuild(seed_docs)
    own_backend.replace_juans(set(), lienu_docs)
    return own_backend, seed_docs + lienu_docs, [seed_juan.edition.slug, lienu_docs[0].work_slug]


@pytest.mark.parametrize("sort", ["text", "relevance", "after"])
def test_hits_follow_the_catalogue_not_the_titles(two_classes, sort):
    """Text order is the catalogue's (部, 類, Kanripo ID, then edition, juan, position): every hit
    of the 經部 work comes before every hit of the 史部 work whose title sorts first, on every
    engine as in the plain scan, in every hit, page, and distribution; within a work as before."""
    from itertools import groupby

    backend, docs, slugs = two_classes
    ref = _reference(docs)
    for q in ["之", "君子", "禮 OR 女", "夫人"]:
        query = SearchQuery(q, sort=sort)
        got, want = backend.search(query), ref.search(query)
        scanned = {slug: sum(d.text.count(p) for d in docs if d.work_slug == slug for p in q.split(" OR "))
                   for slug in slugs}
        assert (got.count, got.passages) == (want.count, want.passages) and got.count == sum(scanned.values()), q
        assert _hits(got.hits) == _hits(want.hits), q
        assert _hits(got.hits[20:40]) == _hits(want.hits[20:40]), q
        assert got.by_juan() == want.by_juan() and got.by_section() == want.by_section(), q
        rows = [(r["work_slug"], r["count"]) for r in got.by_juan()]
        works = [(slug, sum(n for _, n in group)) for slug, group in groupby(rows, key=lambda r: r[0])]
        assert works == [(slug, scanned[slug]) for slug in slugs if scanned[slug]], q
        if sort == "text":
            assert [slug for slug, _ in groupby(h.work_slug for h in got.hits)] == \
                [slug for slug in slugs if scanned[slug]], q


def test_a_pieces_main_text_is_its_authors_never_a_quoted_part(own_backend, seed_juan):
    """An anthology's piece is its author's (decision 0097: the passage's writer field names him for its
    main text), also where a collection names the same man among the men it quotes (文選註 卷五十八:
    蔡伯喈's 郭有道碑文, read with 蔡邕, 鄭玄 and 顔延年 given as quoted men of the book, as a collection's
    are, decision 0058; 文選註's own notes are 李善's whole, decision 0133): the quoted-part test
    (``WrittenBy.quoted``) asks only of notes, so an author filter naming the collector (李善, every quoted
    part ``collected``) keeps his notes and not 蔡邕's piece's main text, and one naming 蔡邕 keeps it."""
    from collections import Counter

    from reader.importers.loader import import_file
    from search.backends import WrittenBy
    from search.documents import MAIN_LAYERS, quoted_part
    from search.signals import muted

    from .conftest import SHARED

    with muted():
        juan = import_file(SHARED / "corpus" / "kanripo-commentary" / "KR4h0002" / "KR4h0002_058.txt").juan
    documents = documents_for_juan(seed_juan) + documents_for_juan(juan)
    own_backend.rebuild(documents)
    wenxuan = juan.edition_id
    plain = Counter()
    for d in documents:
        plain[(d.work_id, d.layer in MAIN_LAYERS, d.commentator)] += d.text.count("之")
    # 蔡伯喈's two 碑文 and 顔延年's piece; 李善's notes, the 鄭玄 he quotes in them his (decision 0133)
    assert (plain[(wenxuan, True, "蔡邕")], plain[(wenxuan, True, "顔延年")], plain[(wenxuan, False, "蔡邕")]) == (27, 3, 0)
    assert (plain[(wenxuan, False, "李善")], plain[(wenxuan, False, "鄭玄")]) == (298, 0)
    quoted = tuple(sorted((wenxuan, who) for who in ("蔡邕", "鄭玄", "顔延年")))
    # the one test every engine and the facets ask (search.documents.quoted_part): a note naming him, not the main text
    assert [quoted_part(layer, (wenxuan, "蔡邕"), quoted) for layer in ("classic", "record", "title", "commentary",
                                                                        "subcommentary")] == [False] * 3 + [True] * 2
    assert not quoted_part("commentary", (wenxuan, "李善"), quoted) and quoted_part("commentary", "蔡邕", {"蔡邕"})
    for names, collected in ((("李善",), quoted), (("蔡邕",), ((wenxuan, "蔡邕"),)), ((), quoted), (("蔡邕", "李善"), ())):
        want = sum(n for (edition, main, who), n in plain.items()
                   if who and (((edition, who) in collected) if (edition, who) in quoted and not main else who in names))
        got = own_backend.search(SearchQuery("之", exact=True, written_by=WrittenBy(names, quoted=quoted, collected=collected)))
        assert got.count == want == sum(got.layer_counts()[1]), (names, collected)
    by_li_shan = own_backend.search(SearchQuery("之", exact=True, written_by=WrittenBy(("李善",), quoted=quoted,
                                                                                    collected=quoted)))
    assert {(h.layer, h.commentator) for h in by_li_shan.hits} == {("commentary", "李善")}
    assert by_li_shan.count == 298
    assert own_backend.search(SearchQuery("之", exact=True, written_by=WrittenBy(
        ("蔡邕",), quoted=quoted, collected=((wenxuan, "蔡邕"),)))).count == 27


def test_chapter_ids_filter(backend, seed_juan):
    """``chapter_ids`` keeps the passages of those chapters (a printed 卷 of a file that holds several, as the
    juan filter names one: ``search.forms.printed_chapters``), and none of any other."""
    (chapter,) = seed_juan.chapters.values_list("pk", flat=True)
    assert backend.search(SearchQuery("鵠", chapter_ids=frozenset({chapter}))).count == 21
    assert backend.search(SearchQuery("鵠", chapter_ids=frozenset({chapter + 1000}))).count == 0
    assert backend.search(SearchQuery("鵠", chapter_ids=frozenset())).count == 0
    assert backend.search(SearchQuery("鵠", juan_ids=frozenset({seed_juan.pk}),
                                      chapter_ids=frozenset({chapter, chapter + 1000}))).count == 21


def test_layer_names_keep_the_passages_a_book_names_so(own_backend, seed_juan):
    """``layer_names`` (``layer=章句``): the passages whose book names their layer so, whatever their layer,
    besides those of ``layers``: 楚辭補注's 章句 and 補注 are both the layer commentary, told apart by name."""
    from dataclasses import replace

    doc = documents_for_juan(seed_juan)[0]
    docs = [replace(doc, doc_id="c:1", layer="classic", layer_name="", text="滄浪之水清兮"),
            replace(doc, doc_id="c:2", layer="commentary", layer_name="章句", text="水清喻世昭明"),
            replace(doc, doc_id="c:3", layer="commentary", layer_name="補注", text="補曰水清"),
            replace(doc, doc_id="c:4", layer="paratext", layer_name="序", text="漁父者屈原之所作也水")]
    own_backend.rebuild(docs)

    def found(**kw):
        return [h.doc_id for h in own_backend.search(SearchQuery("水", **kw)).hits]

    assert found() == ["c:1", "c:2", "c:3", "c:4"]
    assert found(layers=frozenset(), layer_names=frozenset({"章句"})) == ["c:2"]
    assert found(layers=frozenset(), layer_names=frozenset({"補注", "序"})) == ["c:3", "c:4"]
    assert found(layers=frozenset({"classic"}), layer_names=frozenset({"補注"})) == ["c:1", "c:3"]
    assert found(layers=frozenset({"commentary"}), layer_names=frozenset({"章句"})) == ["c:2", "c:3"]
    assert found(layers=frozenset(), layer_names=frozenset({"鄭注"})) == []
    assert found(layers=frozenset({"classic"}), layer_names=frozenset({"序"}), edition_ids=(doc.work_id,)) == \
        ["c:1", "c:4"]
