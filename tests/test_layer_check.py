"""The layer check (``manage.py check_layers``, ``collation.layercheck``): a 注疏 edition's
classic and commentary against an independent edition that prints them apart (issue 27).

The figures of the shared pairs are pinned: a change to how the importer reads layers that
moves one shows here. The normal run checks two pairs (孝經, 周易); every pair runs in the
``slow`` test, which ``make test`` (and CI) runs too.
"""
import re
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from collation.layercheck import CATALOGUE_PAIRS, PAIRS, Stream, Unit, check, edition_role, edition_roles, other_commentators, same_person
from collation.layersources import _stored_pieces, edition_stream, parse_file, reference_stream
from reader.models import Juan
from reader.importers.document import CLASSIC, COMMENTARY, LABEL, NOTE, READINGS, SMALLPRINT, TEXT, PieceDoc
from characters.folding import fold
from reader.importers.mandoku.boundaries import align, match_form, tail
from reader.importers.mandoku.classics import CLASSICS_DIR, classic_book
from reader.commented_classic import classic_of

from .conftest import SHARED

CORPUS = SHARED / "corpus"


def run(*args) -> str:
    out = StringIO()
    call_command("check_layers", *args, stdout=out)
    return out.getvalue()


def test_align_keeps_runs_of_three_or_more_in_order():
    # 8-character anchors fix the order; a lone shared character (之) is not counted
    ref = "天命之謂性率性之謂道修道之謂教"
    ed = "天命之謂性注命者天之令也率性之謂道修道之謂教"
    match = align(ref, ed)
    assert [ed[m] if m >= 0 else "_" for m in match] == list(ref)
    assert match[5] == ed.index("率性")
    assert align("甲之乙", "丙之丁") == [-1, -1, -1]


def test_the_check_takes_the_copy_in_reading_order_with_the_passages_around_it():
    # 周易 艮 彖: the classic 艮其止止其所也 stands between two 王注, the second of which ends
    # quoting it (故曰艮其止止其所也) right before the classic goes on (上下敵應…). The plain
    # alignment gives the words to the quotation, which reads on into 上下敵應; the check's
    # takes the copy that comes first after 其道光明, the words before it
    ref = "時止則止時行則行動靜不失其時其道光明艮其止止其所也上下敵應不相與也是以不獲其身"
    ed = ("時止則止時行則行動靜不失其時其道光明止道不可常用必施於不可以行適於其時道乃光明也艮其止止其所也"
          "易背曰止以明背即止也施止於止不施止於行得其所矣故曰艮其止止其所也上下敵應不相與也是以不獲其身")
    classic, quotation = ed.index("艮其止止其所也"), ed.rindex("艮其止止其所也")
    at = ref.index("艮其止")
    assert align(ref, ed)[at:at + 7] == list(range(quotation, quotation + 7))
    match = align(ref, ed, nearer_copies=True)
    assert match[at:at + 7] == list(range(classic, classic + 7))
    assert match[at + 7] == ed.index("上下敵應")  # the rest stays where it reads on
    # 臨 九二: the 象 (象曰咸臨吉無不利未順命也) is not taken into the 王注 before it, which quotes
    # all its words but 象曰: a copy is moved whole or as far as it goes on from the words before
    ref = "九二咸臨吉無不利象曰咸臨吉無不利未順命也六三甘臨無攸利"
    ed = "九二咸臨吉無不利有應在五感以臨者也其得咸臨吉無不利必未順命也象曰咸臨吉無不利未順命也六三甘臨無攸利"
    assert align(ref, ed, nearer_copies=True) == align(ref, ed)
    assert align(ref, ed)[ref.index("象曰")] == ed.index("象曰")


def test_tail_rules():
    # aligned one after another up to the end: a hole of up to two, up to three unaligned at
    # the very end; four in five aligned
    assert tail([-1, -1, -1, 10, 11, 12, 13, -1, 15, 16], 0, 10) == 3
    assert tail([-1, 5, 6, 7, 8, -1], 0, 6) == 1
    # a run of three or more: the one or two unaligned at the very end are not counted
    # (困德之辯也 where the reference writes 辨); three at the end are
    assert tail([-1, 5, 6, 7, -1, -1], 0, 6) == 1
    assert tail([-1, 5, 6, 7, -1, -1, -1], 0, 7) is None
    assert tail([-1, 5, 6, -1, -1], 0, 5) is None  # two of four aligned
    assert tail([-1, 5, -1, -1, -1, 9, 10], 0, 7) == 5
    assert tail([-1, -1, -1, -1], 0, 4) is None
    assert tail([-1, -1, 4, -1, -1, -1], 0, 6) is None


