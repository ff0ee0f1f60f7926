"""Real 注疏 juans by layer (issue 12): one juan of each of a few 注疏 editions of
``../shared/corpus/kanripo-jingbu``, imported into the test database; search counts per
layer equal a plain scan of the stored pieces of that layer, and the juan page shows each
layer choice's text."""
import importlib.util
import re
from collections import Counter
from pathlib import Path

import pytest

from reader.importers.document import (
    CLASSIC, COMMENTARY, EDITORIAL, LABEL, NOTE, READINGS, SUBCOMMENTARY, TEXT,
)
from reader.citation import citation_text
from reader.importers.loader import import_file
from reader.importers.mandoku import parse_mandoku, render_mandoku
from reader.importers.mandoku.boundaries import match_form
from reader.importers.mandoku.check import structure_faults
from reader.models import Piece, Section
from search.backends import SearchQuery
from search.documents import layers_for

from .conftest import SHARED, index_all, index_folder, kept_for_the_class, kept_juans, parse_written_back
from .test_reading_modes import section_html, text_of

JINGBU = SHARED / "corpus" / "kanripo-jingbu"
ROOT = Path(__file__).resolve().parent.parent
#: 周禮注疏 (注, 音義, 疏 釋曰), 春秋公羊傳注疏 (解云), 孝經注疏: the first juan of each.
FILES = ["KR1d0003/KR1d0003_001.txt", "KR1e0006/KR1e0006_001.txt", "KR1f0004/KR1f0004_001.txt"]
QUERIES = ["王", "之", "釋曰", "注", "疏", "音", "反", "曰", "公", "天子", "正義曰", "解云", "鄭", "者也"]
#: The entries of the 考證 printed after 孟子注疏 卷一上 and 卷一下 in the file KR1h0003_001.
KAOZHENG_ENTRIES_KR1H0003_001 = 15
#: How the layer of each piece of 孝經注疏 卷一 was decided (``Piece.layer_basis``).
#: (the 考證 entry 蓋天子之孝也○古文無也字 is an entry, not a section title: text of the editorial layer; the
#: heading ``　天子章第二疏(…)`` in the middle of the juan is a chapter's, no piece)
BASES_KR1F0004_001 = {"marked": 62, "default": 16, "reference": 6, "layout": 3}
#: A page-break marker of the printed edition (葉 1-2a): not text.
PAGE = re.compile(r'<span class="pb"[^>]*><span class="visually-hidden">[^<]*</span>[^<]*</span>')
CHOICES = ["classic", "commentary", "readings", "subcommentary", "editorial", "smallprint", "notes", "titles",
           "commentary,subcommentary", "classic,readings", "all"]


@pytest.fixture(scope="class")
def _zhushu_juans(_seeded, django_db_blocker, tmp_path_factory):
    """The juans of ``FILES`` imported beside the session's seed, and a Whoosh index of them all,
    built once for the tests of a class (``kept_for_the_class``): the juans' ids and the index's
    ``SEARCH_BACKENDS`` entry."""
    from django.test import override_settings

    from search.backends import get_search_backend

    params = index_folder(tmp_path_factory.mktemp("zhushu"))

    def build():
        ids = [import_file(JINGBU / name).juan.pk for name in FILES]
        with override_settings(SEARCH_BACKENDS={"default": params}):
            index_all(get_search_backend())
        return ids, params

    yield from kept_for_the_class(django_db_blocker, build)


@pytest.fixture
def zhushu(_zhushu_juans, seed_juan, settings):
    """The juans of ``FILES`` (in that order), with the seed, in the default index (the class's)."""
    return kept_juans(_zhushu_juans, settings)


@pytest.fixture
def zhushu_backend(zhushu):
    """The default backend, holding the seed and the juans of ``FILES``. Do not write to it."""
    from search.backends import get_search_backend

    return get_search_backend()


def scan(juan) -> dict[str, list[str]]:
    """Passages by layer from the stored pieces, written here: per section the classic
    joined across every other layer, main-text runs of another layer joined per layer, each
    note alone (its source tag as written; the parts of a note filed out of reading order,
    六臣註文選, read in reading order and those of one commentator together), the 經 label
    and titles (a section title once: not again when a heading label holds it, 隱公);
    marker words in none."""
    from reader.importers.mandoku.column_order import reading_groups

    out: dict[str, list[str]] = {}
    for section in Section.objects.filter(juan=juan).order_by("position"):
        runs: dict[str, str] = {}
        pieces = list(Piece.objects.filter(section=section).order_by("position"))
        last = None  # a note's part read on by the next part of its note (same commentator and layer)
        for group in reading_groups(pieces, juan.columns_reversed) or [[p] for p in pieces]:
            for k, p in enumerate(group):
                if k == 0:
                    last = None
                if p.kind == "note" and p.layer != "classic" and last is not None and not last.source_tag \
                        and (last.layer, last.commentator) == (p.layer, p.commentator):
                    out[p.layer][-1] += p.text + p.tag_separator + p.source_tag
                    last = p
                    continue
                if p.kind == "note" and p.layer != "classic":
                    last = p
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
        labels = {p.text for p in Piece.objects.filter(section=section, kind="label", layer="classic")}
        if section.title and section.title not in labels:  # a heading label is the title's text: once
            out.setdefault("title", []).append(section.closer if section.closer and section.closer.endswith(
                section.title) else section.title)
    for chapter in juan.chapters.all():
        out.setdefault("title", []).extend(t for t in (chapter.title, chapter.category) if t)
    return out


