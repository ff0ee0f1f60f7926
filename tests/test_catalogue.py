"""The catalogue (issue 30): Kanripo's classes and works shipped as data and the script that
builds them, a work's class from its Kanripo ID, ``import_texts --class`` and the migration, the
catalogue pages (``/``, ``/classes/<code>/``, the work page's class) and ``/api/classes/``."""
import importlib
import re
import subprocess
import sys
import tarfile
from pathlib import Path
from urllib.parse import quote

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import catalogue
from catalogue.scripts import build_catalogue
from reader.counting import character_count, characters_of
from reader.models import Edition, Juan, Work

from .conftest import BASE_DIR, SEED, SHARED

CORPUS = SHARED / "corpus"


def test_every_bu_and_class_of_kr1_to_kr6_is_named():
    assert [(b.code, b.name, b.short) for b in catalogue.bus()] == [
        ("KR1", "經部", "經"), ("KR2", "史部", "史"), ("KR3", "子部", "子"), ("KR4", "集部", "集"),
        ("KR5", "道部", "道"), ("KR6", "佛部", "佛")]
    assert [c.name for c in catalogue.members("KR1")] == [
        "易類", "書類", "詩類", "禮類", "春秋類", "孝經類", "五經總義類", "四書類", "樂類", "小學類"]
    assert [len(catalogue.members(b.code)) for b in catalogue.bus()] == [10, 16, 12, 10, 10, 22]
    assert len(catalogue.classes()) == 86
    # named by its own file only (KR2.txt does not list it)
    assert catalogue.get_class("KR2p") == catalogue.CatalogueClass("KR2p", "簡牘金石類", "KR2", "lei")
    assert catalogue.get_class("KR2a") == catalogue.CatalogueClass("KR2a", "正史類", "KR2", "lei")
    assert catalogue.get_class("KR9z") is None


def test_a_class_of_part_of_a_lei_is_printed_with_the_sites_middle_dot_not_the_catalogues_hyphen():
    """Kanripo's catalogue divides 別集類 by period and writes each class with the hyphen of its
    org headings (``KR4b 別集類-漢六朝``, shipped so in ``classes.tsv``); the pages, the facets and
    the API printed 別集類-漢六朝. The site joins the two with its middle dot, as in 四庫全書・文淵閣本."""
    assert [c.name for c in catalogue.members("KR4")] == [
        "楚辭類", "別集類・漢六朝", "別集類・唐", "別集類・宋", "別集類・明", "別集類・清", "別集類・近",
        "總集類", "詩文評類", "詞曲類"]
    shipped = (catalogue.DATA / "classes.tsv").read_text(encoding="utf-8")
    assert "KR4b\tKR4\t別集類-漢六朝\n" in shipped  # the data as the catalogue writes it
    assert not [c for c in catalogue.classes().values() if "-" in c.name]
    assert catalogue.shown_name("別集類-漢六朝") == "別集類・漢六朝" and catalogue.shown_name("禮類") == "禮類"


def test_a_kanripo_id_names_its_class():
    assert catalogue.class_of("KR1d0086") == catalogue.class_of("KR1d0086-WYG") == "KR1d"
    assert catalogue.class_of("KR6q0001") == "KR6q"
    assert [catalogue.class_of(x) for x in ("", "禮書綱目", "KR9z0001", "KR1d")] == ["", "", "", ""]
    assert catalogue.bu_of("KR1d") == catalogue.bu_of("KR1") == "KR1"
    assert catalogue.bu_of("禮類") == ""


def test_the_catalogue_lists_each_work_with_its_people():
    zhouli = catalogue.entry("KR1d0003")
    assert (zhouli.title, zhouli.cls, zhouli.dynasty) == ("周禮注疏", "KR1d", "漢")
    assert zhouli.people == (catalogue.Person("鄭玄", "注", "漢"), catalogue.Person("賈公彥", "疏", "唐"),
                             catalogue.Person("陸德明", "音義", "唐"))
    assert catalogue.entry("KR1d0086-WYG").authors == ("江永",)
    assert catalogue.entry("KR2a0001").people[0] == catalogue.Person("司馬遷", "撰", "漢")  # a heading with a link
    assert catalogue.entry("KR5c0065").dynasty == "漢後期"  # the work's own :DYNASTY:
    # a work the corpora do not hold, from an entry copied as its heading line only
    assert catalogue.entry("KR1d0004") == catalogue.CatalogueEntry(
        "KR1d0004", "KR1d", "周官新義", "宋", (catalogue.Person("王安石", "", "宋"),))
    assert catalogue.entry("KR1d0999") is None  # an ID the catalogue does not list


def test_every_work_of_the_catalogue_s_classes_of_kr1_to_kr3_is_shipped():
    counted = {}
    for code in catalogue.classes():
        if len(code) == 4:
            counted[code] = len(catalogue.entries_of(code))
    assert [counted[c.code] for c in catalogue.members("KR1")] == [170, 60, 66, 92, 122, 13, 32, 67, 22, 88]
    assert [counted[c.code] for c in catalogue.members("KR2")] == [
        39, 40, 23, 24, 22, 41, 61, 3, 23, 2, 152, 22, 57, 47, 24, 37]
    assert [counted[c.code] for c in catalogue.members("KR3")] == [118, 20, 8, 10, 100, 56, 51, 89, 50, 191, 65, 128]
    assert len(catalogue.entries_of("KR3")) == 886
    # 別集類・近 (KR4g) lists no work
    assert [counted[c.code] for c in catalogue.members("KR4")] == [7, 19, 114, 595, 245, 69, 0, 168, 64, 91]
    assert len(catalogue.entries_of("KR4")) == 1372
    assert len(catalogue.entries_of("KR2")) == 617
    last = catalogue.entry("KR2a0039")   # the last work of 正史類, a heading of another hand
    assert (last.title, last.dynasty, last.authors) == ("清史稿", "民國", ("趙爾巽",))
    # a heading that names no one takes its people from the entry's 人物
    assert catalogue.entry("KR3l0117").people == (catalogue.Person("張師正", "撰", "宋"),)
    assert (catalogue.entry("KR3l0128").title, catalogue.entry("KR3l0128").dynasty) == ("續博物志", "宋")
    assert catalogue.entry("KR4d0595") == catalogue.CatalogueEntry(
        "KR4d0595", "KR4d", "玉笥集", "元", (catalogue.Person("鄧雅", "", "元"),))