def test_the_reference_step_reads_printers_variants_as_one():
    # 巳 for 已, 于/於, 悌/弟, 榖/穀: one for matching a juan with its reference, apart for
    # search (the folding); offsets hold
    assert match_form("無巳則有一焉光于四海孝悌之至五榖") == "無已則有一焉光於四海孝弟之至五穀"
    assert fold("巳于悌榖") == "巳于悌榖"
    assert match_form("說") == "說" and len(match_form("𤣥巳")) == len("𤣥巳")


def _stream(items) -> Stream:
    return Stream.build((Unit(f"x.txt:{k + 1}", text, layer), role) for k, (text, layer, role) in enumerate(items))


def test_check_counts_each_reference_character_by_its_stored_layer():
    # the edition stores the classic 坐授瑟乃降 inside the note (no small print between)
    ed = _stream([("大射之儀君有命戒射", CLASSIC, CLASSIC), ("將有事於射宰夫戒宰及司馬", COMMENTARY, COMMENTARY),
                  ("相者也工六人坐授瑟乃降", COMMENTARY, COMMENTARY), ("音義字", READINGS, None)])
    ref = _stream([("大射之儀君有命戒射", "", "C"), ("將有事於射宰夫戒宰及司馬", "", "M"), ("相者也", "", "M"),
                   ("工六人坐授瑟乃降", "", "C")])
    res = check(ed, ref, worst=5, context=3)
    assert (res.classic_total, res.classic_aligned, res.classic_ok) == (17, 17, 9)
    assert (res.commentary_total, res.commentary_aligned, res.commentary_ok) == (15, 15, 15)
    assert [(p.kind, p.chars, p.where, p.edition, p.reference) for p in res.places] == [
        ("classic", 8, "x.txt:3", "〔注：相者也工六人坐授瑟乃降〕", "(相者也)工六人坐授瑟乃降")]
    assert res.classic_share == 9 / 17 and res.commentary_share == 1.0


def test_a_title_and_its_small_print_are_left_out():
    # 毛詩注疏 卷十八 opens with its contents entry 「小雅　(鴻鴈之什/)」, the name of the 什 printed
    # again as the classic's first words after 序; the reference goes from the last 什's count
    # to that 序 (no 序 written). The entry's small print is no layer: left out with its title,
    # it cannot take 鴻鴈 from the classic. A marker's note (箋) is never a title's
    pieces = [PieceDoc(LABEL, "小雅\u3000"), PieceDoc(NOTE, "鴻鴈之什", layer=SMALLPRINT),
              PieceDoc(TEXT, "序鴻鴈美宣王也萬民離散", layer=CLASSIC),
              PieceDoc(LABEL, "箋", layer=COMMENTARY, layer_name="鄭箋"),
              PieceDoc(NOTE, "宣王承厲王衰亂之敝而起", layer=COMMENTARY, layer_name="鄭箋"),
              PieceDoc(NOTE, "勞力報反", layer=SMALLPRINT)]
    roles = edition_roles(pieces)
    assert roles == [None, None, CLASSIC, None, COMMENTARY, SMALLPRINT]
    ref = _stream([("十篇四十六章二百七十二句", "", "C"), ("鴻鴈美宣王也萬民離散", "", "C"),
                   ("宣王承厲王衰亂之敝而起", "", "M")])
    head = [(Unit("x.txt:1", "十篇四十六章二百七十二句", CLASSIC), CLASSIC)]
    units = [Unit(f"x.txt:{k + 2}", p.text, p.layer) for k, p in enumerate(pieces)]
    res = check(Stream.build(head + list(zip(units, roles))), ref, worst=0)
    assert (res.classic_aligned, res.classic_ok, res.commentary_aligned, res.commentary_ok) == (22, 22, 11, 11)
    # each piece on its own (the entry's note taking part): 鴻鴈 is taken from the note
    alone = [edition_role(p.layer, p.kind, p.layer_basis) for p in pieces]
    res = check(Stream.build(head + list(zip(units, alone))), ref, worst=1)
    assert (res.classic_aligned, res.classic_ok) == (22, 20)
    assert [(p.kind, p.chars, p.where) for p in res.places] == [("classic", 2, "x.txt:3")]
    # the file itself: the stream opens with the classic, the entry left out
    stream = edition_stream(str(CORPUS / "kanripo-jingbu/KR1c0004/KR1c0004_018.txt"))
    assert stream.text.startswith("序鴻鴈美宣王也萬民離散") and stream.role[0] == CLASSIC