class TestOnTheZhushuJuans:
    """One juan of each 注疏 edition of ``FILES`` (``zhushu``, imported and indexed once for the
    class): search counts per layer, the pages, the exports, citations."""

    def test_counts_per_layer_equal_a_plain_scan(self, zhushu, zhushu_backend):
        scanned = [scan(juan) for juan in zhushu]
        assert {layer for s in scanned for layer in s} >= {"classic", "commentary", "readings", "subcommentary"}
        for juan, passages in zip(zhushu, scanned):
            for choice in CHOICES:
                layers = layers_for(choice)
                texts = [t for layer in layers for t in passages.get(layer, [])]
                for q in QUERIES:
                    result = zhushu_backend.search(SearchQuery(q, layers=layers, exact=True, edition_ids=(juan.edition_id,)))
                    assert result.count == sum(t.count(q) for t in texts), (juan.work.slug, choice, q)
        # 周禮注疏: the sub-commentary opens 釋曰, and every 釋曰 of the juan is in it
        zhouli = zhushu_backend.search(SearchQuery("釋曰", exact=True, edition_ids=(zhushu[0].edition_id,)))
        assert {h.layer for h in zhouli.hits} == {"subcommentary"} and zhouli.count > 50

    def test_the_juan_page_in_each_layer_choice(self, zhushu, client):
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
                assert seen.startswith("府六人史十有二人" if layers == "classic" else "府六人史十有二人注府治蔵史掌書者")
        body = client.get(url, {"layers": "only-subcommentary", "layout": "horizontal"}).content.decode()
        notes = [text_of(PAGE.sub("", dd)) for dd in re.findall(r"<dd>(.*?)</dd>", section_html(body, 3), re.S)]
        # each note opens with its label: the layer's name and its writer, as the byline names him
        assert notes == ["疏賈公彥" + p.text for p in pieces if p.kind == "note" and p.layer == "subcommentary"]
        assert notes[0].startswith("疏賈公彥釋曰府治府蔵史主造文書也")

    def test_main_text_export_is_the_classic_alone(self, zhushu, client):
        juan = zhushu[0]
        text = client.get(f"/api/works/{juan.work_id}/juans/{juan.number}/export/maintext/").content.decode()
        assert "惟王建國辨方正位" in text  # 注, 音義 and 疏 stood between 建國 and 辨方
        assert "釋曰" not in text and "音義" not in text and "本或作冢宰" not in text

    def test_how_each_layer_was_decided_is_stored_shown_and_in_the_api(self, zhushu, client):
        """孝經注疏 開宗明義章: ``…曾子侍注…子曰先王有至德要道以順天下民用和睦上下無怨汝知之乎注…
        知之乎曾子避席曰參不敏何足以知之…``: where the classic resumes inside the full-size 注
        without small print, the 疏's lemma (layout) or the reference text of 孝經 (reference)
        decided it; the piece says so in the database, the API and, with a quiet mark, the page."""
        juan = zhushu[2]
        section = Section.objects.get(juan=juan, position=1)
        decided = [(p.layer_basis, p.layer, p.text) for p in section.pieces.order_by("position")
                   if p.layer_basis in ("reference", "layout")]
        assert decided == [
            ("layout", CLASSIC, "曾子侍"), ("reference", CLASSIC, "知之乎曾子避席曰參不敏何足以知之"),
            ("reference", CLASSIC, "子曰夫孝德之本也"), ("layout", CLASSIC, "敎之所由生也"),
            ("reference", CLASSIC, "復坐吾語汝")]
        assert Counter(Piece.objects.filter(section__juan=juan).values_list("layer_basis", flat=True)) == Counter(
            BASES_KR1F0004_001)
        body = client.get(section.get_absolute_url()).content.decode()
        assert ('class="text inferred" id="s1-p' in body
                and 'data-basis="reference" title="此處經文起訖據他本經文推定">復坐吾語汝</span>' in body)
        assert body.count('class="text inferred"') == 5
        data = client.get(f"/api/editions/{juan.edition_id}/juans/{juan.number}/").json()
        pieces = data["chapters"][0]["sections"][0]["pieces"]
        assert [(p["layer_basis"], p["text"]) for p in pieces if p["layer_basis"] in ("reference", "layout")] == \
            [(basis, text) for basis, _, text in decided]

    def test_a_citation_keeps_the_first_dynasty_of_a_byline_of_several(self, zhushu):
        """周禮注疏, which Kanripo's catalogue lists: the citation names its people each with his
        dynasty (〔漢〕鄭玄, not 鄭氏注 without his dynasty); the seed's 禮書綱目, a work with no
        Kanripo ID and no byline of several, is cited by its author field (江永)."""
        section = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(juan=zhushu[0], position=2)
        assert citation_text(section).startswith("〔漢〕鄭玄注\u3000〔唐〕賈公彥疏\u3000〔唐〕陸德明音義《周禮注疏》卷一〈天官冢宰第一〉")
        seed = Section.objects.select_related("juan__work", "juan__edition", "chapter").get(
            juan__edition__slug="禮書綱目", position=2)
        assert citation_text(seed) == "江永《禮書綱目》卷十〈大射儀〉「右張侯」"




