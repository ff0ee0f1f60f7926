"""An anthology's pieces as the book makes them (文選 李善註 KR4h0002, 六臣註文選 KR4h0003;
``reader/importers/mandoku/piece_groups.py`` and ``piece_heads.py``): 卷 → 類 → title → author's
line → text. A group's title counts its pieces and names their author once, so each piece of the
group is his; an author's line whose title a missing page took names the piece's author, never its
title; a title whose words fill their column goes on over the next line; an author's note may run on
over lines printed as deep as his name. Each file still writes back byte for byte."""
import pytest

from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.mandoku.piece_groups import group_count

from .conftest import SHARED, parse_written_back

BOOKS = SHARED / "corpus" / "kanripo-commentary"


def _read(name: str):
    path = BOOKS / name.split("_")[0] / f"{name}.txt"
    return parse_written_back(path, path.name)


def _heads(doc, first: int, last: int):
    return [(s.line, s.title, [p["name"] + p["role"] for p in s.bylines]) for s in doc.sections if first <= s.line <= last]


def test_group_count():
    assert [group_count(t) for t in ("樂府詩十七首", "擬古詩十二首", "雜體詩三十首", "樂府二首", "東都賦一首", "北使洛")] == [
        17, 12, 30, 2, 0, 0]


@pytest.mark.parametrize("name, line, author, text", [
    # page 5b is missing from the transcription: the title (之宣城出新林浦向板橋) went with it
    ("KR4h0003_027", 100, "謝玄暉", "江路西南永歸流東北騖"),
    # page 14b is written twice and 14a is missing: 檄吳將校部曲文's title went with it
    ("KR4h0003_044", 308, "陳孔璋", "年月朔日子尚書令彧"),
])
def test_an_authors_line_whose_title_a_missing_page_took_is_no_title(name, line, author, text):
    """The section was titled by the author's name (issue 27: 卷二十七 謝玄暉, 卷四十四 陳孔璋)."""
    doc = _read(name)
    section = next(s for s in doc.sections if s.line == line)
    assert (section.title, [p["name"] for p in section.bylines]) == ("", [author])
    assert [(p.kind, p.text) for p in section.pieces if p.kind != NOTE][:2] == [(LABEL, author), (TEXT, text)]
    assert author not in [s.title for s in doc.sections]


def test_the_piece_cut_for_size_keeps_the_author_whose_title_was_lost():
    assert _heads(_read("KR4h0003_044"), 300, 600) == [
        (308, "", ["陳孔璋"]), (380, "", ["陳孔璋"]), (445, "", ["陳孔璋"]), (522, "", ["陳孔璋"]), (574, "檄蜀文", ["鍾士季"])]


def test_a_title_whose_words_fill_their_column_goes_on_over_the_next_line():
    """六臣註文選 卷三十 「　　石門新營所住四靣高山迴溪(作磎/五臣)石瀬」 fills its column, 「　　茂林修竹(…)」
    goes on as deep, then 「　　　謝靈運」: the section was titled 謝靈運. The same in 文選 卷二十."""
    doc = _read("KR4h0003_030")
    assert _heads(doc, 184, 236) == [(184, "齋中讀書", ["謝靈運"]), (204, "石門新營所住四靣高山迴溪石瀬茂林修竹", ["謝靈運"]),
                                     (236, "雜詩", ["王景玄"])]
    assert _heads(_read("KR4h0002_020"), 721, 760) == [(721, "金谷集作詩一首", ["潘安仁"]),
                                                      (749, "王撫軍庾西陽集别時為豫章太守庾被徴還東一首", ["謝宣遠"])]


def test_a_category_name_over_a_title_is_no_part_of_it():
    """文選 卷六十 「　祭文」 (the 類), 「　　祭古冡文(并序/)」, 「　　　謝惠連(沈約宋書曰…」 whose note runs
    on over 「　　　(壍中得古冢…)」: the section was titled 祭文, the 類, and had no author. 六臣註文選 卷四十三
    「　　書下」 over 「　　與山巨源絶交書一首(…」 stays apart from the title."""
    doc = _read("KR4h0002_060")
    section = next(s for s in doc.sections if s.line == 479)  # under 祭文, its chapter's heading (line 478)
    assert (section.title, [p["name"] for p in section.bylines]) == ("祭古冡文", ["謝惠連"])
    assert [(p.kind, p.text) for p in section.pieces[:4] if p.kind != NOTE] == [(LABEL, "祭古冡文"), (LABEL, "謝惠連")]
    assert [c.heading for c in doc.chapters if section in c.sections] == ["祭文"]
    # its own line (``lines.stacked_heads``), the heading of the juan's chapter; the title the section's
    forty_three = _read("KR4h0003_043")
    assert _heads(forty_three, 1, 20) == [(12, "與山巨源絶交書一首", ["嵇叔夜"])]
    assert [c.heading for c in forty_three.chapters] == ["書下"]


