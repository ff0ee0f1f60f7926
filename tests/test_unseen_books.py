"""Commentary editions of layouts the shared corpus does not have (issue 27, "books the team
has not seen"): excerpts of Kanripo files copied exactly, each with its repository and
commit, and what the importer must read in them."""
import json

import pytest

from reader.importers.document import NOTE, TEXT
from reader.importers.loader import import_file, render_source
from reader.importers.mandoku import parse_mandoku, render_mandoku

# kanripo/KR3j0010 (淮南鴻烈解, 四庫全書 文淵閣), KR3j0010_001.txt at commit
# 9b26e5e829bb4b84097ca429178ff79db908aeb7: the juan's head, its first lines and its end.
# The 篇 title 原道訓 is printed two columns in with its note after it; the text is flush.
HUAINAN = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 淮南鴻烈解\n"
    "#+DATE: 2015-08-24 23:19:27.360998\n"
    "#+PROPERTY: ID KR3j0010\n"
    "#+PROPERTY: BASEEDITION WYG    \n"
    "#+PROPERTY: JUAN 卷一\n"
    "<pb:KR3j0010_WYG_001-1a>¶\n"
    "欽定四庫全書¶\n"
    "　淮南鴻烈解卷一¶\n"
    "　　　　　　　　　　　　　漢　髙誘　注¶\n"
    "　　原道訓(原本也本道根真包裹天地以/歴萬物故曰原道因以題篇)¶\n"
    "夫道者覆天載地廓四方柝(托/)八極(廓張也柝開也/八極八方之極)髙¶\n"
    "不可際深不可測(際至/也)包裹天地稟授無形(萬物之未/形者皆生)¶\n"
    "(於道故曰稟/授無形也)源流泉浡沖而徐盈混混汨(骨/)汨濁而徐¶\n"
    "<pb:KR3j0010_WYG_001-23a>¶\n"
    "(機弩機關/言其疾也)如是則萬物之化無不遇(遇時/也)而百事之變¶\n"
    "無不應¶\n"
    "　¶\n"
    "<pb:KR3j0010_WYG_001-23b>¶\n"
    "　¶\n"
    "　淮南鴻烈解卷一¶\n"
)
HEADING_NOTE = "原本也本道根真包裹天地以歴萬物故曰原道因以題篇"


def test_an_indented_pian_title_over_flush_text_is_a_heading_with_its_note():
    doc = parse_mandoku(HUAINAN, "KR3j0010_001.txt")
    assert [c.title for c in doc.chapters] == ["原道訓"]
    first = doc.sections[0].pieces
    assert [(p.kind, p.text) for p in first[:4]] == [
        (NOTE, HEADING_NOTE), (TEXT, "夫道者覆天載地廓四方柝"), (NOTE, "托"), (TEXT, "八極")]
    assert all(p.text != "原道訓" for s in doc.sections for p in s.pieces)
    assert doc.bylines == [{"dynasty": "漢", "place": "", "name": "髙誘", "role": "注"}]
    assert render_mandoku(doc) == HUAINAN


@pytest.mark.django_db(transaction=True)
def test_the_pian_title_and_its_note_reach_the_api(empty_transactional_db, tmp_path, client):
    path = tmp_path / "KR3j0010_001.txt"
    path.write_bytes(HUAINAN.encode("utf-8"))
    juan = import_file(path).juan
    chapter = json.loads(client.get(f"/api/editions/{juan.edition.pk}/juans/{juan.number}/").content)["chapters"][0]
    assert (chapter["title"], [p["text"] for p in chapter["heading_notes"]]) == ("原道訓", [HEADING_NOTE])
    assert chapter["sections"][0]["pieces"][0]["text"] == "夫道者覆天載地廓四方柝"
    assert juan.trailer == "\u3000淮南鴻烈解卷一¶"
    assert render_source(juan) == HUAINAN



def test_the_same_rule_on_the_shared_shuijingzhu_heading():
    """水經注 卷二 prints 河水 two columns in with the editors' note that calls it the 篇題."""
    from .conftest import SHARED
    path = SHARED / "corpus" / "kanripo-commentary" / "KR2k0058" / "KR2k0058_002.txt"
    text = path.read_text(encoding="utf-8")
    doc = parse_mandoku(text, path.name)
    assert [c.title for c in doc.chapters] == ["河水"]
    assert [(p.kind, p.text[:10]) for p in doc.sections[0].pieces[:3]] == [
        (NOTE, "作河水二經文上復衍河"), (NOTE, "案二字原本誤連經文今"), (TEXT, "又南入蔥嶺山又從蔥嶺")]
    assert render_mandoku(doc) == text