# -- parser only: the faults a fresh-clone trial found in 周禮注疏 卷一 (KR1d0003_001) ------------

def parse_real(name):
    path = JINGBU / name
    return parse_mandoku(path.read_text(encoding="utf-8"), str(path),
                         (path.parent / "Readme.org").read_text(encoding="utf-8"))


def pieces_of(section):
    return [(p.kind, p.effective_layer, p.layer_name, p.text) for p in section.pieces]


def test_first_section_of_zhouli_juan_1_piece_by_piece():
    """The chapter heading, then 惟王建國 (classic), its 注 (鄭注), 音義 and 疏, each in its layer."""
    doc = parse_real("KR1d0003/KR1d0003_001.txt")
    chapter = doc.chapters[0]
    assert (chapter.title, chapter.heading) == ("天官冢宰第一", "天官冢宰第一")
    got = pieces_of(doc.sections[0])
    commentary = ("建立也周公居攝而作六典之職謂之周禮營邑於土中七年致政成王以此禮授之使居雒邑治天下司徒職曰日至之景尺"
                  "有五寸謂之地中天地之所合也四時之所交也風雨之所㑹也隂陽之所和也然則百物阜安乃建王國焉")
    assert got[:10] == [
        (LABEL, READINGS, "音義", "音義"),  # 音義 on the heading: 本或作冢宰上…
        (NOTE, READINGS, "音義", "本或作冢宰上非餘卷放此"),
        (TEXT, CLASSIC, "", "惟王建國"),
        (LABEL, COMMENTARY, "鄭注", "注"),
        (NOTE, COMMENTARY, "鄭注", commentary),
        (LABEL, READINGS, "音義", "音義"),
        (NOTE, READINGS, "音義", "王如字干寳云王天子之號三代所稱雒音洛水名也本作洛後漢都洛陽改為雒景京領反下皆同"),
        (LABEL, SUBCOMMENTARY, "疏", "疏"),
        got[8],
        (TEXT, CLASSIC, "", "辨方正位"),
    ]
    assert got[8][:3] == (NOTE, SUBCOMMENTARY, "疏") and got[8][3].startswith("釋曰自此以下至以為民極五句六官之首")
    assert len(got[8][3]) == 1055 and got[8][3].endswith("豈王國未立先建諸侯國乎眀不可也")
    # the section ends with the 疏 on 辨方正位; 體國經野 and its 注 open the next one together
    assert got[-2:][0] == (LABEL, SUBCOMMENTARY, "疏", "疏") and got[-1][3].endswith("不可以常法難之也")
    second = pieces_of(doc.sections[1])
    assert second[:3] == [(TEXT, CLASSIC, "", "體國經野"), (LABEL, COMMENTARY, "鄭注", "注"),
                          (NOTE, COMMENTARY, "鄭注", "體猶分也經謂為之里數鄭司農云營國方九里國中九經九緯左祖右社面朝後市野則"
                                                     "九夫為井四井為邑之屬是也")]
    assert (doc.sections[1].line, doc.sections[1].continues_paragraph) == (75, True)
    assert structure_faults(doc) == []


def test_no_section_opens_inside_an_entry():
    """A section cut for size opens with classic words: 府六人史十有二人 (cut at a line break
    inside the phrase before) is one piece again, and 夏采's 疏 stays with 夏采."""
    doc = parse_real("KR1d0003/KR1d0003_001.txt")
    firsts = [s.pieces[0] for s in doc.chapters[0].sections]
    assert [(p.kind, p.effective_layer) for p in firsts[1:]] == [(TEXT, CLASSIC)] * (len(firsts) - 1)
    assert [p.text for p in firsts[1:]] == [
        "體國經野", "府六人史十有二人", "甸師下士二人府一人史二人胥三十人徒三百人", "幕人下士一人府二人史二人徒四十人",
        "寺人王之正内五人", "夏采下士四人史一人徒四人"]
    assert render_mandoku(doc) == (JINGBU / "KR1d0003" / "KR1d0003_001.txt").read_text(encoding="utf-8")