def test_a_groups_author_is_each_of_its_pieces_author():
    """六臣註文選 卷二十八 「　　樂府詩十七首」, 「　　　猛虎行(…」, 「　　　　陸士衡」: the group's author is named
    once; its other pieces (君子行 … 短歌行) had no author. The group ends at a piece with its own author
    (㑹吟行, 謝靈運)."""
    heads = _heads(_read("KR4h0003_028"), 1, 444)
    assert [t for _, t, _ in heads] == [
        "猛虎行", "君子行", "豫章行", "苦寒行", "飲馬長城窟行", "門有車馬客行", "君子有所思行", "齊謳行", "或曰羅敷豔歌",
        "長安有狹邪行", "前緩聲歌", "長歌行", "呉趨行", "塘上行", "悲哉行", "短歌行", "㑹吟行", "東武吟"]
    assert [a for _, _, a in heads] == [["陸士衡"]] * 16 + [["謝靈運"], ["鮑明逺"]]


def test_li_shans_piece_heads_read_as_titles_over_their_authors():
    """Piece heads of 文選 李善註 that were the text of the piece before them, as the layout prints them:
    a title too long for its column going on one column deeper, as deep as the author under it (卷二十六
    「　　贈郭桐廬…維舟」, 「　　　久之郭生方至一首(…」 and its note's next line, 「　　　任彦昇」; 卷三十 「　　石門…茂林詩」,
    「　　　一首(五言/)」, 「　　　謝靈運」; 六臣 prints the second line as deep and its note running on over a third);
    an author printed as high as a title ending in its genre, right under it (卷三十 「　　擬四愁詩一首(七言/)」,
    「　　張孟陽」; 卷二十八 「　　　東武吟(…」, 「　　　鮑明遠」, the first piece of 「　　樂府詩八首」, whose pieces are each
    his); a group's title with its note, its author a column deeper and its first part's title as high as the
    group's (卷二十一 「　　五君詠(…」, 「　　　顔延年」, 「　　阮步兵(…」, where 六臣 prints 五君詠五首); a title whose note's
    next line holds a blank between its two notes (卷二十二 「　　　(北臨江集/在潤州西)　(曰元嘉…)」)."""
    assert _heads(_read("KR4h0002_026"), 255, 284) == [
        (255, "古意贈王中書一首", ["范彦龍"]), (271, "贈郭桐廬出溪口見候余既未至郭仍進村維舟久之郭生方至一首", ["任彦昇"]),
        (284, "河陽縣作二首", ["潘安仁"])]
    assert _heads(_read("KR4h0003_026"), 300, 345) == [(329, "贈郭桐廬出谿口見候余既未至郭仍進村維舟乆之郭生方至", ["任彦昇"])]
    doc = _read("KR4h0002_030")
    assert _heads(doc, 135, 160) + _heads(doc, 579, 594) == [
        (135, "齋中讀書一首", ["謝靈運"]), (149, "石門新營所住四面高山迴溪石瀨修竹茂林詩一首", ["謝靈運"]),
        (579, "擬明月皎夜光", ["陸士衡"]), (587, "擬四愁詩一首", ["張孟陽"]), (594, "擬古詩一首", ["陶淵明"])]
    section = next(s for s in doc.sections if s.line == 587)
    assert [(p.kind, p.text) for p in section.pieces if p.kind != NOTE][:3] == [
        (LABEL, "擬四愁詩一首"), (LABEL, "張孟陽"), (TEXT, "我所思兮在營州欲往從之路阻修登崖逺望涕泗流我之懐矣心傷憂佳人遺我緑綺琴何以贈之雙南金")]
    assert len(section.paragraphs[0]) == 2  # the title and its note; the author a paragraph of his own
    assert _heads(_read("KR4h0002_028"), 320, 420) == [(327, "㑹吟行", ["謝靈運"]), (361, "東武吟", ["鮑明遠"]),
                                                      (390, "出自薊北門行", ["鮑明遠"]), (406, "結客少年場行", ["鮑明遠"])]
    assert _heads(_read("KR4h0002_021"), 330, 346) == [(342, "五君詠", ["顔延年"])]
    assert _heads(_read("KR4h0002_022"), 330, 360) == [(347, "車駕幸京口侍逰蒜山作一首", ["顔延年"])]


