"""Who wrote what, by the catalogue (``reader.catalogue_writers``): the one reading of Kanripo's
catalogue the importer and the facets share, its tie rule for a name of several dynasties, the
dynasty shown for one the catalogue writes two ways, and a courtesy name run on after a name."""
from collections import Counter

from catalogue.catalogue import Person
from reader.catalogue_writers import (byline_roles, choose_dynasty, courtesy_split, dynasty_spelling, folded_name,
                                      listed_dynasty, sole_dynasty, work_people, writes_main_text, written_dynasties)
from reader.person_names import dynasty_key, person_name


def test_an_authors_role_ends_in_zhuan_zhu_ji_bian_or_zuan():
    assert [writes_main_text(r) for r in ("撰", "著", "輯", "編", "纂", "奉敕撰", "等奉勅撰", "")] == [True] * 8
    assert [writes_main_text(r) for r in ("注", "音義", "疏", "集解", "考證", "撰校勘記")] == [False] * 6


def test_one_list_of_a_works_people():
    assert [(p.name, p.role, p.dynasty) for p in work_people("KR1a0007")] == [
        ("王弼", "注", "魏"), ("韓康伯", "注", "晉"), ("陸德明", "音義", "唐"), ("孔穎達", "疏", "唐")]
    assert work_people("KR9z9999") == () and work_people("") == ()


def test_a_person_listed_with_no_role_takes_the_role_his_byline_prints():
    """南華真經註疏: the catalogue lists 郭象 and 成玄英 with no role, so both read as its authors; the
    byline 「河南郭象注」「唐西華法師成玄英䟽」 names the writers of its 注 and its 疏."""
    byline = [{"dynasty": "", "place": "河南", "name": "郭象", "role": "注"},
              {"dynasty": "唐", "place": "", "name": "成玄英", "role": "䟽"}]
    assert work_people("KR5c0139") == (Person("郭象"), Person("成玄英"))
    assert byline_roles(work_people("KR5c0139"), byline) == (Person("郭象", "注", "晉"), Person("成玄英", "䟽", "唐"))
    # a role the catalogue gives stays, a person the byline leaves out stays as listed (his dynasty the
    # one the catalogue gives him elsewhere: 孔穎達 唐)
    listed = (Person("王弼", "注", "魏"), Person("孔穎達"))
    dated = (Person("王弼", "注", "魏"), Person("孔穎達", "", "唐"))
    assert byline_roles(listed, [{"name": "王弼", "role": "撰", "dynasty": "晉"}]) == dated
    assert byline_roles(listed, []) == dated


def test_a_name_of_several_dynasties_takes_the_held_editions_then_the_catalogues_most_works():
    assert choose_dynasty(Counter({"唐": 1}), Counter({"明": 2})) == "唐"
    assert choose_dynasty(Counter(), Counter({"明": 2, "唐": 1})) == "明"
    assert choose_dynasty(Counter(), Counter({"明": 1, "唐": 1})) == "唐"      # code-point order: 唐 U+5510
    assert choose_dynasty(Counter(), Counter()) == ""
    assert written_dynasties()["李賢"] == Counter({"明": 4, "唐": 2})
    assert listed_dynasty("李賢") == "明"       # the importer has no held editions: the catalogue's most works
    assert (listed_dynasty("衞湜"), listed_dynasty("衛湜"), listed_dynasty("鄭")) == ("宋", None, None)


def test_liu_song_and_nanchao_song_are_one_dynasty_shown_as_nanchao_song():
    assert [dynasty_spelling(d) for d in ("劉宋", "南朝宋", "宋", "淸", "")] == ["南朝宋", "南朝宋", "宋", "清", ""]
    assert dynasty_key("劉宋") == dynasty_key("南朝宋") != dynasty_key("宋")
    assert person_name("劉義慶", ["南朝宋"]) == "劉義慶" and person_name("裴駰", ["劉宋"]) == "裴駰"


