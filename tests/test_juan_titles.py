"""A juan's name (``reader.importers.mandoku.juan_titles``): Kanripo's table composes the label of
a file of a book bound in the work from that book's title and the file's heading, writing the
title twice where the heading begins with it (周易註疏 KR1a0007_038 ``周易略例周易略例序``); the
label is the heading. A file of front matter is named by the titles it prints, as the table
names 周禮注疏's (目録・周禮正義序・…, linked as 目録等); where the table leaves it unnamed
(南華真經註疏 KR5c0139_000: ``0``), by the first title it prints (南華眞經序), never 卷〇."""
import shutil

import pytest

from reader.importers.loader import import_file
from reader.importers.mandoku.juan_titles import unrepeated
from reader.juans import nav_label

from .conftest import SHARED
from .conftest import parse_written_back as parse

ZHOUYI = SHARED / "corpus" / "kanripo-jingbu" / "KR1a0007"
NANHUA = SHARED / "corpus" / "kanripo-commentary" / "KR5c0139"


@pytest.mark.parametrize("label, read", [
    ("周易略例周易略例序", "周易略例序"), ("周易略例周易略例", "周易略例"),
    ("周易略例考證", "周易略例考證"), ("周易略例總目", "周易略例總目"), ("卷一", "卷一"),
    ("關關雎鳩", "關關雎鳩"),  # one character twice is no title written twice
    ("", ""),
])
def test_a_title_written_twice_is_read_once(label, read):
    assert unrepeated(label) == read


def test_the_labels_of_the_book_bound_in_zhouyi():
    assert [parse(ZHOUYI / f"KR1a0007_0{n}.txt").juan_label for n in (38, 39, 40, 41)] == [
        "周易略例序", "周易略例總目", "周易略例", "周易略例考證"]


def test_an_unnamed_file_of_front_matter_is_named_by_its_first_title():
    doc = parse(NANHUA / "KR5c0139_000.txt")
    assert (doc.juan_label, doc.juan_number) == ("南華眞經序", 0)
    assert doc.chapters[0].sections[0].paragraphs[0][0].text == "南華眞經序"  # the text stays as printed
    assert parse(NANHUA / "KR5c0139_001.txt").juan_label == "卷之一"


def copied(tmp_path, source, names):
    folder = tmp_path / source.name
    folder.mkdir()
    for name in (*names, "Readme.org"):
        shutil.copy(source / name, folder / name)
    return [import_file(folder / name).juan for name in names]


@pytest.mark.django_db
def test_zhouyi_lueli_pages_name_each_file_once(tmp_path, client):
    preface, contents = copied(tmp_path, ZHOUYI, ("KR1a0007_038.txt", "KR1a0007_039.txt"))
    assert (preface.label, str(preface)) == ("周易略例序", "周易註疏 周易略例序")
    body = client.get(contents.get_absolute_url()).content.decode()
    assert '>← 周易略例序</a>' in body
    assert "周易略例周易略例" not in body
    assert "周易略例周易略例" not in client.get("/works/KR1a0007/").content.decode()


@pytest.mark.django_db
def test_nanhua_front_matter_is_named_as_zhouli_s_is(tmp_path, client):
    front, first = copied(tmp_path, NANHUA, ("KR5c0139_000.txt", "KR5c0139_001.txt"))
    assert (front.number, front.label, front.display_label, str(front)) == (
        0, "南華眞經序", "南華眞經序", "南華真經註疏 南華眞經序")
    body = client.get(first.get_absolute_url()).content.decode()
    assert '>← 南華眞經序</a>' in body
    assert "卷〇" not in body and "卷〇" not in client.get(front.get_absolute_url()).content.decode()
    # the same rule names 周禮注疏's front matter: its titles, the first with 等 in a link
    zhouli = type(front)(number=0, label="目録・周禮正義序・序考證・序周禮廢興・序周禮廢興考證・原目・原目考證")
    assert nav_label(zhouli) == "目録等" and nav_label(front) == "南華眞經序"


def test_a_section_titled_by_its_closer_names_no_front_matter():
    """經典釋文's file 0 opens with the 宋 officials' list under a section its 右 closer titles
    (``右經典釋文三十原書文淵閣秘籍也不知何``): no title of front matter, so the file keeps no label."""
    doc = parse(SHARED / "corpus" / "kanripo-jingbu" / "KR1g0003" / "KR1g0003_000.txt")
    assert doc.chapters[0].sections[0].title == "經典釋文三十原書文淵閣秘籍也不知何"
    assert doc.juan_label == ""
