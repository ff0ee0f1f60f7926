"""Front and back matter (``reader.importers.mandoku.paratext``, decision 0039): a 卷首's prefaces
and imperial poems, and the postfaces signed after a book's text, are 序跋 (``paratext``), neither
the classic nor its commentary, written by who signs them; search, the author facet and the 經
view read them so. On real files of ``../shared/corpus``; each still writes back byte for byte."""
from collections import Counter
import shutil

import pytest

from reader.importers.document import CLASSIC, COMMENTARY, EDITORIAL, PARATEXT, READINGS, SUBCOMMENTARY
from reader.importers.loader import import_file
from reader.book_writers import BookWriters
from reader.importers.mandoku.paratext import byline_writer, emperor, signed_by
from reader.models import Piece
from reader.pieces import LAYER_NAMES, LAYERS, is_classic
from search import facets
from search.backends import SearchQuery, get_search_backend
from search.documents import LAYER_GROUPS, documents_for_juan, layers_for

from .conftest import SHARED
from .conftest import parse_written_back as parse
from .test_search_contract import BACKENDS

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
COMMENTARY_BOOKS = SHARED / "corpus" / "kanripo-commentary"
WANG_BI_4 = COMMENTARY_BOOKS / "KR5c0073" / "KR5c0073_004.txt"


def characters(doc) -> dict[str, int]:
    """Characters of ``doc``'s pieces per layer."""
    out: Counter = Counter()
    for p in doc.all_pieces():
        out[p.effective_layer] += len(p.text)
    return dict(out)


def writers(doc) -> dict[tuple[str, str], int]:
    """Characters of ``doc``'s 序跋 per (layer name, writer)."""
    out: Counter = Counter()
    for p in doc.all_pieces():
        if p.effective_layer == PARATEXT:
            out[(p.layer_name, p.commentator)] += len(p.text)
    return dict(out)


def test_the_juan_head_of_maoshi_holds_no_classic():
    """毛詩注疏 卷首: 乾隆's 御製詠詩六義 and 御製讀邶風 and 孔穎達's 毛詩正義序 were the classic; they
    are 序跋 by 高宗 (弘曆) and 孔穎達, 鄭玄's 詩譜序 and 詩譜 (printed 漢鄭氏撰) by 鄭玄, 陸德明's
    傳述人 by him; 孔穎達's 疏 on the 詩譜 and the editors' 提要 and 考證 keep their layers."""
    doc = parse(JINGBU / "KR1c0004" / "KR1c0004_000.txt")
    assert characters(doc) == {PARATEXT: 7033, EDITORIAL: 4038, SUBCOMMENTARY: 59465, "smallprint": 2,
                               READINGS: 2662}
    # the book's title line over the 提要 (毛詩正義　詩類) is no 提要: the 提要 is the editors'
    assert writers(doc) == {("御製", "高宗弘曆"): 422, ("序", "孔穎達"): 624,
                            ("序", "鄭玄"): 533, ("", "鄭玄"): 4063, ("", ""): 324, ("傳述人", "陸德明"): 1067}
    poem = next(p for p in doc.all_pieces() if "御製讀邶風" in p.text)
    assert (poem.layer, poem.layer_basis, poem.commentator, is_classic(poem)) == (PARATEXT, "layout", "高宗弘曆", False)
    shu = next(p for p in doc.all_pieces() if p.text.startswith("正義曰上皇謂伏犧"))
    assert (shu.effective_layer, shu.commentator) == (SUBCOMMENTARY, "孔穎達")


