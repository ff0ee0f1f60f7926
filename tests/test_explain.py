"""``import_texts --explain`` (issue 27): what an import would store, storing nothing; and
the warnings of a normal import, located by line and column."""
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from reader.importers.explain import explain, inferred_boundaries, piece_positions
from reader.importers.files import read_document
from reader.models import Work

from .conftest import SHARED

COMMENTARY_BOOKS = SHARED / "corpus" / "kanripo-commentary"
STRAY = COMMENTARY_BOOKS / "KR2a0002" / "KR2a0002_019.txt"


def run(*args) -> str:
    out = StringIO()
    call_command("import_texts", "--explain", *map(str, args), stdout=out, stderr=StringIO())
    return out.getvalue()


def test_explain_prints_what_would_be_stored_and_stores_nothing(empty_db):
    assert run(STRAY).splitlines() == [
        "KR2a0002_019.txt: 史記集解 卷十九 (KR2a0002, WYG)",
        "  byline: 〔宋〕裴駰",
        "    宋 - 裴駰 (撰)",
        # the volume line 史記十九 under the title line is the juan's second title line, header layout
        "  chapters: 1: 恵景間侯者年表第七",
        "  sections: 1 (0 titled, 0 closed by 右…)",
        "  layers: classic 149 characters in 3 pieces; commentary 74 characters in 4 pieces",
        # 裴駰's 集解 collects 鄧展's, 臣瓚's and 徐廣's glosses, each his part (decision 0058)
        "  commentators: 裴駰 (集解) collected the layer: 74 characters in 4 pieces, 24 characters in 1 pieces his own",
        "    quoted by 裴駰 (3): 鄧展 29 characters in 1 pieces; 臣瓚 17 characters in 1 pieces; 徐廣 4 characters in 1 pieces",
        "  layer decided: default 3 pieces; marked 4 pieces",
        "  inferred boundaries: 0",
        "  unsure: 1",
        f"    {STRAY}:18:11: ) without a matching (: kept as text",
    ]
    assert Work.objects.count() == 0


def test_explain_names_the_collector_then_the_men_he_quotes(empty_db):
    """A collected commentary (decision 0058): the collector first, with his whole layer and his
    own part, then each man he quotes with his part, most characters first; the book's other
    commentators (前漢書's 宋 editors' 按) after them. 史記集解 卷二 and 前漢書 卷一."""
    jijie = run(COMMENTARY_BOOKS / "KR2a0002" / "KR2a0002_002.txt").splitlines()
    assert jijie[6:8] == [
        "  commentators: 裴駰 (集解) collected the layer: 4,762 characters in 308 pieces, 365 characters in 24 pieces "
        "his own",
        "    quoted by 裴駰 (13): 孔安國 2,436 characters in 158 pieces; 鄭玄 1,259 characters in 73 pieces; 馬融 225 "
        "characters in 18 pieces; 徐廣 167 characters in 16 pieces; 賈逵 74 characters in 3 pieces; 如淳 51 characters "
        "in 2 pieces; 劉熙 39 characters in 3 pieces; 皇甫謐 38 characters in 3 pieces; 王肅 30 characters in 3 pieces; "
        "包咸 29 characters in 1 pieces; 服虔 22 characters in 2 pieces; 應劭 16 characters in 1 pieces; 孟康 11 "
        "characters in 1 pieces",
    ]
    assert jijie[8] == "  layer decided: default 252 pieces; marked 308 pieces"  # 308 notes; 史記二 is the title's
    hanshu = [line for line in run(COMMENTARY_BOOKS / "KR2a0007" / "KR2a0007_001.txt").splitlines()
              if line.startswith(("  commentators:", "    quoted by", "    other commentators:"))]
    assert hanshu == [
        "  commentators: 顏師古 (注) collected the layer: 16,496 characters in 893 pieces, 9,750 characters in 504 "
        "pieces his own",
        "    quoted by 顏師古 (16): 應劭 1,318 characters in 60 pieces; 如淳 1,095 characters in 57 pieces; 文穎 948 "
        "characters in 42 pieces; 臣瓚 595 characters in 25 pieces; 孟康 503 characters in 32 pieces; 晉灼 382 "
        "characters in 26 pieces; 蘇林 367 characters in 35 pieces; 韋昭 354 characters in 24 pieces; 張晏 312 "
        "characters in 18 pieces; 服虔 218 characters in 24 pieces; 李奇 216 characters in 16 pieces; 李斐 141 "
        "characters in 5 pieces; 鄭氏 141 characters in 16 pieces; 蔡邕 86 characters in 3 pieces; 鄧展 43 characters "
        "in 4 pieces; 荀悅 27 characters in 2 pieces",
        "    other commentators: 劉攽 (按) 982 characters in 33 pieces; 宋祁 (按) 813 characters in 35 pieces; 朱子文 (按) "
        "621 characters in 12 pieces; 劉敞 (按) 54 characters in 2 pieces",
    ]


