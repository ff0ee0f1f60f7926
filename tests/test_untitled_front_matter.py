"""Front matter the book prints with no title of its own, on real files of ``../shared/corpus``:
a part Kanripo names in brackets (``#+PROPERTY: JUAN [進表]``: ``juan_titles.part_name``). Each file
is read as the tests read files, without its folder's Readme, and still writes back byte for byte."""
from collections import Counter

from reader.importers.document import PARATEXT
from reader.importers.mandoku.juan_titles import part_name

from .conftest import SHARED
from .conftest import parse_written_back as parse

CORPUS = SHARED / "corpus"
JINGBU = CORPUS / "kanripo-jingbu"
BOOKS = CORPUS / "kanripo-commentary"


def characters(doc) -> dict[tuple[str, str, str], int]:
    """Characters of ``doc``'s pieces per (layer, layer name, writer)."""
    out: Counter = Counter()
    for p in doc.all_pieces():
        out[(p.effective_layer, p.layer_name, p.commentator)] += len(p.text)
    return dict(out)


def test_a_part_kanripo_names_in_brackets_is_named_so_and_is_front_matter():
    """周易註疏 KR1a0007_002 is ``#+PROPERTY: JUAN [進表]``, 和親王弘晝's memorial presenting the
    十三經 (the Readme's table writes 進表): it was the juan 「[進表]」 and its 1,309 characters the
    classic; 後漢書 KR2a0009_123 ``[景祐刋正箚子]``, the 景祐 editors' report on their collation,
    likewise 447. Both are back and front matter (序跋), named by what they are."""
    doc = parse(JINGBU / "KR1a0007" / "KR1a0007_002.txt")
    assert (doc.juan_label, doc.juan_parts) == ("進表", ["進表"])
    assert characters(doc) == {(PARATEXT, "進表", ""): 1309}
    assert doc.all_pieces()[0].text == "和碩和親王臣𢎞晝等上言臣等奉"
    doc = parse(BOOKS / "KR2a0009" / "KR2a0009_123.txt")
    assert (doc.juan_label, characters(doc)) == ("景祐刋正箚子", {(PARATEXT, "箚子", ""): 447})
    # a part of a file: 春秋公羊傳注疏 卷首's ``JUAN [提要]`` is the part 提要
    doc = parse(JINGBU / "KR1e0006" / "KR1e0006_000.txt")
    assert [c.title for c in doc.chapters] == ["", "目録", "提要", "春秋公羊傳序", "春秋公羊傳序考證", "原目", "原目考證"]
    assert (part_name("[進表]"), part_name("序[魏了翁]"), part_name("卷一")) == ("進表", "序[魏了翁]", "卷一")
