"""A section named on a reading page by words that hold a gaiji entity (its title, or its opening
words when it has none) shows the entity as the text shows it, with its code, in the table of
contents, the heading, the previous/next links and the page title, never as ``&KR0860;``; the
citation to copy (plain text) writes it as the page shows it: the one character Kanripo's gaiji
table reads it as, else 〓 (decision 0102)."""
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


#: The same gaiji as the page shows a code Kanripo's gaiji table reads as 𥜗 (KR0237: 禮書綱目 卷十二's
#: 袒朱&KR0237;卒, KR1d0086_012.txt line 405).
READ = ('<span class="gaiji" title="KR0237：Unicode 未收之字，Kanripo 造字表讀作𥜗 (a character Unicode lacks, '
        'read as 𥜗)" data-code="&amp;KR0237;">𥜗</span>')


@pytest.mark.django_db
def test_a_gaiji_read_as_a_character_is_that_character_in_the_title_headings_contents_and_citation(client, tmp_path):
    """Citations wrote a gaiji the table reads as one character as that character (𥜗) while the
    page's title and heading showed 〓: every place now shows the citation's reading, the code
    in the tooltip and ``data-code``. 周禮 卷二十七 §5, its gaiji written &KR0237; for the test (the
    shared corpus holds no heading with a gaiji the table reads; KR0237 stands in 禮書綱目's text)."""
    path = tmp_path / REAL.name
    text = REAL.read_text(encoding="utf-8")
    assert text.count("雚蔽然&KR0860;髤飾") == 1
    path.write_text(text.replace("雚蔽然&KR0860;髤飾", "雚蔽然&KR0237;髤飾"), encoding="utf-8")
    juan = import_file(path).juan
    base = f"/works/{juan.edition.slug}/juan/{juan.number}/"
    page = client.get(base).content.decode()
    assert f'<a href="#s5">駹車雚蔽然{READ}髤飾…</a>' in page          # the juan's contents
    assert f'駹車雚蔽然{READ}髤飾' in page and "〓髤飾" not in page    # and its text
    shown = client.get(f"{base}5/").content.decode()
    assert f"<title>駹車雚蔽然𥜗髤飾… · " in shown
    assert f'<h1 class="section-page-title">駹車雚蔽然{READ}髤飾… <small>' in shown
    assert f'aria-current="page">駹車雚蔽然{READ}髤飾…</a>' in shown
    assert f'› <span aria-current="page">駹車雚蔽然{READ}髤飾…</span></nav>' in shown
    assert "「駹車雚蔽然𥜗髤飾…」（四庫全書" in shown and "〓髤飾" not in shown
    cited = client.get(f"/api/editions/{juan.edition_id}/juans/{juan.number}/sections/5/").json()["citation"]
    assert "「駹車雚蔽然𥜗髤飾…」（四庫全書" in cited


def test_a_gaiji_is_written_as_the_character_its_table_reads_it_as_else_as_the_placeholder():
    from characters.gaiji import readable

    # KR0237 is read as 𥜗, KR0007 (form 𤣥) as 玄; KR0221's reading 袒? is uncertain; KR2159 has none
    assert readable("之&KR0237;&KR0007;&KR0221;&KR2159;\x01也") == "之𥜗玄〓〓〓也"
    assert readable("大射之儀") == "大射之儀"


@pytest.mark.django_db
def test_a_sections_name_in_the_search_page_and_the_lists_of_sections_shows_its_gaiji(client, search_backend):
    """The search page's hit places and its chart's bars, and the lists that name a section by
    ``section_label`` (the parallels page's source, collation and the quotation map), wrote the
    section's opening words with the entity as stored, ``§5「駹車雚蔽然&amp;KR0860;髤飾…」``,
    which a browser shows as the letters &KR0860;: they show the gaiji as the text does."""
    from .conftest import index_all

    juan = import_file(REAL).juan
    index_all(search_backend)
    page = client.get("/search/", {"q": "駹車雚蔽然"}).content.decode()
    assert "&amp;KR0860;髤飾" not in page.replace('data-code="&amp;KR0860;">', "")
    assert f"卷二十七 §5 駹車雚蔽然{GAIJI}髤飾…</a>" in page                       # the chart's bar
    assert f" §5「駹車雚蔽然{GAIJI}髤飾…」</a>" in page                           # the hit's place
    source = client.get("/parallels/", {"section": f"{juan.edition_id}/{juan.number}/5"}).content.decode()
    assert f"卷二十七 §5「駹車雚蔽然{GAIJI}髤飾…」</a>" in source
