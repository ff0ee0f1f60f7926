"""The shape of the code, checked: the apps' layers and import circles (import-linter, on the
contracts in ``.importlinter``) and the size of their modules (docs/architecture.md)."""
import ast
import subprocess
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
#: The apps whose modules are checked (the tools in bench/ and scripts/ are not the product).
APPS = ("config", "characters", "catalogue", "reader", "corrections", "search", "collation", "api", "pages")
#: Lines a module may have without a reason written at its top.
MAX_LINES = 600
#: How the reason starts, in the module's docstring.
REASON = "Longer than 600 lines:"


def test_the_layers_hold_and_no_app_imports_in_a_circle():
    """``lint-imports`` keeps every contract of ``.importlinter``: the layers (characters, the
    texts, search and collation, the API and pages), config importing no app, and no circle of
    imports inside an app. On failure its report names each import that breaks one."""
    run = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=BASE,
                         capture_output=True, text=True, timeout=300)
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    assert "Contracts: 3 kept, 0 broken." in report, report


def app_modules() -> list[Path]:
    """Every Python module of the apps, migrations left out (Django writes them)."""
    return sorted(path for app in APPS if (BASE / app).is_dir() for path in (BASE / app).rglob("*.py")
                  if "migrations" not in path.parts)


def over_length_without_reason(paths, root: Path = BASE) -> list[str]:
    """``"path: N lines"`` (relative to ``root``) for each module of ``paths`` over ``MAX_LINES``
    lines whose docstring does not say why (a paragraph starting with ``REASON`` and at least
    four words after it)."""
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + (not text.endswith("\n"))
        if lines <= MAX_LINES:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        reason = next((p[len(REASON):].strip() for p in doc.split("\n\n") if p.strip().startswith(REASON)), "")
        if len(reason.split()) < 4:
            found.append(f"{path.relative_to(root)}: {lines} lines")
    return found


def test_no_module_of_the_apps_is_over_600_lines_without_a_reason_at_its_top():
    assert over_length_without_reason(app_modules()) == []


def test_the_length_check_reads_the_reason(tmp_path):
    long_body = "x = 1\n" * MAX_LINES
    short = tmp_path / "short.py"
    short.write_text('"""A module."""\n' + "x = 1\n" * (MAX_LINES - 1), encoding="utf-8")
    bare = tmp_path / "bare.py"
    bare.write_text('"""A module."""\n' + long_body, encoding="utf-8")
    vague = tmp_path / "vague.py"
    vague.write_text(f'"""A module.\n\n{REASON} long."""\n' + long_body, encoding="utf-8")
    reasoned = tmp_path / "reasoned.py"
    reasoned.write_text(f'"""A module.\n\n{REASON} one table of rules, read top to bottom."""\n' + long_body,
                        encoding="utf-8")
    assert over_length_without_reason([short, bare, vague, reasoned], tmp_path) == [
        "bare.py: 601 lines", "vague.py: 603 lines"]


def inner_imports_without_reason(paths, root: Path = BASE) -> list[str]:
    """``"path:line: import"`` for each import inside a function body of ``paths`` that gives
    no reason: one is allowed in a ``try`` that catches ``ImportError`` (an optional
    dependency kept optional) or with a comment on its line or the line above saying why (an
    ``AppConfig.ready`` waiting for the app registry, a script that sets ``sys.path`` first;
    a comment above a group of imports covers the group).
    Any other belongs at the top of the module: an import inside a function to dodge a circle
    is what the layers forbid."""
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        tree = ast.parse(text)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            chain, up = [], parents.get(node)
            while up is not None:
                chain.append(up)
                up = parents.get(up)
            if not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in chain):
                continue
            optional = any(isinstance(n, ast.Try) and any(
                h.type is not None and "ImportError" in ast.unparse(h.type) for h in n.handlers) for n in chain)
            above = node.lineno - 2  # the comment may stand above a group of imports
            while above >= 0 and lines[above].strip().startswith(("from ", "import ")):
                above -= 1
            said = _reason(lines[node.lineno - 1]) or (above >= 0 and lines[above].strip().startswith("#")
                                                       and _reason(lines[above]))
            if not (optional or said):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    return found


def _reason(line: str) -> bool:
    """Whether ``line`` holds a comment that says something: three words or more, pragmas
    such as ``noqa`` left out."""
    comment = line.partition("#")[2]
    words = [w for w in comment.split() if not w.lower().startswith(("noqa", "type:", "pragma"))]
    return len(words) >= 3


def test_no_import_inside_a_function_of_the_apps_without_a_reason():
    assert inner_imports_without_reason(app_modules()) == []


def test_the_inner_import_check_reads_the_reasons(tmp_path):
    module = tmp_path / "module.py"
    module.write_text("import os\n\n\ndef plain():\n    import json\n    return json\n\n\n"
                      "def optional():\n    try:\n        import tantivy\n    except ImportError:\n        return None\n"
                      "    return tantivy\n\n\n"
                      "def ready():\n    # Imported here: the models need the app registry.\n    from . import signals\n"
                      "    from .startup import sync\n    return signals, sync\n\n\n"
                      "def dodging():\n    from search.service import run_search  # noqa\n    return run_search\n",
                      encoding="utf-8")
    assert inner_imports_without_reason([module], tmp_path) == [
        "module.py:5: import json", "module.py:25: from search.service import run_search"]
