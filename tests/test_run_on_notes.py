"""The end of a note that 儀禮經傳通解's transcription (KR1d0085) leaves unbracketed at a printed line's start
(``reader.importers.mandoku.run_on_notes``, decision 0122): the run is the note's where 儀禮's text (儀禮鄭註句讀's,
``yili.judou``) holds the classic on both sides of it and nothing of it between; what the reference holds, a
closer and what stands where the book is in no known place of 儀禮 stay the classic."""
import importlib.util
import re
from collections import Counter
from io import StringIO

from django.core.management import call_command

from reader.importers.document import CLASSIC, COMMENTARY, NOTE, REFERENCE, SUBCOMMENTARY, TEXT
from reader.importers.mandoku.classics import CLASSICS_DIR, classic_book
from reader.importers.mandoku.run_on_notes import TEXTS

from .conftest import BASE_DIR, SHARED, parse_written_back

TONGJIE = SHARED / "corpus" / "kanripo-jingbu" / "KR1d0085"
YILI = SHARED / "corpus" / "kanripo" / "KR1d0026"


def pieces_of(name):
    return parse_written_back(TONGJIE / name, readme=True).all_pieces()


def read_as(pieces, text):
    """(kind, layer, layer name, basis) of each piece whose text is ``text``."""
    return [(p.kind, p.effective_layer, p.layer_name, p.effective_basis) for p in pieces if p.text == text]


def test_a_notes_end_at_a_lines_start_is_the_notes():
    """卷十九 (燕禮) ``門西東上(納者…小臣之長一人猶天子大僕正)¶`` then ``君之服位者也凡入門而右由闑東左則由闑西(長丁丈反…)``:
    士旅食者立于門西東上 and 公降立于阼階之東南 are 儀禮's words one after the other, so the run between is 鄭注's
    end; so is ``靣南顧禮辭辭不敏也`` after ``禮辭(命賔者東)¶``, and ``賔皆坐卒爵`` ends the 疏 it runs on from
    (…主人酬¶賔皆坐卒爵(今按…))."""
    pieces = pieces_of("KR1d0085_019.txt")
    assert read_as(pieces, "君之服位者也凡入門而右由闑東左則由闑西") == [(TEXT, COMMENTARY, "", REFERENCE)]
    assert read_as(pieces, "靣南顧禮辭辭不敏也") == [(TEXT, COMMENTARY, "", REFERENCE)]
    assert read_as(pieces, "賔皆坐卒爵") == [(TEXT, SUBCOMMENTARY, "疏", REFERENCE)]
    k = next(k for k, p in enumerate(pieces) if p.text == "君之服位者也凡入門而右由闑東左則由闑西")
    assert (pieces[k - 1].text[-6:], pieces[k + 1].kind, pieces[k + 1].text) == ("猶天子大僕正", NOTE, "長丁丈反大音泰闑魚列反")


def test_what_the_reference_does_not_decide_stays_the_classic():
    """A run opening with the reference's next words (卷十九 ``主人降洗南西北面``, 儀禮鄭註句讀 主人降洗洗南西北面), one
    the reference prints elsewhere written otherwise by one character (卷七 ``明日賓鄉服以拜賜``, a passage of 鄉飲酒禮
    the compiler puts after its 記; the reference prints 明日賓服鄉服以拜賜), the compiler's closer (卷一 ``右孤子冠``)
    and a run where the book stands in a passage of the 禮記 (卷十六 中庸, no place of 儀禮) stay the classic."""
    assert read_as(pieces_of("KR1d0085_019.txt"), "主人降洗南西北面") == [(TEXT, CLASSIC, "", "default")]
    assert read_as(pieces_of("KR1d0085_007.txt"), "明日賓鄉服以拜賜") == [(TEXT, CLASSIC, "", "default")]
    assert read_as(pieces_of("KR1d0085_001.txt"), "右孤子冠") == [(TEXT, CLASSIC, "", "default")]
    assert not [p for p in pieces_of("KR1d0085_016.txt") if p.layer_basis == REFERENCE]


def test_a_runs_tail_before_a_note_is_the_notes_start():
    """A run of the classic whose last words on its line are a note's first, unbracketed (decision 0132): its head
    as far as 儀禮's words go on, passing over a character written otherwise (卷十九 ``…大夫奠爵拜士荅拜``, the
    reference's 答拜), the rest the note's (``興酬士者…``, 鄭注; 卷二 ``拂音弗…``, readings); 卷七 ``…主人拜司正答拜``,
    where the reference prints 主人再拜司正答拜 and the note follows, stays the classic whole."""
    pieces = pieces_of("KR1d0085_019.txt")
    k = next(k for k, p in enumerate(pieces) if p.text == "公曰命某為賓")
    assert [(p.text[:6], p.kind, p.effective_layer, p.effective_basis) for p in pieces[k:k + 3]] == [
        ("公曰命某為賓", TEXT, CLASSIC, "default"), ("某大夫也", TEXT, COMMENTARY, REFERENCE),
        ("疏曰知大夫者", NOTE, SUBCOMMENTARY, "marked")]
    assert read_as(pieces, "大夫卒受者以爵興西階上酬士士升大夫奠爵拜士荅拜") == [(TEXT, CLASSIC, "", "default")]
    assert read_as(pieces, "興酬士者士立堂下無坐位") == [(TEXT, COMMENTARY, "", REFERENCE)]
    assert read_as(pieces_of("KR1d0085_002.txt"), "拂音弗校胡飽反辟房益反注同") == [(TEXT, COMMENTARY, "", REFERENCE)]
    # 卷二十二: a head of three words (訝聽之, 鄭注 受其言…); a run whose next run of the classic is the closer
    # (…各卻¶于其西, then 右設正饌…)
    gongshi = pieces_of("KR1d0085_022.txt")
    assert read_as(gongshi, "受其言入告出報也此下大夫有士訝") == [(TEXT, COMMENTARY, "", REFERENCE)]
    assert read_as(gongshi, "㑹簋蓋也亦一一合卻之各當其簋之西") == [(TEXT, COMMENTARY, "", REFERENCE)]
    assert read_as(pieces_of("KR1d0085_007.txt"), "作相為司正司正禮辭許諾主人拜司正答拜") == [(TEXT, CLASSIC, "", "default")]


