"""Real 注疏 juans by layer (issue 12): one juan of each of a few 注疏 editions of
``../shared/corpus/kanripo-jingbu``, imported into the test database; search counts per
layer equal a plain scan of the stored pieces of that layer, and the juan page shows each
layer choice's text."""
import re

import pytest

from reader.importers.loader import import_file
from reader.models import Piece, Section
from search.backends import SearchQuery
from search.documents import layers_for

from .conftest import SHARED, index_all
from .test_reading_modes import section_html, text_of

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
#: 周禮注疏 (注, 音義, 疏 釋曰), 春秋公羊傳注疏 (解云), 孝經注疏: the first juan of each.
FILES = ["KR1d0003/KR1d0003_001.txt", "KR1e0006/KR1e0006_001.txt", "KR1f0004/KR1f0004_001.txt"]
QUERIES = ["王", "之", "釋曰", "注", "疏", "音", "反", "曰", "公", "天子", "正義曰", "解云", "鄭", "者也"]
#: A page-break marker of the printed edition (葉 1-2a): not text.
PAGE = re.compile(r'<span class="pb"[^>]*><span class="visually-hidden">[^<]*</span>[^<]*</span>')
CHOICES = ["classic", "commentary", "readings", "subcommentary", "editorial", "smallprint", "notes", "titles",
           "commentary,subcommentary", "classic,readings", "all"]


@pytest.fixture
def zhushu(seed_juan, search_backend):
    juans = [import_file(JINGBU / name).juan for name in FILES]
    index_all(search_backend)
    return juans


def scan(juan) -> dict[str, list[str]]:
    """Passages by layer from the stored pieces, written here: per section the classic
    joined across every other layer, main-text runs of another layer joined per layer, each
    note alone (its source tag as written), the 經 label and titles; marker words in none."""
    out: dict[str, list[str]] = {}
    for section in Section.objects.filter(juan=juan).order_by("position"):
        runs: dict[str, str] = {}
        for p in Piece.objects.filter(section=section).order_by("position"):
            if p.kind == "label":
                if p.layer == "classic":
                    out.setdefault("title", []).append(p.text)
            elif p.kind == "record":
                runs["record"] = runs.get("record", "") + p.text
            elif p.kind == "record_note":
                out.setdefault("record_note", []).append(p.text + p.tag_separator + p.source_tag)
            elif p.kind == "text" or p.layer == "classic":
                runs[p.layer] = runs.get(p.layer, "") + p.text
            else:
                out.setdefault(p.layer, []).append(p.text + p.tag_separator + p.source_tag)
        for layer, text in runs.items():
            out.setdefault(layer, []).append(text)
        if section.title:
            out.setdefault("title", []).append(section.closer if section.closer and section.closer.endswith(
                section.title) else section.title)
    for chapter in juan.chapters.all():
        out.setdefault("title", []).extend(t for t in (chapter.title, chapter.category) if t)
    return out


def test_counts_per_layer_equal_a_plain_scan(zhushu, search_backend):
    scanned = [scan(juan) for juan in zhushu]
    assert {layer for s in scanned for layer in s} >= {"classic", "commentary", "readings", "subcommentary"}
    for juan, passages in zip(zhushu, scanned):
        for choice in CHOICES:
            layers = layers_for(choice)
            texts = [t for layer in layers for t in passages.get(layer, [])]
            for q in QUERIES:
                result = search_backend.search(SearchQuery(q, layers=layers, exact=True, edition_ids=(juan.edition_id,)))
                assert result.count == sum(t.count(q) for t in texts), (juan.work.slug, choice, q)
    # 周禮注疏: the sub-commentary opens 釋曰, and every 釋曰 of the juan is in it
    zhouli = search_backend.search(SearchQuery("釋曰", exact=True, edition_ids=(zhushu[0].edition_id,)))
    assert {h.layer for h in zhouli.hits} == {"subcommentary"} and zhouli.count > 50


def test_the_juan_page_in_each_layer_choice(zhushu, client):
    juan = zhushu[0]
    url = f"/works/{juan.work.slug}/juan/{juan.number}/"
    pieces = list(Piece.objects.filter(section__juan=juan, section__position=3).order_by("position"))

    def joined(layers):
        return "".join(p.text for p in pieces if p.layer in layers and p.kind != "label")

    for layers, shown in [("classic", {"classic"}), ("commentary", {"classic", "commentary"}),
                          ("subcommentary", {"classic", "commentary", "readings", "subcommentary"})]:
        for layout in ("horizontal", "vertical"):
            body = client.get(url, {"layers": layers, "layout": layout}).content.decode()
            section = section_html(body, 3)
            seen = "".join(text_of(PAGE.sub("", p)) for p in re.findall(r'<p class="passage">(.*?)</p>', section, re.S))
            labels = "".join(p.text for p in pieces if p.kind == "label" and p.layer in shown - {"classic"})
            assert sorted(seen) == sorted(joined(shown) + labels), (layers, layout)
            assert seen.startswith("十有二人" if layers == "classic" else "十有二人注府治蔵史掌書者")
    body = client.get(url, {"layers": "only-subcommentary", "layout": "horizontal"}).content.decode()
    notes = [text_of(PAGE.sub("", dd)) for dd in re.findall(r"<dd>(.*?)</dd>", section_html(body, 3), re.S)]
    assert notes == ["疏" + p.text for p in pieces if p.kind == "note" and p.layer == "subcommentary"]
    assert notes[0].startswith("疏釋曰府治府蔵史主造文書也")


def test_main_text_export_is_the_classic_alone(zhushu, client):
    juan = zhushu[0]
    text = client.get(f"/api/works/{juan.work_id}/juans/{juan.number}/export/maintext/").content.decode()
    assert "惟王建國辨方正位" in text  # 注, 音義 and 疏 stood between 建國 and 辨方
    assert "釋曰" not in text and "音義" not in text and "本或作冢宰" not in text
