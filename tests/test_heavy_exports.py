"""Heavy exports cost what their output costs: a whole work's export reads a bounded number
of queries a juan and sends its first bytes before any juan is read; a hit list is written a
batch of hits at a time (docs/performance.md, "Heavy requests one at a time at 107 M")."""
import copy
import json

from django.db import connection
from django.test.utils import CaptureQueriesContext

from api import hitlists
from api.serializers import PieceSerializer, piece_rows
from reader.importers.files import read_document
from reader.importers.loader import load_document
from reader.models import Juan, Piece, Section
from reader.reading import chapter_views

from .conftest import SEED
from .test_exports import _work_of

#: Queries before the first juan of a whole-work export: the edition (with its work), the
#: work's row for the view, its count of editions (the edition's name in citations), the juans' numbers.
HEAD_QUERIES = 4
#: Queries a juan: the juan, its accepted corrections, its chapters, sections, pieces, the
#: opening words of its untitled sections (one query for all of them); its chapters' printed heads
#: and ends (``reader.chapter_heads``) are read from its pieces, with no query of their own.
JUAN_QUERIES = 6


def _untitled_work(juans: int, title: str):
    """A work of ``juans`` copies of the seed juan whose 45 sections have no title, so that
    each is named by its opening words (``reader.citation.section_heading``)."""
    work = _work_of(juans, title=title)
    Section.objects.filter(juan__work=work).update(title="")
    return work


def _counted_chunks(client, url):
    """``[(queries so far, chunk), ...]`` of a streamed response, counted as each chunk comes."""
    out = []
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        assert response.streaming
        for chunk in response.streaming_content:
            out.append((len(queries.captured_queries), chunk))
    return out


def test_a_whole_work_json_export_reads_a_bounded_number_of_queries_a_juan(client, db):
    for juans, title in ((1, "一卷"), (3, "三卷")):
        work = _untitled_work(juans, title)
        chunks = _counted_chunks(client, f"/api/works/{work.pk}/export/json/")
        assert [q for q, _ in chunks] == [HEAD_QUERIES] + [HEAD_QUERIES + JUAN_QUERIES * n for n in range(1, juans + 1)] \
            + [HEAD_QUERIES + JUAN_QUERIES * juans]
        data = json.loads(b"".join(c for _, c in chunks))
        sections = data["juans"][0]["chapters"][0]["sections"]
        # each untitled section is named by its opening words, read once for the juan
        assert [s["name"] for s in sections[:3]] == ["大射之儀君有命戒…", "司馬命量人量侯道…", "樂人宿縣於阼階東…"]
        assert sections[0]["citation"] == f"某《{title}》卷十〈大射儀〉「右戒百官」 http://testserver/works/{title}/juan/1/1/"


def test_a_streamed_work_export_sends_its_first_bytes_before_any_juan_is_read(client, db):
    work = _untitled_work(2, "二卷")
    edition = work.editions.get()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/api/works/{work.pk}/export/json/")
        chunks = iter(response.streaming_content)
        first = next(chunks)
        assert len(queries.captured_queries) == HEAD_QUERIES  # no juan read yet
        assert first.decode("utf-8") == (
            '{\n "work": {\n  "id": %d,\n  "title": "二卷",\n  "author": "某",\n  "people": [\n   {\n    "dynasty": "",\n    "name": "某",\n    "role": ""\n   }\n  ]\n },\n "edition": {\n  "id": %d,\n'
            '  "slug": "二卷",\n  "name": "欽定四庫全書・純文字本"\n },\n "juans": [' % (work.pk, edition.pk))
        second = next(chunks)
        assert len(queries.captured_queries) == HEAD_QUERIES + JUAN_QUERIES  # one juan, not the next
        assert second.startswith(b'\n  {\n   "work": {')
        response.close()


def test_a_juan_imported_again_while_its_edition_streams_is_exported_as_stored(client, db):
    """A whole edition is streamed one juan at a time, and an import stores a juan anew under a
    new id: the export listed the juans' ids before the first byte, so a juan imported again
    while it streamed (the source, a JSON of 548 juans: minutes) was no longer found when its
    turn came (``Juan.DoesNotExist`` inside the stream: the download cut short), and the TEI,
    which reads its juans for the header first, wrote it as an empty ``<div type="juan">``. Each
    juan is now read when its turn comes, as stored then."""
    work = _work_of(3, title="三卷")
    doc = read_document(SEED, work_title="三卷")
    doc.author, doc.juan_number = "某", 3
    source = SEED.read_bytes()
    for kind in ("source", "json", "tei"):
        chunks = iter(client.get(f"/api/works/{work.pk}/export/{kind}/").streaming_content)
        first = next(chunks)  # juan 1 (source), or the head before any juan (json, tei)
        old = Juan.objects.get(work=work, number=3).pk
        load_document(copy.deepcopy(doc), index=False)  # juan 3 imported again, as the export streams
        assert not Juan.objects.filter(pk=old).exists()
        body = first + b"".join(chunks)
        if kind == "source":
            assert body == source * 3
        elif kind == "json":
            juans = json.loads(body)["juans"]
            assert [(j["number"], sum(len(c["sections"]) for c in j["chapters"])) for j in juans] == [
                (1, 45), (2, 45), (3, 45)]
        else:
            assert [body.count(b'<div type="juan"'), body.count(b'<div type="section"')] == [3, 135]


