"""One slug rule for every source of a work's URL key (reader/slugs.py): Kanripo headers,
folder names, --work titles, the admin, models; links cope with whatever is stored, and a
migration repairs what was stored before the rule."""
import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from reader.models import Work
from reader.slugs import slug_problem, slugify, unique_slug, validate_slug

HEADER = "# -*- mode: mandoku-view; -*-\n#+TITLE: 某書\n#+PROPERTY: ID {id}\n"
BODY = "甲乙(丙/丁)¶\n戊己¶\n"


def test_the_rule():
    for good in ("禮書綱目", "KR1d0086", "KR1d0086-WYG", "周禮注疏_2", "〇"):
        assert slug_problem(good) is None, good
    assert slug_problem("KR/x") == ("character '/' (U+002F SOLIDUS) at column 3 is not allowed in a slug: "
                                    "use letters, digits, '-' and '_'")
    assert slug_problem("") == "a slug cannot be empty"
    assert slug_problem("-a") == "a slug cannot start with '-'"
    assert slug_problem("x" * 101) == "a slug has at most 100 characters (this one has 101)"
    for bad in ("a b", "a.b", "..", "a%2F", "a?b", "a#b", "a\\b", "a\x00b", "a\u200bb", "禮書・綱目"):
        assert slug_problem(bad), bad
    with pytest.raises(ValidationError) as info:
        validate_slug("KR/x")
    assert info.value.code == "invalid_slug"
    assert [slugify(t) for t in ("禮書/綱目", "KR/x", " ../etc ", "///", "a  b")] == \
           ["禮書-綱目", "KR-x", "etc", "work", "a-b"]
    taken = {"KR-x", "KR-x-2"}
    assert unique_slug("KR/x", taken.__contains__) == "KR-x-3"


def _repository(tmp_path, folder, text_id, name="KR9z0001_001.txt"):
    repo = tmp_path / folder
    repo.mkdir()
    (repo / name).write_text(HEADER.format(id=text_id) + BODY, encoding="utf-8")
    return repo


@pytest.mark.django_db
def test_hostile_kanripo_header_is_refused_at_its_line(tmp_path, client, seed_juan, capsys):
    repo = _repository(tmp_path, "KRx", "KR/x")
    with pytest.raises(CommandError, match="1 of 1 files rejected"):
        call_command("import_texts", str(repo))
    err = capsys.readouterr().err
    assert (f"rejected {repo / 'KR9z0001_001.txt'}:3:16: the text ID 'KR/x' (#+PROPERTY: ID) would be the work's "
            f"URL key, but character '/' (U+002F SOLIDUS) at column 3 is not allowed in a slug") in err
    assert not Work.objects.filter(kanripo_id="KR/x").exists()
    assert client.get("/").status_code == 200


@pytest.mark.django_db
def test_folder_name_goes_through_the_rule(tmp_path, capsys):
    repo = _repository(tmp_path, "KR9z0001 copy", "KR9z0001")
    with pytest.raises(CommandError):
        call_command("import_texts", str(repo))
    assert "the folder name 'KR9z0001 copy' would be the work's URL key, but character ' ' (U+0020 SPACE) " \
           "at column 9 is not allowed" in capsys.readouterr().err
    good = _repository(tmp_path, "KR9z0001", "KR9z0001")
    call_command("import_texts", str(good))
    assert Work.objects.get(kanripo_id="KR9z0001").slug == "KR9z0001"


@pytest.mark.django_db
def test_work_title_becomes_a_valid_slug(tmp_path, seed_text):
    headless = tmp_path / "headless.txt"
    headless.write_text(seed_text.split("\n", 1)[1], encoding="utf-8")  # without its title line
    call_command("import_texts", str(headless), "--work", "../禮書/綱目?x=1", "--juan", "3")
    work = Work.objects.get(title="../禮書/綱目?x=1")
    assert (work.title, work.slug) == ("../禮書/綱目?x=1", "禮書-綱目-x-1")


@pytest.mark.django_db
def test_models_refuse_a_bad_slug():
    with pytest.raises(ValidationError, match="not allowed in a slug"):
        Work.objects.create(title="某書", slug="KR/x")
    assert not Work.objects.filter(title="某書").exists()


@pytest.mark.django_db
def test_hostile_admin_slug_is_refused(client):
    User.objects.create_superuser("editor", password="x-correct-horse-9")
    client.force_login(User.objects.get(username="editor"))
    work = Work.objects.create(title="某書", slug="mou")
    form = {"title": "某書", "author": "", "native_place": "", "dynasty": "", "collection": "", "slug": "KR/x",
            "kanripo_id": "", "edition": ""}
    response = client.post(f"/admin/reader/work/{work.pk}/change/", form)
    assert response.status_code == 200  # the form again, with the error
    assert "is not allowed in a slug" in response.content.decode()
    work.refresh_from_db()
    assert work.slug == "mou"
    response = client.post(f"/admin/reader/work/{work.pk}/change/", {**form, "slug": "某書-2"})
    assert response.status_code == 302
    work.refresh_from_db()
    assert work.slug == "某書-2"