def test_one_dynasty_is_shown_by_one_name_and_a_song_man_annotated_before_960_is_nanchao_song():
    """Decision 0084: the catalogue's people as shown (``shown_people``): 劉宋 and 淸 as the facets spell them;
    後漢書's 范曄, whom the catalogue dates 宋, annotated in the same entry by 劉昭 (梁) and 李賢 (唐), is of the
    宋 of the Southern Dynasties. Of the catalogue's entries, he is the one such 宋 author; 孝經注疏's 邢昺
    (宋, 疏) annotates and stays 宋; 司馬彪's 撰志 annotates nothing."""
    from catalogue.catalogue import entry
    from reader.catalogue_writers import all_entries, annotates, shown_dynasty, shown_people
    hou_han = entry("KR2a0009")
    assert [(p.name, p.dynasty) for p in shown_people(hou_han.people)] == [
        ("范曄", "南朝宋"), ("司馬彪", "晉"), ("李賢", "唐"), ("劉昭", "梁")]
    assert [p.dynasty for p in hou_han.people] == ["宋", "晉", "唐", "梁"]  # the catalogue's text stays
    assert (shown_dynasty(hou_han), shown_dynasty(entry("KR3l0002")), shown_dynasty(entry("KR1f0004"))) == (
        "南朝宋", "南朝宋", "唐")
    assert [p.dynasty for p in shown_people(entry("KR1f0004").people)] == ["唐", "唐", "宋", "清"]
    assert (annotates("注志"), annotates("撰志"), annotates("疏"), annotates("撰"), annotates("")) == (
        True, False, True, False, False)
    moved = {e.kr_id for e in all_entries()
             if any(a.dynasty == "宋" and b.dynasty == "南朝宋" for a, b in zip(e.people, shown_people(e.people)))}
    assert moved == {"KR2a0009"}
    assert {(e.dynasty, shown_dynasty(e)) for e in all_entries() if e.dynasty != shown_dynasty(e)} == {
        ("劉宋", "南朝宋"), ("淸", "清"), ("宋", "南朝宋")}


def test_a_courtesy_name_after_a_name_is_split_where_the_catalogue_decides():
    assert courtesy_split("馬端臨貴與") == ("", "馬端臨", "貴與")
    assert courtesy_split("京兆杜佑君卿", "唐") == ("京兆", "杜佑", "君卿")
    assert courtesy_split("右廸功郎鄭樵漁仲", "宋") == ("右廸功郎", "鄭樵", "漁仲")
    assert courtesy_split("郭象子玄") == ("", "郭象", "子玄")
    # a name the catalogue writes, letter for letter or folded, is never cut
    assert courtesy_split("孔穎達") == ("", "孔穎達", "") and courtesy_split("陸徳明") == ("", "陸徳明", "")
    # nor a name whose head is of another dynasty than the one printed
    assert courtesy_split("杜佑君卿", "宋") == ("", "杜佑君卿", "")
    # nor one whose last characters are his role's words (後漢書 ``梁　剡令劉昭補幷注``)
    assert courtesy_split("剡令劉昭補幷", "梁") == ("", "剡令劉昭補幷", "")
    assert folded_name("衛湜") == "衞湜" and folded_name("郉璹") == ""


def test_a_person_the_catalogue_leaves_undated_takes_the_one_dynasty_it_gives_his_name_elsewhere():
    """南華真經註疏 (KR5c0139): the catalogue lists 郭象 and 成玄英 with no dynasty and the byline prints
    「河南郭象注」 with none; the catalogue dates 郭象 晉 alone (莊子注 KR5c0138), so he is 〔晉〕郭象注, as on
    莊子注's page. 道德真經註 (KR5c0073): 王弼, 魏 alone elsewhere (周易註). 闕名, dated with many, stays undated."""
    assert byline_roles(work_people("KR5c0139"), [{"name": "郭象", "role": "注", "dynasty": ""},
                                                  {"name": "成玄英", "role": "䟽", "dynasty": "唐"}]) == (
        Person("郭象", "注", "晉"), Person("成玄英", "䟽", "唐"))
    assert byline_roles(work_people("KR5c0073"), [{"name": "王弼", "role": "註", "dynasty": ""}]) == (Person("王弼", "註", "魏"),)
    assert [sole_dynasty(n) for n in ("郭象", "王弼", "闕名", "河上公", "象")] == ["晉", "魏", "", "", ""]
