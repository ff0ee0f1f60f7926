"""Front and back matter is cited under its own writer, never the book's commentators: a 序跋 or
a 提要 (``reader.matter.matter_writer``) names who signs it where the import knows him, as a
search hit does, else no one. On real files of ``../shared/corpus``."""
import json
import shutil

import pytest

from reader.citation import citation_text
from reader.importers.loader import import_file
from reader.matter import set_matter
from reader.models import Section

from .conftest import SHARED

KANRIPO = SHARED / "corpus" / "kanripo"
JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def imported(tmp_path, folder, *names):
    """The juans ``names`` of ``folder`` imported as one work's (a Kanripo folder of that name)."""
    into = tmp_path / folder.name
    into.mkdir()
    for name in names:
        shutil.copy(folder / name, into)
    return [import_file(into / name).juan for name in names]


def citations(juan) -> list[str]:
    return [citation_text(s) for s in Section.objects.filter(juan=juan).select_related(
        "juan__work", "juan__edition", "chapter").order_by("position")]


@pytest.mark.django_db
def test_the_emperors_writings_are_cited_under_him_and_the_text_under_its_commentators(tmp_path):
    head, juan_1, text = imported(tmp_path, JINGBU / "KR1a0007", "KR1a0007_000.txt", "KR1a0007_001.txt",
                                  "KR1a0007_012.txt")
    people = "〔魏〕王弼注　〔晉〕韓康伯注　〔唐〕陸德明音義　〔唐〕孔穎達疏"
    # 卷首 file 1: the 御製讀易繋辭, a poem of 乾隆's on the book (it was cited under the book's four commentators)
    assert citations(juan_1) == ["〔清〕高宗弘曆《周易註疏》御製讀易繋辭上傳第五章書義（四庫全書・文淵閣本，葉 1-1a）"]
    assert citations(head) == [
        "〔清〕高宗弘曆《周易註疏》御製重刻十三經序・御製伏日讀易・御製讀周易枯楊生稊辨詁（四庫全書・文淵閣本，葉 0-1a）",
        "〔清〕高宗弘曆《周易註疏》御製重刻十三經序・御製伏日讀易・御製讀周易枯楊生稊辨詁〈御製伏日讀易〉（四庫全書・文淵閣本，葉 0-3a）",
        "〔清〕高宗弘曆《周易註疏》御製重刻十三經序・御製伏日讀易・御製讀周易枯楊生稊辨詁〈御製讀周易枯楊生稊辨詁〉"
        "（四庫全書・文淵閣本，葉 0-4a）"]
    assert citations(text)[0] == f"{people}《周易註疏》卷一〈乾〉「䷀乾下乾上乾元亨…」（四庫全書・文淵閣本，葉 12-1a）"


@pytest.mark.django_db
def test_a_tiyao_and_an_unsigned_preface_are_cited_with_no_byline(tmp_path):
    """周禮詳解's 卷首 (KR1d0005_000): the 四庫 editors' 提要 and the unsigned 互註總括 name nobody; the 原序
    is signed at its end (「…王昭禹光逺序」, before its end title): 王昭禹's; the sections holding only a
    part's title (no text) are cited as the book is, under 王昭禹."""
    (head,) = imported(tmp_path, KANRIPO / "KR1d0005", "KR1d0005_000.txt")
    parts = "《周禮詳解》提要・原序・周禮互註總括"
    assert citations(head) == [
        f"{parts}「提要」（四庫全書・文淵閣本，葉 0-1a）",
        f"〔宋〕王昭禹{parts}〈原序〉（四庫全書・文淵閣本，葉 0-4a）",
        f"〔宋〕王昭禹{parts}〈原序〉「周禮詳解原序」（四庫全書・文淵閣本，葉 0-5b）",
        f"{parts}〈周禮互註總括〉（四庫全書・文淵閣本，葉 0-6a）",
        f"〔宋〕王昭禹{parts}〈周禮互註總括〉「周禮互註總括」（四庫全書・文淵閣本，葉 0-8b）"]


@pytest.mark.django_db
def test_a_juan_named_by_its_chapter_names_the_chapter_once(tmp_path):
    """史記's TLS edition names a juan by its one chapter (六國年表, 〈六國年表〉): the citation said
    《史記》六國年表〈六國年表〉; it names the chapter once (``reader.citation.chapter_mark``), in a
    section's citation and in the juan's."""
    from reader.citation import juan_citation_text

    juan, = imported(tmp_path, SHARED / "corpus" / "kanripo-commentary" / "KR2a0001", "KR2a0001_203.txt")
    people = "〔漢〕司馬遷"  # 白文: none of the commentators the catalogue lists (tests/test_unannotated_editions.py)
    assert citations(juan)[:2] == [f"{people}《史記》六國年表「太史公讀秦記」（TLS標點本，葉 203-1a）",
                                   f"{people}《史記》六國年表「463六」（TLS標點本，葉 203-5a）"]
    assert (juan_citation_text(juan, juan.chapters.order_by("position"))
            == f"{people}《史記》六國年表（TLS標點本，Kanripo KR2a0001_203）")


