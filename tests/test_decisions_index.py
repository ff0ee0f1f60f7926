"""docs/decisions/README.md lists every decision once, under its own number, and links no file
that is not there (a newcomer finds each decision from the index)."""
import re
from pathlib import Path

DECISIONS = Path(__file__).resolve().parent.parent / "docs" / "decisions"


def test_every_decision_has_one_row_in_the_index_and_every_row_a_file():
    files = sorted(p.name for p in DECISIONS.glob("[0-9][0-9][0-9][0-9]-*.md"))
    rows = re.findall(r"^\| \[(\d{4})\]\((\d{4}-[^)]+\.md)\) \|", (DECISIONS / "README.md").read_text(encoding="utf-8"),
                      re.MULTILINE)
    numbers = [name[:4] for name in files]
    assert len(numbers) == len(set(numbers)), "two decision files share a number"
    assert all(number == link[:4] for number, link in rows)
    assert sorted(link for _, link in rows) == files
