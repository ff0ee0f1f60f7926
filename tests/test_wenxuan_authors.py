"""文選's author lines are the pieces' bylines, never text (issue 27: a byline is metadata): 六臣註文選 prints
the author and the commentator side by side on one line (卷三 ``　　　　張平子　薛綜注`` under ``　　　東京賦(…``,
卷十五 ``　　　　張平子舊注(…`` under ``　　　思玄賦(…``), where 文選 李善註 prints them on two lines; 文選 李善註
卷四十九 prints ``　　　干令升`` with his note running on under a title with no genre word (晉紀論晉武帝革命).
Real files of ``../shared/corpus/kanripo-commentary``; each writes back byte for byte."""
import pytest

from reader.citation import citation_text
from reader.importers.document import LABEL, NOTE
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

