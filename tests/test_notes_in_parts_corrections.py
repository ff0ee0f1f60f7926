"""A correction of a later part of a note stored in several parts (decision 0061's pieces, ``reader.reading.
one_printed_note``) stands in that part, wherever the reading page shows it: 六臣註文選 KR4h0003 卷一 §3's note on
班孟堅 (李善's and 張銑's, seven parts), whose rest 「宗時除蘭臺令史…」 (piece 5) the file puts at the head of the
next paragraph and the page shows in its note's paragraph (``SectionView.shown_paragraphs``). Proposed from the
form the reading page's 「校正」 opens for a selection in that part (``?section=3&piece=5&start=…``), a text
correction (蘭臺 → 蘭台) and an annotation (遷為郎) are stored on piece 5 at the offsets selected, and, accepted, are
shown inside that part in the byline's paragraph in 夾注, 旁注 (in the note's one box) and 只看注 (in the note's
row), not in the paragraph of the text after it; the same after the file is imported again. Real file of
``../shared/corpus/kanripo-commentary``."""
import html
import re

from django.test import Client

from corrections.models import ACCEPTED, Proposal
from corrections.workflow import accept
from reader.importers.loader import import_file
from search.signals import muted

from .conftest import SHARED
from .test_corrections import people  # noqa: F401 - the fixture

FILE = SHARED / "corpus" / "kanripo-commentary" / "KR4h0003" / "KR4h0003_001.txt"
FORM = "/corrections/propose/KR4h0003/1/"
PAGE = "/works/KR4h0003/juan/1/3/"
#: Piece 5 as the page shows it corrected: the new 蘭台 framed with its 「校」, 遷為郎 annotated.
PART = re.compile(r'<span class="note joins-previous joins-next layer-commentary" data-layer="注" id="s3-p5" role="note">'
                  r'宗時除<span class="corrected">蘭台</span><a class="corr-mark" href="/corrections/(\d+)/"[^>]*>.*?</a>令史'
                  r'<span class="annotated-text">遷為郎</span>.*?<span class="annotated">「遷為郎」</span>遷為郎：官名'
                  r'<span class="annotator">—cx</span></span>乃上兩都賦大將軍</span>', re.S)


def _blocks(page: str) -> list[str]:
    """§3's paragraphs (or, in 只看注, rows of glosses) as the page shows them."""
    section = re.search(r'<section class="section" id="s3".*?</section>', page, re.S).group(0)
    return [a or b for a, b in re.findall(r'<p class="passage">(.*?)</p>|<dl class="glosses">(.*?)</dl>', section, re.S)]


def shown(client) -> dict:
    """In each notes mode, which of §3's blocks hold piece 5 corrected (``PART``) and the text just before that
    part (the note's part 「…博貫載籍顯」, piece 2), and the number of 「校」 marks on the page's §3."""
    out = {}
    for mode in ("inline", "beside", "only"):
        blocks = _blocks(client.get(PAGE, {"notes": mode, "layout": "horizontal"}).content.decode())
        out[mode] = ([k for k, b in enumerate(blocks) if PART.search(b)],
                     [k for k, b in enumerate(blocks) if 'id="s3-p2" role="note">人也年九歳能屬文長遂博貫載籍顯</span>' in b],
                     sum(b.count('class="corr-mark"') for b in blocks))
    return out


def test_corrections_of_a_notes_rest_in_the_next_paragraph_stand_in_it_in_every_mode_and_after_reimport(db, people):
    with muted():
        import_file(FILE)
    client = Client()
    client.force_login(people["contributor"])
    # the form the reading page's 「校正」 opens for 蘭臺 selected in piece 5 names it in the section's count
    page = html.unescape(client.get(FORM, {"section": 3, "piece": 5, "start": 3, "end": 5}).content.decode())
    first, last = (re.search(rf'name="{n}" value="(\d+)"', page)[1] for n in ("first", "last"))
    assert re.findall(r'<p class="diff" lang="zh-Hant"><span class="ctx">(.*?)</span><mark>(.*?)</mark>', page) == [
        ("宗時除", "蘭臺")]
    pieces = re.findall(r'<li><span class="char-range">(.*?)</span> <span lang="zh-Hant">(.*?)</span></li>', page)
    # counted after 兩都賦序, 班孟堅, 善曰…北地 and 人也…顯 (the note's columns in reading order)
    assert pieces[4] == ("第 38–55 字", "宗時除蘭臺令史遷為郎乃上兩都賦大將軍") and (first, last) == ("41", "42")
    for kind, extra in (("text", {"replacement": "蘭台"}), ("annotation", {"replacement": "遷為郎：官名", "tags": ["office"]})):
        span = {"first": 41, "last": 42} if kind == "text" else {"first": 45, "last": 47}
        response = client.post(FORM, {"kind": kind, "section": 3, **span, "reason": "試", **extra})
        assert response.status_code == 302
    text, note = Proposal.objects.order_by("pk")
    assert [(p.kind, p.section_position, p.piece_position, p.start, p.end, p.original, p.layer, p.commentator)
            for p in (text, note)] == [("text", 3, 5, 3, 5, "蘭臺", "commentary", "李善"),
                                       ("annotation", 3, 5, 7, 10, "遷為郎", "commentary", "李善")]
    with muted():
        accept(text, people["editor"])
        accept(note, people["editor"])
    # the byline's paragraph (block 1; 只看注's first row of glosses) holds the note's parts, the rest corrected
    expected = {"inline": ([1], [1], 1), "beside": ([1], [1], 1), "only": ([0], [0], 1)}
    assert shown(client) == expected
    assert PART.search(_blocks(client.get(PAGE, {"notes": "inline", "layout": "horizontal"}).content.decode())[1])[1] \
        == str(text.pk)
    # imported again: both stay accepted on piece 5 at their offsets, and are shown where they were
    with muted():
        import_file(FILE)
    assert [(p.status, p.section_position, p.piece_position, p.start, p.end)
            for p in Proposal.objects.order_by("pk")] == [(ACCEPTED, 3, 5, 3, 5), (ACCEPTED, 3, 5, 7, 10)]
    assert shown(client) == expected
