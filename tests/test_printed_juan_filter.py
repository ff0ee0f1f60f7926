"""The juan filter names each printed 卷 of a file that holds several (``search.forms.printed_chapters``,
``reader.juans.named_parts``): a new user found 孟子注疏 KR1h0003_001 (卷一上・卷一下) filtered whole, whichever
part was typed (``juan=卷一上&q=梁襄王`` gave the 3 hits of 卷一下, each labelled 卷一下, under the chip
卷：卷一上), and the form's 卷 list offering only 「卷一上至卷一下」."""
import re

import pytest

from .conftest import index_all
from .test_printed_juans import MENGZI, imported


@pytest.fixture
def mengzi(search_backend, tmp_path):
    """孟子注疏 KR1h0003_001 (卷一上・卷一下), imported and indexed."""
    (juan,) = imported(tmp_path, MENGZI, "KR1h0003_001.txt")
    index_all(search_backend)
    return juan


def places(client, **params):
    """``(juan_label, section position)`` of each API hit for ``params``."""
    data = client.get("/api/search/", params).json()
    return [(h["juan_label"], h["section"]["position"]) for h in data["results"]]


@pytest.mark.django_db
def test_each_printed_juan_of_a_file_is_a_filter_of_its_own(client, mengzi):
    """梁襄王 is in 卷一下 (§8 and its 考證 §11): typing 卷一上 finds none of it, 卷一下 all 3; 孟子 in the
    classic, 7 times in 卷一上 and twice in 卷一下, is found so, each hit labelled by the 卷 it is in; 卷一 and
    the range name both."""
    slug = mengzi.edition.slug
    assert places(client, q="梁襄王", work=slug, juan="卷一上") == []
    assert places(client, q="梁襄王", work=slug, juan="卷一下") == [("卷一下", 8), ("卷一下", 8), ("卷一下", 11)]
    upper = [("卷一上", 2), ("卷一上", 2), ("卷一上", 3), ("卷一上", 3), ("卷一上", 4), ("卷一上", 6), ("卷一上", 6)]
    assert places(client, q="孟子", work=slug, juan="卷一上", layer="classic") == upper
    assert places(client, q="孟子", work=slug, juan="卷一下", layer="classic") == [("卷一下", 8), ("卷一下", 8)]
    for whole in ("卷一", "卷一上至卷一下", "卷一上・卷一下"):
        assert places(client, q="孟子", work=slug, juan=whole, layer="classic") == upper + [("卷一下", 8), ("卷一下", 8)]
    assert places(client, q="孟子", work=slug, juan=["卷一上", "卷一下"], layer="classic") == \
        upper + [("卷一下", 8), ("卷一下", 8)]


@pytest.mark.django_db
def test_the_page_and_the_forms_list_name_each_printed_juan(client, mengzi):
    """The page's chip and summary name the 卷 typed, its hits are of it, its 篇 list holds its chapters
    alone; the form's 卷 list offers 卷一上 and 卷一下 (as the work page lists them), not their range."""
    slug = mengzi.edition.slug
    page = client.get("/search/", {"q": "梁襄王", "work": slug, "juan": "卷一下"}).content.decode()
    assert re.findall(r'<a class="where"[^>]*>([^<]*)</a>', page) == [
        "孟子注疏 卷一下〈梁惠王章句上〉 §8「孟子見梁襄王出語…」", "孟子注疏 卷一下〈梁惠王章句上〉 §8「孟子見梁襄王出語…」",
        "孟子注疏 卷一下〈卷一下考證〉 §11「卷一下考證」"]
    chapters = re.search(r'<select[^>]*name="chapter"[^>]*>(.*?)</select>', page, re.S)[1]
    assert re.findall(r"<option[^>]*>([^<]*)</option>", chapters) == ["全部", "梁惠王章句上", "卷一下考證"]
    page = client.get("/search/", {"q": "梁襄王", "work": slug, "juan": "卷一上"}).content.decode()
    assert re.findall(r'<a class="where"[^>]*>([^<]*)</a>', page) == []
    assert "限定卷「卷一上」後沒有； 不限卷 有 3 處" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert client.get("/search/juan-labels/", {"work": slug}).json() == {
        "labels": ["卷一上", "卷一下"], "hint": "卷名如書中所題，可從所選之書的 2 卷中選（按下方向鍵）"}
