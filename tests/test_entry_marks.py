"""○ is the books' mark between entries, not a character (issue 27): the classic of a 注疏
edition reads across ``音義(…)○`` in every engine and in highlighting."""
from pathlib import Path

import pytest

from characters.folding import SEPARATOR, TEXT, char_kind
from reader.importers.loader import import_file
from reader.models import Piece
from search.analysis import analyse
from search.matching import find_occurrences
from search.backends import SearchError, SearchQuery

from .conftest import index_all

ZHUSHU = Path(__file__).parent / "data" / "zhushu" / "KR1d9999_016.txt"


def test_the_entry_mark_is_a_separator_and_the_numeral_zero_a_character():
    assert char_kind("○") == SEPARATOR and char_kind("◯") == SEPARATOR
    assert char_kind("〇") == TEXT and char_kind("□") == TEXT and char_kind("⬤") == TEXT
    a = analyse("之儀○君")
    assert a.codes == "之儀君" and a.gaps == ("", "", "○", "")
    assert find_occurrences("大射之儀○君有命戒射", "大射之儀君有命戒射") == [(0, 10)]
    # the exact mode compares separators, ○ included
    assert find_occurrences("大射之儀○君有命戒射", "大射之儀君有命戒射", exact=True) == []
    assert find_occurrences("大射之儀○君有命戒射", "大射之儀○君有命戒射", exact=True) == [(0, 10)]
    assert find_occurrences("一〇一", "一〇一") == [(0, 3)]


def test_the_classic_reads_across_the_readings_and_their_mark(seed_juan, search_backend):
    juan = import_file(ZHUSHU).juan
    index_all(search_backend)
    classic = "".join(p.text for p in Piece.objects.filter(section__juan=juan, layer="classic", kind="text")
                      .order_by("section__position", "position"))
    assert "大射之儀" in classic and "○君有命戒射" in classic
    result = search_backend.search(SearchQuery("大射之儀君有命戒射", layers=("classic",), edition_ids=(juan.edition_id,)))
    assert result.count == 1
    hit = result.hits[0]
    assert (hit.juan_id, hit.layer) == (juan.id, "classic")
    with pytest.raises(SearchError, match="沒有可檢索的字"):   # ○ alone is no term, like punctuation
        SearchQuery("○")
