"""The query language: parsing, errors, and its results on the seed juan."""
import re

import pytest

from search.backends import SearchError, SearchQuery
from search.documents import LAYER_GROUPS
from search.query import Clause, Near, QueryError, Term, canonical_query, parse_query

from .conftest import SEED
from .scan import layers_of


@pytest.mark.parametrize("text,clauses", [
    ("射", [Clause((Term("射"),))]),
    ("大射 主人", [Clause((Term("大射"), Term("主人")))]),
    ("大射 OR 鄉射", [Clause((Term("大射"),)), Clause((Term("鄉射"),))]),
    ("大射｜鄉射 君", [Clause((Term("大射｜鄉射"), Term("君")))]),  # ｜ is OR only as a word
    ("大射 ｜ 鄉射 君", [Clause((Term("大射"),)), Clause((Term("鄉射"), Term("君")))]),
    ("射 -主人", [Clause((Term("射"),), (Term("主人"),))]),
    ('"大射 之儀" 君', [Clause((Term("大射 之儀"), Term("君")))]),
    ("「大射之儀」", [Clause((Term("大射之儀"),))]),
    ("“君有命”", [Clause((Term("君有命"),))]),
    ('射 -"主人 獻"', [Clause((Term("射"),), (Term("主人 獻"),))]),
    ("射?獲", [Clause((Term("射?獲"),))]),
    ("大射 ＯＲ 鄉射", [Clause((Term("大射"),)), Clause((Term("鄉射"),))]),  # full-width operators
    ("鄉射 ＮＥＡＲ／５ 大射", [Clause((Term("鄉射"), Term("大射")), (), (Near(Term("鄉射"), Term("大射"), 5),))]),
    ("鄉射 NEAR/0005 大射", [Clause((Term("鄉射"), Term("大射")), (), (Near(Term("鄉射"), Term("大射"), 5),))]),
    ("鄉射 NEAR/5 大射", [Clause((Term("鄉射"), Term("大射")), (), (Near(Term("鄉射"), Term("大射"), 5),))]),
    ("君 鄉射 NEAR/0 「大射」 -公 OR 侯", [
        Clause((Term("君"), Term("鄉射"), Term("大射")), (Term("公"),), (Near(Term("鄉射"), Term("大射"), 0),)),
        Clause((Term("侯"),))]),
])
def test_parse(text, clauses):
    assert list(parse_query(text).clauses) == clauses


@pytest.mark.parametrize("text,message", [
    ("", "請輸入檢索詞 (empty query)"),
    ('"大射', "引號不成對：第 1 字的 \" 沒有對應的 \" (unbalanced quote at column 1)"),
    ("射 「大射", "引號不成對：第 3 字的 「 沒有對應的 」 (unbalanced quote at column 3)"),
    ("OR", "OR 前後須有檢索詞 (OR needs a term on each side, column 1)"),
    ("鄉射 NEAR 大射", "NEAR 須註明字數，如 NEAR/5 (NEAR needs a distance, e.g. NEAR/5, column 4)"),
    ("鄉射 NEAR/5", "NEAR 前後須各有一個檢索詞 (NEAR needs a term on each side, column 4)"),
    ("NEAR/5 大射", "NEAR 前後須各有一個檢索詞 (NEAR needs a term on each side, column 1)"),
    ("鄉射 NEAR/5 -大射", "NEAR 前後須各有一個檢索詞 (NEAR needs a term on each side, column 4)"),
    ("鄉射 NEAR/5 OR 大射", "NEAR 前後須各有一個檢索詞 (NEAR needs a term on each side, column 4)"),
    ("a NEAR/5 b NEAR/3 c", "NEAR 只連接兩個詞 (NEAR joins two terms and does not chain, column 12)"),
    ("a NEAR/201 b", "NEAR 最多 200 字 (NEAR distance at most 200, column 3)"),
    ("a NEAR/99999 b", "NEAR 最多 200 字 (NEAR distance at most 200, column 3)"),  # was the term NEAR/99999
    ("a NEAR/5.0 b", "NEAR 的字數須為整數，如 NEAR/5，此式為「NEAR/5.0」 (NEAR's distance must be a whole number, "
                     "e.g. NEAR/5, not 'NEAR/5.0', column 3)"),
    ("a NEAR/-1 b", "NEAR 的字數須為整數，如 NEAR/5，此式為「NEAR/-1」 (NEAR's distance must be a whole number, "
                    "e.g. NEAR/5, not 'NEAR/-1', column 3)"),
    ("a ＮＥＡＲ b", "NEAR 須註明字數，如 NEAR/5 (NEAR needs a distance, e.g. NEAR/5, column 3)"),
    ("射 OR", "OR 前後須有檢索詞 (OR needs a term on each side, column 3)"),
    ("-射", "排除詞須與檢索詞並用 (an exclusion needs a term to search for)"),
    ("??", "「??」沒有可檢索的字 (a term needs at least one character besides ?, punctuation and spaces)"),
    ('""', "空的引號 (empty phrase at column 1)"),
    ("射\x00", "檢索詞含控制字元 U+0000 (control character at column 2)"),
    ("射\x1b[31m", "檢索詞含控制字元 U+001B (control character at column 2)"),
    ("射" * 10000, "檢索詞過長：最多 200 字 (query too long)"),
])
def test_malformed(text, message):
    with pytest.raises(QueryError) as info:
        parse_query(text)
    assert str(info.value) == message
    with pytest.raises(SearchError):
        SearchQuery(text)


