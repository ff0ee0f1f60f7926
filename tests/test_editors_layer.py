"""Who wrote the editors' layer (``EDITORIAL``: the 四庫 editors' 提要 and 考證): nobody the
library names, not the book's author (``search.documents.NOBODYS_UNSIGNED``, decision 0044), under
the 清 in a 四庫 copy (``search.facets.editors_dynasty``).
周禮詳解 (KR1d0005) names no commentator, so its unnamed notes are its author 王昭禹's (宋,
decision 0038); its 提要, 「臣等謹案周禮詳解四十卷宋王昭禹撰…」, is the editors', written under the
清, and counted under 王昭禹 and 宋 it put an 18th-century summary among his words."""
import shutil

import pytest

from reader.importers.document import EDITORIAL
from reader.importers.loader import import_file
from reader.models import Edition, Piece
from search import facets
from search.backends import SearchQuery, WrittenBy, get_search_backend
from search.documents import documents_for_juan

from .conftest import SHARED, index_all
from .test_search_contract import BACKENDS

ZHOULI_XIANGJIE = SHARED / "corpus" / "kanripo" / "KR1d0005"


@pytest.fixture
def xiangjie(tmp_path):
    """周禮詳解's 提要 (卷 000) and 卷一, imported from a folder named by its Kanripo ID."""
    folder = tmp_path / "KR1d0005"
    folder.mkdir()
    juans = []
    for name in ("KR1d0005_000.txt", "KR1d0005_001.txt"):
        shutil.copy(ZHOULI_XIANGJIE / name, folder)
        juans.append(import_file(folder / name).juan)
    facets._tables.clear()
    yield juans
    facets._tables.clear()


@pytest.fixture(params=sorted(BACKENDS))
def engine(request, settings, tmp_path, xiangjie):
    settings.SEARCH_BACKENDS = {**settings.SEARCH_BACKENDS, "editors": {
        "BACKEND": BACKENDS[request.param], "PATH": tmp_path / "ix", "NAME": f"editors-{tmp_path.name}",
        "LOCK_TIMEOUT": 1.0}}
    backend = get_search_backend("editors")
    backend.rebuild([d for juan in xiangjie for d in documents_for_juan(juan)])
    return backend


@pytest.mark.django_db
def test_the_tiyao_is_the_editors_not_the_book_s_author(engine, xiangjie):
    tiyao = Piece.objects.filter(section__juan=xiangjie[0], layer=EDITORIAL)
    assert set(tiyao.values_list("layer_name", "commentator")) == {("提要", "")}
    assert sum(p.text.count("等謹案") for p in tiyao) == 1
    results = engine.search(SearchQuery("等謹案", exact=True))
    counted = facets.facet_counts(results)
    # nobody known wrote it, but it was written under the 清 (a 四庫 copy's editors: WYG)
    assert (results.count, counted["author"], counted["dynasty"]) == (
        1, [{"value": "", "count": 1}], [{"value": "清", "count": 1}])
    for kept in (facets.written_by_for(("王昭禹",)),
                 facets.written_by_for(dynasties=("宋",), per_writer=facets.writer_counts(results))):
        assert engine.search(SearchQuery("等謹案", exact=True, written_by=kept)).count == 0
    by_qing = facets.written_by_for(dynasties=("清",), per_writer=facets.writer_counts(results))
    # 清 writers' main text (the session's seed, 江永's) and the editors' layer of every 四庫 copy held
    assert by_qing.editors == tuple(sorted(Edition.objects.values_list("pk", flat=True)))
    assert xiangjie[0].edition_id in by_qing.editors and xiangjie[0].edition_id not in by_qing.main
    assert engine.search(SearchQuery("等謹案", exact=True, written_by=by_qing)).count == 1
    # 頒: in the 提要 (匪頒之式, 頒從分從頁…) and in 卷一, where 王昭禹's notes keep counting under him
    in_tiyao = sum(p.text.count("頒") for p in tiyao)
    results = engine.search(SearchQuery("頒", exact=True))
    counted = facets.facet_counts(results)
    assert (results.count, in_tiyao, counted["author"], counted["dynasty"]) == (
        8, 4, [{"value": "", "count": 4}, {"value": "王昭禹", "count": 4}],
        [{"value": "宋", "count": 4}, {"value": "清", "count": 4}])
    # each dynasty's filter keeps what the facet counts under it: the 提要's 4 under 清, the notes' under 宋
    per_writer = facets.writer_counts(results)
    for dynasty, layer in (("清", "editorial"), ("宋", "commentary")):
        kept = engine.search(SearchQuery("頒", exact=True, written_by=facets.written_by_for(
            dynasties=(dynasty,), per_writer=per_writer)))
        assert (kept.count, {key[1] for key in facets.writer_counts(kept)}) == (4, {layer}), dynasty
    kept = engine.search(SearchQuery("頒", exact=True, written_by=facets.written_by_for(("王昭禹",))))
    edition = xiangjie[1].edition_id
    assert (kept.count, dict(facets.writer_counts(kept))) == (4, {(edition, "commentary", ""): 4})


