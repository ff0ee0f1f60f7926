"""A batch import streams (issue 15): files parsed in a worker process ahead of the store,
the index written batch by batch as the files are stored, each batch one segment."""
import re

import pytest
from django.core.management import CommandError, call_command

from reader.models import Juan
from search.backends import SearchQuery, get_search_backend
from search.indexing import database_juans, sync_index

from .conftest import CASES, SEED

NUMERALS = ["十一", "十二", "十三", "十四", "十五", "十六", "十七"]


@pytest.mark.django_db(transaction=True)
def test_a_batch_import_indexes_batch_by_batch(settings, tmp_path, monkeypatch, capsys):
    from search.backends import positional

    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.positional.PositionalIndexBackend",
                                            "PATH": tmp_path / "index"}}
    # A copy of the seed juan holds about 15,000 characters of text: a batch every third file.
    monkeypatch.setattr(positional, "SEGMENT_CHARS", 40_000)
    Juan.objects.all().delete()
    folder = tmp_path / "texts"
    folder.mkdir()
    seed = SEED.read_text(encoding="utf-8")
    for i, numeral in enumerate(NUMERALS):
        (folder / f"juan_{i}.txt").write_text(seed.replace("禮書綱目卷十 ", f"禮書綱目卷{numeral} ", 1), encoding="utf-8")
    (folder / "juan_3b.txt").write_bytes((CASES / "binary.bin").read_bytes())
    with pytest.raises(CommandError, match="1 of 8 files rejected"):
        call_command("import_texts", str(folder))
    out, err = capsys.readouterr()
    # The refusal was found in the worker process and reported with its place, as before.
    assert f"rejected {folder / 'juan_3b.txt'}:1:1: not a text file: NUL byte (binary data?)" in err
    landed, summary = out.splitlines()[:2]
    assert re.fullmatch(r"landed 禮書綱目（禮書綱目）: 7 juans, 315 sections, 2296 notes in [0-9.]+ s \([0-9.]+ s since the "
                        r"start\)", landed)
    assert summary == "1 works, 7 juans, 315 sections, 2296 notes imported; 1 files rejected"
    assert out.splitlines()[2] == "indexing 7 juans …"
    assert re.fullmatch(r"indexed 2968 passages in \d+\.\d s \(3 index writes\)", out.splitlines()[3])
    backend = get_search_backend()
    corpus = backend._corpus()
    # Three writes, three segments: files 1–3 (the base), 4–6 (the base is not taken in: the
    # two would pass SEGMENT_CHARS), then file 7 (the segment before is over twice its size).
    assert corpus.names == ["", "seg-000001", "seg-000002"]
    assert [len(s) for s in corpus.segments] == [3 * 424, 3 * 424, 424]
    assert backend.indexed_juans() == database_juans()
    assert sync_index(backend) == (0, 0)
    found = backend.search(SearchQuery("鵠"))
    assert found.count == 7 * 21
    assert [row["juan"] for row in found.by_juan()] == list(range(11, 18))
    assert [row["count"] for row in found.by_juan()] == [21] * 7
