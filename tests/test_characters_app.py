"""The ``characters`` app is the bottom layer: it imports none of the apps above it."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ABOVE = {"reader", "search", "collation", "api", "config"}


def _imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_characters_imports_no_app_above_it():
    modules = sorted((ROOT / "characters").rglob("*.py"))
    assert {p.name for p in modules} >= {"folding.py", "gaiji.py", "dictionary.py", "build_fold_table.py",
                                         "build_char_table.py", "rare_merges.py", "script_labels.py", "passages.py"}
    # what reads a juan's small print calls the importer's parser, so it lives above the reader (scripts/)
    assert {p.name for p in modules} & {"build_reading_context.py", "juan_passages.py", "script_search_eval.py",
                                         "smallprint.py"} == set()
    offending = {str(p.relative_to(ROOT)): sorted(_imported_roots(p) & ABOVE) for p in modules
                 if _imported_roots(p) & ABOVE}
    assert offending == {}


def test_the_check_sees_an_import_from_above(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from search.analysis import analyse\nimport reader.models\n", encoding="utf-8")
    assert _imported_roots(bad) & ABOVE == {"search", "reader"}


def test_a_sections_passages_the_index_and_the_evaluation_share():
    from characters.passages import join_runs

    # the classic's runs one passage across its notes (戒射【…】宰戒), a record's runs another, each
    # note one, the continuous layers in the order given, the notes in text order
    items = [("classic", True, "大射之儀君有命戒射"), ("commentary", False, "將有祭祀"), ("classic", True, "宰戒百官"),
             ("record", True, "君於郊"), ("readings", False, "射食亦反"), ("commentary", False, "戒猶警也")]
    assert join_runs(items, ("classic", "commentary", "readings", "record")) == [
        ("classic", ["大射之儀君有命戒射", "宰戒百官"]), ("record", ["君於郊"]),
        ("commentary", ["將有祭祀"]), ("readings", ["射食亦反"]), ("commentary", ["戒猶警也"])]
    assert join_runs(items, ("record", "classic")) == [
        ("record", ["君於郊"]), ("classic", ["大射之儀君有命戒射", "宰戒百官"]),
        ("commentary", ["將有祭祀"]), ("readings", ["射食亦反"]), ("commentary", ["戒猶警也"])]
    assert join_runs([], ("classic",)) == []