SIMPLIFIED_TEXT = SHARED / "corpus" / "other" / "yili_shigong_zengzhu_simplified.txt"


@pytest.mark.django_db
def test_a_dynasty_filter_keeps_the_tiyao_of_a_plain_text_siku_copy(client, seed_juan, search_backend):
    """The README's tour: the seed (江永's 禮書綱目 卷十) and the simplified 仪礼释宫増注 (a plain-text
    copy of the 四庫 print, 江永's too). 學 is in each once: 學記曰 in the seed's notes, 江永's, and
    「…剽掇之学矣」 in the 提要 of 仪礼释宫増注, the 四庫 editors'. ``dynasty=清`` finds both, as the
    search without filters and ``work=`` do, the 提要 being written under the 清; ``author=江永``
    finds his one, the 提要 being nobody's he wrote (decision 0044), and the author facet counts it
    under 未詳."""
    juan = import_file(SIMPLIFIED_TEXT).juan
    facets._tables.clear()
    index_all(search_backend)
    tiyao = Piece.objects.filter(section__juan=juan, layer=EDITORIAL)
    assert set(tiyao.values_list("layer_name", "commentator")) == {("提要", "")}
    assert sum(p.text.count("学") for p in tiyao) == 1

    def search(**params):
        response = client.get("/api/search/", {"q": "學", **params})
        assert response.status_code == 200, response.content
        return response.json()
    everything = search()
    assert [(h["edition"]["slug"], h["layer"], h["layer_name"], h["commentator"], h["before"][-6:], h["match"],
             h["after"][:4]) for h in everything["results"]] == [
        (juan.edition.slug, "editorial", "提要", "", "同影响剽掇之", "学", "矣乾隆四"),
        ("禮書綱目", "commentary", "注", "", "也鼓亦樂之節", "學", "記曰鼔無")]
    assert everything["facets"]["dynasty"] == [{"value": "清", "count": 2}]
    assert everything["facets"]["author"] == [{"value": "", "count": 1}, {"value": "江永", "count": 1}]
    by_dynasty = search(dynasty="清")
    assert by_dynasty["results"] == everything["results"]
    assert by_dynasty["facets"] == {**everything["facets"], "dynasty": [{"value": "清", "count": 2, "selected": True}]}
    by_author = search(author="江永")
    assert by_author["results"] == everything["results"][1:]
    assert by_author["facets"]["author"] == [{"value": "", "count": 1}, {"value": "江永", "count": 1, "selected": True}]
    # the work filter finds the 提要's, and so does the dynasty filter with it
    work = juan.work.slug
    assert search(work=work)["results"] == search(work=work, dynasty="清")["results"] == everything["results"][:1]
    assert search(work=work, author="江永")["count"] == 0
    # 射, none in the 提要: 江永's (清) are the seed's 326 and his 2 notes in 仪礼释宫増注; the 24 of its
    # main text are the 儀禮釋宮 he annotated (增注: a book named after its notes, decision 0038), which the
    # catalogue lists as 宋 李如圭's (the classic it comments on, reader.commented_classic.classic_of: decision
    # 0100), in both facets, as the work filter's facets say too
    she = search(q="射")
    assert (she["count"], she["facets"]["dynasty"], she["facets"]["author"]) == (
        352, [{"value": "清", "count": 328}, {"value": "宋", "count": 24}],
        [{"value": "江永", "count": 328}, {"value": "李如圭", "count": 24}])
    assert search(q="射", dynasty="清")["count"] == search(q="射", author="江永")["count"] == 328
    in_work = search(q="射", work=work)
    assert (in_work["count"], in_work["facets"]["dynasty"]) == (26, [{"value": "宋", "count": 24}, {"value": "清", "count": 2}])