def test_the_first_piece_of_a_group_titles_the_groups_section():
    """文選 卷二十八 「　　樂府十七首」, 「　　　猛虎行(…」, then the author as high as the group's title,
    「　　陸士衡」, over the poem: the section is the first poem's, and every poem of the group his."""
    heads = _heads(_read("KR4h0002_028"), 1, 93)
    assert heads == [(12, "猛虎行", ["陸士衡"]), (30, "君子行", ["陸士衡"]), (58, "從軍行", ["陸士衡"]),
                     (74, "豫章行", ["陸士衡"]), (93, "苦寒行", ["陸士衡"])]


def test_a_group_titled_as_high_as_a_category_and_one_that_ends_at_the_next_category():
    """文選 卷二十七 「　樂府二首」 over 「　　短歌行」 over 「　　　魏武帝」, then 「　　　苦寒行」: 魏武帝's too.
    「　　宋郊祀歌二首」 (顔延年) ends at the next 類 「　樂府上」: 飲馬長城窟行 (古辭) is not his."""
    heads = _heads(_read("KR4h0002_027"), 283, 400)
    assert heads == [(284, "宋郊祀歌二首", ["顔延年"]), (325, "飲馬長城窟行", []), (337, "傷歌行", []), (346, "長歌行", []),
                     (354, "怨歌行一首", ["班媫妤"]), (364, "短歌行", ["魏武帝"]), (386, "苦寒行", ["魏武帝"]),
                     (398, "善哉行", ["魏文帝"])]


def test_a_group_titled_by_the_poets_it_imitates():
    """六臣註文選 卷三十 擬魏太子鄴中集八首 (謝靈運) titles its pieces by the poets it imitates, printed as
    deep as an author (「　　　魏太子」, 「　　　王粲」 …): titles, each piece 謝靈運's. 卷三十一 雜體詩三十首
    (江文通) likewise (「　　李都尉(軍/從)陵(…」): its pieces were untitled sections with no author."""
    assert _heads(_read("KR4h0003_030"), 816, 1100) == [(816, "擬魏太子鄴中集八首", ["謝靈運"])] + [
        (line, title, ["謝靈運"]) for line, title in [(835, "魏太子"), (854, "王粲"), (884, "陳琳"), (909, "徐幹"),
                                                   (933, "劉楨"), (955, "應瑒"), (980, "阮瑀"), (998, "平原侯植")]]
    heads = _heads(_read("KR4h0003_031"), 207, 2000)
    assert [t for _, t, _ in heads][:6] == ["雜體詩三十首", "古離别", "李都尉陵", "班婕妤", "魏文帝曹丕", "陳思王曹植"]
    # the group and 29 pieces titled (the transcription has no 謝法曹), 「　　張(作孫/五臣)廷尉(述/雜)綽」 with
    # notes on two of its words among them
    assert len(heads) == 30 and heads[-1][1] == "休上人" and all(a == ["江文通"] for _, _, a in heads)
    assert (566, "張廷尉綽", ["江文通"]) in heads


def test_a_title_printed_as_high_as_a_category_with_its_note_running_on():
    """六臣註文選 卷三十 prints 「　七月七日夜詠牛女(…」 as high as a 類 name, its note running on over
    three lines at the top of the column, then 「　　　謝恵連」 over the poem: the title went on the
    piece before (詠貧士) and the section was titled 謝恵連."""
    doc = _read("KR4h0003_030")
    assert _heads(doc, 57, 116) == [(57, "詠貧士", ["陶淵明"]), (71, "讀山海經", ["陶淵明"]), (87, "七月七日夜詠牛女", ["謝恵連"]),
                                    (116, "擣衣", ["謝惠連"])]
    assert "謝恵連" not in [s.title for s in doc.sections]


