"""文選's author lines are the pieces' bylines, never text (issue 27: a byline is metadata): 六臣註文選 prints
the author and the commentator side by side on one line (卷三 ``　　　　張平子　薛綜注`` under ``　　　東京賦(…``,
卷十五 ``　　　　張平子舊注(…`` under ``　　　思玄賦(…``), where 文選 李善註 prints them on two lines; 文選 李善註
卷四十九 prints ``　　　干令升`` with his note running on under a title with no genre word (晉紀論晉武帝革命).
Real files of ``../shared/corpus/kanripo-commentary``; each writes back byte for byte."""
import pytest

from reader.citation import citation_text
from reader.importers.document import COMMENTARY, LABEL, NOTE
from reader.importers.loader import import_file, render_source

from .conftest import SHARED, index_all
from .test_wenxuan_categories import BOOKS, heads, parse


def bylines(doc):
    return [(s.title, [b["name"] + b["role"] for b in s.bylines]) for s in doc.sections if s.title]


def test_an_author_and_his_commentator_on_one_line():
    # 六臣 卷三: 京都中 is the 類 heading the juan, 東京賦 the piece's title, 張平子　薛綜注 its byline (they were
    # text of the juan's first section, and 張平子　薛綜注 titled the next one)
    third = parse("KR4h0003/KR4h0003_003")
    assert heads(third) == [("京都中", "", "京都中")]
    assert bylines(third) == [("東京賦", ["張平子", "薛綜注"])]
    first = third.sections[0]
    assert [(p.kind, p.text) for p in first.pieces] == [(NOTE, "居中故曰京都中"), (NOTE, "京都有三巻此卷")]
    piece = third.sections[1]
    assert [(p.kind, p.text) for p in piece.pieces if p.kind != NOTE][:3] == [
        (LABEL, "東京賦"), (LABEL, "張平子\u3000薛綜注"), ("text", "安處先生於是似不能言者憮")]
    # 文選 李善註 prints the same on two lines and was read so
    assert bylines(parse("KR4h0002/KR4h0002_003"))[:1] == [("東京賦", ["張平子", "薛綜注"])]


def test_an_author_and_the_old_commentary_on_one_line():
    # 六臣 卷十五 ``張平子舊注(…``: the author and 舊注, as 文選 李善註 prints them on two lines (張平子 / 舊注)
    fifteen = parse("KR4h0003/KR4h0003_015")
    assert heads(fifteen) == [("志中", "", "志中")]
    assert bylines(fifteen)[:1] == [("思玄賦", ["張平子", "舊注"])]
    assert bylines(parse("KR4h0002/KR4h0002_015"))[:1] == [("思𤣥賦", ["張平子", "舊注"])]


def test_an_author_whose_note_runs_on_under_a_title_of_no_genre():
    # 文選 李善註 卷四十九 ``　　晉紀論晉武帝革命`` over ``　　　干令升(何法盛晉書曰…`` and its note's second line: the
    # name is 干令升's, as under 晉紀總論 below it (a name read under a title ending in its genre)
    forty_nine = parse("KR4h0002/KR4h0002_049")
    assert bylines(forty_nine)[:3] == [("公孫𢎞傳贊", ["班孟堅"]), ("晉紀論晉武帝革命", ["干令升"]),
                                       ("晉紀總論", ["干令升"])]
    assert [(p.kind, p.text) for p in forty_nine.sections[1].pieces if p.kind != NOTE][:2] == [
        (LABEL, "晉紀論晉武帝革命"), (LABEL, "干令升")]


def test_citations_and_the_juan_page_of_juan_three(db, client):
    juan = import_file(BOOKS / "KR4h0003" / "KR4h0003_003.txt").juan
    assert render_source(juan) == (BOOKS / "KR4h0003" / "KR4h0003_003.txt").read_text(encoding="utf-8")
    piece = juan.sections.get(title="東京賦")
    assert (piece.position, piece.bylines) == (2, [{"dynasty": "", "place": "", "name": "張平子", "role": ""},
                                                 {"dynasty": "", "place": "", "name": "薛綜", "role": "注"}])
    assert citation_text(piece) == (
        "〔梁〕蕭統編　〔唐〕李善註　〔唐〕呂延濟註　〔唐〕劉良註　〔唐〕張銑註　〔唐〕呂向註　〔唐〕李周翰註"
        "《六臣註文選》巻第三〈京都中〉張平子　薛綜注「東京賦」（四部叢刊本，葉 3-1a）")  # (as 卷二: 張平子　薛綜註「西京賦一首」)
    assert [c.title for c in juan.chapters.all()] == ["京都中"]


@pytest.mark.slow
def test_no_author_line_is_found_in_the_classic(seed_juan, search_backend, client):
    """The new user's searches: ``q=薛綜注&layer=classic`` found 六臣 卷三's line; now no author's line above is in
    the classic, and the 東京賦's text still is."""
    juans = [import_file(BOOKS / book / f"{book}_{n:03d}.txt").juan
             for book, n in (("KR4h0003", 3), ("KR4h0003", 15), ("KR4h0002", 49))]
    index_all(search_backend)

    def count(q, layer):
        return client.get("/api/search/", {"q": q, "layer": layer, "exact": "1", "page_size": "1",
                                           "edition": [j.edition.slug for j in juans]}).json()["count"]
    assert [count(q, "classic") for q in ("薛綜注", "張平子", "張平子舊注", "干令升")] == [0, 0, 0, 0]
    assert count("安處先生於是似不能言者", "classic") == 1



OLD_COMMENTARY = [{"dynasty": "", "place": "", "name": "張平子", "role": ""},
                  {"dynasty": "", "place": "", "name": "", "role": "舊注"}]


