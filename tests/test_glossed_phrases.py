"""文選註 (李善, KR4h0002): a quoted man's part ends where 李善 glosses a phrase of the 文選 piece again
(docs/decisions/0112, ``reader.importers.mandoku.glossed_phrases``): the phrase quoted again with a glossing
word (三成帝畿謂…) where the man glossed the book 李善 had just cited, or with 李善's cross-reference 已見."""
import pytest

from reader.importers.loader import import_file
from reader.importers.mandoku.glossed_phrases import own_gloss_at
from reader.importers.mandoku.voices import WENXUAN_GLOSSES
from reader.models import Piece
from search import facets

from .conftest import SHARED, index_all
from .test_commentary_editions import notes, parse

FIRST = SHARED / "corpus" / "kanripo-commentary" / "KR4h0002" / "KR4h0002_001.txt"
# 卷一 西都賦, KR4h0002_001.txt:89-90: the line and its note as the book prints them
LINE = "是故横被六合三成帝畿周以龍興秦以虎視"
NOTE = "呂氏春秋曰神通乎六合髙誘曰四方上下為六合三成帝畿謂周秦漢也樂稽嘉耀曰"


def test_a_phrase_of_the_line_quoted_again_with_a_glossing_word_opens_li_shans_gloss():
    at = [k for k in range(len(NOTE)) if own_gloss_at(NOTE, k, LINE, WENXUAN_GLOSSES, True)]
    assert [NOTE[k:k + 4] for k in at] == ["三成帝畿"]  # not at 六 or 合: 六合 is 高誘's last word, on his book's
    # where the man glosses no book 李善 cited (his gloss is on the piece itself), a lemma and 謂 end nothing
    assert not any(own_gloss_at(NOTE, k, LINE, WENXUAN_GLOSSES, False) for k in range(len(NOTE)))
    # a phrase the note printed before is the man re-quoting his book (毛萇 on the 詩 the line borrows from)
    book = "毛詩曰載獫歇驕毛萇曰獫歇驕皆田犬也"
    assert not any(own_gloss_at(book, k, "輶車載獫歇驕", "皆", True) for k in range(len(book)))
    alone = book[book.index("毛萇"):]  # (the same words, the 詩 not quoted before: a lemma)
    assert [k for k in range(len(alone)) if own_gloss_at(alone, k, "輶車載獫歇驕", "皆", True)] == [3]


def test_a_cross_reference_ends_a_quoted_mans_part_at_its_lemma():
    """「X已見上文」 is 李善's (卷一: 「然同巻再見者並云已見上文」), with a lemma of one character or none after 也."""
    note = "周禮曰正樂懸之位王宫懸鄭司農曰宫懸四靣也鏞已見上文"
    assert [k for k in range(len(note)) if own_gloss_at(note, k, "設業設虡宫懸金鏞", "", False)] == [note.index("鏞")]
    note = "應劭曰孔丘也已見東方朔答客難"
    assert [k for k in range(len(note)) if own_gloss_at(note, k, "或七十説而不遇", "", False)] == [note.index("已")]


def test_li_shans_own_glosses_after_a_quoted_gloss_are_his():
    """卷一: 高誘's gloss on 呂氏春秋 ends at 六合, 張晏's on 漢書 before 金馬已見上文, 臣瓚's before 部曲已見上文;
    鄭玄's 「天子十二門通十二子也」 is his 周禮 注 (周禮注疏 prints it under 旁三門) and stays his; after 荀悅's
    「諱衎」 the note runs on to 「漢自髙祖至於孝平凡十二帝也」, 李善's sentence with no lemma, which no rule
    of the book tells from a gloss (decisions 0112, 0115): it stays in the part (荀悦曰 is a formula of the book)."""
    got = [(c, t) for c, _, _, t in notes(parse("kanripo-commentary/KR4h0002/KR4h0002_001.txt"))]
    assert got[46:49] == [
        ("李善", "孔安國尚書傳曰被及也呂氏春秋曰神通乎六合"), ("高誘", "髙誘曰四方上下為六合"),
        ("李善", "三成帝畿謂周秦漢也樂稽嘉耀曰徳象天地為帝周禮曰方千里曰王畿史記曰周后稷名棄堯舜時為農師號后稷姓姬氏至"
                 "孫公劉周之道興至文王徙都豐武王滅紂孔安國尚書序曰漢室龍興史記曰秦之先帝顓頊之苗裔至孝公作咸陽政并六國稱"
                 "皇帝周易曰虎視眈眈其欲逐逐")]
    assert got[55:57] == [("張晏", "張晏曰為功最髙而為漢帝太祖故特起名焉漢書孝平皇帝元帝庶孫"),
                          ("荀悅", "荀悦曰諱衎漢自髙祖至於孝平凡十二帝也")]
    assert got[60:62] == [("李善", "周禮曰匠人營國方九里旁三門"), ("鄭玄", "鄭𤣥曰天子十二門通十二子也")]
    assert got[133:136] == [
        ("李善", "漢書曰嚴助為㑹稽太守帝賜書曰君厭承明之廬"), ("張晏", "張晏曰承明廬在石渠門外"),
        ("李善", "金馬已見上文大雅謂有大雅之才者詩有大雅故以立稱焉漢書武帝曰司馬相如之倫皆辨智宏逹元元夲夲謂得其元夲也"
                 "孔叢子曰萇𢎞曰仲尼洽聞強記孝經鈎命决曰丘掇祕文")]
    assert got[281:283] == [("臣瓚", "臣瓚曰律説云勒兵而守曰屯"), ("李善", "部曲已見上文駢猶併也步田切漢書曰從胡人大校獵")]