def test_the_parts_of_a_piece_that_counts_none_are_its_authors():
    """文選 李善註 卷二十一 「　　五君詠(…」 (its note running on), 「　　　顔延年」, then its first part's title as
    high as its own, 「　　阮步兵(…」, over the poem; the next parts each under a title of their own and no
    author (「　　　嵇中散」 … 「　　　向常侍」): each part is 顔延年's, as under 六臣's 五君詠五首, up to 詠史詩一首
    and its own author. 卷三十三 九章一首 over 屈平 and 王逸注 over 渉江 the same (test_unseen_books)."""
    assert _heads(_read("KR4h0002_021"), 330, 420) == [
        (342, "五君詠", ["顔延年"]), (347, "阮步兵", ["顔延年"]), (360, "嵇中散", ["顔延年"]), (373, "劉叅軍", ["顔延年"]),
        (383, "阮始平", ["顔延年"]), (397, "向常侍", ["顔延年"]), (407, "詠史詩一首", ["鮑明逺"])]
    assert _heads(_read("KR4h0003_021"), 415, 500) == [
        (415, "五君詠五首", ["顔延年"]), (422, "阮歩兵", ["顔延年"]), (435, "嵇中散", ["顔延年"]), (451, "劉參軍", ["顔延年"]),
        (463, "阮始平", ["顔延年"]), (477, "向常侍", ["顔延年"]), (498, "詠霍將軍北伐詩", ["虞子陽"])]


def test_a_pieces_preface_printed_higher_than_its_title_is_its_text():
    """文選 李善註 卷三十 擬魏太子鄴中集詩八首 (謝靈運) prints each piece's title as deep as the author
    (「　　　王粲」), then its preface one column in (「　家本秦川貴公子孫遭亂流寓自傷情多」), then the poem:
    the preface ended the group as the next 類 would (王粲 … 平原侯植 had no author), and 阮瑀's, short
    (「　管書記之任故有優渥之言」), titled his section."""
    doc = _read("KR4h0002_030")
    assert _heads(doc, 599, 730) == [(599, "擬魏太子鄴中集詩八首", ["謝靈運"])] + [
        (line, title, ["謝靈運"]) for line, title in [(611, "魏太子"), (622, "王粲"), (641, "陳琳"), (654, "徐幹"),
                                                   (670, "劉楨"), (685, "應瑒"), (699, "阮瑀"), (712, "平原侯植")]]
    section = next(s for s in doc.sections if s.line == 699)
    assert [(p.kind, p.text) for p in section.pieces[:3]] == [
        (LABEL, "阮瑀"), (TEXT, "管書記之任故有優渥之言"), (TEXT, "河洲多沙塵風悲黄雲起")]


def test_a_name_printed_as_deep_as_a_noted_title_is_its_author():
    """六臣註文選 卷三十 「　　讀山海經(…)」 over 「　　陶淵明」 over the poem (the author printed as deep as the
    title, where the juan prints him a column deeper): the poem had no title and went on 詠貧士's section.
    文選 李善註 卷五十九 「　　劉先生夫人墓誌(…」 and its note's next line 「　　(瓛立碑…)」 over 「　　任彦升」: the
    title and author were text of the piece before. Only in a run that prints an author deeper than his title:
    禮書 (KR1d0084) 卷二十九 「　　人耦(…」 over 「　　牛耦」 over the text is two headings, no title and author."""
    assert _heads(_read("KR4h0003_030"), 57, 90) == [(57, "詠貧士", ["陶淵明"]), (71, "讀山海經", ["陶淵明"]),
                                                     (87, "七月七日夜詠牛女", ["謝恵連"])]
    doc = _read("KR4h0002_059")
    assert _heads(doc, 660, 700) == [(670, "劉先生夫人墓誌", ["任彦升"])]
    section = next(s for s in doc.sections if s.line == 670)
    assert [(p.kind, p.text) for p in section.pieces if p.kind != NOTE][:3] == [
        (LABEL, "劉先生夫人墓誌"), (LABEL, "任彦升"), (TEXT, "既稱萊婦亦曰鴻妻")]
    li_shu = parse_written_back(SHARED / "corpus" / "kanripo-jingbu" / "KR1d0084" / "KR1d0084_029.txt")
    assert "人耦" not in [s.title for s in li_shu.sections] and not any(s.bylines for s in li_shu.sections)


def test_an_end_title_written_with_a_variant_closes_its_juan():
    """文選 李善註 卷十九 ends 「　文𨕖巻十九」 (its other juans 「　文選巻十八」 …): the juan's own label after its
    last text, the title one character apart from the work's. It was a section titled 文𨕖巻十九."""
    doc = _read("KR4h0002_019")
    assert doc.trailer_lines == ["\u3000文𨕖巻十九¶"]
    assert "文𨕖巻十九" not in [s.title for s in doc.sections]