def test_the_old_commentary_names_nobody_and_the_liuchen_editors_sign_it_heng_yue():
    """卷十五 思玄賦: 舊注 names no man (李善: 「未詳注者姓名」), in both books; 六臣註文選 opens each of its parts with
    衡曰, the name its other title gives it (「摯虞流别題云衡注」), so they are 張衡's as the book prints them
    (docs/decisions/0069), where they named nobody (141 notes of the juan)."""
    from .test_collected_notes_editors import _notes, _read, _unsigned

    six = _read("KR4h0003_015")
    assert six.sections[0].bylines == OLD_COMMENTARY
    assert parse("KR4h0002/KR4h0002_015").sections[0].bylines == OLD_COMMENTARY
    notes = _notes(six)
    first = {"".join(t for t, *_ in note): note for note in notes}
    # 仰先哲之玄訓兮雖彌高而弗違(終也違避也/衡曰訓敎也彌)¶(哲智玄遠也…/善曰論語顔回曰仰之彌高/銑曰): read in reverse
    assert first["衡曰訓敎也彌終也違避也善曰論語顔回曰仰之彌高銑曰哲智玄遠也言志求遠敎故無所違"] == [
        ("衡曰訓敎也彌", COMMENTARY, "注", "張衡"), ("終也違避也", COMMENTARY, "注", "張衡"),
        ("善曰論語顔回曰仰之彌高", COMMENTARY, "注", "李善"), ("銑曰", COMMENTARY, "注", "張銑"),
        ("哲智玄遠也言志求遠敎故無所違", COMMENTARY, "注", "張銑")]
    heng = [p for note in notes for p in note if p[3] == "張衡"]
    assert (len(heng), sum(len(t) for t, *_ in heng), sum(any(p[3] == "張衡" for p in n) for n in notes)) == (285, 2677, 142)
    # left naming nobody: the title's note, which signs nobody, and a note whose 反切 runs into a gloss
    assert _unsigned(notes) == [
        "玄道也德也其作此賦以修道德志意不可遂願輕舉歴遠遊六合之外勢旣",
        "不能義又不可故退而思自反其系曰回志朅來從玄謀獲我所求夫何思思玄而已老子曰玄之又玄衆妙之門平子時爲侍中諸常侍惡直醜正危衡故作思玄非時俗",
        "才姓又音精"]
    # 文選註 prints the old commentary with no formula before 善曰: no part of it is 張衡's
    assert not [p for p in parse("KR4h0002/KR4h0002_015").all_pieces() if p.commentator == "張衡"]


@pytest.mark.slow
def test_the_old_commentary_in_the_api_the_tei_and_the_facets(seed_juan, search_backend, client):
    """No person 舊 anywhere: the section's people (API), its byline and citation, the TEI <byline>, the author
    facet and the TEI header's commentators; 張衡 counted as the book signs him."""
    from xml.etree import ElementTree as ET

    from api.exports import commentators_of, juan_div
    from reader.models import Piece
    from search import facets

    juans = [import_file(BOOKS / book / f"{book}_015.txt").juan for book in ("KR4h0003", "KR4h0002")]
    index_all(search_backend)
    facets._tables.clear()
    for juan in juans:
        piece = juan.sections.get(position=juan.sections.order_by("position").first().position)
        assert piece.bylines == OLD_COMMENTARY
        bylines = [ET.tostring(b, encoding="unicode") for b in juan_div(juan.edition.work, juan).iter("byline")]
        assert [b for b in bylines if "張平子" in b][0] == "<byline><persName>張平子</persName>\u3000舊注</byline>"
        assert "舊" not in [name for name, _ in commentators_of([juan])]
        body = client.get(f"/api/editions/{juan.edition_id}/juans/15/").json()
        first = body["chapters"][0]["sections"][0]
        assert (first["byline"], first["people"]) == ("張平子\u3000舊注", [
            {"dynasty": "", "name": "張平子", "role": ""}, {"dynasty": "", "name": "", "role": "舊注"}])
    six = juans[0]
    heng = sum(p.text.count("也") for p in Piece.objects.filter(section__juan=six, commentator="張衡"))
    body = client.get("/api/search/", {"q": "也", "exact": "1", "page_size": "1", "edition": six.edition.slug}).json()
    authors = {row["value"]: row["count"] for row in body["facets"]["author"]}
    assert (heng, authors["張衡"], "舊" in authors) == (272, 272, False)
    assert client.get("/api/search/", {"q": "也", "exact": "1", "page_size": "1", "edition": six.edition.slug,
                                       "commentator": "張衡"}).json()["count"] == heng


def test_cao_dagu_quoted_inside_shan_yue_is_li_shans():
    """卷十四 幽通賦: neither book signs 曹大家 (班昭) as the piece's commentator (its byline is 班孟堅 alone);
    六臣註文選 prints her glosses after 善曰, inside 李善's part (「善曰曹大家曰系連也…」), so they stay his, as a
    man 疏 quotes stays the 疏's; in 文選註 a man 李善 quotes by name and 曰 is his citation too, where no 善曰
    stands before it (decision 0133). docs/decisions/0069."""
    six = parse("KR4h0003/KR4h0003_014")
    said = [p.commentator for p in six.all_pieces() if p.kind == NOTE and "曹大家曰" in p.text]
    assert (len(said), set(said)) == (51, {"李善"})
    assert [b["name"] for s in six.sections if s.title == "幽通賦" for b in s.bylines] == ["班孟堅"]
    li = parse("KR4h0002/KR4h0002_014")
    assert {p.commentator for p in li.all_pieces() if p.kind == NOTE and "曹大家曰" in p.text} == {"李善"}
