"""六臣註文選's notes no commentator's formula signs: the editors' sound glosses (音) and collation
notes (校記), read whole over the columns and lines a note is printed in (decision 0064)."""
from collections import Counter

from reader.importers.document import COMMENTARY, EDITORIAL, LAYOUT, NOTE, SMALLPRINT
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.column_order import note_groups
from reader.importers.mandoku.unsigned_notes import ORDINAL, SOUND, TITLE_NOTE

from .conftest import SHARED

BOOKS = SHARED / "corpus" / "kanripo-commentary"


def _read(name: str):
    path = BOOKS / name[:8] / f"{name}.txt"
    raw = path.read_text(encoding="utf-8")
    doc = parse_mandoku(raw, str(path))
    assert render_mandoku(doc) == raw  # the parts cut give the file back byte for byte
    return doc


def _notes(doc):
    """Each note of ``doc`` as its parts in reading order: ``[(text, layer, layer name, commentator)]``."""
    return [[(p.text, p.effective_layer, p.layer_name, p.commentator) for p in group]
            for s in doc.sections for items in [*s.paragraphs, s.records]
            for group in note_groups(items, doc.columns_reversed) if group[0].kind == NOTE]


def _unsigned(notes):
    """The notes with a part of the commentators' layer that names nobody, read whole."""
    return ["".join(t for t, layer, _, who in note if layer == COMMENTARY and not who)
            for note in notes if any(layer == COMMENTARY and not who for _, layer, _, who in note)]


def test_juan_nineteens_sound_glosses_and_collation_notes_are_the_editors():
    doc = _read("KR4h0003_019")
    notes = _notes(doc)
    first = {"".join(t for t, *_ in note): note for note in notes}
    # 崪(聿/慈): a 反切 of two characters filed in reverse, read 慈聿; 於(無於字/五臣本): 五臣本無於字
    assert first["慈聿"] == [("慈", EDITORIAL, "音", ""), ("聿", EDITORIAL, "音", "")]
    assert first["五臣本無於字"] == [("五臣本", EDITORIAL, "校記", ""), ("無於字", EDITORIAL, "校記", "")]
    assert first["隊"] == [("隊", EDITORIAL, "音", "")]
    # 阺(作丁兮切/音池善本): the sound, then the other copy's reading: the part is cut where they meet
    assert first["音池善本作丁兮切"] == [("音池", EDITORIAL, "音", ""), ("善本", EDITORIAL, "校記", ""),
                                   ("作丁兮切", EDITORIAL, "校記", "")]
    # 隳(臣作墮/許規切五) over 官賢士(臣/五)¶(人/作): a note over a line end is one note, 五臣作人
    assert first["許規切五臣作墮"] == [("許規切", EDITORIAL, "音", ""), ("五", EDITORIAL, "校記", ""),
                                 ("臣作墮", EDITORIAL, "校記", "")]
    assert [(c, EDITORIAL, "校記", "") for c in "五臣作人"] in notes
    # a gloss before the first commentator's part is the editors'; 李善's part stays his
    assert first["阻善曰山南曰陽土髙曰丘漢書注曰巫山南郡巫縣阻險也"][:2] == [
        ("阻", EDITORIAL, "音", ""), ("善曰山南曰陽土髙曰丘漢", COMMENTARY, "注", "李善")]
    # 岏(官/五): a 反切 whose first character is 五, no copy named
    assert first["五官"] == [("五", EDITORIAL, "音", ""), ("官", EDITORIAL, "音", "")]
    editors = Counter(name for note in notes for _, layer, name, _ in note if layer == EDITORIAL)
    assert editors == {"音": 262, "校記": 159}  # parts
    assert sum(any(n == "音" for *_, n, _ in note) for note in notes) == 182
    assert sum(any(n == "校記" for *_, n, _ in note) for note in notes) == 78
    assert {p.layer_basis for p in doc.all_pieces() if p.layer == EDITORIAL} == {LAYOUT}
    # a title's note (form, preface, the group's count) and a poem's number (其二 after the poem's last line) are
    # the book's own small print, nobody's (decision 0069); no note of the juan is left naming nobody
    books = Counter("".join(t for t, layer, *_ in note if layer == SMALLPRINT)
                    for note in notes if any(layer == SMALLPRINT for _, layer, *_ in note))
    assert books == {"并序": 4, "四言并序": 1, "五言": 1, "四首": 1, **{f"其{n}": 1 for n in "一二三四五六七八九"}}
    assert [p for note in notes for p in note if p[1] == SMALLPRINT and p[2:] != ("", "")] == []
    assert first["并序濟曰神女即巫山神女也"] == [("并序", SMALLPRINT, "", ""), ("濟曰神女", COMMENTARY, "注", "呂延濟"),
                                          ("即巫山神女也", COMMENTARY, "注", "呂延濟")]
    assert {p.layer_basis for p in doc.all_pieces() if p.layer == SMALLPRINT} == {LAYOUT}
    assert _unsigned(notes) == []
    assert not [w for w in doc.warnings if "who wrote this note is not known" in w]


def test_no_unsigned_gloss_left_in_the_first_juans():
    """卷一 (222 notes naming nobody before) and the 卷首: a line may open with the gloss of the
    word the line before ends with (``徼¶(叫)道``)."""
    doc = _read("KR4h0003_001")
    notes = _notes(doc)
    assert _unsigned(notes) == []
    assert [note for note in notes if note[0][0] == "叫"] == [[("叫", EDITORIAL, "音", "")]]
    assert not [w for w in doc.warnings if "who wrote this note is not known" in w]
    front = _notes(_read("KR4h0003_000"))
    # the note on 昭明 under the byline (no text before it), the 序's 向日 (a misprinted 向曰) and a
    # 反切 with its meaning stay unsigned
    assert _unsigned(front)[0] == "施謚曰昭明"
    assert len(_unsigned(front)) == 5


def test_li_shans_book_is_unchanged():
    """文選註 has a commentator of its own (李善): no note of it is the editors' by this rule."""
    notes = _notes(_read("KR4h0002_019"))
    assert _unsigned(notes) == []
    assert not [p for note in notes for p in note if p[1] == EDITORIAL]


def test_sound_gloss_shapes():
    assert [bool(SOUND.match(t)) for t in ("隊", "慈聿", "音户", "籟音頼", "普蓋反", "烏罪切", "去聲", "音據叶韻",
                                            "音&KR1255;")] == [True] * 9
    assert [bool(SOUND.match(t)) for t in ("丘遇反取聲也", "施謚曰昭明", "并序四言")] == [False] * 3
    assert ORDINAL.search("音雉其四").start() == 2 and not ORDINAL.search("其")
    assert [bool(TITLE_NOTE.match(t)) for t in ("五言", "四言并序", "并序", "幷序", "四首", "雜言", "七言并序", "十九首")] == [True] * 8
    assert [bool(TITLE_NOTE.match(t)) for t in ("言志", "五言詩", "其一", "序", "", "首")] == [False] * 6


def test_a_poems_number_after_a_sound_gloss():
    """卷二十 ``…詩(…)(其)跱(…)¶…``: 音雉其四, read whole, is the editors' 音雉 and the book's 其四."""
    notes = _notes(_read("KR4h0003_020"))
    assert [note for note in notes if "".join(t for t, *_ in note).startswith("音雉其四")][0][:2] == [
        ("音雉", EDITORIAL, "音", ""), ("其四", SMALLPRINT, "", "")]