@pytest.mark.slow
def test_search_finds_li_shans_gloss_under_him_not_under_the_man_before_it(seed_juan, search_backend, client):
    """`q=三成帝畿謂周秦漢&commentator=高誘` found 李善's gloss as 高誘's; the section's notes give each part its man."""
    juan = import_file(FIRST).juan
    index_all(search_backend)
    facets._tables.clear()
    search = lambda **params: client.get("/api/search/", {"q": "三成帝畿謂周秦漢", "exact": "1", **params}).json()  # noqa: E731
    assert (search(commentator="高誘")["count"], search(commentator="李善")["count"]) == (0, 1)
    assert search(commentator="李善")["results"][0]["commentator"] == "李善"
    part = Piece.objects.get(section__juan=juan, text__startswith="三成帝畿謂")
    base = f"/api/works/{juan.edition.work.pk}/juans/{juan.number}/sections/{part.section.position}/notes/"
    body = client.get(base, {"page_size": "200"}).json()
    parts = [(p["commentator"], p["text"]) for p in body["results"]]
    at = parts.index(("高誘", "髙誘曰四方上下為六合"))
    assert parts[at - 1][1].endswith("呂氏春秋曰神通乎六合") and parts[at + 1][0] == "李善"
    assert parts[at + 1][1].startswith("三成帝畿謂周秦漢也")


def test_li_shans_note_that_two_characters_write_one_word_ends_a_quoted_part():
    """After a quoted man's gloss has closed (也), 李善's 「X與Y同」 (古字通, 音義同 …) is his, and the part ends
    there (``voices.SAME_WORD``, decision 0115): 卷三十 「孔安國曰戡勝也」 then 「龕與戡音義同」; not where 同 opens a
    word of the man's sentence: 卷四十 杜預's 左傳 注 「稔熟也悉積與桀同誅」 (侈惡積熟, 與桀同誅) stays his."""
    thirty = [(c, t) for c, _, _, t in notes(parse("kanripo-commentary/KR4h0002/KR4h0002_030.txt"))]
    at = thirty.index(("孔安國", "孔安國曰戡勝也"))
    assert thirty[at + 1] == ("李善", "龕與戡音義同左氏傳曰組甲三百被練三千")
    forty = [(c, t) for c, _, _, t in notes(parse("kanripo-commentary/KR4h0002/KR4h0002_040.txt"))]
    assert [x for x in forty if x[0] == "杜預" and "稔熟也" in x[1]] == [
        ("杜預", "杜預曰稔熟也悉積與桀同誅漢書音義日列侯宗室見到都側目而視")]
    # 荀悦曰 opens 荀悅's part (his glosses on 漢書 that 李善 quotes after it, eight times in the book)
    first = [(c, t) for c, _, _, t in notes(parse("kanripo-commentary/KR4h0002/KR4h0002_001.txt"))]
    assert [t for c, t in first if c == "荀悅"] == [
        "荀悦曰諱邦字季", "荀悦曰諱徹", "荀悦曰諱詢字次卿", "荀悦曰諱鷔字太孫", "荀悦曰諱衎漢自髙祖至於孝平凡十二帝也",
        "荀悦曰諱恒"]