def test_explain_lists_inferred_boundaries_with_their_place(empty_db):
    path = COMMENTARY_BOOKS / "KR2k0058" / "KR2k0058_002.txt"
    lines = run(path).splitlines()
    # (classic 264 characters in 24 pieces, commentary 10,608, 503 boundaries when the text of a 注 line
    # opened by a note was the 經: 140 characters, 13 pieces)
    assert lines[5] == ("  layers: classic 124 characters in 11 pieces; commentary 10,748 characters in 244 pieces; "
                        "editorial 2,927 characters in 587 pieces")
    k = lines.index("  inferred boundaries: 494")
    assert lines[k + 1:k + 5] == [
        "    12:6: editorial (案) inferred from the layout: 「作河水二經文上復衍河水二字今刪去」",
        "    13:1: classic (classic) inferred from the layout: 「又南入蔥嶺山又從蔥嶺出而東北流」",
        "    13:17: editorial (案) inferred from the layout: 「脫此九字杜佑」",
        "    15:2: commentary (注，酈道元) inferred from the layout: 「河水重源有三非惟二也一源西出捐毒」"]
    raw = path.read_text(encoding="utf-8").split("\n")
    assert raw[14][1:9] == "河水重源有三非惟"  # line 15, column 2
    assert Work.objects.count() == 0


def test_every_piece_position_points_at_its_text():
    for path in (STRAY, COMMENTARY_BOOKS / "KR4h0003" / "KR4h0003_001.txt",
                 COMMENTARY_BOOKS / "KR5c0139" / "KR5c0139_002.txt"):
        doc = read_document(path)
        lines = path.read_text(encoding="utf-8").split("\n")
        positions = piece_positions(doc)
        for p in doc.all_pieces():
            line, column = positions[id(p)]
            assert lines[line - 1][column - 1:].startswith(p.text[:1]), (path.name, line, column, p.text[:8])


def test_unsure_places_are_warnings_of_a_normal_import():
    """六臣註文選: a note that names none of its six commentators, and is no sound gloss or collation note
    of the editors (decision 0064) nor a title's note or poem's number (the book's small print), is an unsure
    place: 卷十五's title note of 思玄賦 (over two lines) and 婧(音精/才姓又), a 反切 of no shape the rule reads."""
    doc = read_document(COMMENTARY_BOOKS / "KR4h0003" / "KR4h0003_015.txt")
    unsure = [w for w in doc.warnings if "who wrote this note is not known" in w]
    path = COMMENTARY_BOOKS / "KR4h0003" / "KR4h0003_015.txt"
    assert unsure == [  # one place a note, however many parts its reading order cut it in
        f"{path}:{at}: no commentator's formula (綜曰、劉曰、善曰、銑曰、良曰、向曰 …): who wrote this note is not known"
        for at in ("14:8", "366:10")]
    # 卷十九's titles' notes and poems' numbers (16 places) are none
    assert not [w for w in read_document(COMMENTARY_BOOKS / "KR4h0003" / "KR4h0003_019.txt").warnings
                if "who wrote this note is not known" in w]
    report = explain(doc)
    assert report[report.index(f"  unsure: {len(doc.warnings)}") + 1] == "    " + doc.warnings[0]
    # 老子 (王弼註): classic and commentary run together with no marker; the reference text of the
    # classic decides, and each boundary it set is listed with its place
    laozi = read_document(COMMENTARY_BOOKS / "KR5c0073" / "KR5c0073_002.txt")
    assert laozi.warnings == []
    report = explain(laozi)
    k = report.index("  inferred boundaries: 187")
    assert report[k + 1:k + 3] == [
        "    14:1: classic (classic) inferred from a reference text: 「孔德之容唯道是從」",
        "    14:9: commentary (註，王弼) inferred from a reference text: 「孔空也唯以空爲德然後乃能動作從道」"]
    # 河上公章句: chapter 1 opens with the classic (道可道), not with the 章句
    heshang = explain(read_document(COMMENTARY_BOOKS / "KR5c0065" / "KR5c0065_002.txt"))
    k = heshang.index("  inferred boundaries: 874")
    assert heshang[k + 1:k + 3] == ["    11:1: classic (classic) inferred from a reference text: 「道可道」",
                                    "    11:4: commentary (章句，河上公) inferred from a reference text: 「謂經術政教之道也」"]


