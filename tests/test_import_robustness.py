"""Damaged and tricky input found by trying to break the importer (each once a real failure)."""
import fcntl
import io

import pytest
from django.core.management import CommandError, call_command

from reader.importers.errors import TextFormatError
from reader.importers.loader import import_file, render_source
from reader.importers.siku import SECTION_TITLE_CHARS, parse_siku
from reader.importers.source import damaged_entity_warnings, decode_bytes
from reader.models import Juan, Section, Work
from search import signals
from search.backends import SearchQuery
from search.indexing import rebuild_from_database

from .conftest import SEED

SMALL = "測試書卷三 婺源江永撰\n射禮 嘉禮一\n射人戒【戒告也】宰戒\n右戒射\n測試書卷三"


def write(tmp_path, name, text, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


def test_an_import_reindexes_once_after_commit(empty_transactional_db, search_backend, monkeypatch):
    calls = []
    monkeypatch.setattr(signals, "reindex", lambda changes: calls.append(list(changes)))
    first = import_file(SEED).juan
    second = import_file(SEED).juan
    assert calls == [[(first.pk, None)], [(second.pk, first.pk)]]


@pytest.mark.django_db(transaction=True)
def test_a_full_disk_in_a_batch_names_every_juan_behind_and_fails(search_backend, tmp_path, monkeypatch, capsys):
    """With the index on a full 3 MB tmpfs, a batch of six files whose
    index write failed (ENOSPC) was reported as "1 juans" behind; and the import exited 0, so a
    script could not see that search did not find the texts (issue 29)."""
    import errno

    from search import indexing

    def full(backend, changes):
        raise OSError(errno.ENOSPC, "No space left on device")

    seed = SEED.read_text(encoding="utf-8")
    for n, label in enumerate(("十", "十一", "十二", "十三", "十四", "十五")):
        write(tmp_path, f"juan{n:02d}.txt", seed.replace("禮書綱目卷十", f"禮書綱目卷{label}"))
    monkeypatch.setattr(indexing, "reindex_juans", full)
    with pytest.raises(CommandError) as info:
        call_command("import_texts", str(tmp_path))
    assert str(info.value) == (
        f"6 juans stored, but the search index could not be updated (cannot write the search index at "
        f"{search_backend.path} (No space left on device). The index was not updated. Make SEARCH_INDEX_DIR a folder "
        f"this process can write, with free space, and run the command again.); the database is right, but search "
        f"does not show the 6 juans changed until the index is repaired: run `python manage.py check_index --repair` "
        f"when the index is free (the next index write or start of the server repairs it too)")
    landed, *lines = capsys.readouterr().out.splitlines()
    assert landed.startswith("landed 禮書綱目（禮書綱目）: 6 juans, 270 sections, 1968 notes in ")
    assert lines == ["1 works, 6 juans, 270 sections, 1968 notes imported", "indexing 6 juans …"]
    assert Juan.objects.count() == 6


@pytest.mark.django_db(transaction=True)
def test_a_replaced_juan_the_index_missed_is_one_juan_changed(search_backend, settings):
    """Breaker: a re-import of 水經注 卷六 while another process held the index said 「1 juans stored, but
    … search does not show the 2 juans changed」: the juan replaced and the juan it replaced were
    counted apart. It is one juan changed."""
    call_command("import_texts", str(SEED))
    settings.SEARCH_BACKENDS["default"]["LOCK_TIMEOUT"] = 0.2
    with open(search_backend.path / "write.lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(CommandError) as info:
            call_command("import_texts", str(SEED), "--store-unchanged")
        fcntl.flock(held, fcntl.LOCK_UN)
    message = str(info.value)
    assert message.startswith("1 juans stored, but the search index could not be updated (")
    assert "search does not show the 1 juans changed until the index is repaired" in message


@pytest.mark.django_db(transaction=True)
def test_busy_index_at_commit_is_reported_and_repaired(search_backend, settings, capsys):
    settings.SEARCH_BACKENDS["default"]["LOCK_TIMEOUT"] = 0.2
    search_backend.path.mkdir(parents=True, exist_ok=True)
    with open(search_backend.path / "write.lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(CommandError) as info:
            call_command("import_texts", str(SEED))
        fcntl.flock(held, fcntl.LOCK_UN)
    message = str(info.value)
    assert message.startswith("1 juans stored, but the search index could not be updated (")
    assert "being written by another process" in message
    assert message.endswith("search does not show the 1 juans changed until the index is repaired: run "
                            "`python manage.py check_index --repair` when the index is free (the next index write "
                            "or start of the server repairs it too)")
    assert Juan.objects.count() == 1
    assert search_backend.search(SearchQuery("鵠")).count == 0  # behind the database
    with pytest.raises(CommandError, match="1 juans differ; run with --repair"):
        call_command("check_index")
    call_command("check_index", "--repair")
    assert search_backend.search(SearchQuery("鵠")).count == 21
    call_command("check_index")
    assert capsys.readouterr().out.splitlines()[-1] == "the index matches the database: 1 juans"


@pytest.mark.django_db(transaction=True)
def test_rebuild_catches_up_with_an_import_made_while_it_read(search_backend, settings, tmp_path):
    settings.SEARCH_BACKENDS["default"]["LOCK_TIMEOUT"] = 0.2
    import_file(SEED)
    other = write(tmp_path, "eleven.txt", SMALL.replace("測試書", "另一書"))
    original = search_backend.rebuild

    def rebuild_with_an_import_in_the_middle(documents, catch_up=None):
        def docs():
            for i, d in enumerate(documents):
                if i == 10:
                    import_file(other)  # its own reindex cannot get the lock the rebuild holds
                yield d
        return original(docs(), catch_up=catch_up)

    search_backend.rebuild = rebuild_with_an_import_in_the_middle
    rebuild_from_database(search_backend)
    assert search_backend.search(SearchQuery("戒告也")).count == 1
    assert search_backend.juan_ids() == set(Juan.objects.values_list("pk", flat=True))


@pytest.mark.django_db
def test_title_with_a_slash_gets_a_safe_slug(client, empty_db, search_backend, tmp_path):
    import_file(write(tmp_path, "slash.txt", SMALL.replace("測試書", "禮書/綱目")))
    work = Work.objects.get()
    assert (work.title, work.slug) == ("禮書/綱目", "禮書-綱目")
    assert client.get("/").status_code == 200
    assert client.get("/works/禮書-綱目/juan/3/").status_code == 200
    for name in ("..", "x?y#z%"):
        import_file(write(tmp_path, "n.txt", SMALL.replace("測試書", name)))
    assert sorted(Work.objects.values_list("slug", flat=True)) == ["work", "x-y-z", "禮書-綱目"]
    assert client.get("/").status_code == 200


@pytest.mark.parametrize("text", ["\u3000\u3000\n  \n", "【】", "測試書卷三\n【 】\n", "\ufeff\u3000"])
def test_files_without_text_are_rejected(tmp_path, text):
    with pytest.raises(TextFormatError, match="(empty file|no text)"):
        import_file(write(tmp_path, "nothing.txt", text))


def test_empty_path_argument():
    with pytest.raises(CommandError, match="'': no such file or folder"):
        call_command("import_texts", "")


@pytest.mark.parametrize("line", ["右請射\t記君於郊【註】", "右請射\u3000記君於郊【註】", "右請射  記君於郊【註】"])
def test_closer_separators(line):
    text = f"測試書卷三\n經文【注】\n{line}\n測試書卷三"
    doc = parse_siku(text, "x.txt")
    section = doc.sections[0]
    assert (section.title, [p.kind for p in section.records]) == ("請射", ["record", "record_note"])
    assert doc.render() == text


@pytest.mark.parametrize("closer", ["右請射 ", "右請射\u3000", "右請射\t"])
def test_trailing_space_after_a_closer_round_trips(closer):
    text = f"測試書卷三\n經文【注】\n{closer}\n測試書卷三"
    doc = parse_siku(text, "x.txt")
    assert doc.sections[0].title == "請射"
    assert doc.render() == text


def test_a_main_text_line_with_a_space_is_not_a_chapter():
    text = "測試書卷三\n射禮 嘉禮一\n射人戒\n右戒\n公升 即席【注】\n右升\n測試書卷三"
    doc = parse_siku(text, "x.txt")
    assert [c.title for c in doc.chapters] == ["射禮"]
    assert [p.text for p in doc.sections[1].pieces] == ["公升 即席", "注"]


def test_blank_lines_after_a_closer_make_no_phantom_section():
    text = "測試書卷三\n射人戒\n右戒\n\n\n測試書卷三"
    doc = parse_siku(text, "x.txt")
    assert [s.title for s in doc.sections] == ["戒"]
    assert doc.render() == text


@pytest.mark.django_db
def test_blank_lines_round_trip_through_the_database(empty_db, tmp_path):
    text = "測試書卷三\n射人戒\n右戒\n\n乃射\n右射\n\n測試書卷三"
    juan = import_file(write(tmp_path, "blank.txt", text)).juan
    assert juan.sections.count() == 2
    assert render_source(juan) == text


@pytest.mark.parametrize("text,message", [
    ("測試書卷九九九九九\n經\n右戒", "x.txt:1:4: juan number 99999 is out of range (0–9999)"),
])
def test_juan_number_range(text, message):
    with pytest.raises(TextFormatError) as info:
        parse_siku(text, "x.txt")
    assert str(info.value) == message


@pytest.mark.parametrize("args,message", [
    (["--juan", "-5"], "juan number -5 is out of range"),
    (["--juan", "99999999999999999999"], "is out of range"),
    (["--juan", "x"], "not a number"),
])
def test_juan_option_range(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("import_texts", str(SEED), *args)


@pytest.mark.parametrize("data,encoding,message", [
    ("測試".encode("utf-16"), "utf-8", "f.txt:1:1: the file is UTF-16 (it starts with a UTF-16 byte order mark); "
                                       "import it with --encoding utf-16"),
    ("測試書卷三\n經".encode("utf-16-le"), "utf-8", "f.txt:1:1: not UTF-8: the bytes read as utf-16-le without a "
                                                   "byte order mark; import it with --encoding utf-16-le"),
    ("測試書卷三 婺源江永撰".encode("utf-16-be"), "utf-8", "f.txt:1:1: not UTF-8: the bytes read as utf-16-be "
                                                       "without a byte order mark; import it with --encoding utf-16-be"),
    # UTF-32's little-endian mark starts with UTF-16's: it was called UTF-16
    ("測試".encode("utf-32"), "utf-8", "f.txt:1:1: the file is UTF-32 (it starts with a UTF-32 byte order mark); "
                                       "import it with --encoding utf-32"),
    ("測試".encode("utf-32"), "utf-16", "f.txt:1:1: the file is UTF-32 (it starts with a UTF-32 byte order mark); "
                                        "import it with --encoding utf-32"),
    ("測試".encode(), "rot13", "f.txt:1:1: unknown text encoding 'rot13' (e.g. utf-8, gb18030, big5)"),
    ("測試".encode(), "base64", "f.txt:1:1: unknown text encoding 'base64' (e.g. utf-8, gb18030, big5)"),
    ("測試".encode(), "no-such-codec", "f.txt:1:1: unknown text encoding 'no-such-codec' (e.g. utf-8, gb18030, big5)"),
    (b"\xe6\xb8\xac\r\xe8\xa9\xa6\r", "utf-8", "f.txt:1:2: lines end with CR only (old Mac line endings): "
                                               "convert them to LF or CRLF"),
])
def test_encoding_problems_are_explained(data, encoding, message):
    with pytest.raises(TextFormatError) as info:
        decode_bytes(data, "f.txt", encoding)
    assert str(info.value) == message


def test_utf32_imports_when_named():
    assert decode_bytes(SMALL.encode("utf-32"), "f.txt", "utf-32") == SMALL


def test_utf16_imports_when_named():
    text = decode_bytes(SMALL.encode("utf-16"), "f.txt", "utf-16")
    assert text == SMALL  # Python's utf-16 codec consumes the byte order mark
    assert parse_siku(text, "f.txt").render() == SMALL


def test_big5_is_explained_then_imported_when_named(tmp_path):
    text = "測試書卷三 婺源江永撰\n射禮 嘉禮一\n射人戒【戒告也】宰戒\n右戒射\n測試書卷三"
    path = write(tmp_path, "big5.txt", text.encode("big5"))
    with pytest.raises(TextFormatError, match=r"big5.txt:1:1: not valid utf-8: .*name it with --encoding"):
        decode_bytes(path.read_bytes(), "big5.txt")
    assert parse_siku(decode_bytes(path.read_bytes(), "big5.txt", "big5"), "big5.txt").render() == text


def test_a_two_megabyte_line(tmp_path):
    line = ("射人戒【戒告也】宰戒" * 210_000)[:700_000]  # 700k characters, 2.1 MB of UTF-8
    text = f"測試書卷三\n{line}\n右戒射\n測試書卷三"
    assert len(text.encode()) > 2_000_000
    doc = parse_siku(text, "long.txt")
    assert doc.render() == text
    assert len(doc.sections) == 1 and len(doc.notes()) == line.count("【")


@pytest.mark.parametrize("text, at, message", [
    ("測" * 300 + "卷三 婺源江永撰\n射禮 嘉禮一\n射人戒【戒告也】宰戒\n右戒射\n測試書卷三", "1:1",
     f"the work title is 300 characters long, more than the 200 the library keeps (「{'測' * 20}…」)"),
])
def test_a_value_longer_than_its_column_is_refused_where_it_stands(empty_db, tmp_path, text, at, message):
    """SQLite stored a 300-character title in a column of 200; PostgreSQL refused the file with
    "value too long for type character varying(200)", naming neither the file nor the line."""
    path = write(tmp_path, "long.txt", text)
    with pytest.raises(TextFormatError) as info:
        import_file(path)
    assert str(info.value) == f"{path}:{at}: {message}: is a line break missing?"
    assert not Juan.objects.exists() and not Work.objects.exists()


@pytest.mark.django_db
def test_a_file_cut_inside_a_gaiji_entity_keeps_it_as_text_and_says_where(empty_db, tmp_path):
    """A Kanripo file cut in the middle of ``&KR0237;`` imported without a word: the five
    characters ``&KR02`` stood in the text as if they were the text."""
    repo = tmp_path / "KR9a0003"
    repo.mkdir()
    text = ("# -*- mode: mandoku-view; -*-\n#+TITLE: 某書\n#+PROPERTY: ID KR9a0003\n"
            "甲&KR0237;乙(丙/丁)¶\n戊己&KR;庚¶\n辛&KR02")
    path = repo / "KR9a0003_001.txt"
    path.write_text(text, encoding="utf-8")
    result = import_file(path)
    assert [w for w in result.warnings if "gaiji" in w] == [
        f"{path}:5:3: 「&KR;庚¶」 is not a whole gaiji entity (&KR, 1 to 5 digits, ;): kept as text",
        f"{path}:6:2: 「&KR02」 is not a whole gaiji entity (&KR, 1 to 5 digits, ;): kept as text"]
    assert "".join(p.text for s in result.juan.sections.all() for p in s.pieces.all()).endswith("戊己&KR;庚辛&KR02")
    assert render_source(result.juan) == text


def test_damaged_gaiji_warnings_past_five_are_counted():
    assert damaged_entity_warnings("&KR1;" + "&KR" * 7, "z.txt")[5:] == [
        "z.txt: 2 more damaged gaiji entities, kept as text"]
    assert damaged_entity_warnings("甲&KR1969;乙&KR0001;", "z.txt") == []


@pytest.mark.django_db
def test_a_direction_control_is_kept_as_text_and_named_where_it_stands(empty_db, tmp_path, capsys):
    """U+202E RIGHT-TO-LEFT OVERRIDE in a file imported without a word: it shows the text after
    it in reverse order (「射人戒」 over 「戒人射」), so a line read otherwise than it was stored. The
    import keeps it (stored text as imported, written back byte for byte) and warns with file,
    line and column, as for a damaged gaiji entity."""
    text = ("測試書卷三 婺源江永撰\n射禮 嘉禮一\n射\u202e人戒【戒告也\u2066】宰戒\n右戒射\u202c\n"
            + "乙\u2069" * 6 + "\n右乙\n測試書卷三")
    path = write(tmp_path, "bidi.txt", text)
    control = "(a direction control, which makes the text after it show in another order than it is stored): kept as text"
    result = import_file(path)
    assert [w for w in result.warnings if "direction" in w] == [
        f"{path}:3:2: U+202E RIGHT-TO-LEFT OVERRIDE {control}", f"{path}:3:9: U+2066 LEFT-TO-RIGHT ISOLATE {control}",
        f"{path}:4:4: U+202C POP DIRECTIONAL FORMATTING {control}", f"{path}:5:2: U+2069 POP DIRECTIONAL ISOLATE {control}",
        f"{path}:5:4: U+2069 POP DIRECTIONAL ISOLATE {control}",
        f"{path}: 4 more direction controls (U+202A–U+202E, U+2066–U+2069), kept as text"]
    call_command("import_texts", str(path))  # the command says them (two alike as one)
    assert [line for line in capsys.readouterr().err.splitlines() if "direction" in line][3:] == [
        f"note: {path}:5:2: U+2069 POP DIRECTIONAL ISOLATE {control} (and 1 more like it)",
        f"note: {path}: 4 more direction controls (U+202A–U+202E, U+2066–U+2069), kept as text"]
    juan = Juan.objects.get()
    assert [p.text for s in juan.sections.order_by("position") for p in s.pieces.order_by("position")][:3] == [
        "射\u202e人戒", "戒告也\u2066", "宰戒"]
    assert render_source(juan) == text


@pytest.mark.django_db
def test_a_direction_control_is_shown_on_the_page_not_applied(empty_db, tmp_path, client):
    """The reading page shows a stored direction control as its code point (the breaker's 射者
    【\u202e反向射】 turned the rest of its paragraph round on the page); the text after it reads
    in its stored order, and the stored text keeps it."""
    import_file(write(tmp_path, "bidi.txt", "測試書卷三 婺源江永撰\n射禮 嘉禮一\n射\u202e人戒【戒告也】宰戒\n右戒射\n測試書卷三"))
    page = client.get(f"/works/{Juan.objects.get().edition.slug}/juan/3/").content.decode()
    assert "\u202e" not in page
    assert ('射<span class="control" title="U+202E RIGHT-TO-LEFT OVERRIDE：原文所有之方向控制字元，顯示而不施行 '
            '(a direction control in the source, shown, not applied)">⟨U+202E⟩</span>人戒') in page


def test_a_file_cut_inside_a_character_says_so_not_that_it_is_in_another_encoding(empty_db, tmp_path, capsys):
    """A UTF-8 file cut short in the middle of its last character (a copy or download that
    stopped) was refused as "not valid utf-8 … if the file is in another encoding such as GB18030
    or Big5, name it with --encoding", which sent its reader after an encoding it was not in."""
    text = "測試書卷三 婺源江永撰\n射禮 嘉禮一\n射人戒【戒告也】宰戒\n右戒射"
    cut = write(tmp_path, "cut.txt", text.encode()[:-1])
    said = ("the file ends inside a character: its last 2 bytes (0xe5 0xb0, from byte offset 86) begin a utf-8 "
            "character that the file does not finish: the file was cut short (copy it again), not written in another encoding")
    with pytest.raises(CommandError):
        call_command("import_texts", str(cut))
    assert f"rejected {cut}:4:3: {said}" in capsys.readouterr().err
    with pytest.raises(TextFormatError) as info:
        import_file(cut)
    assert str(info.value) == (
        f"{cut}:4:3: the file ends inside a character: its last 2 bytes (0xe5 0xb0, from byte offset 86) begin a utf-8 "
        "character that the file does not finish: the file was cut short (copy it again), not written in another encoding")
    gb = write(tmp_path, "cut_gb.txt", text.encode("gb18030")[:-1])
    with pytest.raises(TextFormatError) as info:
        import_file(gb, encoding="gb18030")
    assert str(info.value) == (
        f"{gb}:4:3: the file ends inside a character: its last byte (0xc9, from byte offset 59) begins a gb18030 "
        "character that the file does not finish: the file was cut short (copy it again), not written in another encoding")
    # a byte that no character may hold, with the text going on after it, is another encoding's
    with pytest.raises(TextFormatError, match=r"cut_mid.txt:4:3: not valid utf-8: byte 0xe5 cannot be decoded \(if "
                                              r"the file is in another encoding such as GB18030 or Big5"):
        import_file(write(tmp_path, "cut_mid.txt", text.encode()[:-1] + "\n測試書卷三".encode()))
    assert not Juan.objects.exists()


@pytest.mark.parametrize("length", [502, 2_000_003])
def test_a_closer_line_too_long_for_a_section_title_is_kept_as_text(empty_db, tmp_path, length):
    """A 右 line of 2,000,003 characters at a section's end refused the file (the section title
    would not fit its column); it is text of the section, with a warning, and writes back."""
    closer = "右" + ("戒射" * (length // 2 + 1))[:length - 1]
    text = f"測試書卷三 婺源江永撰\n射禮 嘉禮一\n射人戒【戒告也】宰戒\n{closer}\n右戒射\n測試書卷三"
    path = write(tmp_path, "long.txt", text)
    result = import_file(path)
    assert result.warnings == [f"{path}:4:1: a 右 line whose section title would be {length - 1:,} characters long, "
                               f"more than the 500 the library keeps: kept as text of the section, not as its closer "
                               f"(is a line break missing?)"]
    section = result.juan.sections.get()
    assert (section.title, section.closer) == ("戒射", "右戒射")
    assert [p.text for p in section.pieces.order_by("position") if p.kind == "text"] == ["射人戒", "宰戒", closer]
    assert render_source(result.juan) == text
    assert SECTION_TITLE_CHARS == Section._meta.get_field("title").max_length


@pytest.mark.django_db
def test_a_file_over_the_size_limit_is_refused_before_it_is_read(empty_db, tmp_path, settings):
    """A 200 MB Kanripo juan was neither imported nor refused: the parser's memory grew to 60–70
    times the file's size. A file over ``IMPORT_MAX_FILE_BYTES`` is refused naming the file, its
    size and the setting; one at the limit imports; in a folder, nothing of it is imported."""
    size = SEED.stat().st_size
    folder = tmp_path / "texts"
    folder.mkdir()
    write(folder, "a.txt", SMALL)
    big = write(folder, "b.txt", SEED.read_bytes())
    settings.IMPORT_MAX_FILE_BYTES = size - 1
    with pytest.raises(TextFormatError) as info:
        import_file(big)
    assert str(info.value) == (
        f"{big}:1:1: the file is {size:,} bytes, over the {size - 1:,} bytes ({(size - 1) / 2**20:g} MB) an import "
        f"reads (the setting IMPORT_MAX_FILE_MB, docs/importing.md); the largest Kanripo juan is under 1.4 MB: a file "
        f"this large is not one juan")
    assert Juan.objects.count() == 0
    with pytest.raises(CommandError, match="^1 of 2 files rejected; nothing was stored from them$"):
        call_command("import_texts", str(folder), stdout=io.StringIO(), stderr=(err := io.StringIO()))
    assert err.getvalue() == f"rejected {info.value}\n"
    assert [j.label for j in Juan.objects.all()] == ["卷三"]  # the other file of the folder
    settings.IMPORT_MAX_FILE_BYTES = size
    assert import_file(big).juan.label == "卷十"


def test_the_size_limit_is_eight_megabytes_by_default(settings):
    """The default is the setting's (``IMPORT_MAX_FILE_MB``, 8): well above the largest file of the
    shared corpus (1.39 MB)."""
    from reader.importers.files import DEFAULT_MAX_FILE_BYTES, max_file_bytes

    assert settings.IMPORT_MAX_FILE_BYTES == DEFAULT_MAX_FILE_BYTES == 8 * 2**20 == max_file_bytes()
    del settings.IMPORT_MAX_FILE_BYTES
    assert max_file_bytes() == 8 * 2**20