def corpus_ids() -> set[str]:
    """Every Kanripo ID of the shared corpora, the scale archive's included."""
    ids = {p.name.split("-")[0] for folder in CORPUS.iterdir() if folder.is_dir() for p in folder.iterdir()
           if p.is_dir() and p.name.startswith("KR")}
    with tarfile.open(CORPUS / "kanripo-scale.tar.xz") as archive:
        ids |= {name.split("/")[1].split("-")[0] for name in archive.getnames()
                if name.count("/") >= 1 and name.split("/")[1].startswith("KR")}
    return ids


def test_every_work_of_the_shared_corpora_is_in_the_shipped_catalogue():
    ids = corpus_ids()
    assert len(ids) == 100
    missing = sorted(i for i in ids if catalogue.entry(i) is None)
    assert missing == []
    assert {catalogue.class_of(i) for i in ids} == {
        "KR1a", "KR1b", "KR1c", "KR1d", "KR1e", "KR1f", "KR1g", "KR1h", "KR2a", "KR2b", "KR2c", "KR2d", "KR2k",
        "KR2m", "KR3a", "KR3c", "KR3l", "KR4a", "KR4h", "KR5c"}


BU_FILE = """# -*- mode: org; -*-
* KR1 經部
** [[file:KR1a.txt][KR1a 易類]]
** [[file:KR1d.txt][KR1d 禮類]]
"""
CLASS_FILE = """# -*- mode: org; -*-
** KR1d ZB1d 禮類
*** KR1d0003 周禮注疏-漢-鄭玄
:PROPERTIES:
:KR_ID: KR1d0003
:END:
**** 人物
***** 鄭玄
     :PROPERTIES:
     :DYNASTY:  漢
     :FUNCTION: 注
     :END:
***** 賈公彥
     :PROPERTIES:
     :DYNASTY:  唐
     :FUNCTION: 疏
     :END:
**** 版本
***** WYG
**** (附)考證
***** 人物
****** 吳紱
     :PROPERTIES:
     :DYNASTY:  清
     :FUNCTION: 撰
     :END:
# *** 周禮之屬
*** 儀禮之屬
*** KR1d0026 儀禮-漢-
:PROPERTIES:
:KR_ID: KR1d0026
:END:
**** 人物
***** 鄭玄
:PROPERTIES:
:FUNCTION: 注
:DYNASTY: 漢
:END:
*** KR1d0090 [[mandoku:ZB1d0090.org][ZB1d0090]] 某書
:PROPERTIES:
:DYNASTY: 明?
:END:
**** 人物
***** 闕名
     :PROPERTIES:
     :FUNCTION: 撰
     :END:
"""


def test_the_script_builds_the_tables_from_a_checkout(tmp_path):
    kr = tmp_path / "KR-Catalog" / "KR"
    kr.mkdir(parents=True)
    (kr / "KR1.txt").write_text(BU_FILE, encoding="utf-8")
    (kr / "KR1d.txt").write_text(CLASS_FILE, encoding="utf-8")
    out = tmp_path / "out"
    assert build_catalogue.main([str(tmp_path / "KR-Catalog"), "--out", str(out)]) == 0
    assert (out / "classes.tsv").read_text(encoding="utf-8") == (
        "code\tparent\tname\nKR1\t-\t經部\nKR1a\tKR1\t易類\nKR1d\tKR1\t禮類\n")
    assert (out / "works.tsv").read_text(encoding="utf-8") == (
        "kr_id\tclass\ttitle\tdynasty\tpeople\tshu\n"
        "KR1d0003\tKR1d\t周禮注疏\t漢\t鄭玄:注:漢;賈公彥:疏:唐\t\n"   # the appendix's 吳紱 is not the work's
        "KR1d0026\tKR1d\t儀禮\t漢\t鄭玄:注:漢\t儀禮之屬\n"              # a 屬 heading holds the works after it
        "KR1d0090\tKR1d\t某書\t明\t闕名:撰:\t儀禮之屬\n")                # a commented 屬 is not read


def test_the_script_reads_heading_lines_and_a_class_its_bu_file_does_not_list(tmp_path):
    (tmp_path / "KR2.txt").write_text("* KR2 史部\n** [[file:KR2a.txt][KR2a 正史類]]\n", encoding="utf-8")
    (tmp_path / "KR2a.txt").write_text("** KR2a ZB2a 正史類\n*** KR2a0007 前漢書-漢-班固\n", encoding="utf-8")
    (tmp_path / "KR2p.txt").write_text("** KR2p 簡牘金石類\n*** KR2p0017 郭店楚簡-太一生水\n CH8x4413\n",
                                       encoding="utf-8")
    classes, works = build_catalogue.build(tmp_path)
    assert classes == [("KR2", "", "史部"), ("KR2a", "KR2", "正史類"), ("KR2p", "KR2", "簡牘金石類")]
    assert [(w.kr_id, w.title, w.dynasty, [(p.name, p.role, p.dynasty) for p in w.people]) for w in works] == [
        ("KR2a0007", "前漢書", "漢", [("班固", "", "漢")]),      # the heading's author, no role
        ("KR2p0017", "郭店楚簡-太一生水", "", [])]                # two parts: a title, not title-dynasty


