"""``manage.py remove_texts``: an edition or some of its juans go, with their index entries, all
or nothing; nothing that was not named moves (issue 29: ``remove_texts 禮書綱目 --juan 10``
removed 卷十 of the seed and juan 10 of KR1d0086, another edition of the work)."""
import errno
import shutil

import pytest
from django.core.management import CommandError, call_command

from reader.importers.loader import import_file, load_document
from reader.models import Edition, Juan, Piece, Section, Work
from search.backends import SearchQuery
from search.signals import muted

from .conftest import SHARED, index_all
from .layered import TITLE, zhushu_document

KANRIPO = SHARED / "corpus" / "kanripo"


@pytest.fixture
def three_editions(seed_juan, search_backend, tmp_path):
    """禮書綱目 in three editions: the seed (卷十 as juan 10), KR1d0086 (juans 10 and 12: its
    卷八 and 卷十) and KR1d0086-WYG (juan 12), all indexed in this test's own index."""
    for folder, name in (("KR1d0086", "KR1d0086_010.txt"), ("KR1d0086", "KR1d0086_012.txt"),
                         ("KR1d0086-WYG", "KR1d0086_012.txt")):
        (tmp_path / folder).mkdir(exist_ok=True)
        shutil.copy(KANRIPO / folder / name, tmp_path / folder / name)
        with muted():
            import_file(tmp_path / folder / name)
    index_all(search_backend)
    return seed_juan.work


def library() -> dict:
    """Every juan, by (edition slug, number): its id, version, checksum, sections and pieces."""
    return {(j.edition.slug, j.number): (j.pk, j.version, j.sha256, j.sections.count(),
                                         Piece.objects.filter(section__juan=j).count())
            for j in Juan.objects.select_related("edition")}


def indexed(backend) -> set:
    return set(backend.indexed_juans())


@pytest.fixture
def remove(django_capture_on_commit_callbacks):
    """``call_command("remove_texts", ...)`` whose index write runs: inside the test's
    transaction the index follows on commit, which these tests stand in for."""
    def run(*args):
        with django_capture_on_commit_callbacks(execute=True):
            call_command("remove_texts", *args)
    return run


def test_the_fixture_is_three_editions_of_one_work(three_editions, search_backend):
    assert sorted(library()) == [("KR1d0086", 10), ("KR1d0086", 12), ("KR1d0086-WYG", 12), ("禮書綱目", 10)]
    assert sorted(three_editions.editions.values_list("slug", flat=True)) == ["KR1d0086", "KR1d0086-WYG", "禮書綱目"]
    assert indexed(search_backend) == {v[0] for v in library().values()}


def test_a_work_slug_of_several_editions_is_refused_with_the_list(three_editions, search_backend):
    before, index_before = library(), indexed(search_backend)
    ids = {e.slug: e.pk for e in Edition.objects.all()}
    with pytest.raises(CommandError) as info:
        call_command("remove_texts", "禮書綱目", "--juan", "10")
    assert str(info.value) == (
        "'禮書綱目' names the work 禮書綱目 (3 editions) and an edition, 3 editions in all; nothing was removed. Name "
        "one edition with --edition (its slug or id), or remove from every edition of the work with --all-editions:\n"
        f"  禮書綱目 (edition id {ids['禮書綱目']}, 禮書綱目（欽定四庫全書・純文字本）; juans 10)\n"
        f"  KR1d0086 (edition id {ids['KR1d0086']}, 禮書綱目（四庫全書・文淵閣本）; juans 10, 12)\n"
        f"  KR1d0086-WYG (edition id {ids['KR1d0086-WYG']}, 禮書綱目（四庫全書・文淵閣本・原字）; juans 12)")
    assert (library(), indexed(search_backend)) == (before, index_before)


def test_one_juan_of_one_edition_goes_and_nothing_else_moves(three_editions, search_backend, capsys, remove):
    before = library()
    seed = before[("禮書綱目", 10)]
    remove("禮書綱目", "--edition", "--juan", "10")
    assert capsys.readouterr().out == (
        f"removed 禮書綱目（欽定四庫全書・純文字本） 卷十 (juan 10, /works/禮書綱目/juan/10/): {seed[3]} sections, {seed[4]} pieces\n")
    del before[("禮書綱目", 10)]
    assert library() == before  # KR1d0086's juan 10 (its 卷八) and both juans 12 untouched, versions too
    assert indexed(search_backend) == {v[0] for v in before.values()}
    assert [h.work_slug for h in search_backend.search(SearchQuery("大射之儀")).hits] == ["KR1d0086", "KR1d0086-WYG"]

    wyg = before.pop(("KR1d0086-WYG", 12))
    remove("KR1d0086-WYG", "--juan", "12")
    assert capsys.readouterr().out == (
        f"removed 禮書綱目（四庫全書・文淵閣本・原字） 卷十 (juan 12, /works/KR1d0086-WYG/juan/12/): {wyg[3]} sections, "
        f"{wyg[4]} pieces\n")
    assert library() == before
    assert indexed(search_backend) == {v[0] for v in before.values()}


def test_an_edition_by_its_id(three_editions, search_backend, capsys, remove):
    before = library()
    edition = Edition.objects.get(slug="KR1d0086-WYG")
    remove(str(edition.pk), "--edition", "--juan", "12")
    del before[("KR1d0086-WYG", 12)]
    assert library() == before


