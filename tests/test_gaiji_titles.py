"""A section named on a reading page by words that hold a gaiji entity (its title, or its opening
words when it has none) shows the entity as the text shows it, 〓 with its code, in the table of
contents, the heading, the previous/next links and the page title, never as ``&KR0860;``; the
citation to copy (plain text) writes it as the page shows it: 〓, or the one character Kanripo's gaiji
table reads it as."""
from pathlib import Path

import pytest

from reader.importers.loader import import_file

#: 周禮 (Kanripo KR1d0003) 卷二十七: §5 is untitled and opens 駹車雚蔽然&KR0860;髤飾.
REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "kanripo-jingbu" / "KR1d0003" / \
    "KR1d0003_027.txt"
GAIJI = ('<span class="gaiji" title="KR0860：Unicode 未收之字 (a character Unicode lacks)" '
         'data-code="&amp;KR0860;">〓</span>')


@pytest.mark.django_db
def test_a_sections_name_shows_its_gaiji_as_the_text_does(client):
    juan = import_file(REAL).juan
    section = juan.sections.get(position=5)
    assert section.title == ""
    base = f"/works/{juan.edition.slug}/juan/{juan.number}/"
    page = client.get(base).content.decode()
    assert f'<a href="#s5">駹車雚蔽然{GAIJI}髤飾…</a>' in page
    shown = client.get(f"{base}5/").content.decode()
    assert f"<title>駹車雚蔽然〓髤飾… · " in shown
    assert f'<h1 class="section-page-title">駹車雚蔽然{GAIJI}髤飾… <small>' in shown
    assert f'aria-current="page">駹車雚蔽然{GAIJI}髤飾…</a>' in shown
    assert f'› <span aria-current="page">駹車雚蔽然{GAIJI}髤飾…</span></nav>' in shown   # the breadcrumbs
    # the citation, text to copy, writes the gaiji as the page shows it (the table reads KR0860 as nothing)
    assert "&amp;KR0860;髤飾" not in shown and "「駹車雚蔽然〓髤飾…」（四庫全書" in shown
    cited = client.get(f"/api/editions/{juan.edition_id}/juans/{juan.number}/sections/5/").json()["citation"]
    assert "&KR0860;" not in cited and "「駹車雚蔽然〓髤飾…」（四庫全書" in cited


def test_a_gaiji_is_written_as_the_character_its_table_reads_it_as_else_as_the_placeholder():
    from characters.gaiji import readable

    # KR0237 is read as 𥜗, KR0007 (form 𤣥) as 玄; KR0221's reading 袒? is uncertain; KR2159 has none
    assert readable("之&KR0237;&KR0007;&KR0221;&KR2159;\x01也") == "之𥜗玄〓〓〓也"
    assert readable("大射之儀") == "大射之儀"