def test_front_matter_takes_part_only_when_a_reference_has_some(tmp_path):
    # 左傳杜林合注 begins at its 卷一: 左傳注疏's front matter (_000: the emperor's essays, 目録,
    # 孔穎達's 春秋正義序, 杜預's 序, 原目, 傳述人) is left out, so the reference's notes on the
    # states (莒 己姓子爵 …) are not matched with 春秋正義序's prose; the 四部叢刊 孝經 has a _000
    zuo = CORPUS / "kanripo-jingbu/KR1e0004"
    assert reference_stream(str(CORPUS / "kanripo-references/KR1e0092/KR1e0092_001.txt")).front_matter is False
    assert reference_stream(str(CORPUS / "kanripo-references/KR1f0002/KR1f0002_000.txt")).front_matter is True
    front = edition_stream(str(zuo / "KR1e0004_000.txt"))
    # its 目録's lines contents entries, no text (146 characters: 6,755 when they were text)
    assert front.front_matter and len(front.text) == 6_609  # 原目's 杜氏 (a heading it copies) a label; its
    # entries' year ranges (元年至十五年, small print) are 序跋 and count with the classic; the 提要 after the
    # 目録 (185 characters) is the editors' and takes no part
    assert edition_stream(str(zuo / "KR1e0004_000.txt"), front_matter=False).text == ""
    book = tmp_path / "KR1e0004"
    book.mkdir()
    for name in ("KR1e0004_000.txt", "KR1e0004_001.txt"):
        (book / name).write_bytes((zuo / name).read_bytes())
    reference = str(CORPUS / "kanripo-references/KR1e0092/KR1e0092_001.txt")
    assert run(str(book), reference, "--worst", "1").splitlines()[1:5] == [
        "  classic stored as classic:        100.00 % (1,107 of 1,107 aligned; 3,087 in the reference)",
        "  commentary stored as commentary:  99.52 % (1,899 of 1,908 aligned; 10,619 in the reference)",
        "  worst places (edition: layers other than the classic in 〔…〕; reference: small print in (…)):",
        "      3  commentary stored as classic  KR1e0004_001.txt:427",
    ]
    # with the front matter: 20 more characters of the reference's notes aligned with its prose, 平王之四十九年
    # in the emperor's essay on 春秋 元年 (「…至平王四十九年而入春秋…」), none of them its commentary
    res = check(edition_stream(str(book)), reference_stream(reference), worst=1)
    # (1,923 of the commentary aligned: 5 fewer than when the 目録's entries were text)
    assert (res.classic_aligned, res.classic_ok, res.commentary_aligned, res.commentary_ok) == (1_108, 1_108, 1_923, 1_899)
    assert [(p.kind, p.chars, p.where) for p in res.places] == [("commentary", 4, "KR1e0004_000.txt:34")]


def test_same_person_reads_bylines_as_they_name_commentators():
    # folded names (陸徳明/陸德明), a byline read with its 篇 before the name (小雅鄭氏), the
    # Han 姓 + 氏 against a full name; never two dynasties, never another surname
    assert same_person({"name": "陸徳明", "dynasty": "唐"}, {"name": "陸德明"})
    assert same_person({"name": "小雅鄭氏"}, {"name": "鄭氏", "dynasty": "漢"})
    assert same_person({"name": "鄭玄"}, {"name": "鄭氏", "dynasty": "漢"})
    assert not same_person({"name": "鄭樵", "dynasty": "宋"}, {"name": "鄭氏", "dynasty": "漢"})
    assert not same_person({"name": "朱申", "dynasty": "宋"}, {"name": "鄭氏", "dynasty": "漢"})
    assert not same_person({"name": ""}, {"name": "鄭氏"})


ZHENG = [{"dynasty": "漢", "name": "鄭氏", "role": "注"}, {"dynasty": "唐", "name": "陸德明", "role": "音義"}]


