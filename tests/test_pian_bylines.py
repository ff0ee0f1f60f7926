"""A 篇's byline printed in its heading lines, under the 篇's title and before its text (issue 27,
point 4: a byline is metadata, never text): the book's title (大題) and the commentator, or the
commentator alone, each word maybe glossed by a note, the title maybe cut by a line end. The title
is a label, the byline a label that is the chapter's byline (``SectionDoc.bylines``), the notes as
they were; each file still writes back byte for byte."""
import re

import pytest

from reader.importers.document import LABEL, NOTE, TEXT
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku.pian_bylines import commentator_byline
from reader.people import byline_pieces
from search.backends import SearchQuery

from .conftest import SHARED, index_all
from .test_number_notes import _chapter, _read

CORPUS = SHARED / "corpus"
SHIWEN = CORPUS / "kanripo-jingbu" / "KR1g0003"   # 經典釋文 (四部叢刊)
ZHENG_ZHU = [{"dynasty": "", "place": "", "name": "鄭氏", "role": "注"}]


def _head(chapter, n):
    """(kind, text[:7]) of the chapter's first ``n`` pieces."""
    return [(p.kind, p.text[:7]) for s in chapter.sections for p in s.pieces][:n]


def test_a_title_cut_by_a_line_end_and_its_glossed_byline():
    """禮記音義 (卷十一, lines 13-14) ``曲禮第一(本或作曲禮上…)禮`` / ``記(此記二禮之遺/闕故名禮記)鄭氏注``: 禮記
    (the 大題, cut by the line end) and 鄭玄's 注 were classic text of the chapter, the label 記 opening a
    section of its own (``記`` / ``鄭氏注`` / ``毋不敬…``); they are the 大題's two labels and the byline, one
    label that is the chapter's byline (鄭氏 注), in the heading's section, 陸德明's note on 記 his as it
    was, and the classic opens with the first lemma, 毋不敬."""
    doc = _read(SHIWEN / "KR1g0003_011.txt")
    chapter = _chapter(doc, "曲禮第一")
    section = chapter.sections[0]
    assert _head(chapter, 7) == [
        (NOTE, "本或作曲禮上者"), (LABEL, "禮"), (LABEL, "記"), (NOTE, "此記二禮之遺闕"), (LABEL, "鄭氏注"),
        (TEXT, "毋不敬"), (NOTE, "音無說文云止之")]
    assert section.bylines == ZHENG_ZHU
    pieces = section.pieces
    assert [pieces[k].text for k in sorted(byline_pieces(section, pieces))] == ["鄭氏注"]
    assert [(p.kind, p.effective_layer, p.commentator) for p in pieces[:5]] == [
        (NOTE, "commentary", "陸德明"), (LABEL, "classic", ""), (LABEL, "classic", ""), (NOTE, "commentary", "陸德明"),
        (LABEL, "classic", "")]
    classic = "".join(p.text for c in doc.chapters for s in c.sections for p in s.pieces if p.kind == TEXT)
    assert classic.startswith("毋不敬嚴苦思矜莊樞機敖")
    # every section of the 篇 reads in his 注: those cut for size keep the byline, the next 篇 has its own heading
    assert {len(s.bylines) for s in chapter.sections} == {1}
    assert _chapter(doc, "曲禮下第二").sections[0].bylines == []


def test_a_title_and_a_byline_each_glossed_over_the_columns():
    """毛詩音義 (卷五, lines 16-21): after the first 篇's heading and its notes, ``毛詩(詩是此/書之名)``,
    ``國風(國者緫謂…)`` and ``鄭氏箋(本亦作牋…)``, each note running on at the top of the next columns, then
    the first lemma ``關雎`` on a line of its own; 周易音義 (卷二, lines 575-578) ``…)上第七(…)`` /
    ``(…)韓伯注(本亦作韓康伯注…)`` / ``(承用韓注繫/辭以下續之)`` over ``地卑(…)``. 毛詩, 國風, 鄭氏箋 and
    韓伯注 were classic text (a lemma each); the 大題 is two labels, the commentator a label and the
    chapter's byline."""
    chapter = _read(SHIWEN / "KR1g0003_005.txt").chapters[0]
    assert chapter.title == "周南關雎故訓傳第一"
    assert _head(chapter, 10)[3:] == [
        (LABEL, "毛詩"), (NOTE, "詩是此書之名毛"), (LABEL, "國風"), (NOTE, "國者緫謂十五國"), (LABEL, "鄭氏箋"),
        (NOTE, "本亦作牋同薦年"), (TEXT, "關雎")]
    assert chapter.sections[0].bylines == [{"dynasty": "", "place": "", "name": "鄭氏", "role": "箋"}]
    chapter = _chapter(_read(SHIWEN / "KR1g0003_002.txt"), "周易繫辭上第七")
    assert _head(chapter, 6)[2:] == [(NOTE, "本亦作繫辭上王"), (LABEL, "韓伯注"), (NOTE, "本亦作韓康伯注"), (TEXT, "地卑")]
    assert chapter.sections[0].bylines == [{"dynasty": "", "place": "", "name": "韓伯", "role": "注"}]


