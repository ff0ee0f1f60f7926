"""Who wrote the editors' layer (``EDITORIAL``: the 四庫 editors' 提要 and 考證): nobody the
library names, not the book's author (``search.documents.NOBODYS_UNSIGNED``, decision 0044).
周禮詳解 (KR1d0005) names no commentator, so its unnamed notes are its author 王昭禹's (宋,
decision 0038); its 提要, 「臣等謹案周禮詳解四十卷宋王昭禹撰…」, is the editors', written under the
清, and counted under 王昭禹 and 宋 it put an 18th-century summary among his words."""
import shutil

import pytest

from reader.importers.document import EDITORIAL
from reader.importers.loader import import_file
from reader.models import Piece
from search import facets
from search.backends import SearchQuery, get_search_backend
from search.documents import documents_for_juan

from .conftest import SHARED
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
    assert (results.count, counted["author"], counted["dynasty"]) == (
        1, [{"value": "", "count": 1}], [{"value": "", "count": 1}])
    for kept in (facets.written_by_for(("王昭禹",)),
                 facets.written_by_for(dynasties=("宋",), per_writer=facets.writer_counts(results))):
        assert engine.search(SearchQuery("等謹案", exact=True, written_by=kept)).count == 0
    # 頒: in the 提要 (匪頒之式, 頒從分從頁…) and in 卷一, where 王昭禹's notes keep counting under him
    in_tiyao = sum(p.text.count("頒") for p in tiyao)
    results = engine.search(SearchQuery("頒", exact=True))
    counted = facets.facet_counts(results)
    assert (results.count, in_tiyao, counted["author"], counted["dynasty"]) == (
        8, 4, [{"value": "", "count": 4}, {"value": "王昭禹", "count": 4}],
        [{"value": "", "count": 4}, {"value": "宋", "count": 4}])
    kept = engine.search(SearchQuery("頒", exact=True, written_by=facets.written_by_for(("王昭禹",))))
    edition = xiangjie[1].edition_id
    assert (kept.count, dict(facets.writer_counts(kept))) == (4, {(edition, "commentary", ""): 4})
