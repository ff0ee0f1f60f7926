"""Small print the transcription of 儀禮經傳通解 (KR1d0085) left without its brackets
(``reader.importers.mandoku.unbracketed_notes``): a run opening 疏曰 or 今按 that reaches its line's end before the next
line's note is the note's; what may be the classic stays it, and so do readings."""
from collections import Counter

import pytest

from reader.importers.document import CLASSIC, COMMENTARY, LAYOUT, NOTE, SUBCOMMENTARY, TEXT

from .conftest import SHARED, parse_written_back

TONGJIE = SHARED / "corpus" / "kanripo-jingbu" / "KR1d0085"
KANRIPO = SHARED / "corpus" / "kanripo"


def pieces_of(path):
    return parse_written_back(path, readme=True).all_pieces()


def around(pieces, opening):
    """The piece opening ``opening`` and the one after it, as (kind, layer, layer name, basis, text)."""
    k = next(k for k, p in enumerate(pieces) if p.text.startswith(opening))
    return [(p.kind, p.effective_layer, p.layer_name, p.effective_basis, p.text) for p in pieces[k:k + 2]]


def test_a_shu_run_to_the_lines_end_and_the_note_it_goes_on_into_are_the_shu():
    """卷八 (鄉射禮) ``…互相明(曏許亮反又作嚮)疏曰上言獲者許諾則弟子亦許諾此¶`` then ``(言弟子應曰諾則獲者亦應諾可知)¶``."""
    assert around(pieces_of(TONGJIE / "KR1d0085_008.txt"), "疏曰上言獲者") == [
        (TEXT, SUBCOMMENTARY, "疏", LAYOUT, "疏曰上言獲者許諾則弟子亦許諾此"),
        (NOTE, SUBCOMMENTARY, "疏", LAYOUT, "言弟子應曰諾則獲者亦應諾可知"),
    ]


def test_a_remark_run_is_a_plain_note():
    """卷一 (士冠禮) ``(…)今按三者玄端一也主人玄裳爵韠¶`` is 朱熹's remark, a plain note as his bracketed 今按 are."""
    assert around(pieces_of(TONGJIE / "KR1d0085_001.txt"), "今按三者玄端") == [
        (TEXT, COMMENTARY, "", LAYOUT, "今按三者玄端一也主人玄裳爵韠"),
        (NOTE, COMMENTARY, "", "marked", "兄弟玄裳緇韠擯者黄裳或雜裳而同用爵韠也"),
    ]


def test_what_may_be_the_classic_stays_it():
    """A 疏 run that closes before a note on its line may go on into the classic (卷一 ``疏曰方版也主人受眡反之``:
    主人受眡反之 is 士冠禮's); one that runs past its line's end too (卷五 ``…非鄭義也親¶哭之不徃弔…``: 親哭之 is
    文王世子's). Readings are not read: a chain of glosses is also a collation book's full-size entry (十三經注疏正字
    卷四 ``禹曰節音義於音烏``), one gloss may be prose (讀禮通考 卷八十三 ``孔子先反``, 檀弓's 孔子 went back first)."""
    first = pieces_of(TONGJIE / "KR1d0085_001.txt")
    fifth = pieces_of(TONGJIE / "KR1d0085_005.txt")
    dulitongkao = pieces_of(KANRIPO / "KR1d0051" / "KR1d0051_083.txt")
    zhengzi = pieces_of(SHARED / "corpus" / "kanripo-jingbu" / "KR1g0026" / "KR1g0026_004.txt")
    for pieces, text in ((first, "疏曰方版也主人受眡反之"), (first, "臚力居反"), (dulitongkao, "孔子先反"),
                         (zhengzi, "禹曰節音義於音烏")):
        assert [(p.kind, p.effective_layer) for p in pieces if p.text == text] == [(TEXT, CLASSIC)]
    run = next(p for p in fifth if p.text.startswith("疏曰譙周曰"))
    assert (run.effective_layer, run.text[:18]) == (CLASSIC, "疏曰譙周曰此素服著素冠非鄭義也親哭之")


@pytest.mark.slow
def test_the_whole_book():
    """Every juan of 儀禮經傳通解: what the rule reads (basis ``LAYOUT``), in characters."""
    chars = Counter()
    for path in sorted(TONGJIE.glob("KR1d0085_*.txt")):
        for p in pieces_of(path):
            if p.layer_basis == LAYOUT and p.layer in (COMMENTARY, SUBCOMMENTARY):
                chars[(p.kind, p.layer)] += len(p.text)
    assert chars == Counter({(TEXT, SUBCOMMENTARY): 4040, (NOTE, SUBCOMMENTARY): 28820, (TEXT, COMMENTARY): 555})
