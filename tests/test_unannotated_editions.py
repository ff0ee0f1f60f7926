"""An edition's byline names the commentators whose notes it holds: the TLS 史記 (KR2a0001, 白文, no
note) is 〔漢〕司馬遷撰's alone on its juan pages and in their citations, though Kanripo's catalogue lists
the work with 裴駰's 集解, 司馬貞's 索隱 and 張守節's 正義 (``Edition.unannotated``,
``reader.people.work_people``); the work named with no edition (the catalogue's list) keeps them. A juan
holding no note offers no notes controls (夾注, 白文, 只看注, 旁注: ``reader.display.juan_holds_notes``).
On real files of ``../shared/corpus``."""
import re
import shutil

import pytest

from reader.citation import citation_text, juan_citation_text
from reader.importers.loader import import_file
from reader.models import Section, Work
from reader.people import work_byline

from .conftest import SHARED

COMMENTARY = SHARED / "corpus" / "kanripo-commentary"
CATALOGUE_PEOPLE = "〔漢〕司馬遷撰　〔南朝宋〕裴駰集解　〔唐〕司馬貞索隱　〔唐〕張守節正義"


def imported(tmp_path, folder, name):
    """The juan ``name`` of ``folder`` imported as its work's (a Kanripo folder of that name)."""
    into = tmp_path / folder.name
    into.mkdir()
    shutil.copy(folder / name, into)
    return import_file(into / name).juan


def notes_controls(html: str) -> list[str]:
    return re.findall(r'data-setting="notes" data-value="(\w+)"', html)


@pytest.mark.django_db
def test_the_tls_shiji_names_its_author_alone_and_offers_no_notes_controls(client, tmp_path):
    juan = imported(tmp_path, COMMENTARY / "KR2a0001", "KR2a0001_201.txt")
    assert juan.edition.unannotated is True
    assert work_byline(juan.work, juan.edition) == "〔漢〕司馬遷撰"
    assert work_byline(Work.objects.get(pk=juan.work.pk)) == CATALOGUE_PEOPLE  # the work, as the catalogue gives it
    first = Section.objects.filter(juan=juan).select_related("juan__work", "juan__edition", "chapter").order_by("position")[0]
    assert citation_text(first).startswith("〔漢〕司馬遷《史記》三代世表「")
    assert (juan_citation_text(juan, juan.chapters.order_by("position"))
            == "〔漢〕司馬遷《史記》三代世表（TLS標點本，Kanripo KR2a0001_201）")
    html = client.get(juan.get_absolute_url()).content.decode()
    assert '<p class="byline">〔漢〕司馬遷撰</p>' in html
    assert "裴駰" not in html and "司馬貞" not in html and "張守節" not in html
    assert notes_controls(html) == []
    assert '<p class="byline">〔漢〕司馬遷撰</p>' in client.get(juan.edition.get_absolute_url()).content.decode()
    # the catalogue's list names the work as the catalogue gives it
    assert f'<span class="byline">{CATALOGUE_PEOPLE}</span>' in client.get("/").content.decode()
    assert "只看注" not in html.split('id="display-settings"')[1].split("</details>")[0].split("<dl")[0]
    # nor does the keyboard shortcuts list offer keys for those modes
    assert "<kbd>1</kbd>" not in html and "夾注、白文、只看注、旁注" not in html
    assert re.findall(r"<dt>(.*?)</dt>", html.split('id="shortcuts"')[1].split("</details>")[0])[:4] == [
        "<kbd>j</kbd> <kbd>k</kbd>", "<kbd>]</kbd> <kbd>[</kbd>", "<kbd>n</kbd> <kbd>N</kbd>", "<kbd>v</kbd>"]


@pytest.mark.django_db
def test_an_edition_with_notes_names_its_commentator_and_offers_the_notes_controls(client, tmp_path):
    """莊子注 (KR5c0138, 郭象's 注 printed with the text): its commentator named and the four controls offered."""
    juan = imported(tmp_path, COMMENTARY / "KR5c0138", "KR5c0138_006.txt")
    assert juan.edition.unannotated is False
    assert work_byline(juan.work, juan.edition) == "〔晉〕郭象注"
    html = client.get(juan.get_absolute_url()).content.decode()
    assert '<p class="writers"><span class="writers-label">著者</span><span class="writer">郭象<span class="writer-facts">（晉，注）</span></span></p>' in html
    assert notes_controls(html) == ["inline", "hidden", "only", "beside"]
    assert ("<div><dt><kbd>1</kbd> <kbd>2</kbd> <kbd>3</kbd> <kbd>4</kbd></dt><dd>夾注、白文、只看注、旁注</dd></div>"
            in html)


@pytest.mark.django_db
def test_commentary_printed_full_size_is_notes_its_juan_offers_the_notes_controls(client, tmp_path):
    """老子 河上公章句 (KR5c0065, 道藏): the 章句 runs at full size with the classic, stored as text pieces of
    layer commentary (decided by the reference, no piece of a note kind). Its juan holds notes: the four
    notes controls are offered (they were not: only 文本, 版式, 字形, 字號), the edition is no 白文, and 只看注
    lists each 章句 with the classic it explains."""
    juan = imported(tmp_path, COMMENTARY / "KR5c0065", "KR5c0065_002.txt")
    assert juan.edition.unannotated is False
    html = client.get(f"{juan.get_absolute_url()}2/").content.decode()
    assert notes_controls(html) == ["inline", "hidden", "only", "beside"]
    # the keys 1-4 choose them (templates/reader/_display_controls.html's shortcuts)
    assert ("<div><dt><kbd>1</kbd> <kbd>2</kbd> <kbd>3</kbd> <kbd>4</kbd></dt><dd>夾注、白文、只看注、旁注</dd></div>"
            in html)
    only = client.get(f"{juan.get_absolute_url()}2/?notes=only").content.decode()
    glossed = [tuple(re.sub(r"<[^>]+>", "", x) for x in pair)
               for pair in re.findall(r'<div class="gloss"><dt class="lemma">(.*?)</dt><dd>(.*?)</dd>', only)]
    assert len(glossed) == 12  # chapter 1's twelve stretches of the classic, each with its 章句
    assert glossed[0] == ("經文：道可道", "謂經術政教之道也")
    assert glossed[-1] == ("經文：衆妙之門", "能知天中復有天禀氣有厚薄除情欲守中和是謂知道要妙之門户")
    assert "（本節經文無注）" not in only
