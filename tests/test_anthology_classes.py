"""A juan of an anthology that prints no 類 at its head goes on with the 類 before it only where the next 類
printed is the same (``reader.anthology_classes``, ``juans.juan_contents``, decision 0114). 文選註 (四庫全書,
KR4h0002) prints no 類 over 卷十二's 海賦, the first piece of 江海 (六臣註文選's 目録: 「第十二卷　江海　木玄虚海賦一首」):
海賦 was cited under 〈宮殿〉, 卷十一's last 類, and the work page listed 卷十二 〈宮殿〉（續）. Real files of
``../shared/corpus/kanripo-commentary``."""
import pytest

from reader.anthology_classes import class_name, same_class
from reader.citation import citation_text, juan_citation_text
from reader.importers.loader import import_file
from reader.juans import juan_contents
from reader.models import Chapter, Juan

from .conftest import SHARED

WENXUAN = SHARED / "corpus" / "kanripo-commentary" / "KR4h0002"


def contents(edition) -> list[tuple[str, list[tuple[str, bool]]]]:
    juans = list(Juan.objects.filter(edition=edition).order_by("number").prefetch_related("chapters"))
    juan_contents(juans)
    return [(j.label, [(c.title, c.continued) for c in j.contents]) for j in juans]


def test_a_class_is_its_name_without_its_parts_number():
    assert (class_name("京都上"), class_name("京都中"), class_name("贈荅一"), class_name("畋獵")) == (
        "京都", "京都", "贈荅", "畋獵")
    assert same_class("京都上", "京都中") and same_class("贈荅二", "贈荅三") and same_class("逰覽", "遊覽") and same_class("畋獵", "畋獵")
    assert not same_class("宫殿", "物色") and not same_class("奏記", "書下") and not same_class("京都下", None)


@pytest.mark.django_db
def test_a_juan_between_two_other_classes_names_none():
    """卷十二 (海賦, 江賦) between 卷十一's 宫殿 and 卷十三's 物色: no 類; its pieces cited with none."""
    juans = {n: import_file(WENXUAN / f"KR4h0002_{n:03d}.txt").juan for n in (11, 12, 13)}
    assert contents(juans[12].edition) == [
        ("卷十一", [("逰覽", False), ("宫殿", False)]), ("卷十二", []), ("卷十三", [("物色", False)])]
    haifu = juans[12].sections.get(position=1)
    assert citation_text(haifu) == "〔梁〕蕭統編　〔唐〕李善註《文選註》卷十二木𤣥虚「海賦」（四庫全書・文淵閣本，葉 12-1a）"
    assert juan_citation_text(juans[12], Chapter.objects.filter(juan=juans[12]).order_by("position")) == (
        "〔梁〕蕭統編　〔唐〕李善註《文選註》卷十二（四庫全書・文淵閣本，Kanripo KR4h0002_012）")


@pytest.mark.django_db
def test_a_juan_between_two_parts_of_one_class_goes_on_with_it():
    """卷二 (西京賦) between 卷一's 京都上 and 卷三's 京都中: 〈京都上〉（續）, and so cited."""
    juans = {n: import_file(WENXUAN / f"KR4h0002_{n:03d}.txt").juan for n in (1, 2, 3)}
    assert contents(juans[2].edition) == [
        ("卷一", [("京都上", False)]), ("卷二", [("京都上", True)]), ("卷三", [("京都中", False)])]
    assert citation_text(juans[2].sections.get(position=1)) == (
        "〔梁〕蕭統編　〔唐〕李善註《文選註》卷二〈京都上〉張平子　薛綜注「西京賦」（四庫全書・文淵閣本，葉 2-1a）")