def test_notes_by_a_commentator_the_edition_does_not_name_are_not_counted():
    # the edition prints 鄭注; a reference by 朱申 (撰) prints his own 句解, not found in the
    # edition: its notes take part in the alignment and are counted nowhere; the reference's
    # 音義 by 陸德明 (the piece's commentator) are his, whom the edition names, and count
    ed = Stream.build([(Unit("x.txt:1", "大宰之職掌建邦之六典", CLASSIC), CLASSIC),
                       (Unit("x.txt:2", "典常也經也法也王謂之禮經", COMMENTARY), COMMENTARY),
                       (Unit("x.txt:3", "以佐王治邦國", CLASSIC), CLASSIC)], ZHENG)
    ref = Stream.build([(Unit("y.txt:1", "大宰之職掌建邦之六典", ""), "C"),
                        (Unit("y.txt:2", "六典者治教禮政刑事之典", ""), "M"),
                        (Unit("y.txt:3", "大音泰", "", commentator="陸德明"), "M"),
                        (Unit("y.txt:4", "以佐王治邦國", ""), "C")],
                       [{"dynasty": "宋", "name": "朱申", "role": "撰"}])
    assert other_commentators(ed, ref, align(ref.text, ed.text)) == ({1}, ["朱申"])
    res = check(ed, ref, worst=0)
    assert (res.classic_total, res.classic_aligned, res.classic_ok) == (16, 16, 16)
    assert (res.commentary_total, res.commentary_aligned, res.commentary_ok) == (3, 0, 0)
    assert (res.other_commentary, res.other_names) == (11, ["朱申"])
    # a compiler (同編) says nothing about whose notes they are: counted
    ref.people = [{"dynasty": "", "name": "趙如源", "role": "同編"}]
    res = check(ed, ref, worst=0)
    assert (res.commentary_total, res.commentary_aligned, res.commentary_ok, res.other_commentary) == (14, 0, 0, 0)
    # an author the edition does not name whose notes are the edition's (儀禮鄭註句讀, 張爾岐撰,
    # prints 鄭注): counted
    ref.people = [{"dynasty": "", "name": "張爾岐", "role": "撰"}]
    ref.units[1].text = "典常也經也法也王謂之禮經"
    ref = Stream.build([(u, role) for u, role in
                        zip(ref.units, ["C", "M", "M", "C"])], ref.people)
    res = check(ed, ref, worst=0)
    assert (res.commentary_total, res.commentary_aligned, res.commentary_ok, res.other_commentary) == (15, 12, 12, 0)


def test_notes_named_for_a_commentator_the_edition_does_not_name_count_when_it_prints_them():
    # the reference's notes carry its byline's commentator (鄭玄, 儀禮 鄭氏注); the edition's byline
    # names only its author (張爾岐 撰, 儀禮鄭註句讀), who prints 鄭注 with his own remarks after ○:
    # found in the edition, the notes are its commentary and count, stored as any commentary layer
    zhang = [{"dynasty": "清", "name": "張爾岐", "role": "撰"}]
    ed = Stream.build([(Unit("x.txt:1", "士冠禮筮于廟門", CLASSIC), CLASSIC),
                       (Unit("x.txt:2", "筮者以蓍問日吉凶於易也○將冠先筮日", COMMENTARY), COMMENTARY),
                       (Unit("x.txt:3", "○筮市例反", READINGS, commentator="陸德明"), READINGS),
                       (Unit("x.txt:4", "主人玄冠朝服", CLASSIC), CLASSIC)], zhang)
    ref = Stream.build([(Unit("y.txt:1", "士冠禮筮于廟門", ""), "C"),
                        (Unit("y.txt:2", "筮者以蓍問日吉凶於易也", "", commentator="鄭玄"), "M"),
                        (Unit("y.txt:3", "主人玄冠朝服", ""), "C")],
                       [{"dynasty": "漢", "name": "鄭玄", "role": "注"}])
    assert other_commentators(ed, ref, align(ref.text, ed.text)) == (set(), [])
    res = check(ed, ref, worst=0)
    assert (res.commentary_total, res.commentary_aligned, res.commentary_ok, res.other_commentary) == (11, 11, 11, 0)
    # notes by him the edition does not print (fewer than OTHER_SHARE of them found in it) are another's
    ref.units[1].text = "蓍草名也卜筮之具"
    ref = Stream.build([(u, role) for u, role in zip(ref.units, ["C", "M", "C"])], ref.people)
    assert other_commentators(ed, ref, align(ref.text, ed.text)) == ({1}, ["鄭玄"])
    res = check(ed, ref, worst=0)
    assert (res.commentary_total, res.commentary_aligned, res.other_commentary, res.other_names) == (0, 0, 8, ["鄭玄"])