def test_kaozheng_entries_are_editorial_paragraphs():
    """卷一考證: an entry runs on in its indented lines (no 教字今改正 or 衍 section titles),
    a sub-entry (又…, 疏…) is a paragraph of its own, and (臣照/)按 is part of the sentence."""
    doc = parse_real("KR1d0003/KR1d0003_001.txt")
    part = doc.chapters[-1]
    assert part.title == "卷一考證" and len(part.sections) == 1 and part.sections[0].title == ""
    paragraphs = part.sections[0].paragraphs
    assert {(p.kind, p.layer, p.layer_name) for para in paragraphs for p in para} == {(TEXT, EDITORIAL, "考證")}
    texts = ["".join(p.text for p in para) for para in paragraphs]
    assert texts[:3] == ["惟王建國疏周公以政教不均○以監本訛作於又脱教字今改正",
                         "辨方正位疏在地置𣙗○置𣙗監本訛𣙗日今据注引匠人文改正",
                         "又太保朝至于洛汭○臣照按召誥無汭字或唐時別本有之抑以下文有洛汭字而誤衍歟"]
    assert texts[6:10] == ["甸師疏以其共野之薦○共野下疑當有果蓏二字", "瘍醫疏注潰則未必有膿也○玩文義上下不相屬疑衍",
                           "閽人囿斿亦如之○斿監本作游石經釋文作斿今從之",
                           "疏或以為斿亦謂城郭中於宫外為之者也○於宫外為之監本作與公所為今改正"]
    assert len(texts) == 11
    # the name may be split over two printed lines: (臣人/)¶　(龍/)按 in 毛詩注疏 卷三考證
    maoshi = parse_real("KR1c0004/KR1c0004_003.txt")
    text = "".join(p.text for p in maoshi.chapters[-1].sections[0].pieces)
    assert "○臣人龍按此説未安" in text and "○臣德齡按内司服作緣衣" in text
    # 左傳 卷十五 writes its part 考証: editors' notes too
    zuo = parse_real("KR1e0004/KR1e0004_015.txt")
    assert zuo.juan_label == "卷十五" and zuo.chapters[-1].title == "卷十五考証"
    assert {p.layer for s in zuo.chapters[-1].sections for p in s.pieces} == {EDITORIAL}


def test_the_classic_resumes_after_commentary_without_small_print():
    """論語注疏 為政: ``子曰詩三百注孔曰篇之大數一言以蔽之注包曰蔽…`` -- the 疏's lemma of the note
    (注孔曰篇之大數○) and its quotation of the classic (一言以蔽之者) end the note."""
    doc = parse_real("KR1h0007/KR1h0007_002.txt")
    pieces = [(p.kind, p.effective_layer, p.text) for p in doc.all_pieces()]
    at = pieces.index((TEXT, CLASSIC, "子曰詩三百"))
    assert pieces[at:at + 8] == [
        (TEXT, CLASSIC, "子曰詩三百"), (LABEL, COMMENTARY, "注"), (NOTE, COMMENTARY, "孔曰篇之大數"),
        (TEXT, CLASSIC, "一言以蔽之"), (LABEL, COMMENTARY, "注"), (NOTE, COMMENTARY, "包曰蔽"),
        (NOTE, COMMENTARY, "猶當也"), (TEXT, CLASSIC, "曰思無邪")]
    # a note the 疏 lemmatizes by its first and last words (注孔曰至大數 style, 孝經注疏)
    xiao = [(p.kind, p.effective_layer, p.text) for p in parse_real("KR1f0004/KR1f0004_002.txt").all_pieces()]
    at = xiao.index((NOTE, COMMENTARY, "言必守法行必遵道"))
    assert xiao[at + 1] == (TEXT, CLASSIC, "口無擇言身無擇行")
    assert render_mandoku(doc) == (JINGBU / "KR1h0007" / "KR1h0007_002.txt").read_text(encoding="utf-8")


def test_return_to_classic_rules():
    from reader.importers.mandoku.classic_returns import return_to_classic
    # whole-note lemma confirmed by the quoted classic
    assert return_to_classic("孔曰篇之大數一言以蔽之", "正義曰詩三百者…也一言以蔽之者蔽猶當也注孔曰篇之大數○正義曰", True) == 6
    # a lemma by first and last words, even before small print (classic_follows False)
    assert return_to_classic("言必守法行必遵道口無擇言", "注言必至遵道○正義曰", False) == 8
    # a 疏 that retells the note before quoting the classic does not move the cut into the note
    sub = "正義曰…言君臨民以嚴則民敬其上孝慈則忠者言君能上孝於親"
    assert return_to_classic("包曰莊嚴也君臨民以嚴則民敬其上孝慈則忠", sub, True) is None
    # 云…者 quotes a note (周禮注疏), not the classic
    assert return_to_classic("建立也周公居攝", "注釋曰云周公居攝者", True) is None


# -- the classic after commentary, by the shipped classic (尚書, 毛詩, 春秋 editions) ----------

def around(name, text, before=2, after=4):
    """(kind, layer, layer_name, text) of the pieces of a real juan around the first piece
    whose text is ``text``."""
    pieces = [(p.kind, p.effective_layer, p.layer_name, p.text) for p in parse_real(name).all_pieces()]
    at = next(k for k, p in enumerate(pieces) if p[3] == text)
    return pieces[at - before:at + after]


def test_shangshu_classic_resumes_after_kong_zhuan():
    """尚書注疏 大禹謨: ``…黎民敏徳傳敏疾也…衆民皆疾修徳帝曰俞…萬邦咸寧傳攸所也…``: 帝曰俞…咸寧
    is the classic, not the 傳."""
    assert around("KR1b0004/KR1b0004_003.txt", "帝曰俞允若茲嘉言罔攸伏野無遺賢萬邦咸寧") == [
        (LABEL, COMMENTARY, "孔傳", "傳"),
        (NOTE, COMMENTARY, "孔傳", "敏疾也能知為君難為臣不易則其政治而衆民皆疾修徳"),
        (TEXT, CLASSIC, "", "帝曰俞允若茲嘉言罔攸伏野無遺賢萬邦咸寧"),
        (LABEL, COMMENTARY, "孔傳", "傳"),
        (NOTE, COMMENTARY, "孔傳", "攸所也善言無所伏言必用如此則賢才在位天下安寧"),
        (TEXT, CLASSIC, "", "稽于衆舍己從人不虐無告不廢困窮惟帝時克"),
    ]


