"""A juan's 考證 in a file of its own (周易註疏 KR1a0007: 卷六 in KR1a0007_022, 卷六考證 in
KR1a0007_023, its header ``#+PROPERTY: JUAN 卷六考證``) is the 四庫 editors' collation notes on
that juan, stored as they are when the 考證 is a part of the juan's file (尚書注疏 卷二考證):
``editorial`` (按), named 考證, not the classic; search finds it under ``layer=editorial`` and
everywhere, never under ``layer=classic``, and the 白文 view and the maintext export leave it out."""
import shutil
from collections import Counter

import pytest

from reader.importers.document import CLASSIC, EDITORIAL
from reader.importers.loader import import_file
from reader.importers.mandoku import parse_readme
from reader.juans import JuanCount, juan_count
from reader.models import Piece

from .conftest import SHARED, index_all
from .conftest import parse_written_back as parse
from .test_reading_modes import text_of

ZHOUYI = SHARED / "corpus" / "kanripo-jingbu" / "KR1a0007"
#: 卷六考證's second entry, signed by 臣清植 (his name in small print, ``(臣清/植)``, joined).
QINGZHI = "上六象滕口說也○滕集解本作騰虞翻曰騰送也音義云虞作媵疏云王注義得兩通臣清植按儀禮燕及大射篇有媵觚媵爵之文"


def layers(doc) -> dict[tuple[str, str], int]:
    """Characters of ``doc``'s pieces per (layer, layer name)."""
    out: Counter = Counter()
    for p in doc.all_pieces():
        out[(p.effective_layer, p.layer_name)] += len(p.text)
    return dict(out)


def test_a_file_of_kaozheng_is_the_editors_notes_whole():
    doc = parse(ZHOUYI / "KR1a0007_023.txt")
    assert (doc.juan_label, doc.juan_parts) == ("卷六考證", ["卷六考證"])
    assert layers(doc) == {(EDITORIAL, "考證"): 804}
    assert [p.text for p in doc.all_pieces()][1].startswith(QINGZHI)


def test_every_kaozheng_file_of_zhouyi_and_nothing_else_of_it_is_editorial():
    """The 17 files of 周易註疏 whose part is a 考證 (原目, 傳述人, 序, 卷一 … 卷十三, 略例) hold
    nothing but the editors' notes; the juans they follow keep their classic."""
    files = sorted(p for p in ZHOUYI.glob("KR1a0007_0*.txt")
                   if p.read_text(encoding="utf-8").split("#+PROPERTY: JUAN ", 1)[1].split("\n", 1)[0]
                   .rstrip().endswith("考證"))
    assert [f.stem[-3:] for f in files] == ["006", "008", "011", *(f"{n:03d}" for n in range(13, 38, 2)), "041"]
    for f in files:
        assert {layer for layer, _ in layers(parse(f))} == {EDITORIAL}, f.name
    # 卷六's classic: its text and labels, among them its list of 卦 (下經咸　恒　遯　大壯　晉　明夷　家人,
    # 18 characters), one label of the juan's contents
    assert layers(parse(ZHOUYI / "KR1a0007_022.txt")).get((CLASSIC, ""), 0) == 1481
    assert [(c.title, c.category) for c in parse(ZHOUYI / "KR1a0007_022.txt").chapters] == [
        ("咸", "下經"), ("恒", "下經"), ("遯", "下經"), ("大壯", "下經"), ("晉", "下經"), ("明夷", "下經"), ("家人", "下經")]


@pytest.fixture
def juan_six(tmp_path, search_backend):
    folder = tmp_path / "KR1a0007"
    folder.mkdir()
    names = ("KR1a0007_005.txt", "KR1a0007_006.txt", "KR1a0007_022.txt", "KR1a0007_023.txt")  # 原目, 卷六, their 考證
    for name in (*names, "Readme.org"):
        shutil.copy(ZHOUYI / name, folder / name)
    juans = [import_file(folder / name).juan for name in names][2:]
    index_all(search_backend)
    return juans


@pytest.mark.django_db
def test_search_finds_the_kaozheng_as_the_editors_not_as_the_classic(juan_six, client):
    stored = Piece.objects.get(section__juan=juan_six[1], text__startswith=QINGZHI)
    assert (stored.layer, stored.layer_name, stored.is_classic) == (EDITORIAL, "考證", False)
    query = {"q": "大射", "work": "KR1a0007"}
    assert client.get("/api/search/", {**query, "layer": "classic"}).json()["count"] == 0
    for layer in ("editorial", "all"):
        found = client.get("/api/search/", {**query, "layer": layer}).json()
        assert found["count"] == 1, layer
        hit = found["results"][0]
        assert (hit["layer"], hit["layer_name"], hit["juan_label"], hit["before"][-5:], hit["match"]) == (
            EDITORIAL, "考證", "卷六考證", "按儀禮燕及", "大射"), layer


@pytest.mark.django_db
def test_the_plain_view_and_the_maintext_export_leave_the_kaozheng_out(juan_six, client):
    kaozheng = juan_six[1]
    maintext = client.get(f"/api/works/{kaozheng.work_id}/juans/{kaozheng.number}/export/maintext/")
    assert maintext.status_code == 200
    assert "大射" not in maintext.content.decode() and "臣清植" not in maintext.content.decode()
    section = kaozheng.get_absolute_url() + "1/"  # the file's one section
    plain = text_of(client.get(section, {"notes": "hidden"}).content.decode())
    assert "大射" not in plain
    full = text_of(client.get(section, {"notes": "inline"}).content.decode())
    assert "王注義得兩通臣清植按儀禮燕" in full and "及大射篇有媵觚媵爵之文" in full  # read in the default view


class Labelled:
    def __init__(self, number, label):
        self.number, self.label = number, label


def test_the_kaozheng_files_are_counted_as_kaozheng():
    """周易註疏's 42 files with text (Readme.org's labels): 13 卷, 卷首, 17 files of 考證 and 11
    of the rest of its front and back matter (御製 poems, 進表, 職名, 提要, 原目, 傳述人, 序, 略例),
    where the 考證 were counted 卷外 with them (「13 卷（另有卷首 1、卷外 28）」)."""
    _, table = parse_readme((ZHOUYI / "Readme.org").read_text(encoding="utf-8"))
    juans = [Labelled(int(name[-7:-4]), "・".join(dict.fromkeys(label.removeprefix("周易註疏 ") for _, label in parts)))
             for name, parts in sorted(table.items())]
    assert len(juans) == 42
    assert juan_count(juans) == JuanCount(juans=13, head=1, other=11, kaozheng=17)
    assert str(juan_count(juans)) == "13 卷（另有卷首 1、考證 17、卷外 11）"


@pytest.mark.django_db
def test_the_work_page_and_the_catalogue_name_the_kaozheng(juan_six, client):
    assert '<p class="juan-count">1 卷（另有考證 2、卷外 1）</p>' in client.get("/works/KR1a0007/").content.decode()
    assert '<span class="count">1 卷（另有考證 2、卷外 1）</span>' in client.get("/").content.decode()