@pytest.fixture(scope="module")
def sections():
    """Main text of each section of the seed (one line each), scanned independently."""
    return layers_of(SEED.read_text(encoding="utf-8"))["text"]


def _q(backend, text, **kw):
    return backend.search(SearchQuery(text, layers=LAYER_GROUPS["classic"], exact=True, **kw))


def test_and_means_same_passage(seed_backend, sections):
    result = _q(seed_backend, "侯 鵠")
    passages = [s for s in sections if "侯" in s and "鵠" in s]
    assert result.passages == len(passages) == 1
    assert result.count == sum(s.count("侯") + s.count("鵠") for s in passages)
    assert {h.match for h in result.hits} == {"侯", "鵠"}
    assert _q(seed_backend, "大射 鵠").count == 0  # both occur in the juan, never in one passage


def test_or(seed_backend, sections):
    result = _q(seed_backend, "鵠 OR 獲")
    assert result.count == sum(s.count("鵠") + s.count("獲") for s in sections)


def test_exclusion(seed_backend, sections):
    result = _q(seed_backend, "獲 -釋獲")
    assert result.passages == len([s for s in sections if "獲" in s and "釋獲" not in s])
    assert result.count == sum(s.count("獲") for s in sections if "釋獲" not in s)


def test_wildcard(seed_backend, sections):
    result = _q(seed_backend, "射?獲")
    expected = [m.group() for s in sections for m in re.finditer("射.獲", s)]
    assert [h.match for h in result.hits] == expected
    assert len(expected) > 0


def test_quoted_phrase_equals_bare_term(seed_backend):
    assert _q(seed_backend, "「大射之儀」").count == _q(seed_backend, "大射之儀").count == 1


def test_overlapping_terms_count_once(seed_backend, sections):
    result = _q(seed_backend, "大射 射")
    expected = sum(s.count("射") for s in sections if "大射" in s)  # every 射 in such passages, 大射 taking its 射
    assert sum(len(h.match) == 1 for h in result.hits) + sum(h.match == "大射" for h in result.hits) == \
        result.count
    assert sum(h.match.count("射") for h in result.hits) == expected


def test_relevance_sort_puts_dense_passages_first(seed_backend):
    result = _q(seed_backend, "鵠", sort="relevance")
    assert [h.passage_hits for h in result.hits] == sorted((h.passage_hits for h in result.hits), reverse=True)
    assert result.count == _q(seed_backend, "鵠").count


def test_filters(seed_backend, seed_juan):
    chapter = seed_juan.chapters.get()
    assert _q(seed_backend, "鵠", juan_number=10).count == 2
    assert _q(seed_backend, "鵠", juan_number=9).count == 0
    assert _q(seed_backend, "鵠", work_id=seed_juan.edition_id).count == 2
    assert _q(seed_backend, "鵠", chapter_id=chapter.pk).count == 2
    assert _q(seed_backend, "鵠", chapter_id=chapter.pk + 1000).count == 0


def test_distribution(seed_backend):
    result = seed_backend.search(SearchQuery("鵠"))
    assert result.by_juan() == [{"work_id": result.hits[0].work_id, "work_slug": "禮書綱目", "work_title": "禮書綱目",
                                 "juan": 10, "juan_label": "卷十", "count": 21}]
    # Per section, as a scan of the file counts them: {2: 18, 25: 2, 32: 1}.
    assert [(d["section"], d["title"], d["count"]) for d in result.by_section()] == [
        (2, "張侯", 18), (25, "再射釋獲", 2), (32, "三射用樂", 1)]