def test_maoshi_classic_resumes_after_mao_zhuan():
    """毛詩注疏 鵲巢: ``維鵲有巢維鳩方之傳方有之也之子于歸百兩将之傳将送也`` (将 for 將)."""
    assert around("KR1c0004/KR1c0004_002.txt", "維鵲有巢維鳩方之", 0, 6) == [
        (TEXT, CLASSIC, "", "維鵲有巢維鳩方之"),
        (LABEL, COMMENTARY, "傳", "傳"),
        (NOTE, COMMENTARY, "傳", "方有之也"),
        (TEXT, CLASSIC, "", "之子于歸百兩将之"),
        (LABEL, COMMENTARY, "傳", "傳"),
        (NOTE, COMMENTARY, "傳", "将送也"),
    ]


def test_zuozhuan_classic_resumes_after_du_zhu():
    """春秋左傳注疏 隱公元年: ``…大叔又收貳以為己邑至于廪延子封曰可矣厚將得衆注…厚謂土地廣大公曰不義不暱厚将崩``."""
    assert around("KR1e0004/KR1e0004_001.txt", "公曰不義不暱厚将崩", 3, 2) == [
        (TEXT, CLASSIC, "", "子封曰可矣厚將得衆"),
        (LABEL, COMMENTARY, "杜注", "注"),
        (NOTE, COMMENTARY, "杜注", "子封公子吕也厚謂土地廣大"),
        (TEXT, CLASSIC, "", "公曰不義不暱厚将崩"),
        (LABEL, COMMENTARY, "杜注", "注"),
    ]


def test_guliang_and_gongyang_classic_resumes_after_their_notes():
    """穀梁 and 公羊 隱公七年: the 經 ``戎伐凡伯于楚丘以歸`` after the note on 天王使凡伯來聘."""
    guliang = around("KR1e0010/KR1e0010_002.txt", "戎伐凡伯于楚丘以歸", 2, 1)
    assert guliang[1:] == [(NOTE, COMMENTARY, "范注", "凡氏伯字上大夫也"), (TEXT, CLASSIC, "", "戎伐凡伯于楚丘以歸")]
    gongyang = around("KR1e0006/KR1e0006_003.txt", "戎伐凡伯于楚丘以歸", 1, 1)
    assert gongyang[0][:3] == (NOTE, COMMENTARY, "何注") and gongyang[0][3].endswith("歸美於先君不敢以已當之")
    assert gongyang[1] == (TEXT, CLASSIC, "", "戎伐凡伯于楚丘以歸")


def test_guliang_zhuan_after_a_note_across_words_the_reference_has_or_writes_otherwise():
    """穀梁注疏: the 傳 that goes on after a 范注 with no marker between, where the shipped
    reference (欽定春秋傳說彙纂 and 春秋大全's quotations) has more words between or writes some
    otherwise. 昭公三十二年: ``…惟祭與號注祭謂郊上帝號謂稱王故諸侯之大夫相帥以城之此變之正也``,
    the reference with 古者天子封諸侯…把危而不能自守 (38 characters) before 故諸侯…, a tail of
    16 aligned characters (``LONG_GAP_TAIL``). 隱公七年: ``…尊天子之命戎者衞也…貶而戎之也楚邱衞之
    邑也以歸猶愈乎執也``, the reference writes ``貶而戎之楚丘``: the tail is not cut at the hole."""
    zhao = around("KR1e0010/KR1e0010_018.txt", "故諸侯之大夫相帥以城之此變之正也", 1, 1)
    assert zhao == [(NOTE, COMMENTARY, "范注", "祭謂郊上帝號謂稱王"),
                    (TEXT, CLASSIC, "", "故諸侯之大夫相帥以城之此變之正也")]
    yin = around("KR1e0010/KR1e0010_002.txt", "伐一人而同一國尊天子之命", 0, 2)
    assert yin == [(NOTE, COMMENTARY, "范注", "伐一人而同一國尊天子之命"),
                   (TEXT, CLASSIC, "", "戎者衞也戎衞者為其伐天子之使貶而戎之也楚邱衞之邑也以歸猶愈乎執也")]