def test_the_script_names_the_file_and_line_of_a_work_in_the_wrong_class(tmp_path):
    (tmp_path / "KR1.txt").write_text(BU_FILE, encoding="utf-8")
    (tmp_path / "KR1a.txt").write_text("** KR1a 易類\n*** KR1d0003 周禮注疏-漢-鄭玄\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(BASE_DIR / "catalogue/scripts/build_catalogue.py"), str(tmp_path),
                          "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr == f"build_catalogue: {tmp_path / 'KR1a.txt'}:2: the work KR1d0003 is not in the class KR1a\n"


@pytest.mark.django_db
def test_a_work_with_a_kanripo_id_is_classified_when_saved():
    work = Work.objects.create(title="周禮注疏", slug="KR1d0003", kanripo_id="KR1d0003")
    assert (work.classification, work.catalogue_class.name, work.catalogue_bu.name) == ("KR1d", "禮類", "經部")
    other = Work.objects.create(title="某書", slug="某書")
    assert other.classification == "" and other.catalogue_class is None
    other.kanripo_id = "KR3c0005"
    other.save(update_fields=["kanripo_id"])   # as the importer does when a work gets its ID
    assert Work.objects.get(pk=other.pk).classification == "KR3c"
    other.classification = "KR9z"
    with pytest.raises(ValidationError, match="'KR9z' is not a class of the catalogue"):
        other.save()


@pytest.mark.django_db
def test_import_texts_class_option_and_a_kanripo_import(tmp_path, empty_db):
    call_command("import_texts", str(SEED), "--class", "KR1d", stdout=open("/dev/null", "w"))
    assert Work.objects.get(title="禮書綱目").classification == "KR1d"
    with pytest.raises(CommandError, match="'KR9z' is not a class of Kanripo's catalogue"):
        call_command("import_texts", str(SEED), "--class", "KR9z")
    folder = tmp_path / "KR3c0005"
    folder.mkdir()
    (folder / "KR3c0005_001.txt").write_bytes(
        (CORPUS / "kanripo-commentary" / "KR3c0005" / "KR3c0005_001.txt").read_bytes())
    call_command("import_texts", str(folder), stdout=open("/dev/null", "w"))
    hanfei = Work.objects.get(kanripo_id="KR3c0005")
    assert (hanfei.title, hanfei.classification) == ("韓非子", "KR3c")
    juan = Juan.objects.get(work=hanfei)
    texts = [t for t in juan.sections.values_list("pieces__text", flat=True) if t]
    # its characters as search reads them: its 5 ideographic spaces are none
    assert (juan.char_count, characters_of(texts), sum(map(len, texts))) == (5_603, 5_603, 5_608)


@pytest.mark.django_db
def test_a_kanripo_work_the_corpora_lack_gets_class_title_and_dynasty_from_the_catalogue(tmp_path, empty_db):
    folder = tmp_path / "KR2b0007"
    folder.mkdir()
    # a juan of 資治通鑑 without #+TITLE and without a byline (卷〇's front matter)
    (folder / "KR2b0007_000.txt").write_text(
        "# -*- mode: mandoku-view; -*-\n#+PROPERTY: ID KR2b0007\n#+PROPERTY: BASEEDITION WYG\n"
        "<pb:KR2b0007_WYG_000-1a>¶\n臣光言先奉勑編集歷代君臣事迹¶\n", encoding="utf-8")
    call_command("import_texts", str(folder), stdout=open("/dev/null", "w"))
    work = Work.objects.get(kanripo_id="KR2b0007")
    assert (work.title, work.dynasty, work.classification, work.catalogue_class.name) == (
        "資治通鑑", "宋", "KR2b", "編年類")
    assert work.catalogue_byline == "〔宋〕司馬光撰\u3000〔元〕胡三省注"


@pytest.mark.django_db
def test_the_migration_classifies_existing_works_and_counts_their_characters(seed_juan):
    migration = importlib.import_module("reader.migrations.0015_catalogue")
    seed = seed_juan.work
    kanripo = Work.objects.create(title="禮書綱目", slug="KR1d0086", kanripo_id="KR1d0086")
    Work.objects.filter(pk=kanripo.pk).update(classification="")    # as before the migration
    assert seed_juan.char_count == 14_491                           # as the import counts them
    Juan.objects.filter(pk=seed_juan.pk).update(char_count=0)
    migration.classify(django_apps, None)
    migration.count_characters(django_apps, None)
    assert Work.objects.get(pk=kanripo.pk).classification == "KR1d"
    assert Work.objects.get(pk=seed.pk).classification == ""        # no Kanripo ID: left for --class or the admin
    pieces = "".join(t for t in Juan.objects.filter(pk=seed_juan.pk).values_list("sections__pieces__text", flat=True) if t)
    assert Juan.objects.get(pk=seed_juan.pk).char_count == len(pieces) == 14_492   # 0015 counted code points
    # 0019 counts them again as the import does (reader.counting): the seed's one space is none
    importlib.import_module("reader.migrations.0019_juan_char_count_in_units").count_characters(django_apps, None)
    assert Juan.objects.get(pk=seed_juan.pk).char_count == 14_491


def test_a_character_figure_counts_what_search_reads_as_one_character():
    """``reader.counting``: a gaiji, a lost ``?`` and a description one character each (decision
    0033), punctuation, spaces and a table's cell mark none; a ``?`` after Latin text is
    punctuation; each text counted alone."""
    assert character_count("而流夜光也應龍?於潢汙") == 11               # 漢書 卷一百: 潛 lost
    assert character_count("曰園[門@里]二十") == 5                        # 周禮: a character Unicode lacks
    assert character_count("公袒朱&KR0237;卒袒。") == 6                   # a gaiji; 。 is none
    assert character_count("十五|二十四|") == 5                           # 史記's 表: two cells
    assert character_count("○按　WATSON?? p. ???") == 8                 # ○, spaces, Latin ? none
    assert characters_of(["應龍??", "", None, "於潢"]) == 6
    assert character_count("") == 0


def classify_seed(seed_juan, code="KR1d"):
    Work.objects.filter(pk=seed_juan.work_id).update(classification=code)


def add_work(title, kanripo_id, juans=2):
    """A work held with one edition of ``juans`` juans of 100 characters each (no text)."""
    work = Work.objects.create(title=title, slug=kanripo_id, kanripo_id=kanripo_id)
    edition = Edition.objects.create(work=work, slug=kanripo_id, kanripo_id=kanripo_id)
    for n in range(1, juans + 1):
        Juan.objects.create(work=work, edition=edition, number=n, label=f"卷{n}", char_count=100)
    return work


def two_works_titled_zhouli() -> None:
    """Two works titled 周禮: KR1d0001 (two juans of 100 characters) and zhouli-sbck, a work
    without a Kanripo ID (one juan of 50), whose title alone does not tell them apart."""
    add_work("周禮", "KR1d0001")
    other = Work.objects.create(title="周禮", slug="zhouli-sbck")
    edition = Edition.objects.create(work=other, slug="zhouli-sbck")
    Juan.objects.create(work=other, edition=edition, number=1, label="卷1", char_count=50)


@pytest.mark.django_db
def test_the_home_page_is_the_catalogue(client, seed_juan):
    classify_seed(seed_juan)
    add_work("史記", "KR2a0001", juans=3)
    page = client.get("/")
    html = page.content.decode()
    assert page.status_code == 200
    assert '<li><a href="#KR1">經部</a> <span class="count">1 部書</span></li>' in html
    assert '<li><a href="#KR2">史部</a> <span class="count">1 部書</span></li>' in html
    assert '<h3 id="KR1d"><a href="/classes/KR1d/">禮類</a> <span class="count">1 部書</span></h3>' in html
    assert '<h3 id="KR2a"><a href="/classes/KR2a/">正史類</a> <span class="count">1 部書</span></h3>' in html
    assert html.index('id="KR1d"') < html.index("禮書綱目") < html.index('id="KR2a"') < html.index("史記")
    assert '<span class="count">3 卷</span> <span class="chars">300 字</span>' in html
    # a work the catalogue lists is named by its people as the catalogue gives them
    assert ('<span class="byline">〔漢〕司馬遷撰　〔南朝宋〕裴駰集解　〔唐〕司馬貞索隱　〔唐〕張守節正義</span>'
            in html)
    assert '<span class="byline">江永</span>' in html     # the seed: its author, from the text (no native place)
    assert seed_juan.char_count == 14_491
    assert '<span class="chars">14,491 字</span>' in html     # grouped, as counts are elsewhere
    assert "未分類" not in html


@pytest.mark.django_db
def test_a_title_typed_as_a_works_key_leads_to_its_work_or_lists_the_works_of_that_title(client, seed_juan):
    """``/works/<title>/`` (``pages.catalogue.titled_works``): a key that is no edition's or work's
    but one work's title is a 302 to that work's page, as written or as search folds it; a title
    of several works is a page listing them, a 300 with no ``Location``; anything else a 404."""
    add_work("荀子", "KR3a0002")
    add_work("韓非子", "KR3c0005")
    answer = client.get("/works/荀子/")
    assert (answer.status_code, answer["Location"]) == (302, "/works/KR3a0002/")
    assert client.get(answer["Location"]).status_code == 200
    answer = client.get("/works/韩非子/")     # typed in simplified characters: folded as search folds it
    assert (answer.status_code, answer["Location"]) == (302, "/works/KR3c0005/")
    # 纲 is read per place in the index (fold keeps it; a query reads it as 綱 or itself): a title
    # typed with it finds the traditional title, and the traditional title finds a simplified one
    add_work("禮經綱目", "KR1d9001")
    add_work("书纲", "KR1d9002")
    assert client.get("/works/礼经纲目/")["Location"] == "/works/KR1d9001/"
    assert client.get("/works/書綱/")["Location"] == "/works/KR1d9002/"
    assert client.get("/works/書纲/")["Location"] == "/works/KR1d9002/"
    # a work of several editions: its own page, which lists them
    xunzi = Work.objects.get(slug="KR3a0002")
    Edition.objects.create(work=xunzi, slug="KR3a0002-SBCK", kanripo_id="KR3a0002", kanripo_edition="SBCK")
    assert client.get("/works/荀子/")["Location"] == "/works/KR3a0002/editions/"
    # two works of one title: a page to choose from
    two_works_titled_zhouli()
    answer = client.get("/works/周禮/")
    html = answer.content.decode()
    assert (answer.status_code, answer.has_header("Location")) == (300, False)
    assert "<title>「周禮」：2 書" in html and "<h1>「周禮」</h1>" in html
    assert "<p>本館有 2 部書題為「周禮」，請擇一（2 works are titled 周禮: choose one）。</p>" in html
    assert re.findall(r'<li><a href="([^"]+)">([^<]+)</a>\s*<span class="byline">', html) == [
        ("/works/KR1d0001/", "周禮"), ("/works/zhouli-sbck/", "周禮")]
    assert re.findall(r'<span class="count">([^<]+)</span> <span class="chars">([^<]+)</span>', html) == [
        ("2 卷", "200 字"), ("1 卷", "50 字")]
    # a key that is nobody's title, however odd, is the site's 404 (never a 500)
    for key in ("莊子", "周", "x" * 300, "周禮\u202e", "%25"):
        assert client.get(f"/works/{key}/").status_code == 404, key
    # a key that is an edition's or a work's reads it, as before, whatever titles hold it
    assert client.get("/works/禮書綱目/").status_code == 200


@pytest.mark.django_db
def test_an_address_under_a_title_leads_where_it_leads_under_the_works_key(client, seed_juan):
    """``/works/<title>/`` led to the work, but ``/works/周禮注疏/juan/1/`` and every address under
    a title was a 404 (``pages.catalogue.TitledPathMiddleware``): each follows the same rule, a
    302 to that address under the work's key, the query kept, or the 300 page of the works of
    that title, each linked to it; a key that is an edition's or a work's keeps its 404."""
    # the seed's title made other than its key, as a Kanripo work's is (周禮注疏 is KR1d0003)
    Work.objects.filter(pk=seed_juan.work_id).update(title="禮書綱目大射儀")
    key = "/works/" + quote("禮書綱目") + "/"
    for typed in ("禮書綱目大射儀", "礼书綱目大射仪"):  # as written, or as search folds it
        for rest in ("juan/10/", "juan/10/26/", "juan/10/collate/", "juan/10/quotations/", "editions/", "juan/99/"):
            answer = client.get(f"/works/{typed}/{rest}")
            assert (answer.status_code, answer["Location"]) == (302, key + rest), (typed, rest)
    answer = client.get("/works/禮書綱目大射儀/juan/10/26/", {"hl": "射"})
    assert answer["Location"] == key + "juan/10/26/?hl=%E5%B0%84"
    assert client.get(answer["Location"]).status_code == 200
    assert client.get("/works/禮書綱目大射儀/juan/10/", follow=True).redirect_chain == [(key + "juan/10/", 302)]
    assert client.get("/works/禮書綱目大射儀/juan/99/", follow=True).status_code == 404  # the work has no juan 99
    # a key that reads keeps its 404; nobody's title is a 404; a POST is not redirected
    for path in ("/works/禮書綱目/juan/99/", "/works/莊子/juan/1/", "/works/禮書綱目小/juan/10/"):
        assert client.get(path).status_code == 404, path
    # part of a work's title (of two characters or more) reads as that title (reader.places.works_titled)
    assert client.get("/works/禮書綱目大/juan/10/")["Location"] == key + "juan/10/"
    assert client.post("/works/禮書綱目大射儀/juan/10/").status_code in (403, 404, 405)
    # two works of one title: the page to choose from, each linked to that address under its key
    two_works_titled_zhouli()
    answer = client.get("/works/周禮/juan/1/")
    html = answer.content.decode()
    assert (answer.status_code, answer.has_header("Location")) == (300, False)
    assert "<title>「周禮」：2 書" in html and "<h1>「周禮」</h1>" in html
    assert ("<p>本館有 2 部書題為「周禮」，請擇一，往其 juan/1/（2 works are titled 周禮: choose one to go to its "
            "juan/1/）。</p>") in html
    assert re.findall(r'<li><a href="([^"]+)">([^<]+)</a>\s*<span class="byline">', html) == [
        ("/works/KR1d0001/juan/1/", "周禮"), ("/works/zhouli-sbck/juan/1/", "周禮")]
    assert re.findall(r'<li>([^<]+) <span class="count">([^<]+)</span> <span class="chars">([^<]+)</span>', html) == [
        ("KR1d0001", "2 卷", "200 字"), ("純文字本", "1 卷", "50 字")]   # a plain text with no collection given


@pytest.mark.django_db
def test_the_api_reads_a_title_as_the_pages_do(client, seed_juan):
    """``/api/works/周禮注疏/juans/1/`` was a 404 where ``/works/周禮注疏/juan/1/`` leads to the work:
    the API reads a key that is no slug by the pages' rule (``reader.places.works_titled``), a 302
    to that address under the work's id, the query kept, or a 300 listing the works of that title;
    a key that is a slug keeps its 301, a key that is nobody's title its 404."""
    Work.objects.filter(pk=seed_juan.work_id).update(title="禮書綱目大射儀")
    work = seed_juan.work_id
    for typed in ("禮書綱目大射儀", "礼书綱目大射仪"):  # as written, or as search folds it
        for rest, query in (("", ""), ("juans/10/", ""), ("juans/10/sections/26/", "?page=1"),
                            ("juans/10/collation/", ""), ("juans/99/", "")):
            answer = client.get(f"/api/works/{quote(typed)}/{rest}{query}")
            target = f"/api/works/{work}/{rest}{query}"
            assert (answer.status_code, answer["Location"], answer["Content-Type"]) == (302, target, "application/json")
            assert answer.json() == {"detail": f"書題「{typed}」即 {target}（the API names a work by its id; the work "
                                               f"titled {typed} is at {target}）", "location": target}
    # followed, the same answer as under the id, whole; a juan the work lacks is that address's 404
    by_title = client.get("/api/works/禮書綱目大射儀/juans/10/sections/26/", follow=True)
    assert by_title.redirect_chain == [(f"/api/works/{work}/juans/10/sections/26/", 302)]
    assert by_title.json() == client.get(f"/api/works/{work}/juans/10/sections/26/").json()
    assert by_title.json()["title"] == "公及諸公卿大夫射"
    missing = client.get("/api/works/禮書綱目大射儀/juans/99/", follow=True)
    assert (missing.status_code, missing.json()) == (404, {"detail": f"沒有此卷：/api/works/{work}/juans/99/（no juan at "
                                                                     f"/api/works/{work}/juans/99/）"})
    # a slug is still a 301 to its id; nobody's title, and a number that is no work's id, a 404
    assert client.get(f"/api/works/{quote('禮書綱目')}/juans/10/").status_code == 301
    for key, what in (("莊子", "slug or title"), ("禮書綱目小", "slug or title"), ("x" * 300, "slug or title"),
                      ("9999999999", "id")):
        answer = client.get(f"/api/works/{quote(key)}/juans/1/")
        assert (answer.status_code, answer.json()) == (404, {"detail": f"沒有此書：{key}（no work with this {what}）"}), key
    # two works of one title: a 300 without Location, each work with that address under its id
    two_works_titled_zhouli()
    first, second = Work.objects.filter(title="周禮").order_by("pk")
    answer = client.get("/api/works/周禮/juans/1/?format=json")
    assert (answer.status_code, answer.has_header("Location"), answer["Content-Type"]) == (300, False, "application/json")
    assert answer.json() == {
        "detail": "本館有 2 部書題為「周禮」，請擇一（2 works are titled 周禮: choose one）",
        "works": [{"id": first.pk, "title": "周禮", "author": "",
                   "url": f"http://testserver/api/works/{first.pk}/juans/1/?format=json"},
                  {"id": second.pk, "title": "周禮", "author": "",
                   "url": f"http://testserver/api/works/{second.pk}/juans/1/?format=json"}]}
    assert client.get(f"/api/works/{first.pk}/juans/1/").status_code == 200


@pytest.mark.django_db
def test_the_home_page_makes_the_same_queries_for_one_work_or_many(client, seed_juan):
    classify_seed(seed_juan)
    with CaptureQueriesContext(connection) as one:
        client.get("/")
    for n in range(5):
        add_work(f"書{n}", f"KR2a{n + 1:04d}")
    with CaptureQueriesContext(connection) as six:
        assert client.get("/").content.decode().count('class="editions"') == 6
    assert len(six.captured_queries) == len(one.captured_queries)


@pytest.mark.django_db
def test_a_class_page_a_bu_page_and_an_unknown_class(client, seed_juan):
    classify_seed(seed_juan)
    add_work("史記", "KR2a0001")
    html = client.get("/classes/KR1d/").content.decode()
    assert ('<nav class="crumbs" aria-label="位置"><a href="/">書目</a> › <a href="/classes/KR1/">經部</a> › '
            '<span aria-current="page">禮類</span></nav>') in html
    assert "禮書綱目" in html and "史記" not in html
    bu = client.get("/classes/KR2/").content.decode()
    assert '<h2 id="KR2a"><a href="/classes/KR2a/">正史類</a> <span class="count">1 部書</span></h2>' in bu
    assert "禮書綱目" not in bu and "史記" in bu
    # a 部's list of its 類: a held one linked with its number of works, an empty one as plain text
    jing = client.get("/classes/KR1/").content.decode()
    index = jing[jing.index('<nav class="catalogue-index" aria-label="類">'):]
    index = index[:index.index("</nav>")]
    assert re.findall(r'<a href="(/classes/[^"]+)">([^<]+)</a> <span class="count">(\d+)</span>', index) == [
        ("/classes/KR1d/", "禮類", "1")]
    assert re.findall(r'<span class="empty-class">([^<]+)</span>', index)[:3] == ["易類", "書類", "詩類"]
    assert client.get("/classes/KR9z/").status_code == 404
    assert "本類尚無書" in client.get("/classes/KR6a/").content.decode()


@pytest.mark.django_db
def test_the_work_page_names_its_class(client, seed_juan):
    classify_seed(seed_juan)
    html = client.get(seed_juan.edition.get_absolute_url()).content.decode()
    assert '<p class="classification"><a href="/classes/KR1/">經部</a> › <a href="/classes/KR1d/">禮類</a></p>' in html


@pytest.mark.django_db
def test_a_class_of_part_of_a_lei_is_named_with_the_middle_dot_on_its_pages_and_in_the_api(client, seed_juan):
    """蔡中郎集 (KR4b0002) is of 別集類-漢六朝 in Kanripo's catalogue: its work page, its class
    page, the 部's and the API's name the class 別集類・漢六朝."""
    work = add_work("蔡中郎集", "KR4b0002")
    html = client.get(work.get_absolute_url()).content.decode()
    assert ('<p class="classification"><a href="/classes/KR4/">集部</a> › '
            '<a href="/classes/KR4b/">別集類・漢六朝</a></p>') in html
    assert ('<span aria-current="page">別集類・漢六朝</span></nav>') in client.get("/classes/KR4b/").content.decode()
    assert '<a href="/classes/KR4b/">別集類・漢六朝</a>' in client.get("/classes/KR4/").content.decode()
    rows = client.get("/api/classes/").json()["results"]
    assert [r["name"] for r in rows if r["parent"] == "KR4"][:3] == ["楚辭類", "別集類・漢六朝", "別集類・唐"]
    assert not [r for r in rows if "-" in r["name"]]


@pytest.mark.django_db
def test_titles_are_escaped_on_the_catalogue(client, seed_juan):
    Work.objects.filter(pk=seed_juan.work_id).update(title="<script>x</script>", classification="KR1d")
    html = client.get("/").content.decode()
    assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html


@pytest.mark.django_db
def test_the_api_lists_the_classes_and_the_works_of_a_class(client, seed_juan):
    classify_seed(seed_juan)
    add_work("史記", "KR2a0001")
    rows = client.get("/api/classes/").json()["results"]
    assert len(rows) == 86
    assert rows[0] == {"code": "KR1", "name": "經部", "parent": None, "level": "bu", "works": 1,
                       "works_url": "http://testserver/api/classes/KR1/works/", "shu": []}
    kr1d = next(r for r in rows if r["code"] == "KR1d")
    assert kr1d == {"code": "KR1d", "name": "禮類", "parent": "KR1", "level": "lei", "works": 1,
                    "works_url": "http://testserver/api/classes/KR1d/works/", "shu": []}
    assert next(r for r in rows if r["code"] == "KR6")["works"] == 0
    works = client.get("/api/classes/KR1d/works/").json()
    assert works["count"] == 1
    assert {k: works["results"][0][k] for k in ("title", "author", "classification", "shu", "juan_count")} == {
        "title": "禮書綱目", "author": "江永", "classification": "KR1d", "shu": "", "juan_count": 1}
    assert [w["title"] for w in client.get("/api/classes/KR2/works/").json()["results"]] == ["史記"]
    assert client.get("/api/classes/KR9z/works/").status_code == 404


def add_shu_works():
    """Four works of 禮類, three given a 屬 (as the admin or a catalogue with 屬 headings would)."""
    for title, kanripo_id, shu in [("儀禮注疏", "KR1d0028", "儀禮之屬"), ("周禮注疏", "KR1d0003", "周禮之屬"),
                                   ("周官新義", "KR1d0004", "周禮之屬"), ("禮書", "KR1d0084", "")]:
        work = add_work(title, kanripo_id)
        Work.objects.filter(pk=work.pk).update(shu=shu)


@pytest.mark.django_db
def test_a_class_page_and_the_api_divide_a_class_by_its_shu(client):
    add_shu_works()
    add_work("史記", "KR2a0001")
    html = client.get("/classes/KR1d/").content.decode()
    shelf = html[html.index('<section class="class"'):]
    # each 屬 once, where its first work stands in the catalogue, then the works without a 屬 under
    # a heading of their own (they stood first, unheaded, under the index: read as the first 屬's)
    assert re.findall(r'<h3 id="([^"]+)" class="shu">([^<]+)<span class="count">(\d+) 部書', shelf) == [
        ("KR1d-周禮之屬", "周禮之屬 ", "2"), ("KR1d-儀禮之屬", "儀禮之屬 ", "1"), ("KR1d-noshu", "未分屬 ", "1")]
    assert re.findall(r'<li><a href="[^"]+">([^<]+)</a>\s*<span class="byline">', shelf) == ["周禮注疏", "周官新義", "儀禮注疏", "禮書"]
    index = html[html.index('<nav class="catalogue-index shu-index" aria-label="屬">'):html.index('<section class="class"')]
    assert '<span class="index-label">本類之屬：</span>' in index
    assert re.findall(r'<a href="#([^"]+)">([^<]+)</a> <span class="count">(\d+) 部書', index) == [
        ("KR1d-周禮之屬", "周禮之屬", "2"), ("KR1d-儀禮之屬", "儀禮之屬", "1"), ("KR1d-noshu", "未分屬", "1")]
    home = client.get("/").content.decode()
    assert '<h4 id="KR1d-周禮之屬" class="shu">周禮之屬 <span class="count">2 部書</span></h4>' in home
    assert '<h4 id="KR1d-noshu" class="shu">未分屬 <span class="count">1 部書</span></h4>' in home
    assert '<h4 id="KR2a-' not in home   # a class none of whose works has a 屬 is not divided
    # a work's trail names the shelf the class page puts it on, the 屬 linked to its heading there
    shelf_trail = ('<nav class="crumbs" aria-label="位置"><a href="/">書目</a> › <a href="/classes/KR1/">經部</a> › '
                   '<a href="/classes/KR1d/">禮類</a> › ')
    assert shelf_trail + ('<a href="/classes/KR1d/#KR1d-周禮之屬">周禮之屬</a> › '
                          '<span aria-current="page">周禮注疏</span></nav>') in client.get("/works/KR1d0003/").content.decode()
    assert shelf_trail + '<span aria-current="page">禮書</span></nav>' in client.get("/works/KR1d0084/").content.decode()
    assert ('<a href="/">書目</a> › <a href="/classes/KR2/">史部</a> › <a href="/classes/KR2a/">正史類</a> › '
            '<span aria-current="page">史記</span></nav>') in client.get("/works/KR2a0001/").content.decode()
    rows = {r["code"]: r for r in client.get("/api/classes/").json()["results"]}
    # the API lists the class's shelf as the page does: each 屬, then the works of none as 未分屬
    assert rows["KR1d"]["shu"] == [{"name": "周禮之屬", "works": 2}, {"name": "儀禮之屬", "works": 1},
                                   {"name": "未分屬", "works": 1}]
    assert rows["KR1"]["shu"] == rows["KR2a"]["shu"] == []
    zhouli = client.get("/api/classes/KR1d/works/", {"shu": "周禮之屬"}).json()
    assert [(w["title"], w["shu"]) for w in zhouli["results"]] == [("周禮注疏", "周禮之屬"), ("周官新義", "周禮之屬")]
    unsorted = client.get("/api/classes/KR1d/works/", {"shu": "未分屬"}).json()
    assert [(w["title"], w["shu"]) for w in unsorted["results"]] == [("禮書", "")]
    assert client.get("/api/classes/KR1/works/", {"shu": "儀禮之屬"}).json()["count"] == 1


@pytest.mark.django_db
def test_a_title_places_a_work_in_the_shu_of_the_classic_it_names(client):
    """/classes/KR1d/ with one work given 儀禮之屬: 欽定儀禮義疏, 周禮注疏, 周禮詳解 and 周禮訂義 stood
    under 未分屬 (only 屬 some work had were read from titles, and the imperial 欽定 hid the book)."""
    for title, kanripo_id, shu in [("周禮注疏", "KR1d0003", ""), ("周禮詳解", "KR1d0005", ""),
                                   ("周禮訂義", "KR1d0010", ""), ("欽定周官義疏", "KR1d0018", ""),
                                   ("儀禮注疏", "KR1d0028", "儀禮之屬"), ("欽定儀禮義疏", "KR1d0037", ""),
                                   ("日講禮記解義", "KR1d0067", ""), ("禮書綱目", "KR1d0086", "")]:
        Work.objects.filter(pk=add_work(title, kanripo_id).pk).update(shu=shu, classification="KR1d")
    html = client.get("/classes/KR1d/").content.decode()
    shelf = html[html.index('<section class="class"'):]
    assert re.findall(r'<h3 id="([^"]+)" class="shu">([^<]+)<span class="count">(\d+) 部書', shelf) == [
        ("KR1d-周禮之屬", "周禮之屬 ", "4"), ("KR1d-儀禮之屬", "儀禮之屬 ", "2"), ("KR1d-禮記之屬", "禮記之屬 ", "1"),
        ("KR1d-noshu", "未分屬 ", "1")]
    assert re.findall(r'<li><a href="[^"]+">([^<]+)</a>\s*<span class="byline">', shelf) == [
        "周禮注疏", "周禮詳解", "周禮訂義", "欽定周官義疏", "儀禮注疏", "欽定儀禮義疏", "日講禮記解義", "禮書綱目"]


def test_the_shu_a_title_names_across_the_shipped_catalogue():
    """Every work of the shipped catalogue whose title names its classic only behind an imperial
    prefix or by the classic's other name; the rest read as before (the book opens the title)."""
    from characters.folding import fold
    from reader.shelving import shu_of_title

    changed = []
    for entry in catalogue._entries().values():
        names = [f"{book}之屬" for book in catalogue.class_books(entry.cls)]
        plain = next((n for n in sorted(names, key=len, reverse=True) if fold(entry.title).startswith(fold(n[:-2]))), "")
        if shu_of_title(entry.title, names) != plain:
            changed.append((entry.kr_id, entry.title, shu_of_title(entry.title, names)))
    assert changed == [
        ("KR1a0117", "御纂周易折中", "周易之屬"), ("KR1a0118", "御纂周易述義", "周易之屬"),
        ("KR1d0004", "周官新義", "周禮之屬"), ("KR1d0009", "周官總義", "周禮之屬"), ("KR1d0014", "周官集傳", "周禮之屬"),
        ("KR1d0018", "欽定周官義疏", "周禮之屬"), ("KR1d0021", "周官集注", "周禮之屬"), ("KR1d0023", "周官祿田考", "周禮之屬"),
        ("KR1d0037", "欽定儀禮義疏", "儀禮之屬"), ("KR1d0067", "日講禮記解義", "禮記之屬"), ("KR1d0068", "欽定禮記義疏", "禮記之屬"),
        ("KR1f0011", "御定孝經注", "孝經之屬"), ("KR1f0012", "御纂孝經集註", "孝經之屬")]
    assert catalogue.class_books("KR1d") == ("周禮", "儀禮", "禮記")
    assert catalogue.class_books("KR1e") == ("春秋左傳", "春秋公羊傳", "春秋穀梁傳")
    assert catalogue.class_books("KR2a") == ()


@pytest.mark.django_db
def test_the_admin_classifies_a_work_and_refuses_an_unknown_class(admin_client, seed_juan):
    url = f"/admin/reader/work/{seed_juan.work_id}/change/"
    work = seed_juan.work
    fields = {"title": work.title, "author": work.author, "native_place": work.native_place, "dynasty": work.dynasty,
              "collection": work.collection, "slug": work.slug, "kanripo_id": "", "shu": ""}
    refused = admin_client.post(url, {**fields, "classification": "KR9z"})
    assert refused.status_code == 200
    assert "&#x27;KR9z&#x27; is not a class of the catalogue" in refused.content.decode()
    assert admin_client.post(url, {**fields, "classification": "KR1d"}).status_code == 302
    assert Work.objects.get(pk=work.pk).classification == "KR1d"


def test_the_edition_a_work_opens_on_is_chosen_in_one_place(seed_juan, django_assert_num_queries):
    """``Work.reading_edition_id`` alone chooses the edition a work's link opens (the catalogue,
    the work page and the breadcrumbs set a private attribute of the work from outside, each with
    its own count of juans): with the editions prefetched (``Work.objects.with_editions()``) it asks
    no query, and an edition's link (``Edition.get_absolute_url``) asks none either."""
    work = Work.objects.with_editions().get(pk=seed_juan.work_id)
    with django_assert_num_queries(0):
        assert [(e.slug, e.juan_count) for e in work.editions.all()] == [("禮書綱目", 1)]
        assert work.reading_edition_id() == seed_juan.edition_id
        assert work.editions.all()[0].get_absolute_url() == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/"
        assert work.get_absolute_url() == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/"
    alone = Edition.objects.select_related("work").get(pk=seed_juan.edition_id)
    with django_assert_num_queries(0):  # an edition's key names it: no choice to make
        assert alone.get_absolute_url() == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/"
    plain = Work.objects.get(pk=seed_juan.work_id)
    with django_assert_num_queries(1):  # not prefetched: the choice, with its key
        assert plain.get_absolute_url() == "/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/"
    outside = [str(path.relative_to(BASE_DIR)) for folder in ("api", "collation", "pages", "reader", "search")
               for path in (BASE_DIR / folder).rglob("*.py")
               if "_reading_edition_id" in path.read_text(encoding="utf-8") and path.name != "models.py"]
    assert outside == []
