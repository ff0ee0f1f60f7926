"""Folding on a text made for the purpose: every variant pair the issue names, both ways."""
import pytest

from reader.importers.loader import import_file
from search.backends import SearchQuery

from .conftest import index_all

TEXT = "測試書卷一\n鼓鼔陰隂賓賔說説玄𤣥每毎德徳於于後后税釁衅个箇\n右試\n測試書卷一"


@pytest.fixture
def variants(empty_db, search_backend, tmp_path):
    path = tmp_path / "variants.txt"
    path.write_text(TEXT, encoding="utf-8")
    import_file(path)
    index_all(search_backend)
    return search_backend


@pytest.mark.parametrize("query,found", [
    ("鼓", {"鼓", "鼔"}), ("鼔", {"鼓", "鼔"}), ("陰", {"陰", "隂"}), ("阴", {"陰", "隂"}), ("賓", {"賓", "賔"}),
    ("說", {"說", "説"}), ("说", {"說", "説"}), ("玄", {"玄", "𤣥"}), ("每", {"每", "毎"}), ("德", {"德", "徳"}),
    ("於", {"於"}), ("于", {"于"}), ("後", {"後"}), ("后", {"后"}), ("税", {"税"}),
    # 衅 writes 釁 (鄭注「衅，釁字也」); 个 is a character of the classics (挾一个, 左个): in a traditional
    # edition it and 箇 stay apart both ways, as 后 and 後 do (a simplified edition reads its 个 per place)
    ("釁", {"釁", "衅"}), ("衅", {"釁", "衅"}), ("箇", {"箇"}), ("个", {"个"}),
])
def test_folded(variants, query, found):
    assert {h.match for h in variants.search(SearchQuery(query, layers=frozenset({"classic"}))).hits} == found


@pytest.mark.parametrize("query", ["鼔", "隂", "賔", "説", "𤣥", "毎", "徳", "衅"])
def test_exact_keeps_forms_apart(variants, query):
    assert [h.match for h in variants.search(SearchQuery(query, exact=True, layers=frozenset({"classic"}))).hits] == [query]