def test_piece_rows_are_the_serializers_rows(seed_juan):
    views = chapter_views(seed_juan)
    pieces = [p for cv in views for view in cv.sections for para in view.paragraphs for p in para]
    pieces[3].section_start = True  # as the corrections' overlay marks a piece that starts a section
    assert len(pieces) > 300
    assert piece_rows(pieces) == list(PieceSerializer(pieces, many=True).data)
    assert piece_rows(pieces[3:4]) == [{**PieceSerializer(pieces[3]).data, "section_start": True}]
    assert list(piece_rows(pieces[:1])[0]) == ["position", "paragraph", "kind", "layer", "layer_name", "commentator",
                                                "layer_basis", "text", "source_tag", "source", "pages"]
    assert Piece.objects.filter(section__juan=seed_juan).count() == len(pieces) + sum(
        len(view.records) for cv in views for view in cv.sections) + sum(len(cv.heading_notes) for cv in views)


def test_a_hit_list_is_written_in_batches_within_the_request(client, seed_backend, monkeypatch):
    """Written whole in the request, under its time budget (api.hitlists.written), a batch of
    hits to a chunk, then sent."""
    monkeypatch.setattr(hitlists, "BATCH", 10)
    read = []
    rows = hitlists.hit_rows

    def counted(hits, names, url_of, section_names=None, reading_of=None, place_of=None):
        for row in rows(hits, names, url_of, section_names, reading_of, place_of):
            read.append(row)
            yield row

    monkeypatch.setattr(hitlists, "hit_rows", counted)
    response = client.get("/api/search/export/tsv/", {"q": "侯"})
    assert len(read) == 116  # every hit read before the response is sent
    chunks = [chunk.decode("utf-8").splitlines() for chunk in response.streaming_content]
    assert [len(chunk) for chunk in chunks] == [11] + [10] * 10 + [6]  # the header and ten hits, then ten a chunk
    assert chunks[0][0] == "\t".join(hitlists.COLUMNS)


def test_a_section_path_is_what_reverse_writes():
    from django.urls import reverse

    from search.service import section_path

    for slug, number, position in (("禮書綱目", 10, 2), ("a%b/c d", 1, 120), ("..", 3, 7), ("KR1d0086-WYG", 999, 1)):
        assert section_path(slug, number, position) == reverse("reader:section", args=[slug, number, position])
    assert section_path("a%b/c d", 1, 120) == "/works/a%2525b%252Fc%20d/juan/1/120/"


def _private_kb() -> int:
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("RssAnon:"))


def test_give_back_returns_the_free_pages_inside_the_heap():
    import ctypes

    from config import memory

    libc = ctypes.CDLL("libc.so.6")
    libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    blocks = [libc.malloc(4096) for _ in range(5000)]  # 20 MB of the heap (under the mmap threshold)
    pin = libc.malloc(4096)  # above them: freeing them leaves a hole, not a top that is cut by itself
    for block in blocks:
        ctypes.memset(block, 1, 4096)  # resident
    for block in blocks:
        libc.free(block)
    try:
        held = _private_kb()
        assert memory.give_back() is True
        assert held - _private_kb() > 15_000  # of the 20 MB freed, kept by the heap until now
    finally:
        libc.free(pin)


def test_the_one_request_benchmark_measures_what_is_sent(client, seed_juan):
    import hashlib

    from bench.heavy_one import measure

    path = f"/api/works/{seed_juan.work_id}/export/json/"
    body = b"".join(client.get(path).streaming_content)
    figures = measure(client, path)
    assert (figures["status"], figures["bytes"], figures["sha256"]) == (200, len(body), hashlib.sha256(body).hexdigest())
    assert figures["queries"] == HEAD_QUERIES + JUAN_QUERIES - 1  # the seed's sections have titles: no openings read
    assert 0 < figures["private_before_mb"] <= figures["private_peak_mb"] <= figures["resident_peak_mb"]
