"""A list of contents printed in two parts, each headed 上 or 下 (續資治通鑑長編 ``#+PROPERTY: JUAN 目録上``, 舊五代史
``目錄下``, 通志 ``總目録卷上``), is front matter as a 目錄 is (``paratext.FRONT_TITLE``): its entries the list's
(paratext), not the book's classic. The excerpt is the head of 續資治通鑑長編 KR2b0019_001 (the held-out 史部 of
``kanripo-scale``, not in ``../shared/corpus``'s folders)."""
from reader.importers.document import CLASSIC, PARATEXT
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.paratext import FRONT_TITLE

CONTENTS = (
    "# -*- mode: mandoku-view; -*-\n#+TITLE: 續資治通鑑長編\n#+DATE: 2015-08-24 22:24:18.260893\n"
    "#+PROPERTY: ID KR2b0019\n#+PROPERTY: BASEEDITION WYG    \n#+PROPERTY: JUAN {label}\n"
    "<pb:KR2b0019_WYG_001-1a>¶\n欽定四庫全書\u3000\u3000\u3000\u3000\u3000史部二¶\n"
    "\u3000續資治通鑑長編目録上\u3000編年類¶\n"
    "\u3000\u3000巻一¶\n\u3000\u3000\u3000起太祖建隆元年正月盡是年十二月¶\n"
    "\u3000\u3000巻二¶\n\u3000\u3000\u3000起太祖建隆二年正月盡是年十二月¶\n")


def layers(text: str) -> set[tuple[str, str]]:
    """The (layer, layer name) of the pieces of ``text`` parsed."""
    doc = parse_mandoku(text, "KR2b0019_001.txt")
    assert render_mandoku(doc) == text
    return {(p.effective_layer, p.layer_name) for p in doc.all_pieces()}


def test_a_part_of_the_contents_is_front_matter():
    assert layers(CONTENTS.format(label="目録上")) == {(PARATEXT, "目録上")}
    assert layers(CONTENTS.format(label="目録")) == {(PARATEXT, "目録")}


def test_the_parts_named_and_what_is_no_contents():
    assert [bool(FRONT_TITLE.search(t)) for t in ("目錄上", "目録下", "總目録卷上", "總目卷下", "目録中")] == [True] * 5
    # a 卷 of the book is no front matter, nor a title going on after the word
    assert [bool(FRONT_TITLE.search(t)) for t in ("卷上", "巻一", "帝紀上", "目録上之書")] == [False] * 4
    assert layers(CONTENTS.format(label="巻一")) == {(CLASSIC, "")}