def test_postfaces_signed_after_wang_bis_text_are_their_signers():
    """王弼's 道德真經注 卷四 ends with two postfaces printed like his 注, with no heading:
    晁說之's, signed 「…嵩山晁說之鄜畤」 and 記 on a line of its own, and 熊克's 「…熊克謹記」. They
    were 王弼's commentary; the classic and his notes before them are as they were."""
    doc = parse(WANG_BI_4)
    # classic 1,467 since the edition's words written otherwise stay its classic (聖人亦不傷人, 常知稽式:
    # segmenting.written_otherwise; 1,464 and 2,086 before)
    assert characters(doc) == {CLASSIC: 1467, COMMENTARY: 2083, PARATEXT: 467}
    assert writers(doc) == {("", "晁說之"): 305, ("", "熊克"): 162}
    last = [(p.kind, p.text[-6:], p.commentator) for s in doc.sections[-2:] for p in s.pieces]
    assert last == [("text", "丁丑嵩山晁說之鄜畤"[-6:], "晁說之"), ("label", "記", "晁說之"), ("text", "學教授熊克謹記"[-6:], "熊克")]
    assert Counter(p.commentator for p in doc.all_pieces() if p.effective_layer == COMMENTARY) == {"王弼": 106}


def test_held_out_juan_heads_name_their_writers():
    """Books not looked at while the rule was made: 欽定春秋傳說彙纂's 卷首 opens with
    「聖祖仁皇帝御製春秋傳説彚纂序」 (the heading names 康熙, 聖祖); 欽定書經傳說彙纂's 御製序 is dated
    in 雍正 (世宗); 南華真經註疏's 序 is signed 「河南郭象子玄撰」 (郭象 and his courtesy name);
    荀子's last juan (後序) is 唐仲友's; 孟子注疏's 題辭 is printed 趙氏 (the work's 趙岐)."""
    assert writers(parse(JINGBU / "KR1e0094" / "KR1e0094_000.txt"))[("御製", "聖祖玄燁")] == 384
    assert ("御製", "世宗胤禛") in writers(parse(JINGBU / "KR1b0046" / "KR1b0046_000.txt"))
    zhuang = parse(COMMENTARY_BOOKS / "KR5c0139" / "KR5c0139_000.txt")
    assert {who for _, who in writers(zhuang)} == {"郭象"}
    assert CLASSIC not in characters(zhuang)
    xun = parse(COMMENTARY_BOOKS / "KR3a0002" / "KR3a0002_021.txt")
    assert {who for _, who in writers(xun)} == {"唐仲友"} and CLASSIC not in characters(xun)
    meng = writers(parse(JINGBU / "KR1h0003" / "KR1h0003_000.txt"))
    assert {who for _, who in meng} == {"高宗弘曆", "孫奭", "趙岐", ""}  # 孫奭's 孟子音義序 after the 御製


def test_signatures_bylines_and_emperors():
    assert signed_by("予既繕寫弼書并以記之政和乙未十月丁丑嵩山晁說之鄜畤記") == "晁說之"
    assert signed_by("姑俟夫知者三月二十四日左從事郎充鎭江府府學教授熊克謹記") == "熊克"
    assert signed_by("云淳熙四年丁酉冬十月戊子新安朱熹書") == "朱熹"
    assert signed_by("晁說之鄜畤記之也") == ""          # no signature's last word at the end
    assert signed_by("隗囂公孫述") == ""                 # 述 ends a name, not a signature
    assert signed_by("其言熊克之鄜畤記") == ""          # a two-character name only right before it
    assert byline_writer("毛詩正義序\u3000\u3000\u3000\u3000唐孔穎達撰") == "孔穎達"
    assert byline_writer("吳\u3000郡\u3000袁\u3000褧\u3000撰") == "袁褧"
    assert byline_writer("詩譜序\u3000\u3000\u3000漢鄭氏撰", [("毛亨", "傳"), ("鄭玄", "箋")]) == "鄭玄"
    assert byline_writer("隗囂\u3000\u3000\u3000公孫述") == ""
    assert emperor("御製序", "…雍正八年", True) == "世宗胤禛"
    assert emperor("御製讀邶風", "詩𫝊䟽及朱註", True) == "高宗弘曆"
    assert emperor("御製讀邶風", "詩𫝊䟽及朱註", False) == ""


def test_the_layer_is_in_the_one_table_every_app_reads():
    assert LAYERS[-1] == PARATEXT and LAYER_NAMES[PARATEXT] == "序跋"
    assert layers_for("paratext") == {PARATEXT} and PARATEXT in LAYER_GROUPS["all"]
    assert PARATEXT not in layers_for("classic") | layers_for("notes")


