"""An index records the rule its passages were read by (``search.documents.ANALYSIS``, in each
generation's ``MANIFEST.json``), and ``manage.py check`` tells an operator whose index is older
than the code's to run ``rebuild_index``: an index built before front matter's labels were
passages of their own, or before hits came in the catalogue's order, answered without them and
nothing said so."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from search.backends import get_search_backend
from search.checks import index_analysis
from search.documents import ANALYSIS, documents_for_juan

from .test_search_contract import BACKENDS

WARNING = ("the search index at {path} was written by rule 0 for reading the texts into passages, and this code reads "
           "them by rule 8: until it is rebuilt, searches lack what the newer rule adds (each label of front matter "
           "(a preface's heading, a 目錄's entry) a 序跋 passage of its own, and hits in the catalogue's order "
           "(經 史 子 集); a work without a Kanripo ID after the Kanripo works of its class in the hit order; a "
           "passage's section title as corrected: a line a correction made a heading titles its untitled section, a "
           "heading a correction made text titles nothing (decision 0067); 鑑 and 鑒, 歎 and 嘆, 濕 and 溼, 繞 and 遶, "
           "證 and 証, 諡 and 謚, 逾 and 踰, 汎 and 泛, 巖 and 岩, 貍 and 狸, 嶽 and 岳, 鍊 and 煉, 挽 and 輓 one character each in "
           "a passage's search keys (the folding table, decision 0073); 苖 and 苗, 亐 and 于 one character each in a passage's "
           "search keys (the folding table, decision 0090); an anthology piece's main text (classic, records, title) "
           "written by the author its byline names (文選's 丘遲, 班固), not by the compiler (decision 0097); an anthology "
           "piece the preface before it presents written by the preface's author (文選's 西都賦, 班固: decision 0103), and a "
           "piece signed by a courtesy name the books' table of signed names reads written by the man (曹子建: 曹植); a juan's "
           "main text written by the writer its 序 says wrote its pieces (楚辭: 「九辯者楚大夫宋玉之所作也」), from the 序 on "
           "(decision 0106))")
HINT = "run `python manage.py rebuild_index` (nothing is imported again; searches go on meanwhile)"


@pytest.fixture(params=["positional", "whoosh"])
def default_index(request, settings, tmp_path, seed_juan):
    """The default index, of one engine, in a folder of the test's own, holding nothing yet."""
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": BACKENDS[request.param], "PATH": tmp_path / "ix"}}
    return get_search_backend()


def manifest(backend) -> dict:
    return json.loads((backend.current_link / "MANIFEST.json").read_text(encoding="utf-8"))


def written_before_the_rule(backend) -> None:
    """The current generation's manifest as code before the rule wrote it: no ``analysis``."""
    data = manifest(backend)
    del data["analysis"]
    (backend.current_link / "MANIFEST.json").write_text(json.dumps(data), encoding="utf-8")


def test_an_index_older_than_the_code_asks_for_a_rebuild(default_index, seed_juan):
    docs = documents_for_juan(seed_juan)
    default_index.rebuild(docs)
    assert ANALYSIS == 8 and manifest(default_index)["analysis"] == 8 and default_index.analysis() == 8
    assert index_analysis() == []
    written_before_the_rule(default_index)
    assert default_index.analysis() == 0
    # a juan written since (an import, a correction) leaves the other passages as they were read
    default_index.replace_juan(seed_juan.pk, docs)
    assert manifest(default_index)["analysis"] == 0 and default_index.analysis() == 0
    [warning] = index_analysis()
    assert (warning.id, warning.msg, warning.hint) == ("search.W001", WARNING.format(path=default_index.path), HINT)
    out, err = StringIO(), StringIO()
    call_command("check", stdout=out, stderr=err)
    assert f"?: (search.W001) {WARNING.format(path=default_index.path)}\n\tHINT: {HINT}" in err.getvalue()
    call_command("rebuild_index", stdout=StringIO())
    assert default_index.analysis() == 8 and index_analysis() == []
    assert default_index.document_count() == len(docs)


def test_a_new_index_and_its_writes_are_of_the_codes_rule(default_index, seed_juan):
    assert default_index.analysis() is None and index_analysis() == []  # no index yet: nothing to be stale
    default_index.replace_juan(None, documents_for_juan(seed_juan))  # the first write makes an empty one first
    assert manifest(default_index)["analysis"] == 8 and index_analysis() == []


def test_an_engine_with_no_index_of_its_own_is_never_stale(settings, seed_juan):
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": BACKENDS["memory"], "NAME": "analysis"}}
    get_search_backend().rebuild(documents_for_juan(seed_juan))
    assert get_search_backend().analysis() is None and index_analysis() == []
