"""A reprinted commentary's note credited to its commentator where that commentary's own text holds it
(``reader.importers.mandoku.reprinted_notes``, decision 0131): 禮書綱目 (the seed's 卷十, Kanripo KR1d0086) and
儀禮經傳通解 (KR1d0085) reprint 鄭玄's 注 under their compilers' bylines; a note the reference of 鄭注
(``data/classics/zhengzhu.*.txt``, built from other editions) prints is his, the compiler's own notes
(``註見三射記``, 朱熹's 今按) are nobody's."""
from collections import Counter

from reader.importers.document import NOTE, RECORD_NOTE, REFERENCE
from reader.importers.mandoku import parse_mandoku
from reader.importers.mandoku.reprinted_notes import credit_reprinted_notes, printed_share
from reader.importers.siku import parse_siku
from reader.importers.source import decode_bytes

from .conftest import BASE_DIR, SHARED

SEED = BASE_DIR / "corpus" / "lishu_gangmu_juan10.txt"


def parsed(path):
    return parse_mandoku(decode_bytes(path.read_bytes(), str(path), allowed_controls="\x01"), str(path), None)


def notes(doc):
    return [p for p in doc.all_pieces() if p.kind in (NOTE, RECORD_NOTE)]


def test_the_seeds_notes_that_zheng_zhu_prints_are_zheng_xuans():
    """卷十 (大射儀): 281 of its 329 notes are 鄭注's words (277 notes, 4 of the 記's), basis reference; the
    rest are notes under six characters (``工六人``, ``新之``: found anywhere), 江永's ``註見三射記`` and notes
    the reference words otherwise; ``鄭目録云…`` (鄭玄's 目錄, printed at the 篇's head in 儀禮鄭註句讀) is his."""
    doc = parse_siku(SEED.read_text(encoding="utf-8"))
    assert credit_reprinted_notes(doc) == 281
    assert Counter((p.kind, p.commentator, p.layer_basis) for p in notes(doc)) == {
        (NOTE, "鄭玄", REFERENCE): 277, (NOTE, "", ""): 45, (RECORD_NOTE, "鄭玄", REFERENCE): 4, (RECORD_NOTE, "", ""): 2}
    by_text = {p.text: p.commentator for p in notes(doc)}
    assert by_text["將有祭祀之事當射宰告於君君乃命之言君有命政教宜由尊者"] == "鄭玄"
    assert by_text["註見三射記"] == ""
    # 鄭玄's 三禮目錄, which 儀禮鄭註句讀 prints with his 注 at the 篇's head: his words too
    assert by_text["鄭目録云諸侯將有祭祀之事與其臣射以觀其禮數中者得與於祭不數中者不得與於祭於五禮屬嘉禮"] == "鄭玄"


def test_the_share_of_a_notes_runs_the_reference_prints():
    """鄭注 on 禮記 王制 (from 欽定禮記義疏's quotation) all printed; 江永's cross-reference too short to read; a
    note of 杜預's on 左傳 none."""
    assert printed_share("天子諸侯養老同也國國中小學在王宫之左學大學也在郊小學在國中大學在郊此殷制明矣  王制") == 1.0
    assert printed_share("詳見下傳") is None
    assert printed_share("諸侯位卑不得賜姓故其臣因氏其王父字") == 0.0


def test_kanripo_lishu_gangmu_and_tongjie():
    """禮書綱目 卷八 (KR1d0086_010, 養老): 51 notes credited of 94, 江永's ``詳見下傳`` not. 儀禮經傳通解 卷十九 (燕禮,
    KR1d0085_019): 134 notes and 21 notes' ends run on to the next line (decision 0122) 鄭玄's; the 疏 stays the
    疏's, no 今按 is credited; the 四部叢刊 儀禮 (KR1d0026), whose byline names 鄭氏注, is left as it is."""
    doc = parsed(SHARED / "corpus" / "kanripo" / "KR1d0086" / "KR1d0086_010.txt")
    assert credit_reprinted_notes(doc) == 51
    assert {p.commentator for p in notes(doc) if p.text.startswith("詳見")} == {""}
    doc = parsed(SHARED / "corpus" / "kanripo-jingbu" / "KR1d0085" / "KR1d0085_019.txt")
    assert credit_reprinted_notes(doc) == 134
    assert Counter((p.kind, p.effective_layer, p.commentator) for p in doc.all_pieces() if p.commentator) == {
        (NOTE, "commentary", "鄭玄"): 134, ("text", "commentary", "鄭玄"): 21}
    assert not [p for p in notes(doc) if p.commentator and "按" in p.text[:3]]
    doc = parsed(SHARED / "corpus" / "kanripo" / "KR1d0026" / "KR1d0026_002.txt")
    assert credit_reprinted_notes(doc) == 0
