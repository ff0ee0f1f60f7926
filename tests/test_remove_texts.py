"""``manage.py remove_texts``: a work or some juans go, with their index entries, all or nothing."""
import pytest
from django.core.management import CommandError, call_command

from reader.importers.loader import load_document
from reader.models import Juan, Piece, Work
from search.backends import SearchQuery

from .conftest import index_all
from .layered import TITLE, zhushu_document


@pytest.fixture
def two_juans(seed_juan, search_backend):
    """The seed and 卷一, 卷二 of the small 注疏 juan, indexed in this test's own index."""
    first = load_document(zhushu_document(), index=False).juan
    doc = zhushu_document()
    doc.juan_number, doc.juan_label, doc.header_lines = 2, "卷二", [f"{TITLE}卷二"]
    load_document(doc, index=False)
    index_all(search_backend)
    return first.work


def _juans_found(backend, query="王建國"):
    return sorted({h.juan_number for h in backend.search(SearchQuery(query)).hits if h.work_title == TITLE})


def test_remove_one_juan(two_juans, search_backend, capsys, django_capture_on_commit_callbacks):
    assert _juans_found(search_backend) == [1, 2]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        call_command("remove_texts", two_juans.slug, "--juan", "2")
    assert len(callbacks) == 1  # one index write for the transaction
    assert capsys.readouterr().out == f"removed {TITLE} 卷二: 2 sections, 15 pieces\n"
    assert list(Juan.objects.filter(work=two_juans).values_list("number", flat=True)) == [1]
    assert _juans_found(search_backend) == [1]
    assert search_backend.search(SearchQuery("戒射宰戒")).count == 1  # the seed is untouched


def test_remove_a_work(two_juans, search_backend, capsys, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("remove_texts", str(two_juans.pk))
    assert capsys.readouterr().out == f"removed {TITLE} (2 juans): 4 sections, 30 pieces\n"
    assert not Work.objects.filter(title=TITLE).exists()
    assert not Piece.objects.filter(section__juan__work_id=two_juans.pk).exists()
    assert _juans_found(search_backend) == []
    assert {j for j in search_backend.juan_ids()} == {Juan.objects.get(work__title="禮書綱目").pk}


def test_nothing_is_removed_on_a_bad_request(two_juans, search_backend):
    with pytest.raises(CommandError, match=r"no work '周禮': give a slug as in /works/<slug>/ or an id"):
        call_command("remove_texts", "周禮")
    with pytest.raises(CommandError, match=rf"{TITLE} has no juan 3 \(its juans: 1, 2\); nothing was removed"):
        call_command("remove_texts", two_juans.slug, "--juan", "2", "--juan", "3")
    assert Juan.objects.filter(work=two_juans).count() == 2
    assert _juans_found(search_backend) == [1, 2]