def test_a_second_reference_judges_what_the_two_print_otherwise():
    # the edition stores the list of officers (敘官) as the classic and quotes the classic in
    # its note; reference A prints the list small and its words 以佐王治邦國 are aligned with
    # the note's quotation (the alignment cannot tell the copies apart); reference B prints the
    # list full size and 鄭注 small. Judged with B, A's characters B reads otherwise are left out
    ed = Stream.build([(Unit("x.txt:1", "治官之屬大宰卿一人小宰中大夫二人", CLASSIC), CLASSIC),
                       (Unit("x.txt:2", "大宰之職掌建邦之六典", CLASSIC), CLASSIC),
                       (Unit("x.txt:3", "典常也經曰以佐王治邦國", COMMENTARY), COMMENTARY)])
    a = _stream([("治官之屬", "", "C"), ("大宰卿一人小宰中大夫二人", "", "M"),
                 ("大宰之職掌建邦之六典", "", "C"), ("經曰以佐王治邦國", "", "C")])
    b = _stream([("治官之屬大宰卿一人小宰中大夫二人", "", "C"), ("大宰之職掌建邦之六典", "", "C"),
                 ("典常也經曰以佐王治邦國", "", "M")])
    alone = check(ed, a, worst=0)
    assert (alone.classic_aligned, alone.classic_ok, alone.commentary_aligned, alone.commentary_ok) == (22, 14, 12, 0)
    assert [(p.kind, p.chars) for p in check(ed, a, worst=5).places] == [("commentary", 12), ("classic", 8)]
    judged = check(ed, a, worst=5, judges=[b])
    assert (judged.classic_aligned, judged.classic_ok, judged.commentary_aligned, judged.disputed) == (14, 14, 0, 20)
    assert judged.places == []
    # B judged with A: the 敘官 A prints small and the quotation A prints full size are left out
    other = check(ed, b, worst=0, judges=[a])
    assert (other.classic_total, other.classic_aligned, other.classic_ok, other.commentary_total,
            other.commentary_aligned, other.commentary_ok, other.disputed) == (26, 14, 14, 11, 3, 3, 20)


def test_the_command_on_the_xiaojing_pair():
    out = run(str(CORPUS / "kanripo-jingbu/KR1f0004"), str(CORPUS / "kanripo-references/KR1f0002"), "--worst", "1")
    lines = out.splitlines()
    assert lines[1:3] == [
        "  classic stored as classic:        100.00 % (2,221 of 2,221 aligned; 2,239 in the reference)",
        "  commentary stored as commentary:  100.00 % (2,705 of 2,705 aligned; 3,034 in the reference)",
    ]
    # 聖治章's 孝 of 孝莫大於嚴父, once left at the end of the 御注 before it (孝者德之本也), is the classic's;
    # 喪親章's 之 after 「…葬事大故卜」, the reference's 卜之 of its note, is the 注's: no place left
    assert len(lines) == 3


def test_the_command_on_the_zhouyi_pair_a_reference_without_commentary():
    out = run(str(CORPUS / "kanripo-jingbu/KR1a0007"), str(CORPUS / "kanripo-references/KR1a0001"), "--worst", "0")
    assert out.splitlines()[1:3] == [
        "  classic stored as classic:        99.70 % (21,108 of 21,170 aligned; 21,337 in the reference)",
        "  commentary stored as commentary:  — (0 of 0 aligned; 0 in the reference)",
    ]


def test_the_command_names_what_it_cannot_read():
    with pytest.raises(CommandError, match="nowhere/KR9: no such file or folder"):
        run("nowhere/KR9", str(CORPUS / "kanripo-references/KR1f0002"))
    with pytest.raises(CommandError, match="give EDITION and at least one REFERENCE"):
        run("x")
    edition, reference = str(CORPUS / "kanripo-jingbu/KR1f0004"), str(CORPUS / "kanripo-references/KR1f0002")
    with pytest.raises(CommandError) as info:  # was measured once, judged with itself
        run(edition, reference, reference + "/", "--worst", "1")
    assert str(info.value) == (f"{reference}/: the same reference as {reference}, named twice: each reference is "
                               "measured and judged with the others, so name each once")
    with pytest.raises(CommandError) as info:  # printed no place and said nothing
        run(edition, reference, "--worst", "-5")
    assert str(info.value) == "--worst must be 0 or more (the number of places printed), not -5"
    with pytest.raises(CommandError) as info:  # printed 0 of 0 aligned, as for a juan with nothing aligned
        run(edition, reference, "--juan", "999")
    assert str(info.value) == f"{edition} has no juan 999 (its juans: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)"


