"""Text cut short for a label, a message or a KWIC line is cut between displayed characters
(``characters.clusters``): a gaiji entity, a description and a character with its selectors
stay whole."""
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from characters.clusters import clip, clusters
from reader.citation import opening_words
from reader.importers.errors import TextFormatError
from reader.importers.loader import import_file
from reader.juans import nav_label
from reader.models import Juan

#: 讀禮通考 卷八十三 (Kanripo KR1d0051, 四庫全書 edition): line 182 holds a gaiji entity.
REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "kanripo" / "KR1d0051" / \
    "KR1d0051_083.txt"


@pytest.mark.parametrize("text, limit, cut", [
    ("之&KR1234;乎者也", 2, "之&KR1234;…"),
    ("之&KR1234;乎者也", 1, "之…"),
    ("之&KR1234;乎", 3, "之&KR1234;乎"),           # three characters: whole
    ("城[門@里]之外", 2, "城[門@里]…"),              # a description is one
    ("葛\U000e0100城之外", 1, "葛\U000e0100…"),      # a selector stays with its character
    ("𥙷注楚辭", 1, "𥙷…"),                            # outside the BMP: one code point, one character
    ("大射之儀", 8, "大射之儀"),
])
def test_clip_cuts_between_displayed_characters(text, limit, cut):
    assert clip(text, limit) == cut
    assert "".join(clusters().findall(text)) == text


def test_a_juan_link_never_cuts_an_entity():
    juan = SimpleNamespace(display_label="戊午日下&KR0628;乃克葬之禮")
    assert nav_label(juan) == "戊午日下&KR0628;乃克葬…"
    assert nav_label(SimpleNamespace(display_label="序・目錄")) == "序等"


def test_opening_words_count_a_description_as_one_character():
    assert opening_words(["城[門@里]之外有大射之儀"]) == "城[門@里]之外有大射之…"


@pytest.mark.django_db
def test_a_real_files_title_run_on_is_quoted_without_cutting_its_entity(empty_db, tmp_path):
    """讀禮通考 卷八十三 with its ``#+TITLE`` line run on with the printed title and the text of
    line 182 (a line break lost): the message quotes the title's first 20 characters, the gaiji
    entity of ``戊午日下&KR0628;乃克葬`` whole, where it showed ``…戊午日下&KR…``."""
    lines = REAL.read_text(encoding="utf-8").split("\n")
    assert lines[1] == "#+TITLE: 讀禮通考" and lines[181] == "戊午日下&KR0628;乃克葬¶"
    run_on = "".join(re.sub(r"<pb:[^>]*>|¶", "", line) for line in lines[181:200])
    lines[1] = "#+TITLE: 讀禮通考卷八十三葬考二合葬" + run_on
    folder = tmp_path / "KR1d0051"
    folder.mkdir()
    path = folder / REAL.name
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(TextFormatError) as info:
        import_file(path)
    title = lines[1][len("#+TITLE: "):]
    assert str(info.value) == (
        f"{path}:2:10: the work title is {len(title):,} characters long, more than the 200 the library keeps "
        f"(「讀禮通考卷八十三葬考二合葬戊午日下&KR0628;乃克…」): is a line break missing?")
    assert not Juan.objects.exists()
