"""Which classic a book comments on (``reader.commented_classic``, decision 0100): the one rule the layer
check, the facets' main-text authors and a classic's own text's author read."""
from types import SimpleNamespace

from catalogue.catalogue import PLAIN_TEXT
from reader.book_writers import BookWriters, main_writers
from reader.catalogue_writers import all_entries
from reader.commented_classic import classic_of, commentary_word, plain_text_author


def test_the_word_for_notes_ends_a_title():
    # the importer's compiler_notes, the facets and the layer check read one pattern: 李太白集注 and 史記集解 alike
    assert [commentary_word(t) for t in ("李太白集注", "杜詩詳註", "史記集解", "楚辭章句", "南華真經註疏", "儀禮鄭註句讀",
                                         "李太白集", "注疏", "")] == [
        "集注", "詳註", "集解", "章句", "註疏", "句讀", "", "", ""]     # 集注: collected notes; a title that is the word alone: none


def test_a_book_comments_on_the_longest_catalogue_title_it_opens_with():
    assert [classic_of(t, "", kr) for t, kr in (
        ("儀禮鄭註句讀", "KR1d0038"), ("欽定儀禮義疏", "KR1d0037"), ("論語集解義疏", "KR1h0006"), ("周易註疏", "KR1a0007"),
        ("史記集解", "KR2a0002"), ("楚辭補注", "KR4a0003"), ("仪礼释宫増注", "KR1d0047"), ("周禮注疏", "KR1d0003"))] == [
        "儀禮", "儀禮", "論語", "周易", "史記", "楚辭", "儀禮釋宮", "周禮"]   # 周禮注疏: not 王應電's 周禮傳 less its 傳
    # a classic printed with its notes under its own name; a book the catalogue does not file as it names it; no commentary
    assert [classic_of(t, "", kr) for t, kr in (
        ("周禮", "KR1d0002"), ("論語", "KR1h0005"), ("周禮", "KR1d0001"), ("史記", "KR2a0001"), ("莊子注", "KR5c0138"),
        ("水經注", "KR2k0058"), ("禮書綱目", "KR1d0086"), ("周禮注疏", ""))] == ["周禮", "論語", "", "", "", "", "", ""]
    assert classic_of("周禮注疏", "KR1d") == "周禮"   # a work the catalogue does not list, read in the 類 it is given


def test_a_commentary_title_may_name_its_classic_without_its_closing_zhuan():
    """The catalogue lists 春秋穀梁傳(正文) and its commentaries as 春秋穀梁注疏 (the text's own title, as held:
    春秋穀梁傳注疏): both comment on 春秋穀梁傳, which is how 穀梁赤 is the author of its plain text."""
    assert classic_of("春秋穀梁注疏", "", "KR1e0010") == classic_of("春秋穀梁傳注疏", "", "KR1e0010") == "春秋穀梁傳"
    assert classic_of("春秋左傳注疏", "", "KR1e0004") == "春秋左傳"


def test_a_classics_own_text_takes_its_author_from_the_entry_commenting_on_it():
    found = {e.kr_id: plain_text_author(e.kr_id) for e in all_entries() if e.title.endswith(PLAIN_TEXT)}
    assert len(found) == 13
    assert {k: (v[0].name, v[1].kr_id) for k, v in found.items() if v} == {
        "KR1e0001": ("左丘明", "KR1e0004"), "KR1e0005": ("公羊高", "KR1e0006"), "KR1e0008": ("穀梁赤", "KR1e0010")}


def test_the_facets_read_a_commentary_books_classic_by_the_same_rule():
    """A book named after its notes whose people all have an author's role: its main text is the classic's
    authors' as ``classic_of`` finds the classic (儀禮釋宮增注: 江永 adds notes to 李如圭's 儀禮釋宮; 文心雕龍輯注:
    黃叔琳 on 劉勰's book), nobody where the catalogue files no classic it opens with (呂氏春秋集解: 呂本中 on
    the 春秋, not 呂不韋's 呂氏春秋, a book of another 類)."""
    def writers(kanripo_id, title):
        return main_writers(SimpleNamespace(kanripo_id=kanripo_id, title=title, classification="", author="", dynasty=""),
                            SimpleNamespace(kanripo_id=kanripo_id, byline=[]))
    assert writers("KR1d0047", "儀禮釋宮增注") == BookWriters(("李如圭",), ("江永",), True)
    assert writers("KR4i0002", "文心雕龍輯注") == BookWriters(("劉勰",), ("黃叔琳",), True)
    assert writers("KR1e0035", "呂氏春秋集解") == BookWriters((), ("呂本中",), True)
    assert writers("KR2a0002", "史記集解") == BookWriters(("司馬遷",), ("裴駰",), True)


def test_a_zhuan_of_the_classics_branch_is_notes_no_classic_of_another_book():
    """In 經部 a 傳 is a commentary on its 經: 董鼎's 書傳輯錄纂註 (on 蔡沈's 書集傳, which its title calls 書傳)
    opened with the catalogue's 書傳, 蘇軾's, and took him as its main text's writer. A 經部 entry titled …傳 is
    named after its notes (decision 0117), as 周易註 is, but for a 傳 the catalogue lists as a classic's own text
    (春秋左傳(正文)): over the catalogue's 3,611 entries this one book's classic and main writer change."""
    assert classic_of("書傳輯錄纂註", "", "KR1b0029") == ""
    assert [classic_of(t, "", kr) for t, kr in (("春秋左傳注疏", "KR1e0004"), ("春秋公羊傳注疏", "KR1e0006"),
                                                ("春秋穀梁注疏", "KR1e0010"), ("書傳會選", "KR1b0036"))] == [
        "春秋左傳", "春秋公羊傳", "春秋穀梁傳", ""]
    writers = main_writers(SimpleNamespace(kanripo_id="KR1b0029", title="書傳輯錄纂註", classification="", author="",
                                           dynasty=""), SimpleNamespace(kanripo_id="KR1b0029", byline=[]))
    assert writers == BookWriters((), ("董鼎",), True)