def test_a_term_near_or_clause_written_twice_is_kept_once():
    """之 written 100 times was one term for the
    cost check (SEARCH_MAX_WORK) but 100 for the engine, 10 s a request on the 30 M library."""
    assert parse_query(" ".join(["之"] * 100)).clauses == parse_query("之").clauses
    assert parse_query("之 也 之 -射 -射 OR 之 也 -射 OR 鵠").clauses == parse_query("之 也 -射 OR 鵠").clauses
    near = parse_query("之 NEAR/5 也 之 NEAR/5 也").clauses[0]
    assert [(n.left.text, n.right.text, n.distance) for n in near.nears] == [("之", "也", 5)]
    assert [t.text for t in near.positives] == ["之", "也"]


def test_repeated_terms_find_what_one_finds(seed_backend):
    for once, repeated in [("射", "射 射 射"), ("侯 鵠", "侯 鵠 侯 OR 侯 鵠"), ("司射 NEAR/5 弓", "司射 NEAR/5 弓 司射 NEAR/5 弓")]:
        a, b = seed_backend.search(SearchQuery(once)), seed_backend.search(SearchQuery(repeated))
        assert (b.count, b.passages) == (a.count, a.passages) and a.count > 0, repeated
        assert [(h.doc_id, h.start) for h in b.hits] == [(h.doc_id, h.start) for h in a.hits], repeated


@pytest.mark.parametrize("typed, canonical", [
    ("鵠", "鵠"), (" 鵠 ", "鵠"), ("鵠  ", "鵠"), ("\u3000鵠\t", "鵠"), ("大射\u3000\u3000OR  鄉射", "大射 OR 鄉射"),
    ("射  -主人", "射 -主人"), ('"大射  之儀"   鵠', '"大射  之儀" 鵠'), ("「大射　之儀」\u3000\u3000鵠", "「大射　之儀」 鵠"),
    ("司射  NEAR/5  弓", "司射 NEAR/5 弓"), ("  ", ""),
    # spellings that do not parse keep their spaces: the error names a column of the text as typed
    ('鵠   "射', '鵠   "射'), ("鵠\n\n射", "鵠\n\n射"), ("射 -  主人", "射 -  主人"), ("鵠   OR", "鵠   OR"),
])
def test_canonical_query_is_one_spelling_of_the_queries_that_parse_the_same(typed, canonical):
    assert canonical_query(typed) == canonical
    try:
        parsed = parse_query(typed.strip())
    except QueryError:
        with pytest.raises(QueryError):
            parse_query(canonical)
    else:
        assert parse_query(canonical).clauses == parsed.clauses


def test_canonical_query_leaves_a_query_too_long_as_it_is():
    typed = "鵠" + " " * 200 + "射"  # too long as typed (the form's error), 3 characters with one space
    assert canonical_query(typed) == typed


@pytest.mark.parametrize("text", [
    "射", "大射之儀", "射?獲", "？射", "&KR0221;", "射-主人", "-射", "－射", "-", "OR", "ＯＲ", "or", "|", "｜", "射｜獲",
    "NEAR/5", "ＮＥＡＲ／５", "NEAR", "NEARBY", "?", "？？", "|||", "射|獲", "「射」", "射「獲」", '射"獲"', "射　獲",
    "射\u2003", "。", "《射》", "射。", "abc", "A", "𤣥", "鼔",
])
def test_one_word_is_parsed_as_the_tokens_loop_parses_it(text):
    """``parse_query`` reads a one-word query without the tokens' loop (``_one_word``); every
    text it takes gets the clauses the loop gives, and every other is left to the loop
    (errors included)."""
    from search.query import _one_word, _parsed

    fast = _one_word(text)
    try:
        slow = _parsed(text)
    except QueryError:
        assert fast is None
        return
    assert fast is None or fast == slow
    if text.split() == [text] and text[0] not in "-－" and not re.search('["「“＂『]', text) \
            and text not in ("OR", "ＯＲ", "|", "｜") and not text.startswith(("NEAR", "ＮＥＡＲ")):
        assert fast == slow  # the usual query takes the short way


def test_the_benchmarks_one_word_queries_take_the_short_way():
    from bench.mix import QUERY_MIX
    from search.query import _one_word, _parsed

    words = [q for q in QUERY_MIX if " " not in q]
    assert len(words) == 29 and all(_one_word(q) == _parsed(q) for q in words)