def test_a_commentator_on_a_line_of_his_own_under_the_heading():
    """Held back while the rule was made on 經典釋文: 春秋榖梁傳 四部叢刊 (kanripo-references) prints
    ``　…范寗集解`` under ``春秋榖梁傳隱公第一(○隱公名息姑…)``; the line was a label and the title of a
    section of its own, and the juan, whose title line prints no byline, had none. It is the chapter's
    byline, no section's title, and the juan's byline; the classic opens with 元年春王正月."""
    doc = _read(CORPUS / "kanripo-references" / "KR1e0009" / "KR1e0009_001.txt")
    people = [{"dynasty": "", "place": "", "name": "范寗", "role": "集解"}]
    chapter = doc.chapters[0]
    assert (chapter.title, [s.title for s in chapter.sections[:2]]) == ("春秋榖梁傳隱公第一", ["", ""])
    assert _head(chapter, 3) == [(NOTE, "○隱公名息姑惠"), (LABEL, "范寗集解"), (TEXT, "元年春王正月")]
    assert chapter.sections[0].bylines == people and doc.bylines == people


def test_what_is_no_pian_byline():
    """A byline's entries are a commentator's, each name of two to five characters; one ending in 傳
    alone only after a master's name, for a life's title under a 篇 heading ends so too (後漢書
    ``隗囂傳``); a sentence ending in 注 is no byline."""
    assert commentator_byline("孔氏傳", titled=False) == [{"dynasty": "", "place": "", "name": "孔氏", "role": "傳"}]
    assert commentator_byline("鄭氏注", titled=True) == ZHENG_ZHU
    assert commentator_byline("隗囂傳", titled=False) == []
    assert commentator_byline("陸德明撰", titled=False) == []
    assert commentator_byline("三十二年伐鄭城酸棗敗秦於注", titled=False) == []


def imported_head(path, count, tmp_path):
    """``(juan, first section, file)``: the first ``count`` lines of the Kanripo file ``path`` (its header
    and first lines) written under ``tmp_path`` in a folder of its work's ID, and imported."""
    lines = path.read_text(encoding="utf-8").split("\n")
    short = tmp_path / path.parent.name / path.name
    short.parent.mkdir()
    short.write_text("\n".join(lines[:count]) + "\n", encoding="utf-8")
    juan = import_file(short).juan
    return juan, juan.sections.order_by("position").first(), short


@pytest.mark.django_db
def test_the_chapters_byline_is_metadata_in_the_api_the_citation_and_search(client, search_backend, tmp_path):
    """禮記音義's first 篇, imported (the file's header and its first lines): the section's byline is 鄭氏注
    in the API, its citation and on its page, search finds 鄭氏注 neither as classic nor as a title, and finds the
    first lemma 毋不敬 as classic; the juan writes back as it was."""
    juan, section, short = imported_head(SHIWEN / "KR1g0003_011.txt", 24, tmp_path)
    assert section.bylines == ZHENG_ZHU
    data = client.get(f"/api/works/{juan.work_id}/juans/{juan.number}/sections/{section.position}/").json()
    assert (data["byline"], data["people"]) == ("鄭氏注", [{"dynasty": "", "name": "鄭氏", "role": "注"}])
    assert data["citation"].startswith("〔唐〕陸德明《經典釋文》卷第十一〈曲禮第一〉鄭氏注「毋不敬嚴苦思矜莊…」（四部叢刊本，葉 11-1a）")
    body = client.get(section.get_absolute_url()).content.decode()
    assert re.findall(r'<span class="byline section-byline" id="s1-p(\d+)">([^<]+)</span>', body) == [("4", "鄭氏注")]
    index_all(search_backend)
    mine = (juan.edition_id,)
    assert search_backend.search(SearchQuery("鄭氏注", layers=("classic", "title"), exact=True, edition_ids=mine)).count == 0
    assert search_backend.search(SearchQuery("毋不敬", layers=("classic",), exact=True, edition_ids=mine)).count == 1
    assert render_source(juan) == short.read_text(encoding="utf-8")


def test_a_pian_heading_that_opens_a_division_and_its_byline():
    """尚書音義 prints the 篇 that opens each division of the 書 with the old edition's juan and the
    division's name, its note counting the division's 篇 (卷三 ``堯典第一　卷之一　虞書(凡十六篇十一/篇亡五篇見存)``,
    ``禹貢第一　卷之三　夏書(…)``, ``湯誓第一　卷之四　商書(…)``, 卷四 ``泰誓上第一　卷之六　周書(…)``), and numbers
    each division's 篇 anew; under 堯典 the commentator alone, ``　…孔氏傳(傳即注也…)``. The four headings
    were classic text glued to the note's first lemma (``堯典第一　卷之一　虞書``), 孔氏傳 a lemma: each is a
    chapter, its category the old juan and the division, its note the heading's own, and 孔氏 傳 堯典's
    byline."""
    doc = _read(SHIWEN / "KR1g0003_003.txt")
    assert [(c.title, c.category) for c in doc.chapters if c.category.startswith("卷之")] == [
        ("堯典第一", "卷之一\u3000虞書"), ("大禹謨第三", "卷之二"), ("禹貢第一", "卷之三\u3000夏書"),
        ("湯誓第一", "卷之四\u3000商書"), ("盤庚上第九", "卷之五")]
    chapter = _chapter(doc, "堯典第一")
    assert _head(chapter, 4) == [(NOTE, "凡十六篇十一篇"), (LABEL, "孔氏傳"), (NOTE, "傳即注也以傳述"), (TEXT, "昔")]
    assert chapter.sections[0].bylines == [{"dynasty": "", "place": "", "name": "孔氏", "role": "傳"}]
    assert not [p.text for p in doc.all_pieces() if p.kind == TEXT and "第一" in p.text]
    chapter = _chapter(_read(SHIWEN / "KR1g0003_004.txt"), "泰誓上第一")
    assert (chapter.title, chapter.category, _head(chapter, 2)) == (
        "泰誓上第一", "卷之六\u3000周書", [(NOTE, "凡四十一篇九篇"), (TEXT, "虞芮")])