@pytest.mark.django_db
def test_pages_cope_with_a_slug_stored_before_the_rule(client, seed_juan):
    Work.objects.filter(pk=seed_juan.work_id).update(slug="KR/x")  # as written before the rule
    work = Work.objects.get(pk=seed_juan.work_id)
    assert reverse("reader:work", args=[work.slug]) == "/works/KR%252Fx/"
    assert client.get("/").status_code == 200
    assert client.get("/search/", {"q": "鵠"}).status_code == 200
    page = client.get("/works/KR%252Fx/")  # a work's key that is no edition's: its default edition
    assert (page.status_code, page.context["work"].pk) == (200, work.pk)
    section = client.get(reverse("reader:section", args=["KR/x", 10, 2]))
    assert section.status_code == 200 and "右張侯" in section.content.decode()
    assert reverse("reader:work", args=[".."]) == "/works/%252E%252E/"


@pytest.mark.django_db
def test_migration_repairs_stored_slugs():
    migration = importlib.import_module("reader.migrations.0009_safe_slugs")
    Work.objects.bulk_create([Work(title="甲", slug="KR/x"), Work(title="乙", slug="KR-x"),
                              Work(title="丙", slug=""), Work(title="丁", slug="丁書")])
    migration.repair_slugs(apps, None)
    assert dict(Work.objects.filter(title__in="甲乙丙丁").values_list("title", "slug")) == {"甲": "KR-x-2", "乙": "KR-x", "丙": "丙",
                                                               "丁": "丁書"}


def test_invisible_and_look_alike_slugs_are_refused():
    """Letters and marks that show nothing, a mark with nothing to sit on, and a decomposed
    é are not slugs (``KR1d0086`` + U+3164 HANGUL FILLER was imported
    as a second work whose URL and name look exactly like KR1d0086's)."""
    assert slug_problem("KR1d0086\u3164") == ("character U+3164 HANGUL FILLER at column 9 is invisible and not "
                                               "allowed in a slug: use letters, digits, '-' and '_'")
    for bad in ("KR9x\ufe0f", "禮\U000e0100書", "a\u034fb", "KR\u115f", "KR\uffa0", "KR\u17b4"):
        assert "is invisible" in slug_problem(bad), bad
    assert slug_problem("\u0301KR") == "a slug cannot start with a combining mark (U+0301)"
    assert slug_problem("\u0301") == "a slug cannot start with a combining mark (U+0301)"
    assert slug_problem("KRe\u0301") == ("a slug is written in Unicode's composed form NFC: 'KRe\\u0301' has "
                                         "decomposed characters (write 'KR\\xe9')")
    for good in ("KR\u00e9", "ＫＲ９", "禮書綱目", "〇"):
        assert slug_problem(good) is None, good
    assert [slugify(t) for t in ("KR1d0086\u3164", "\u0301KR", "禮\U000e0100書", "KRe\u0301", "\u3164")] == \
           ["KR1d0086", "KR", "禮書", "KR\u00e9", "work"]


@pytest.mark.django_db
def test_invisible_kanripo_id_is_refused_at_its_line(tmp_path, capsys):
    repo = _repository(tmp_path, "KRy", "KR9z0001\u3164")
    with pytest.raises(CommandError, match="1 of 1 files rejected"):
        call_command("import_texts", str(repo))
    assert (f"rejected {repo / 'KR9z0001_001.txt'}:3:16: the text ID 'KR9z0001\u3164' (#+PROPERTY: ID) would be "
            f"the work's URL key, but character U+3164 HANGUL FILLER at column 9 is invisible") in capsys.readouterr().err
    assert not Work.objects.filter(kanripo_id__startswith="KR9z0001").exists()


@pytest.mark.django_db
def test_migration_repairs_invisible_slugs():
    from reader.models import Edition

    migration = importlib.import_module("reader.migrations.0011_slugs_without_invisible_characters")
    Work.objects.bulk_create([Work(title="甲", slug="KR9z0001"), Work(title="乙", slug="KR9z0001\u3164"),
                              Work(title="丙", slug="\u0301丙"), Work(title="丁", slug="KRe\u0301")])
    works = {w.title: w for w in Work.objects.filter(title__in="甲乙丙丁")}
    Edition.objects.bulk_create([Edition(work=works["乙"], slug="KR9z0001\u3164-WYG"),
                                 Edition(work=works["甲"], slug="KR9z0001-WYG")])
    migration.repair_slugs(apps, None)
    assert dict(Work.objects.filter(title__in="甲乙丙丁").values_list("title", "slug")) == {
        "甲": "KR9z0001", "乙": "KR9z0001-2", "丙": "丙", "丁": "KR\u00e9"}
    assert sorted(Edition.objects.filter(slug__startswith="KR9z").values_list("slug", flat=True)) == \
           ["KR9z0001-WYG", "KR9z0001-WYG-2"]