def test_lunyu_a_misprinted_zhu_is_told_by_the_formula_after_it():
    """論語注疏 鄉黨 ``…斯出矣泣孔曰杖者老人也…``: 泣 stands where 注 belongs; the 集解 opens its
    notes with 孔曰, 包曰, 馬曰, 鄭曰 (note_formulas), so 泣 before 孔曰 is the marker, kept as
    written, and the note after it is 何注, both decided by the layout."""
    doc = parse_real("KR1h0007/KR1h0007_010.txt")
    pieces = [p for p in doc.all_pieces()]
    at = next(k for k, p in enumerate(pieces) if p.text == "泣")
    assert [(p.kind, p.effective_layer, p.layer_name, p.layer_basis, p.text) for p in pieces[at - 1:at + 2]] == [
        (TEXT, CLASSIC, "", "", "席不正不坐鄉人飲酒杖者出斯出矣"),
        (LABEL, COMMENTARY, "何注", "layout", "泣"),
        (NOTE, COMMENTARY, "何注", "layout", "孔曰杖者老"),
    ]
    # the note goes on below the line, still decided by the layout
    assert (pieces[at + 2].effective_layer, pieces[at + 2].layer_basis, pieces[at + 2].text) == (
        COMMENTARY, "layout", "人也鄉人飲酒之禮主於老者老者禮畢出孔子從而後出")
    assert [p.text for p in pieces if p.kind == LABEL and p.layer == COMMENTARY and p.text != "注"] == ["泣"]
    # 趙岐's 孟子章句 speaks in one voice: no formula opens its notes (孟子曰 or 王曰 open a few),
    # so no character of its classic is read as a marker
    for juan in ("KR1h0003/KR1h0003_002.txt", "KR1h0003/KR1h0003_003.txt"):
        labels = {p.text for p in parse_real(juan).all_pieces() if p.kind == LABEL and p.layer == COMMENTARY}
        assert labels == {"注"}, (juan, labels)


def test_shipped_classics_name_their_source_and_licence_and_load_once():
    from reader.importers.mandoku import classics

    for book, folder in [("shu", "KR1b0046"), ("shi", "KR1c0044"), ("chunqiu", "KR1e0001"), ("zuozhuan", "KR1e0001"),
                         ("gongyang", "KR1e0094"), ("guliang", "KR1e0094"), ("yi", "KR1a0139"), ("zhouli", "KR1d0001"),
                         ("yili", "KR1d0026"), ("yili.judou", "KR1d0038"), ("xiaojing", "KR1f0012"), ("mengzi", "KR1h0001"), ("lunyu", "KR1h0043")]:
        head = [line for line in (classics.CLASSICS_DIR / f"{book}.txt").read_text(encoding="utf-8").splitlines()
                if line.startswith("#")]
        assert f"Kanripo {folder} (https://github.com/kanripo/{folder})" in head[1]
        also = [line for line in head if line.startswith("# Also: ")]
        assert "CC BY-SA 4.0" in head[3 + len(also)] and "scripts/build_classics.py" in head[4 + len(also)]
        assert len(head) == 7 + len(also) and len(also) == (book in ("guliang", "shu"))
    assert [classics.classic_book(t) for t in ("尚書注疏", "毛詩注疏", "春秋左傳注疏", "春秋公羊傳注疏", "春秋穀梁注䟽", "周禮注疏",
                                             "儀禮注疏", "周易註疏", "孝經注疏", "孟子注疏", "論語注疏", "禮記注疏")] \
        == ["shu", "shi", "zuozhuan", "chunqiu+gongyang", "guliang", "zhouli", "yili", "yi", "xiaojing", "mengzi",
            "lunyu", ""]
    classics.classic_reference.cache_clear()
    first = classics.classic_reference("shu")
    assert classics.classic_reference("shu") is first
    assert classics.classic_reference.cache_info().hits == 1 and classics.classic_reference.cache_info().misses == 1
    # 孔安國's 序 (from 文選), then each 篇 with its 書序 passage before it (…作堯典曰若稽古帝堯…)
    assert first.startswith("古者伏犧氏之王天下也始畫八卦造書契以代結繩") and "#" not in first
    assert match_form("\n昔在帝堯聰明文思光宅天下將遜于位讓于虞舜作堯典曰若稽古帝堯曰放勳") in first
    assert "黎民敏德帝曰俞允若茲" in first and match_form("殷既錯天命微子作誥父師少師") in first
    # 22 lines (the 序, then one per file) joined by newlines; each of 4 &KRnnnn; one character
    assert len(first) == 26775 + 21 - 4 * 7
    both = classics.classic_reference("chunqiu+gongyang")
    assert both.startswith("元年春王正月") and "\n元年者何君之始年也\n" in both