def imported_copy(tmp_path, path, readme: bool = False):
    """The juan of ``path`` (a corpus file) imported from a copy in a folder of its book's id under
    ``tmp_path`` (with its folder's ``Readme.org`` where ``readme``); the facet tables cleared."""
    folder = tmp_path / path.parent.name
    folder.mkdir()
    shutil.copy(path, folder)
    if readme:
        shutil.copy(path.parent / "Readme.org", folder)
    juan = import_file(folder / path.name).juan
    facets._tables.clear()
    return juan


def engine_for(settings, tmp_path, engine: str, name: str, juan):
    """A search backend of ``engine`` (a key of ``BACKENDS``) named ``name`` under ``tmp_path``,
    holding ``juan`` alone."""
    settings.SEARCH_BACKENDS = {**settings.SEARCH_BACKENDS, name: {
        "BACKEND": BACKENDS[engine], "PATH": tmp_path / "ix", "NAME": f"{name}-{tmp_path.name}",
        "LOCK_TIMEOUT": 1.0}}
    backend = get_search_backend(name)
    backend.rebuild(documents_for_juan(juan))
    return backend


@pytest.fixture
def wang_bi_4(tmp_path):
    yield imported_copy(tmp_path, WANG_BI_4)
    facets._tables.clear()


@pytest.fixture(params=sorted(BACKENDS))
def engine(request, settings, tmp_path, wang_bi_4):
    return engine_for(settings, tmp_path, request.param, "paratext", wang_bi_4)


@pytest.mark.django_db
def test_search_and_the_author_facet_read_the_postfaces_as_their_signers(engine, wang_bi_4):
    """老子 is in no sentence of 卷四's classic nor of 王弼's notes, 9 times in the postfaces (8 in
    晁說之's, one of them across a printed line, 老¶ 子; 1 in 熊克's): a classic-only search finds none, ``layer=paratext`` all, and the author
    facet counts them under their signers; ``author=王弼`` keeps none of them."""
    stored = Counter((p.layer, p.commentator) for p in Piece.objects.filter(section__juan=wang_bi_4)
                     if "老子" in p.text)
    assert stored == {(PARATEXT, "晁說之"): 1, (PARATEXT, "熊克"): 1}
    assert engine.search(SearchQuery("老子", exact=True, layers=layers_for("classic"))).count == 0
    assert engine.search(SearchQuery("老子", exact=True, layers=layers_for("paratext"))).count == 9
    results = engine.search(SearchQuery("老子", exact=True))
    assert results.count == 9
    assert facets.facet_counts(results)["author"] == [{"value": "晁說之", "count": 8}, {"value": "熊克", "count": 1}]
    assert engine.search(SearchQuery("老子", exact=True, written_by=facets.written_by_for(("王弼",)))).count == 0


@pytest.mark.django_db
def test_unsigned_back_matter_is_nobody_known_s_not_the_unnamed_notes_writer_s(engine, wang_bi_4, monkeypatch):
    """A postface nobody signs counts under 未詳 in the author and dynasty facets, and no author
    filter keeps it, even in a work whose notes that name nobody are one writer's (here 王弼's,
    as in a book that names no commentator): a 跋 is its signer's, not the notes' writer's
    (``search.documents.NOBODYS_UNSIGNED``). 熊克's postface, its signer taken off, holds 1 of
    the 9 老子 of 卷四."""
    monkeypatch.setattr(facets, "main_writers", lambda work, edition: BookWriters((), ("王弼",)))
    Piece.objects.filter(section__juan=wang_bi_4, layer=PARATEXT, commentator="熊克").update(commentator="")
    engine.rebuild(documents_for_juan(wang_bi_4))
    facets._tables.clear()
    results = engine.search(SearchQuery("老子", exact=True))
    counted = facets.facet_counts(results)
    assert counted["author"] == [{"value": "晁說之", "count": 8}, {"value": "", "count": 1}]
    assert counted["dynasty"] == [{"value": "宋", "count": 8}, {"value": "", "count": 1}]
    assert engine.search(SearchQuery("老子", exact=True, written_by=facets.written_by_for(("王弼",)))).count == 0
    assert engine.search(SearchQuery("老子", exact=True, written_by=facets.written_by_for(("晁說之",)))).count == 8