@pytest.mark.django_db
def test_the_command_reads_a_stored_edition(seed_juan):
    # the seed against itself: every character aligned, its main text the classic, its notes 注
    out = run("禮書綱目", "禮書綱目", "--worst", "3")
    assert out.splitlines() == [
        "禮書綱目 against 禮書綱目",
        "  classic stored as classic:        100.00 % (6,985 of 6,985 aligned; 6,985 in the reference)",
        "  commentary stored as commentary:  100.00 % (7,505 of 7,505 aligned; 7,505 in the reference)",
    ]
    with pytest.raises(CommandError, match="no-such-edition: no such file, folder or stored edition"):
        run("no-such-edition", "禮書綱目")


def yili_zhushu(source: Path, target: Path) -> Path:
    """A 儀禮注疏 juan in the 四庫 注疏 layout, which the shared corpus lacks, made from
    儀禮鄭註句讀 (張爾岐, KR1d0038): each paragraph's classic, then each 鄭注 at full size led
    by 注 (its text up to 張爾岐's own remarks after ○), an 音義 in small print closing the
    paragraph, printed lines of 22 characters. Where the book goes from a 注 back to the
    classic nothing marks it: ``…注宰於天子冢宰治官卿也…射人戒諸公卿大夫…``."""
    doc = parse_file(source)
    lines = ["#+TITLE: 儀禮注疏", "#+PROPERTY: ID KR9z0038", "#+PROPERTY: BASEEDITION WYG",
             "#+PROPERTY: JUAN 卷七", "欽定四庫全書¶", "\u3000儀禮注疏卷七¶", "\u3000\u3000漢鄭氏注\u3000唐陸德明音義\u3000賈公彥疏¶"]
    for section in doc.sections:
        for para in section.paragraphs:
            text = "".join(p.text if p.kind == TEXT else "注" + p.text.split("○")[0]
                           for p in para if p.kind == TEXT or (p.kind == NOTE and p.text.split("○")[0]))
            if not text:
                continue
            text += "音義(某某反)"
            while len(text) > 22:
                cut = 22
                small = text.find("(")
                if 0 <= small < cut <= text.find(")", small):  # never inside the small print
                    cut = text.find(")", small) + 1
                lines.append(text[:cut] + "¶")
                text = text[cut:]
            lines.append(text + "¶")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def test_a_zhushu_layout_the_corpus_lacks_is_read_by_the_yili_reference(tmp_path):
    """儀禮注疏 made from 儀禮鄭註句讀 卷七 (大射儀), checked against 儀禮鄭註句讀 itself: every
    classic passage after a 注 is hidden in it until the reference (儀禮 鄭氏注, 四部叢刊,
    another edition) finds it. Without the reference 18.18 % of the classic is stored as
    classic (1,257 of 6,914)."""
    source = CORPUS / "kanripo/KR1d0038/KR1d0038_007.txt"
    book = yili_zhushu(source, tmp_path / "KR9z0038_007.txt")
    assert run(str(book), str(source), "--worst", "0").splitlines()[1:3] == [
        "  classic stored as classic:        98.95 % (6,842 of 6,914 aligned; 6,917 in the reference)",
        "  commentary stored as commentary:  99.90 % (7,384 of 7,391 aligned; 10,489 in the reference)",
    ]


