"""The 類 a juan's head line lists and the juan prints no heading for open their chapters at their first
piece (``mandoku.listed_kinds``): 六臣註文選 卷五十六 prints ``　箴　銘　誄上`` over ``　　箴`` alone, and a new
user found 崔子玉's 座右銘 cited 〈箴〉; 文選註 (李善) prints the same juan's 銘 and 誄上 as headings over the same
pieces. Real files of ``../shared/corpus/kanripo-commentary``."""
import pytest

from reader.citation import citation_text

from .test_presented_pieces import parsed
from .test_printed_heads import COMMENTARY
from .test_printed_juans import imported


def chapters(name: str) -> list[tuple[str | None, str, list[str]]]:
    """``[(heading, title, the titles of its sections)]`` of the juan ``name``."""
    return [(c.heading, c.title, [s.title for s in c.sections if s.title]) for c in parsed(name).chapters]


def test_the_kinds_the_head_line_lists_open_their_chapters_at_their_first_piece():
    assert chapters("KR4h0003_056") == [
        ("箴\u3000銘\u3000誄上箴", "箴", ["女史箴一首"]),
        ("", "銘", ["封燕然山銘一首", "座右銘一首", "劒閣銘一首", "新漏刻銘一首"]),
        ("", "誄上", ["王仲宣誄一首", "楊荆州誄一首", "楊仲武誄"])]
    # 李善's juan prints its 類 as headings: the same chapters, each over the same first piece
    assert chapters("KR4h0002_056") == [
        ("箴", "箴", ["女史箴"]), ("銘", "銘", ["封燕然山銘", "座右銘", "劒閣銘", "石闕銘", "新刻漏銘"]),
        ("誄上", "誄上", ["王仲宣誄", "楊荆州誄", "楊仲武誄"])]
    # a juan that prints one 類 at its head opens no other (卷五十七 誄下)
    assert [c[:2] for c in chapters("KR4h0003_057")] == [("誄下", "誄下")]


@pytest.mark.slow
@pytest.mark.django_db
def test_the_motto_is_cited_under_its_kind(tmp_path):
    (juan,) = imported(tmp_path, COMMENTARY / "KR4h0003", "KR4h0003_056.txt")
    motto = juan.sections.get(title="座右銘一首")
    assert citation_text(motto).split("》")[1] == "卷第五十六〈銘〉崔子玉「座右銘一首」（四部叢刊本，葉 56-6b）"  # was 〈箴〉
    assert juan.chapters.count() == 3
