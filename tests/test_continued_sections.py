"""A piece cut into several sections is named once in a list of the sections, each later part marked
（續）; citations and the API keep the piece's title on every part (``reader.continued``, decision 0111).
On 楚辭補注 卷二 (九歌), where 湘君 and 湘夫人 are each cut for size into two sections."""
import re
from html import unescape
from types import SimpleNamespace

import pytest

from reader.continued import goes_on
from reader.importers.loader import import_file
from reader.pieces import LABEL, TEXT

from .conftest import SHARED

BUZHU_2 = SHARED / "corpus" / "kanripo-commentary/KR4a0003/KR4a0003_002.txt"


def _section(title, chapter=1, closer=None):
    return SimpleNamespace(title=title, chapter_id=chapter, closer=closer)


def test_a_section_goes_on_with_the_piece_before_only_where_nothing_prints_a_new_one():
    """Same title, same chapter, no closer, not opening with its own title line: a part going on."""
    verse = SimpleNamespace(kind=TEXT, text="心不同兮媒勞")
    assert goes_on(_section("湘君"), _section("湘君"), verse)
    assert goes_on(_section("湘君"), _section("湘君"), None)
    assert not goes_on(_section("雲中君"), _section("湘君"), verse)
    assert not goes_on(None, _section("湘君"), verse)
    assert not goes_on(_section(""), _section(""), verse)  # untitled sections are named by their words
    assert not goes_on(_section("湘君", chapter=1), _section("湘君", chapter=2), verse)
    # 文選 卷二十九: seven poems titled 雜詩一首 in a row, each under its own title line
    assert not goes_on(_section("雜詩一首"), _section("雜詩一首"), SimpleNamespace(kind=LABEL, text="雜詩一首"))
    # 禮書綱目 卷十: two passages each closed by 右取矢視算
    assert not goes_on(_section("取矢視算", closer="右取矢視算"), _section("取矢視算", closer="右取矢視算"), verse)


@pytest.mark.django_db
def test_the_contents_name_a_piece_once_and_its_later_part_goes_on(seed_juan, client):
    """卷二's contents: 湘君, 湘君（續）, 湘夫人, 湘夫人（續）; §5's page is headed 湘君（續）; every part keeps
    its title in the API and the citation (「湘君」 with the leaf its part begins on)."""
    juan = import_file(BUZHU_2).juan
    page = unescape(client.get(f"/works/{juan.work.slug}/juan/2/").content.decode())
    toc = page[page.index('<nav class="toc-nav"'):]
    toc = toc[:toc.index("</ol>")]
    assert re.findall(r'<li><a href="#s\d+">([^<]*)</a>', toc) == [
        "九歌章句第二", "東皇太一", "雲中君", "湘君", "湘君（續）", "湘夫人", "湘夫人（續）", "大司命", "少司命", "東君",
        "河伯", "山鬼", "國殤", "禮魂"]
    fifth = unescape(client.get(f"/works/{juan.work.slug}/juan/2/5/").content.decode())
    assert "<title>湘君（續） · " in fifth
    assert re.search(r'<h1 class="section-page-title">湘君（續）', fifth)
    fourth = unescape(client.get(f"/works/{juan.work.slug}/juan/2/4/").content.decode())
    assert "<title>湘君 · " in fourth and "湘君（續）<small>" not in fourth
    sections = client.get(f"/api/works/{juan.work.pk}/juans/2/").json()["chapters"][0]["sections"]
    assert [s["title"] for s in sections[3:7]] == ["湘君", "湘君", "湘夫人", "湘夫人"]
    assert sections[4]["citation"].split(" http")[0] == \
        "〔宋〕洪興祖《楚辭補注》卷二〈九歌章句第二〉「湘君」（四庫全書・文淵閣本，葉 2-9b）"
