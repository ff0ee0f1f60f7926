"""Rare characters beyond the basic plane render from the site's own web font (issue 13):
``static/fonts/rare-han.woff`` (scripts/build_webfont.py), declared in site.css."""
import base64

from .conftest import SCREENSHOTS  # noqa: F401  (screenshots land beside the others)

RARE = "𤣥𥜗𧧘"
MISSING = "\U0002fffd"  # unassigned in plane 2: no font has it, the browser draws its .notdef box

TEXT = "測試書卷一\n玄鳥𤣥衣𥜗襦𧧘言\n右試\n測試書卷一"


def _draw(page, ch, family):
    """The character drawn alone on a canvas in ``family`` (no fallback family): its pixels."""
    return page.evaluate("""([ch, family]) => {
        const c = document.createElement('canvas'); c.width = 64; c.height = 64;
        const g = c.getContext('2d'); g.fillStyle = '#fff'; g.fillRect(0, 0, 64, 64);
        g.fillStyle = '#000'; g.font = `48px "${family}"`; g.textBaseline = 'top'; g.fillText(ch, 4, 4);
        return c.toDataURL('image/png');
    }""", [ch, family])


def test_rare_characters_render_from_the_web_font(live_server, search_backend, transactional_db, tabs, tmp_path):
    from reader.importers.loader import import_file

    path = tmp_path / "rare.txt"
    path.write_text(TEXT, encoding="utf-8")
    import_file(path)
    tab = tabs()
    page = tab.page
    fetched = []
    page.on("response", lambda r: fetched.append((r.url.rsplit("/", 1)[-1], r.status)) if "fonts/" in r.url else None)
    page.goto(f"{live_server.url}/works/測試書/juan/1/")
    page.evaluate("document.fonts.ready")
    loaded = page.evaluate("""async (text) => {
        await document.fonts.load('48px "Classics Rare Han"', text);
        return [...document.fonts].filter(f => f.family.includes('Classics Rare Han')).map(f => f.status);
    }""", RARE)
    assert loaded == ["loaded"]
    assert ("rare-han.woff", 200) in fetched
    assert page.evaluate("(t) => document.fonts.check('48px \"Classics Rare Han\"', t)", RARE)
    blank = _draw(page, " ", "Classics Rare Han")
    notdef = _draw(page, MISSING, "Classics Rare Han")
    drawn = {ch: _draw(page, ch, "Classics Rare Han") for ch in RARE}
    for ch, png in drawn.items():
        assert png not in (blank, notdef), ch     # a glyph, not nothing and not the .notdef box
    assert len(set(drawn.values())) == 3          # three different glyphs
    width = page.evaluate("""(ch) => { const g = document.createElement('canvas').getContext('2d');
        g.font = '48px "Classics Rare Han"'; return g.measureText(ch).width; }""", RARE[0])
    assert 40 <= width <= 56
    assert base64.b64decode(drawn[RARE[0]].split(",", 1)[1])[:4] == b"\x89PNG"
    tab.shot("rare-characters")


def test_a_gaiji_read_as_a_character_shows_it_from_the_web_font_with_its_code(live_server, search_backend,
                                                                              transactional_db, tabs, tmp_path):
    """A gaiji Kanripo's gaiji table reads as one character is that character in the page's title,
    its heading and its text, as the citation writes it (decision 0102), drawn from the site's
    web font, its code in the tooltip and ``data-code``; axe finds nothing on it. 周禮 卷二十七 §5,
    its gaiji written &KR0237; (read 𥜗) for the test (tests/test_gaiji_titles.py)."""
    from pathlib import Path

    from reader.importers.loader import import_file

    real = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "kanripo-jingbu" / "KR1d0003" / \
        "KR1d0003_027.txt"
    path = tmp_path / real.name
    path.write_text(real.read_text(encoding="utf-8").replace("雚蔽然&KR0860;髤飾", "雚蔽然&KR0237;髤飾"),
                    encoding="utf-8")
    juan = import_file(path).juan
    tab = tabs()
    page = tab.page
    page.goto(f"{live_server.url}/works/{juan.edition.slug}/juan/{juan.number}/5/")
    assert page.title().startswith("駹車雚蔽然𥜗髤飾… · ")
    heading = page.locator("h1.section-page-title .gaiji")
    assert heading.inner_text() == "𥜗"
    assert heading.get_attribute("title") == ("KR0237：Unicode 未收之字，Kanripo 造字表讀作𥜗 (a character Unicode lacks, "
                                              "read as 𥜗)")
    assert heading.get_attribute("data-code") == "&KR0237;"
    assert page.evaluate("""async (t) => { await document.fonts.load('48px "Classics Rare Han"', t);
        return document.fonts.check('48px "Classics Rare Han"', t); }""", "𥜗")
    assert "「駹車雚蔽然𥜗髤飾…」" in page.locator(".cite-main .citation").inner_text()
    # (the juan's untitled opening before its 考證 has a hidden heading 卷首: no h3 right under the h1)
    assert tab.axe() == []