def test_a_transcription_that_brackets_every_column_is_not_read_so():
    """Only a juan where the transcription is seen to leave small print unbracketed (a 疏曰 or 今按 run,
    decision 0113) is read: the 四部叢刊 儀禮 (卷十三 ``茵`` between two notes, opening a line after one) and
    儀禮鄭註句讀 (卷六 ``卒``) print short runs of the classic between notes that the reference alone would read as
    notes' ends, and 儀禮經傳通解 卷二十三 (覲禮) shows no unbracketed run of its own."""
    for path in (YILI / "KR1d0026_013.txt", SHARED / "corpus" / "kanripo" / "KR1d0038" / "KR1d0038_006.txt",
                 TONGJIE / "KR1d0085_023.txt"):
        assert not [p for p in parse_written_back(path, readme=True).all_pieces() if p.layer_basis == REFERENCE]
    assert read_as(parse_written_back(YILI / "KR1d0026_013.txt", readme=True).all_pieces(), "茵") == [
        (TEXT, CLASSIC, "", "default")]


def test_a_juan_in_characters_and_against_the_sibu_congkan_yili():
    """卷十九 (燕禮): 31 runs, 254 characters, read as notes' ends and 21 runs' tails, 180 characters, as notes'
    starts; against the 四部叢刊 儀禮 鄭氏注 its commentary is stored as commentary at 93.89 % (85.49 % with every run
    the classic, 90.08 % with the whole runs only), its classic as before."""
    runs = [p for p in pieces_of("KR1d0085_019.txt") if p.layer_basis == REFERENCE]
    chars = Counter()
    for p in runs:
        chars[(p.kind, p.layer, p.layer_name)] += len(p.text)
    assert len(runs) == 31 + 21
    assert chars == Counter({(TEXT, COMMENTARY, ""): 249 + 180, (TEXT, SUBCOMMENTARY, "疏"): 5})
    out = StringIO()
    call_command("check_layers", str(TONGJIE), str(YILI), "--juan", "19", "--worst", "0", stdout=out)
    assert out.getvalue().splitlines()[1:3] == [
        "  classic stored as classic:        99.78 % (2,744 of 2,750 aligned; 55,489 in the reference)",
        "  commentary stored as commentary:  93.89 % (3,722 of 3,964 aligned; 78,361 in the reference)",
    ]


def test_the_reference_is_neither_edition_the_check_measures_the_book_by():
    """儀禮經傳通解 is read by 儀禮鄭註句讀's text of 儀禮, not by the 四部叢刊 儀禮 鄭氏注 the layer check measures it
    against (which ``yili``, the 注疏 step's, is built from)."""
    name = TEXTS.get(classic_book("儀禮經傳通解"), "")
    header = [line for line in (CLASSICS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
              if line.startswith("#")]
    assert (name, sorted(set(re.findall(r"Kanripo (KR\w+)", "\n".join(header))))) == ("yili.judou", ["KR1d0038"])


def test_the_reference_is_what_the_build_script_makes():
    """``yili.judou``: the lines 儀禮鄭註句讀 prints flush in 卷一–卷十七 and 喪服's 傳 (卷十一, one step in from its
    傳曰), one line per file, 56,764 characters; its 篇 titles, 張爾岐's 右… closers and 記… labels and the byline are
    indented otherwise and left out."""
    spec = importlib.util.spec_from_file_location("build_classics", BASE_DIR / "scripts" / "build_classics.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    files, texts = build.judou(SHARED / "corpus" / "kanripo" / "KR1d0038")
    body = [line for line in (CLASSICS_DIR / "yili.judou.txt").read_text(encoding="utf-8").splitlines()
            if not line.startswith("#")]
    assert (files[0], files[-1], body, sum(map(len, body))) == ("KR1d0038_001.txt", "KR1d0038_017.txt", texts, 56764)
    assert body[0].startswith("士冠禮筮于廟門主人𤣥冠朝服緇帶素韠即位于門東西面") and "右筮日" not in body[0]
    assert "傳曰何以期也貴終也" in body[10] and "記婦助祭之期" not in body[1]