def _build_classics():
    spec = importlib.util.spec_from_file_location("build_classics", ROOT / "scripts" / "build_classics.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_independent_references_are_what_the_build_script_makes():
    """周易 from 大易集義粹言 (the classic printed flush), 論語 from 四書大全 (told from 朱熹's
    集註 by the printed line), 穀梁傳 from 欽定春秋傳說彙纂's 經 and quotations with the words
    春秋大全's quotations add, 尚書 with its 書序 in place: the shipped files are what
    ``scripts/build_classics.py`` makes from the shared corpus; 孟子 (趙岐's text, the tls 白文
    KR1h0001, not in the corpus) holds the 注疏's wording."""
    from reader.importers.mandoku import classics

    build = _build_classics()
    jing = SHARED / "corpus" / "kanripo-jingbu"
    lunyu = build.sishu([jing / "KR1h0043" / "KR1h0043_001.txt"], "孟子集註序說")[0]
    assert lunyu.startswith("子曰學而時習之不亦說乎有朋自逺方來不亦樂乎人不知而不愠不亦君子乎有子曰其為人也")
    # the classic ends before its 集註 (務專力也…) and after its readings ((平聲))
    assert "君子務本本立而道生孝弟也者其為仁之本與巧言令色" not in lunyu and "務專力也" not in lunyu
    assert "君子務本本立而道生孝弟也者其為仁之本與" in lunyu and "學之為言效也" not in lunyu
    files, yi = build.jiyi(jing / "KR1a0139")
    assert files[0] == "KR1a0139_003.txt" and yi[1].startswith("彖曰大哉乾元萬物資始乃統天雲行雨施品物流形")

    def body(name):
        return [line for line in (classics.CLASSICS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
                if not line.startswith("#")]

    assert body("yi") == [t for t in yi if t]
    # 尚書: 66 passages of the 書序, each before the 篇 it names; 孔安國's 序 from 文選 first
    corpus = SHARED / "corpus"
    xu = build.shu_preface(corpus)
    assert len(xu) == 66 and xu[0].endswith("讓于虞舜作堯典") and xu[-1].endswith("還歸作秦誓")
    preface = build.wenxuan_preface(corpus, "尚書序")
    assert preface.startswith("古者伏犧氏之王天下也") and preface.endswith("子與我同志亦所不隠也")
    assert body("shu") == [t for t in build.shu(corpus, preface)[1] if t]
    texts = build.sishu([jing / "KR1h0043" / f"KR1h0043_{k:03d}.txt" for k in range(1, 21)], "孟子集註序說")
    assert body("lunyu") == [t for t in texts if t]
    # 陽貨 小子何莫學夫詩: the classic cut into short paragraphs, each followed by a 集註
    # paragraph; one opening with 大全's remarks (怨而不怒(慶源輔氏曰…)) is the 集註 even where
    # its first line reads as wide as the classic's
    assert "可以觀可以羣可以怨邇之事父逺之事君多識於鳥獸草木之名" in "".join(body("lunyu"))
    # 孟子: 趙岐's text (the tls 白文, KR1h0001), one line per 篇, the 注疏's wording
    # (…無獻子之家者也此五人者亦有獻子之家則不與之友矣, where 朱熹's reads otherwise)
    mengzi = body("mengzi")
    assert len(mengzi) == 14 and mengzi[0].startswith("孟子見梁惠王王曰叟不遠千里而來亦將有以利吾國乎")
    assert "無獻子之家者也此五人者亦有獻子之家則不與之友矣" in mengzi[9]
    assert mengzi[13].endswith("然而無有乎爾則亦無有乎爾")
    huizuan = build.huizuan(corpus, "穀梁", "榖梁")[1]
    assert body("guliang") == [t for t in build.merge(huizuan, build.daquan(corpus, "穀梁傳", "榖梁傳")) if t]
    # 隱公元年: the 經, then the 傳 欽定春秋傳說彙纂 quotes, in reading order
    assert body("guliang")[0].startswith("元年春王正月雖無事必舉正月謹始也公何以不言即位成公志也")
    # 定公四年: a passage only 春秋大全 quotes, put in after the 經 entry it follows (庚辰吳入郢)
    assert "何以不言滅也欲存楚也其欲存楚奈何昭王之軍敗而逃" in body("guliang")[33]
    # 莊公三十年 齊人伐山戎: 春秋大全's quotation is looked for from its 經 entry on, so its words
    # go in whole with the 傳 around it, not into 莊公四年's 齊人者齊侯也其曰人何也 (卑公之敵),
    # which its first words match (in the file before)
    assert ("齊人者齊侯也其曰人何也愛齊侯乎山戎也其愛之何也桓内無因國外無從諸侯而越千里之險北伐山戎危之也"
            "則非之乎善之也") in body("guliang")[9]
    assert "齊人者齊侯也其曰人何也卑公之敵所以卑公也何為卑公也" in body("guliang")[6]
    # 莊公四年: 春秋大全's 饗齊侯所以病齊侯也 is 彙纂's 享齊侯所以病齊侯 (饗 and 享 one for
    # matching): the passage stands once, not twice
    assert "夫人姜氏享齊侯于祝丘饗甚矣饗齊侯所以病齊侯也三月" in body("guliang")[6]
    # words the first book lacks go in after the words found before them; a quotation with
    # nothing found goes in after its 經 entry; what both have stays once
    assert build.merge(["甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未", "天干申酉戌亥地支"],
                       [("", "丙丁戊己庚辛壬癸天地玄黃子丑寅卯辰巳午未"), ("申酉戌亥", "宇宙洪荒")]) == [
        "甲乙丙丁戊己庚辛壬癸天地玄黃子丑寅卯辰巳午未", "天干申酉戌亥宇宙洪荒地支"]


def test_a_note_quoting_the_zhuan_after_yue_keeps_its_quotation():
    """左傳注疏 莊公二十五年: the 經 ``鼓用牲于社`` and the 傳 ``…鼓用牲于社非常也`` share words; the
    注 ``鼓伐鼓也用牲以祭社傳例曰非常也`` quotes the 傳 after 曰, so 非常也 stays in the note."""
    pieces = around("KR1e0004/KR1e0004_009.txt", "六月辛未朔日有食之鼓用牲于社", 0, 3)
    assert pieces == [(TEXT, CLASSIC, "", "六月辛未朔日有食之鼓用牲于社"), (LABEL, COMMENTARY, "杜注", "注"),
                      (NOTE, COMMENTARY, "杜注", "鼓伐鼓也用牲以祭社傳例曰非常也")]


def test_gongyang_and_guliang_zhuan_resumes_after_their_notes():
    """The 傳 after a note, by the passages of 公羊傳/穀梁傳 that 欽定春秋傳說彙纂 quotes: 公羊
    宣公六年 ``趙盾曰是何也曰膳宰也注主宰割殽膳者若今大官宰人熊蹯不熟注…``; 穀梁 襄公二十四年
    ``五穀不升為大饑注升成也一穀不升謂之嗛注…``."""
    assert around("KR1e0006/KR1e0006_015.txt", "熊蹯不熟", 3, 2) == [
        (TEXT, CLASSIC, "", "趙盾曰是何也曰膳宰也"), (LABEL, COMMENTARY, "何注", "注"),
        (NOTE, COMMENTARY, "何注", "主宰割殽膳者若今大官宰人"), (TEXT, CLASSIC, "", "熊蹯不熟"),
        (LABEL, COMMENTARY, "何注", "注")]
    assert around("KR1e0010/KR1e0010_016.txt", "一穀不升謂之嗛", 3, 2) == [
        (TEXT, CLASSIC, "", "五穀不升為大饑"), (LABEL, COMMENTARY, "范注", "注"), (NOTE, COMMENTARY, "范注", "升成也"),
        (TEXT, CLASSIC, "", "一穀不升謂之嗛"), (LABEL, COMMENTARY, "范注", "注")]


def test_the_kaozheng_after_a_juans_end_title_is_the_editors_entries_whole():
    """孟子注疏 KR1h0003_001 prints 卷一上, its end title, 「孟子注疏卷一上考證」 and the editors'
    entries, then 卷一下 and its 考證, in one file. Each entry quotes its place and gives the
    note after ○ (``梁惠王章句上注魏惠王居於大梁故號曰梁王○(臣齊燾)按漢書地理志…``): the whole
    entry is the editors' (考證), its lines run on to the blank line that ends it (its first line
    two columns in, the rest flush). The quoted 注 was read as 趙注 and only the part after ○
    as the editors' 按, so 趙注 searches found the editors' quotation again; 故以大梁别之, an
    entry's last line, was a section title."""
    doc = parse_real("KR1h0003/KR1h0003_001.txt")
    assert [c.title for c in doc.chapters] == ["梁恵王章句上", "卷一上考證", "梁惠王章句上", "卷一下考證"]
    pieces = doc.all_pieces()
    entries = [p for p in pieces if p.effective_layer == EDITORIAL]
    assert len(entries) == KAOZHENG_ENTRIES_KR1H0003_001
    assert {(p.kind, p.layer_name) for p in entries} == {(TEXT, "考證")}
    assert entries[0].text == ("梁惠王章句上注魏惠王居於大梁故號曰梁王○臣齊燾按漢書地理志魏初都安邑在漢河東郡安邑"
                               "縣至惠王徙大梁在漢陳留郡浚儀縣魏地有少梁故以大梁别之")
    assert not any(s.title == "故以大梁别之" for s in doc.sections)
    # 卷一下 opens with its 篇 heading; its byline, printed again under its title, is no text
    assert (doc.chapters[2].heading, doc.chapters[2].sections[0].pieces[0].text) == ("梁惠王章句上", "孟子見梁襄王出語人曰望之不似人君")
    assert not any("孫奭" in p.text for p in pieces)
    assert render_mandoku(doc) == (JINGBU / "KR1h0003/KR1h0003_001.txt").read_text(encoding="utf-8")


def test_a_circle_that_quotes_a_scholar_opens_no_readings():
    """欽定詩經傳說彙纂 (KR1c0044) quotes a scholar after each circle of its notes (○劉氏辰翁曰,
    ○孔氏穎達曰); three of them were 陸德明's 音義, for 反 (自衛反魯, 反側) came within a few
    characters of the circle. The readings a circle opens in 莊子注 (○塊苦怪反) stay readings."""
    doc = parse_written_back(JINGBU / "KR1c0044" / "KR1c0044_003.txt")
    notes = [p for c in doc.chapters for s in c.sections for p in s.pieces if p.kind == NOTE]
    assert Counter((p.effective_layer, p.commentator) for p in notes) == {("commentary", ""): 275}
    quoted = [p for p in notes if "○劉氏辰翁曰夫子自衛反魯" in p.text or "○孔氏穎達曰反側" in p.text]
    assert [(p.text[:6], p.effective_layer) for p in quoted] == [
        ("鄭氏康成曰臥", COMMENTARY), ("輔氏廣曰樂不", COMMENTARY)]
    zhuangzi = parse_written_back(SHARED / "corpus" / "kanripo-commentary" / "KR5c0138" / "KR5c0138_001.txt")
    kuai = [p for c in zhuangzi.chapters for s in c.sections for p in s.pieces if p.text.startswith("○塊苦怪反")]
    assert [(p.effective_layer, p.layer_name) for p in kuai] == [(READINGS, "音義")]