def test_no_shipped_reference_is_built_from_the_two_editions_it_is_checked_with():
    """The figures are independent of the importer's reference: for every shared pair, the
    Kanripo works the shipped classic of the 注疏 edition names as its sources (``data/classics``
    headers) are neither the 注疏 edition nor the edition it is checked against."""
    seen = {}
    for edition, reference, *judges in PAIRS:
        first = sorted((CORPUS / edition).glob("*_0*.txt"))[0]
        title = next(line.split(":", 1)[1].strip() for line in first.read_text(encoding="utf-8").splitlines()
                     if line.startswith("#+TITLE:"))
        book = classic_book(title)
        sources = {m for name in book.split("+")
                   for line in (CLASSICS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
                   if line.startswith("#") for m in re.findall(r"Kanripo (KR\w+)", line)}
        checked_with = {Path(edition).name, Path(reference).name} | {Path(judge).name for judge in judges}
        assert sources and not sources & checked_with, (edition, reference, sources)
        seen[Path(edition).name] = (book, sorted(sources))
    assert seen == {
        "KR1a0007": ("yi", ["KR1a0139"]), "KR1b0004": ("shu", ["KR1b0046", "KR4h0002"]),
        "KR1c0004": ("shi", ["KR1c0044"]), "KR1d0003": ("zhouli", ["KR1d0001"]),
        "KR1e0004": ("zuozhuan", ["KR1e0001"]), "KR1e0010": ("guliang", ["KR1e0074", "KR1e0094"]),
        "KR1f0004": ("xiaojing", ["KR1f0012"]), "KR1h0003": ("mengzi", ["KR1h0001"]),
        "KR1h0007": ("lunyu", ["KR1h0043"]),
    }


#: The table of docs/reading.md (``manage.py check_layers --shared``).
SHARED_TABLE = [
    "| KR1a0007 | KR1a0001 | 99.70 % | 21,108 / 21,170 of 21,337 | — | 0 / 0 of 0 |",
    "| KR1b0004 | KR1b0002 | 99.68 % | 24,483 / 24,560 of 25,616 | 99.94 % | 45,324 / 45,351 of 66,575 |",
    "| KR1c0004 | KR1c0002 | 99.92 % | 38,668 / 38,696 of 39,344 | 99.88 % | 95,898 / 96,011 of 156,487 |",
    "| KR1d0003 | KR1d0012 (judged with KR1d0002) | 99.98 % | 35,773 / 35,778 of 43,313 | — (notes by 朱申) | 0 / 0 of 0 |",
    "| KR1d0003 | KR1d0002 | 99.99 % | 48,457 / 48,460 of 49,095 | 99.89 % | 109,602 / 109,718 of 132,523 |",
    "| KR1e0004 | KR1e0092 | 99.92 % | 7,933 / 7,939 of 8,181 | 99.58 % | 10,239 / 10,282 of 24,459 |",
    "| KR1e0010 | KR1e0009 | 99.54 % | 39,688 / 39,871 of 41,195 | 99.86 % | 38,225 / 38,277 of 50,901 |",
    "| KR1f0004 | KR1f0002 | 100.00 % | 2,221 / 2,221 of 2,239 | 100.00 % | 2,705 / 2,705 of 3,034 |",
    "| KR1h0003 | KR1h0002 | 99.70 % | 35,765 / 35,872 of 36,253 | 99.82 % | 48,119 / 48,201 of 58,090 |",
    "| KR1h0007 | KR1h0005 | 99.66 % | 15,595 / 15,648 of 16,366 | 99.88 % | 16,997 / 17,017 of 21,726 |",
    # the pairs the catalogue gives (decision 0100, CATALOGUE_PAIRS); 儀禮鄭註句讀 and 儀禮經傳通解 print
    # 鄭玄's notes under their own makers' names (decision 0107)
    "| KR1d0038 | KR1d0026 | 99.80 % | 54,193 / 54,297 of 55,489 | 99.99 % | 76,067 / 76,070 of 78,361 |",
    "| KR1d0085 | KR1d0026 | 99.86 % | 27,540 / 27,578 of 55,489 | 94.78 % | 36,457 / 38,464 of 78,361 |",
    "| KR1d0037 | KR1d0026 | 99.05 % | 51,333 / 51,822 of 55,489 | 99.50 % | 56,140 / 56,417 of 78,361 |",
    "| KR1h0006 | KR1h0005 | 98.86 % | 15,759 / 15,940 of 16,366 | 99.64 % | 20,707 / 20,780 of 21,726 |",
    "| KR1d0002 | KR1d0001 | 99.83 % | 48,213 / 48,291 of 49,384 | — | 0 / 0 of 0 |",
    "| KR1d0012 | KR1d0001 | 98.83 % | 40,498 / 40,977 of 49,384 | — | 0 / 0 of 0 |",
    "| KR1d0012 | KR1d0002 | 99.02 % | 35,529 / 35,880 of 49,095 | — (notes by 鄭玄、陸德明) | 0 / 0 of 0 |",
]


def test_the_catalogue_pairs_are_those_the_catalogue_gives():
    """Each of ``CATALOGUE_PAIRS`` is an edition whose classic (``classic_of``, decision 0100) is the title of
    its reference, and no shared pair names it."""
    def title(folder: str) -> str:
        first = sorted((CORPUS / folder).glob("*.txt"))[0]
        return next(line.split(":", 1)[1].strip() for line in first.read_text(encoding="utf-8").splitlines()
                    if line.startswith("#+TITLE:"))
    found = [(title(edition), classic_of(title(edition), kanripo_id=Path(edition).name), title(reference))
             for edition, reference in CATALOGUE_PAIRS]
    assert found == [("儀禮鄭註句讀", "儀禮", "儀禮"), ("儀禮經傳通解", "儀禮", "儀禮"), ("欽定儀禮義疏", "儀禮", "儀禮"),
                     ("論語集解義疏", "論語", "論語"), ("周禮", "周禮", "周禮"), ("周禮句解", "周禮", "周禮"),
                     ("周禮句解", "周禮", "周禮")]
    assert not {pair[:2] for pair in CATALOGUE_PAIRS} & {pair[:2] for pair in PAIRS}


#: docs/reading.md, whose table and example the tests below hold to the command's figures.
READING_DOC = Path(__file__).resolve().parent.parent / "docs" / "reading.md"


def test_the_docs_give_the_pinned_table():
    rows = [line for line in READING_DOC.read_text(encoding="utf-8").splitlines() if line.startswith("| KR1")]
    assert rows == SHARED_TABLE


@pytest.mark.slow
def test_every_shared_pair():
    out = run("--shared", "--worst", "0")
    rows = [line for line in out.splitlines() if line.startswith("| KR")]
    assert (len(PAIRS), len(CATALOGUE_PAIRS), len(rows)) == (10, 7, 17)
    assert rows == SHARED_TABLE
    # the notes set aside: 朱申's 句解 in 周禮注疏; 鄭玄's notes (and 陸德明's readings) in 周禮句解, named once
    assert [line for line in out.splitlines() if "characters of notes by" in line] == [
        f"  not counted: {n} characters of notes by {who}, whom the edition's bylines do not name and whose notes it "
        "does not print: they measure nothing of its commentary" for n, who in (("77,817", "朱申"), ("132,523", "鄭玄、陸德明"))]


@pytest.mark.slow
def test_the_docs_example_juan_gives_the_figures_it_says():
    # 論語注疏 卷四 against 論語, the two whole folders (the page's figures: the whole editions aligned)
    out = run(str(CORPUS / "kanripo-jingbu/KR1h0007"), str(CORPUS / "kanripo-references/KR1h0005"), "--juan", "4")
    assert out.splitlines()[1:3] == [
        "  classic stored as classic:        99.58 % (481 of 483 aligned; 16,366 in the reference)",
        "  commentary stored as commentary:  100.00 % (478 of 478 aligned; 21,726 in the reference)"]
    said = " ".join(READING_DOC.read_text(encoding="utf-8").split())
    assert ("論語注疏 卷四: 481 of 483 of 論語's classic characters aligned with it stored as classic, 99.58 %, and "
            "478 of 478 of its commentary stored as commentary") in said


@pytest.mark.django_db
def test_a_stored_edition_names_each_place_by_the_juan_label_once(seed_juan):
    # the place of a stored piece reads 「禮書綱目 卷十 §1」: the juan as the book titles it, no
    # second 卷 before a label (卷卷十) or before front matter (卷目錄・…)
    places = [where for _p, where, _lines in _stored_pieces(seed_juan.edition.slug)]
    assert places[0] == f"{seed_juan.edition.slug} 卷十 §1"
    Juan.objects.filter(pk=seed_juan.pk).update(label="目錄・孝經注解傳述人")
    first = next(_stored_pieces(seed_juan.edition.slug))[1]
    assert first == f"{seed_juan.edition.slug} 目錄・孝經注解傳述人 §1"



@pytest.mark.django_db
def test_a_stored_edition_gives_the_figures_of_its_folder():
    # 孝經注疏 imported, then checked by its slug: the stream that is aligned is the folder's,
    # character for character and role for role. Its 69 考證 parts are editors' text stored with
    # basis default; they are left out as in the folder (2,478 characters), not aligned against
    # the reference's classic.
    folder_path = str(CORPUS / "kanripo-jingbu/KR1f0004")
    call_command("import_texts", folder_path, stdout=StringIO())
    stored, folder = edition_stream("KR1f0004"), edition_stream(folder_path)
    # 陸德明's 注解傳述人 (its notes his readings, its byline a label: ``signed_parts``); the 四庫 提要 its
    # 目錄 ends with, under no heading, is the editors' and left out as a titled one is (873 characters)
    # the 10 headings of a 章 printed with its 疏 in the middle of a juan (``　卿大夫章第四疏(…)``, 52 characters) are
    # headings, not classic
    assert Counter(folder.role) == {"classic": 3_263, "commentary": 2_752, "readings": 181}
    assert stored.text == folder.text and stored.role == folder.role   # was 2,478 editorial more
    assert [u.text for u in stored.units] == [u.text for u in folder.units]
    reference = str(CORPUS / "kanripo-references/KR1f0002")
    assert run("KR1f0004", reference, "--worst", "0").splitlines()[1:3] == [
        "  classic stored as classic:        100.00 % (2,221 of 2,221 aligned; 2,239 in the reference)",
        "  commentary stored as commentary:  100.00 % (2,705 of 2,705 aligned; 3,034 in the reference)",
    ]