def test_a_spaced_byline_with_an_office_and_a_label_name_in_a_variant_form():
    """周易略例序 (周易註疏 卷三十八) is printed ``唐　四　　門　助　教　郉　璹　撰``: its writer is 郉璹, not
    教郉璹 (the wider gap sets no run apart; 四門助教 is his office). 禮記集說's 卷首 labels its
    author's preface ``序[衛湜]``, and the catalogue writes him 衞湜: the label names him through
    the variant tables, the stored text unchanged."""
    zhouyi = writers(parse(JINGBU / "KR1a0007" / "KR1a0007_038.txt"))
    assert {who for _, who in zhouyi} == {"郉璹"}
    assert byline_writer("唐\u3000四\u3000\u3000門\u3000助\u3000教\u3000郉\u3000璹\u3000撰") == "郉璹"
    liji = parse(JINGBU / "KR1d0057" / "KR1d0057_000.txt")
    assert {who for (name, who) in writers(liji) if name == "序"} == {"衞湜", "魏了翁"}
    assert "衛湜" in liji.juan_label or any("衛湜" in (c.title or "") for c in liji.chapters)


def test_a_document_of_front_matter_that_kanripo_marks_no_part_for_is_a_part():
    """三國志's 卷首 (KR2a0012_000) is one part in Kanripo's file (``#+PROPERTY: JUAN 0``), and the 四庫 copy
    prints in it 乾隆's poem, 裴松之's memorial presenting his notes, the 目錄 and the editors' 提要: the
    poem's 御製 named its part's writer, so the memorial and the list were 高宗弘曆's 御製 (2,825
    characters), and the line the transcription prints over the memorial's first page, its title
    ``上三國志注表`` over the copy's head ``欽定四庫全書``, was text of the poem. A title of front matter so
    printed over the head, or the head over a 目錄's title (``欽定四庫全書　　　　　史部一`` /
    ``　三國志目錄　　　　　　正史類``), opens a part named by it, as ``#+PROPERTY: JUAN 目録`` names one, the
    lines of the head its layout: the poem is 64 characters of 御製, the memorial 上三國志注表's, the
    list the 目錄's. 儀禮經傳通解's 卷首 (KR1d0085_000, not tuned on) prints ``目録`` over the head after
    the 序 of 張虙, whose signature (``…四明張虙識``) now ends its part: the 序 is his. The memorial is
    裴松之's, who signs it (``…臣裴松之`` / ``上``, ``memorials``), and the editors' 考證 of the 目錄 after the
    提要 a part of its own (``kaozheng.unmarked_parts``)."""
    doc = parse(COMMENTARY_BOOKS / "KR2a0012" / "KR2a0012_000.txt")
    assert [(c.title, [s.line for s in c.sections]) for c in doc.chapters] == [
        ("", [9]), ("上三國志注表", [18]), ("三國志目錄", [48, 241, 444]), ("三國志目録考證", [505, 523])]
    assert writers(doc) == {("", "高宗弘曆"): 64, ("上三國志注表", "裴松之"): 442, ("目錄", ""): 1989}
    assert [p.text[:8] for s in doc.chapters[1].sections for p in s.pieces] == [
        "上三國志注表", "臣松之言臣聞智周", "元嘉六年七月二十"]
    assert doc.chapters[0].sections[0].pieces[-1].text.endswith("丞相祠堂尚有無")
    doc = parse(JINGBU / "KR1d0085" / "KR1d0085_000.txt")
    assert [c.title for c in doc.chapters] == ["", "目録"]
    assert writers(doc) == {("", "張虙"): 303, ("目録", ""): 3617}
    assert doc.chapters[1].sections[0].pieces[0].text.startswith("儀禮經傳目録漢書藝文志")