def test_explain_says_which_files_would_be_rejected_or_skipped(empty_db):
    out = StringIO()
    with pytest.raises(CommandError, match="1 of 3 files would be rejected; nothing was stored"):
        call_command("import_texts", "--explain", str(STRAY), str(COMMENTARY_BOOKS / "KR5c0065" / "KR5c0065_000.txt"),
                     str(SHARED / "cases" / "import" / "binary.bin"), stdout=out, stderr=StringIO())
    lines = out.getvalue().splitlines()
    assert lines[-2:] == [
        f"would skip {COMMENTARY_BOOKS / 'KR5c0065' / 'KR5c0065_000.txt'}:9:1: no text: the file has a header but no "
        "main text",
        f"would reject {SHARED / 'cases' / 'import' / 'binary.bin'}:1:1: not a text file: NUL byte (binary data?)"]
    assert Work.objects.count() == 0


def test_explain_names_each_note_read_in_another_order_than_the_files():
    """六臣註文選 and 水經注 (四部叢刊) file a note's columns in reverse reading order, as the
    columns' lengths show (the count is printed): each such note is named with the line and
    column of the part the file puts first."""
    path = COMMENTARY_BOOKS / "KR4h0003" / "KR4h0003_001.txt"
    lines = explain(read_document(path))
    assert "  columns: 13 lines read the second column first, 2 the first (decided)" in lines
    k = lines.index("  reading order: 304 notes read in another order than the file's")
    assert lines[k + 1:k + 7] == [
        "    13:5: read from 「善曰賦甲者舊題甲乙所以紀」, filed from 「卷旣改故甲乙並除存其首題」",
        "    15:13: read from 「善曰自光武至和帝都」, filed from 「洛陽西京父老有怨班」",
        "    16:2: read from 「固恐帝去洛陽故上此」, filed from 「詞以諫和帝大恱也」",
        "    18:8: read from 「善曰范瞱後漢書曰班固字孟」, filed from 「人也年九歳能屬文長遂博貫」",
        "    19:2: read from 「宗時除蘭臺令史遷為郎乃上」, filed from 「竇憲出征匃奴以固為中䕶軍」",
        "    22:11: read from 「善曰毛詩序曰詩有六義焉二」, filed from 「曰賦故賦為古詩之流也諸引」"]
    raw = path.read_text(encoding="utf-8").split("\n")
    assert raw[15][1:10] == "詞以諫和帝大恱也/"  # line 16, column 2
    shuijing = explain(read_document(COMMENTARY_BOOKS / "KR2k0058" / "KR2k0058_002.txt"))
    # (285 when a note reopened at the top of a column under a 注 line was two notes; 243 before a note
    # at a column's top counted as wide as its longer column, decision 0123)
    k = shuijing.index("  reading order: 239 notes read in another order than the file's")
    assert shuijing[k - 1] == "  columns: 22 lines read the second column first, 0 the first (decided)"
    assert shuijing[k + 1] == "    12:6: read from 「案二字原本誤連經文今改正」, filed from 「作河水二經文上復衍河水二」"
    # a book whose notes are read as filed says nothing of reading order
    assert not any(line.startswith("  reading order") for line in explain(read_document(STRAY)))


@pytest.mark.django_db(transaction=True)
def test_explain_reports_the_refusals_the_import_makes_across_files(empty_transactional_db, search_backend):
    """On the import cases --explain said 2 of 8 would be rejected and the import rejected 6: four
    copies of 禮書綱目 卷十 claim the juan astral_chars.txt claims first."""
    cases = SHARED / "cases" / "import"
    out = StringIO()
    with pytest.raises(CommandError) as explained:
        call_command("import_texts", "--explain", str(cases), stdout=out, stderr=StringIO())
    assert str(explained.value) == "6 of 8 files would be rejected; nothing was stored"
    would = sorted(line.split(":", 1)[0].removeprefix("would reject ") for line in out.getvalue().splitlines()
                   if line.startswith("would reject "))
    assert would == [str(cases / name) for name in ("bom_crlf.txt", "empty.txt", "gbk_encoded.txt",
                                                      "markup_in_note.txt", "stray_close.txt", "unclosed_note.txt")]
    assert f"would reject {cases / 'bom_crlf.txt'}:1:1: claims the same work and juan (禮書綱目 卷十) as " \
           f"{cases / 'astral_chars.txt'}, imported earlier in this run; import them separately if one should " \
           f"replace the other" in out.getvalue().splitlines()
    err = StringIO()
    with pytest.raises(CommandError) as imported:
        call_command("import_texts", str(cases), stdout=StringIO(), stderr=err)
    assert str(imported.value) == "6 of 8 files rejected; nothing was stored from them"
    assert sorted(line.split(":", 1)[0].removeprefix("rejected ") for line in err.getvalue().splitlines()
                  if line.startswith("rejected ")) == would
    assert Work.objects.count() == 2
