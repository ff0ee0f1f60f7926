"""A 篇's title printed alone under a juan's head without its number (``lines.title_under_head``), and
a hit named as its citation names it (``search.service.hit_place``). A breaker found 前漢書 卷十九上
(KR2a0007_019, ``　百官公卿表¶`` under its bylines, where 卷十九下 prints ``　百官公卿表第七下``) read as
an untitled chapter, the section's title 百官公卿表: the citation took 卷十八's 篇 for it (the juan
was taken to go on with 〈外戚恩澤侯表第六〉, the work page's only （續） in the book). A new user found a
hit in 前漢書 卷一下 named 卷一上・卷一下, the file's label, where its citation says 卷一下, and a hit
in 三國志 named 三國志 where its citation says 《三國志・魏志》 (decisions 0062, 0068)."""
import re

import pytest

from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.models import Chapter

from .test_printed_heads import COMMENTARY
from .test_printed_juans import HANSHU, imported

S = "\u3000"


def test_a_pian_title_alone_under_the_juans_head_heads_its_chapter():
    """卷十九上 prints 百官公卿表 under its bylines, its note three columns deep, the text flush: the
    chapter's title as printed, the note the chapter's first text; the file writes back byte for byte."""
    path = HANSHU / "KR2a0007_019.txt"
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path), (HANSHU / "Readme.org").read_text(encoding="utf-8"))
    assert render_mandoku(doc) == raw
    assert [(c.title, c.heading, c.printed_juan) for c in doc.chapters] == [
        ("百官公卿表", "百官公卿表", "卷十九上"), ("卷十九上考證", None, "卷十九上"),
        ("百官公卿表第七下", "百官公卿表第七下", "卷十九下"), ("卷十九下考證", None, "卷十九下")]
    first = doc.chapters[0].sections[0]
    assert (first.title, first.pieces[0].kind, first.pieces[0].text[:11]) == ("", "note", "師古曰漢制三公號稱萬石")



@pytest.mark.django_db
def test_the_juan_is_cited_under_its_own_pian_not_the_juan_befores(tmp_path, client):
    """/juans/19/ and its first section name 卷十九上's 篇 as the book prints it, not 卷十八's
    外戚恩澤侯表第六; the work page lists it so, with no （續）."""
    eighteen, nineteen = imported(tmp_path, HANSHU, "KR2a0007_018.txt", "KR2a0007_019.txt")
    api = f"/api/editions/{nineteen.edition_id}/juans/19/"
    data = client.get(api).json()
    assert data["citation"] == (
        "〔漢〕班固　〔唐〕顏師古注《前漢書》卷十九上〈百官公卿表〉・卷十九下〈百官公卿表第七下〉"
        "（四庫全書・文淵閣本，Kanripo KR2a0007_019） http://testserver/works/KR2a0007/juan/19/")
    assert [c["title"] for c in data["chapters"]] == ["百官公卿表", "卷十九上考證", "百官公卿表第七下", "卷十九下考證"]
    assert client.get(api + "sections/1/").json()["citation"] == (
        "〔漢〕班固　〔唐〕顏師古注《前漢書》卷十九上〈百官公卿表〉「易叙宓羲神農黃帝…」（四庫全書・文淵閣本，葉 19-1a） "
        "http://testserver/works/KR2a0007/juan/19/1/")
    body = client.get(f"/works/{nineteen.edition.slug}/").content.decode()
    listed = body.split('<ol class="juans">')[1].split("</ol>")[0]
    assert [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip() for li in listed.split("<li>")[1:]] == [
        "卷十八 〈外戚恩澤侯表第六〉 附〈卷十八考證〉 11 節 引文", "卷十九上 〈百官公卿表〉 附〈卷十九上考證〉 5 節 引文",
        "卷十九下 〈百官公卿表第七下〉 附〈卷十九下考證〉 3 節"]
    assert "（續）" not in body