def test_dry_run_lists_and_removes_nothing(three_editions, search_backend, capsys):
    before, index_before = library(), indexed(search_backend)
    call_command("remove_texts", "禮書綱目", "--all-editions", "--juan", "12", "--dry-run")
    assert capsys.readouterr().out.splitlines() == [
        f"would remove 禮書綱目（四庫全書・文淵閣本） 卷十 (juan 12, /works/KR1d0086/juan/12/): {before[('KR1d0086', 12)][3]} "
        f"sections, {before[('KR1d0086', 12)][4]} pieces",
        f"would remove 禮書綱目（四庫全書・文淵閣本・原字） 卷十 (juan 12, /works/KR1d0086-WYG/juan/12/): "
        f"{before[('KR1d0086-WYG', 12)][3]} sections, {before[('KR1d0086-WYG', 12)][4]} pieces",
        "dry run: nothing was removed"]
    assert (library(), indexed(search_backend)) == (before, index_before)


def test_all_editions_removes_the_juan_from_each(three_editions, search_backend, capsys, remove):
    before = library()
    remove("禮書綱目", "--all-editions", "--juan", "12")
    assert len(capsys.readouterr().out.splitlines()) == 2
    del before[("KR1d0086", 12)], before[("KR1d0086-WYG", 12)]
    assert library() == before
    assert indexed(search_backend) == {v[0] for v in before.values()}


def test_a_whole_edition_goes_and_the_work_stays(three_editions, search_backend, capsys, remove):
    before = library()
    remove("KR1d0086")
    assert capsys.readouterr().out.splitlines()[-1] == "removed the edition 禮書綱目（四庫全書・文淵閣本） (KR1d0086)"
    del before[("KR1d0086", 10)], before[("KR1d0086", 12)]
    assert library() == before
    assert sorted(three_editions.editions.values_list("slug", flat=True)) == ["KR1d0086-WYG", "禮書綱目"]
    assert indexed(search_backend) == {v[0] for v in before.values()}


@pytest.fixture
def two_juans(seed_juan, search_backend):
    """The seed and 卷一, 卷二 of the small 注疏 juan (a work of one edition), indexed."""
    first = load_document(zhushu_document(), index=False).juan
    doc = zhushu_document()
    doc.juan_number, doc.juan_label, doc.header_lines = 2, "卷二", [f"{TITLE}卷二"]
    load_document(doc, index=False)
    index_all(search_backend)
    return first.work


def _juans_found(backend, query="王建國"):
    return sorted({h.juan_number for h in backend.search(SearchQuery(query)).hits if h.work_title == TITLE})


def test_remove_one_juan_of_a_work_of_one_edition(two_juans, search_backend, capsys, remove):
    assert _juans_found(search_backend) == [1, 2]
    remove(two_juans.slug, "--juan", "2")
    edition = two_juans.editions.get()
    assert capsys.readouterr().out == (f"removed {edition.full_name} 卷二 (juan 2, /works/{edition.slug}/juan/2/): "
                                       f"2 sections, 15 pieces\n")
    assert list(Juan.objects.filter(work=two_juans).values_list("number", flat=True)) == [1]
    assert _juans_found(search_backend) == [1]
    assert search_backend.search(SearchQuery("戒射宰戒")).count == 1  # the seed is untouched


def test_the_last_edition_takes_its_work(two_juans, search_backend, capsys, remove):
    edition = two_juans.editions.get()
    remove(two_juans.slug)
    assert capsys.readouterr().out.splitlines()[-2:] == [f"removed the edition {edition.full_name} ({edition.slug})",
                                                         f"removed the work {TITLE} (no edition of it is left)"]
    assert not Work.objects.filter(title=TITLE).exists()
    assert not Section.objects.filter(juan__work_id=two_juans.pk).exists()
    assert _juans_found(search_backend) == []
    assert set(search_backend.juan_ids()) == {Juan.objects.get(work__title="禮書綱目").pk}


def test_nothing_is_removed_on_a_bad_request(two_juans, search_backend):
    with pytest.raises(CommandError, match=r"^no edition or work '周禮': give an edition's slug as in "
                                           r"/works/<slug>/ or its id \(2 editions held"):
        call_command("remove_texts", "周禮")
    with pytest.raises(CommandError, match=r"^no edition '周禮': give an edition's slug"):
        call_command("remove_texts", "周禮", "--edition")
    with pytest.raises(CommandError, match=rf"has no juan 3; nothing was removed. Its juans:\n  .* juans 1, 2\)$"):
        call_command("remove_texts", two_juans.slug, "--juan", "2", "--juan", "3")
    with pytest.raises(CommandError, match="not allowed with argument"):
        call_command("remove_texts", two_juans.slug, "--edition", "--all-editions")
    # A juan number no database integer holds was an OverflowError traceback.
    with pytest.raises(CommandError, match=r"^Error: argument --juan: juan number 99999999999999999999 is out of "
                                           r"range \(0–9999\)$"):
        call_command("remove_texts", two_juans.slug, "--juan", "99999999999999999999")
    assert Juan.objects.filter(work=two_juans).count() == 2
    assert _juans_found(search_backend) == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_an_index_that_cannot_follow_is_an_error_naming_the_repair(empty_transactional_db, search_backend,
                                                                    monkeypatch):
    from search import indexing

    first = load_document(zhushu_document(), index=False).juan
    doc = zhushu_document()
    doc.juan_number, doc.juan_label, doc.header_lines = 2, "卷二", [f"{TITLE}卷二"]
    load_document(doc, index=False)
    index_all(search_backend)

    def full(backend, changes):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(indexing, "reindex_juans", full)
    with pytest.raises(CommandError) as info:
        call_command("remove_texts", first.work.slug, "--juan", "2")
    assert str(info.value).startswith("1 juans removed, but the search index could not be updated (cannot write the "
                                      "search index at ")
    assert str(info.value).endswith("run `python manage.py check_index --repair` when the index is free (the next "
                                    "index write or start of the server repairs it too)")
    assert list(Juan.objects.filter(work=first.work).values_list("number", flat=True)) == [1]
    assert _juans_found(search_backend) == [1, 2]  # behind, and said so