@pytest.mark.django_db
def test_a_section_of_the_tiyao_alone_is_named_tiyao(tmp_path, client):
    """A headless 提要 (the editors' words under no heading of their own) was named by its chapter in
    a hit list (禮書綱目's 目錄, 三國志's 三國志目錄) or not at all (楚辭補注): it is named 提要, in the hit
    list's names (``section_names``) and in its citation."""
    from reader.citation import section_names

    cited = {}
    for folder, name in ((KANRIPO / "KR1d0086", "KR1d0086_000.txt"),
                         (SHARED / "corpus" / "kanripo-commentary" / "KR2a0012", "KR2a0012_000.txt"),
                         (SHARED / "corpus" / "kanripo-commentary" / "KR4a0003", "KR4a0003_000.txt")):
        (juan,) = imported(tmp_path, folder, name)
        tiyao = [s for s in juan.sections.order_by("position")
                 if s.pieces.exists() and not s.pieces.exclude(layer="editorial", layer_name="提要").exists()]
        keys = {(juan.edition.slug, juan.number, s.position) for s in tiyao}
        assert section_names(keys) == dict.fromkeys(keys, "提要")
        cited[name] = [(s.position, s.title, citation_text(s)) for s in tiyao]
    assert cited == {  # the stored title stays ""
        "KR1d0086_000.txt": [(76, "", "《禮書綱目》采輯羣書目・目錄・序〈目錄〉「提要」（四庫全書・文淵閣本，葉 0-82a）")],
        "KR2a0012_000.txt": [(5, "", "《三國志》卷〇〈三國志目錄〉「提要」（四庫全書・文淵閣本，葉 0-18b）")],
        "KR4a0003_000.txt": [(3, "", "《楚辭補注》目録「提要」（四庫全書・文淵閣本，葉 0-2b）")]}


@pytest.mark.django_db
def test_a_front_matter_juan_is_cited_under_the_writer_its_sections_share(tmp_path, client, django_assert_num_queries):
    """周易註疏 KR1a0007_001 is the emperor's essay 御製讀易繋辭上傳第五章書義: its juan citation named the
    book's four commentators; it names 高宗弘曆, who signs it (``reader.matter.juan_matter_writer``), on the
    juan page, in the API's juan and in its JSON export. 卷首 (``_000``, three writings of his) is his too;
    the 提要 (``_004``, the editors', unsigned) and 卷一 (``_012``, the book's text) keep the book's people.
    The writer is read with no query on a page that holds the whole juan (the sections' pieces say it),
    and with one where it does not (a view of some sections), one for the juan, not one a section."""
    from reader.citation import juan_citation_text
    from reader.matter import juan_matter_writer
    from reader.reading import chapter_views

    head, essay, tiyao, first = imported(tmp_path, JINGBU / "KR1a0007", "KR1a0007_000.txt", "KR1a0007_001.txt",
                                         "KR1a0007_004.txt", "KR1a0007_012.txt")
    people = "〔魏〕王弼注\u3000〔晉〕韓康伯注\u3000〔唐〕陸德明音義\u3000〔唐〕孔穎達疏"
    cited = {juan.number: juan_citation_text(juan, juan.chapters.order_by("position")) for juan in (head, essay, tiyao, first)}
    assert cited == {
        0: "〔清〕高宗弘曆《周易註疏》御製重刻十三經序・御製伏日讀易・御製讀周易枯楊生稊辨詁〈御製伏日讀易〉〈御製讀周易枯楊生稊辨詁〉"
           "（四庫全書・文淵閣本，Kanripo KR1a0007_000）",
        1: "〔清〕高宗弘曆《周易註疏》御製讀易繋辭上傳第五章書義（四庫全書・文淵閣本，Kanripo KR1a0007_001）",
        4: f"{people}《周易註疏》提要（四庫全書・文淵閣本，Kanripo KR1a0007_004）",
        12: f"{people}《周易註疏》卷一〈乾〉（四庫全書・文淵閣本，Kanripo KR1a0007_012）"}
    # the page, the API and the export read it with no query of their own: as many as before it was read
    with django_assert_num_queries(24):
        page = client.get(f"/works/{essay.edition.slug}/juan/1/").content.decode()
    assert "〔清〕高宗弘曆《周易註疏》御製讀易繋辭上傳第五章書義（" in page and "孔穎達疏《周易註疏》御製" not in page
    with django_assert_num_queries(16):
        assert "〔清〕高宗弘曆《周易註疏》御製重刻十三經序" in client.get(f"/works/{essay.edition.slug}/juan/0/").content.decode()
    with django_assert_num_queries(16):
        api = client.get(f"/api/editions/{essay.edition_id}/juans/1/").json()
    assert api["citation"].startswith("〔清〕高宗弘曆《周易註疏》御製讀易繋辭上傳第五章書義（")
    with django_assert_num_queries(15):
        exported = json.loads(client.get(f"/api/editions/{essay.edition_id}/juans/1/export/json/").content)
    assert exported["juans"][0]["citation"].startswith("〔清〕高宗弘曆《周易註疏》御製讀易繋辭上傳第五章書義（")
    # the queries: none from views of the whole juan, none where a view is of the book's text, one otherwise
    for juan, whole, writer, queries in ((essay, True, "〔清〕高宗弘曆", 0), (head, False, "〔清〕高宗弘曆", 1),
                                         (first, False, None, 0), (tiyao, False, None, 1)):
        views = chapter_views(juan, page=1)
        set_matter(views)
        juan = type(juan).objects.get(pk=juan.pk)
        with django_assert_num_queries(queries):
            assert juan_matter_writer(juan, views if whole or juan.number == 12 else views[:1], whole) == writer
    head = type(head).objects.get(pk=head.pk)
    with django_assert_num_queries(1):  # no views: one query for the juan (its 3 sections), then kept on it
        assert juan_matter_writer(head) == juan_matter_writer(head) == "〔清〕高宗弘曆"
