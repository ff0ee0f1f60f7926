"""Search counts per layer equal a plain count, on a few files of every folder of the
shared corpus (``scripts/check_corpus.py --search-counts`` runs the same check on every file).

The plain count (``scripts/search_counts.py``) reads the stored pieces and shares no code
with ``search.documents``; the engine is the positional index the site runs."""
import sys
from pathlib import Path

import pytest

from .conftest import SHARED

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import search_counts  # noqa: E402

CORPUS = SHARED / "corpus"
#: Two files of each Kanripo folder (a 注疏 edition, 六臣註文選, 水經注 and 南華真經註疏 among
#: them: notes split by commentator, full-size commentary told by indentation, marked
#: blocks) and the plain forms.
FILES = [
    "kanripo/KR1d0086/KR1d0086_010.txt", "kanripo/KR1e0001/KR1e0001_001.txt",
    "kanripo-jingbu/KR1a0007/KR1a0007_001.txt", "kanripo-jingbu/KR1d0057/KR1d0057_002.txt",
    "kanripo-commentary/KR4h0003/KR4h0003_001.txt", "kanripo-commentary/KR2k0058/KR2k0058_002.txt",
    "kanripo-commentary/KR5c0139/KR5c0139_002.txt",
    "kanripo-references/KR1a0001/KR1a0001_001.txt", "kanripo-references/KR1h0005/KR1h0005_001.txt",
    "other/lienu_zhuan_crlf.txt", "other/yili_shigong_zengzhu_simplified.txt",
    "seed/lishu_gangmu_juan10.txt",
]


@pytest.mark.usefixtures("empty_db")
@pytest.mark.parametrize("name", FILES)
def test_search_counts_per_layer_equal_a_plain_count(name, tmp_path):
    rows = search_counts.counts_for_file(CORPUS / name, tmp_path / "index")
    assert rows and len({layer for layer, *_ in rows}) >= 1
    assert [r for r in rows if r[2] != r[3]] == []


@pytest.mark.usefixtures("empty_db")
def test_every_juan_of_a_plain_text_book_is_counted(tmp_path):
    """列女傳 holds eight juans (卷之一 … 卷之八): each juan's classic is counted on its own, so
    the most frequent character's row comes once per juan, each with the plain count of that juan."""
    rows = search_counts.counts_for_file(CORPUS / "other" / "lienu_zhuan_crlf.txt", tmp_path / "index")
    firsts = [(q, engine, plain) for layer, q, engine, plain in rows if layer == "classic" and q == "之"]
    # the file's 之 between one juan heading and the next, less those of the headings and titles
    assert firsts == [("之", 345, 345), ("之", 181, 181), ("之", 220, 220), ("之", 190, 190),
                      ("之", 244, 244), ("之", 331, 331), ("之", 245, 245), ("之", 194, 194)]


@pytest.mark.usefixtures("empty_db")
def test_search_counts_of_the_seed(tmp_path):
    """The seed's rows, whole: the classic read across its notes (戒射【…】宰戒), notes with
    their source tags, the 記 records and their notes."""
    rows = search_counts.counts_for_file(CORPUS / "seed" / "lishu_gangmu_juan10.txt", tmp_path / "index")
    assert rows == [
        ("classic", "於", 190, 190), ("classic", "驁", 1, 1), ("classic", "右隈上", 1, 1),
        ("classic", "戒射宰戒", 1, 1),
        ("commentary", "也", 374, 374), ("commentary", "寢", 1, 1), ("commentary", "魯之間", 1, 1),
        ("record", "君", 7, 7), ("record", "爵", 1, 1), ("record", "俟君樂", 1, 1), ("record", "而俟君樂", 1, 1),
        ("record_note", "君", 7, 7), ("record_note", "酌", 1, 1), ("record_note", "觚於公", 1, 1),
    ]


def test_the_queries_of_a_layer():
    """The most frequent character, the rarest (the last of those seen once), and three
    characters from the middle of the longest text's longest Han run."""
    assert search_counts.queries(["之之之乎也", "之者"]) == ["之", "者", "之之乎"]
    assert search_counts.queries(["，。"]) == []
