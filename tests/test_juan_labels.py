"""The book's juan labels (reader/juans.py): Kanripo numbers files, readers see and type 卷十.

KR1d0086_012.txt is /works/KR1d0086/juan/12/ and is the book's 卷十; the juan filter of the
search page, the API and ``manage.py search`` take the label."""
import re
from io import StringIO

import pytest
from django.core.management import call_command

from reader.importers.loader import import_file
from reader.importers.mandoku import parse_readme
from reader.juan_labels import JuanLabel, parse_label, short_label
from reader.juans import JuanCount, juan_contents, juan_count, matching_juans, nav_label
from reader.models import Edition, Juan, Piece, Work
from search.service import edition_places
from search.views import juan_labels
from search.signals import muted

from .test_kanripo_import import KANRIPO, _kanripo, kanripo  # noqa: F401  (fixtures)


class FakeJuan:
    def __init__(self, number, label, header=None):
        self.number, self.label, self.pk = number, label, number
        self.header = f"　{label}¶" if header is None else header  # its title line, as a file prints it


@pytest.mark.parametrize("typed,label", [
    ("卷十", JuanLabel(number=10)), ("卷第十", JuanLabel(number=10)), ("巻十", JuanLabel(number=10)),
    ("十", JuanLabel(number=10)), ("10", JuanLabel(number=10)), ("卷 10", JuanLabel(number=10)),
    ("卷十上", JuanLabel(number=10, part="上")), ("卷首下", JuanLabel(head=True, part="下")),
    ("卷首", JuanLabel(head=True)), ("卷十考證", JuanLabel(number=10, suffix="考證")),
    ("卷一百〇五", JuanLabel(number=105)),
    ("序", None), ("采輯羣書目", None), ("十三經序", None), ("二十國年表", None), ("附録卷上", None),
])
def test_labels_are_read_as_the_book_writes_them(typed, label):
    assert parse_label(typed) == label


def kr1d0086_juans():
    """Every file of KR1d0086 with the label the importer gives it (from Readme.org)."""
    _, labels = parse_readme((KANRIPO / "KR1d0086" / "Readme.org").read_text(encoding="utf-8"))
    return [FakeJuan(int(name[-7:-4]), "・".join(dict.fromkeys(lab for _, lab in parts)))
            for name, parts in sorted(labels.items())]


def test_kr1d0086_is_counted_as_the_book_counts_it():
    juans = kr1d0086_juans()
    assert len(juans) == 91
    assert [j.label for j in juans[:4]] == ["采輯羣書目・目錄・序", "卷首上", "卷首中・卷首下", "卷一"]
    # 85 numbered juans; 卷首 in three parts; front matter and 附録卷上/中/下 apart
    assert juan_count(juans) == JuanCount(juans=85, head=3, other=4)
    assert str(juan_count(juans)) == "85 卷（另有卷首 3、卷外 4）"
    assert str(juan_count([FakeJuan(10, "卷十")])) == "1 卷"


def test_a_typed_label_names_the_file():
    juans = kr1d0086_juans()
    assert [j.number for j in matching_juans("卷十", juans)] == [12]
    assert [j.number for j in matching_juans("10", juans)] == [12]
    assert [j.number for j in matching_juans("卷首下", juans)] == [2]
    assert [j.number for j in matching_juans("卷首", juans)] == [1, 2]
    assert [j.number for j in matching_juans("目錄", juans)] == [0]
    assert matching_juans("卷八十六", juans) == []
    split = [FakeJuan(11, "卷十上"), FakeJuan(12, "卷十下"), FakeJuan(13, "卷十考證")]
    assert [j.number for j in matching_juans("卷十", split)] == [11, 12]
    assert [j.number for j in matching_juans("卷十下", split)] == [12]


def test_a_label_is_typed_in_any_form_the_folding_joins():
    """楚辭補注 prints its list of contents 目録: 目錄 and the simplified 目录 name it, as a search folds them;
    卷十考证 names 卷十考證, 卷十下 stays apart from 卷十上."""
    juans = [FakeJuan(0, "目録"), FakeJuan(1, "卷一"), FakeJuan(11, "卷十上"), FakeJuan(12, "卷十下"),
             FakeJuan(13, "卷十考證")]
    for typed in ("目録", "目錄", "目录"):
        assert [j.number for j in matching_juans(typed, juans)] == [0]
    assert [j.number for j in matching_juans("卷十考证", juans)] == [13]
    assert [j.number for j in matching_juans("巻十下", juans)] == [12]
    assert matching_juans("目彔錄", juans) == []


@pytest.fixture
def kanripo_index(kanripo, settings):
    """The search service answering from the index that holds the Kanripo files and the seed."""
    settings.SEARCH_BACKENDS = {"default": {"BACKEND": "search.backends.whoosh.WhooshBackend",
                                            "PATH": kanripo.params["PATH"]}}
    return Edition.objects.get(slug="KR1d0086")


def test_searching_the_books_juan_ten_finds_file_twelve(client, kanripo_index):
    work = kanripo_index
    for juan in ("卷十", "十", "10"):
        page = client.get("/search/", {"q": "大射之儀", "edition": work.pk, "juan": juan})
        assert page.status_code == 200
        html = page.content.decode()
        assert '<a class="where" href="/works/KR1d0086/juan/12/1/?hl=' in html, juan
        assert "禮書綱目（四庫全書・文淵閣本） 卷十〈大射儀〉 §1「戒百官」</a>" in html
    # file 10 is the book's 卷八, which this small checkout does not hold
    page = client.get("/search/", {"q": "大射之儀", "edition": work.pk, "juan": "卷八"})
    assert page.status_code == 400
    assert "沒有「卷八」這一卷 (no juan labelled &#x27;卷八&#x27; in this edition)" in page.content.decode()


def test_the_juan_field_asks_for_the_chosen_books_labels(client, kanripo_index):
    """``/search/juan-labels/``: what the search form's script puts in the 卷 field's list when a
    work or edition is chosen, before any search (search.views.juan_labels_page)."""
    edition = client.get("/search/juan-labels/", {"edition": kanripo_index.pk})
    assert edition["Content-Type"] == "application/json"
    assert edition.json() == {"labels": ["采輯羣書目・目錄・序", "卷一", "卷十"],
                              "hint": "卷名如書中所題，可從所選之書的 3 卷中選（按下方向鍵）"}
    # the work: its three editions' labels, each once, the fullest edition first (KR1d0086, in the book's
    # order), then those the others add; by edition id the seed's 卷十 came first, before the front matter
    assert client.get("/search/juan-labels/", {"work": kanripo_index.work_id}).json() == {
        "labels": ["采輯羣書目・目錄・序", "卷一", "卷十"], "hint": "卷名如書中所題，可從所選之書的 3 卷中選（按下方向鍵）"}
    for params in ({}, {"work": ""}, {"work": "no-such-work"}):
        assert client.get("/search/juan-labels/", params).json() == {
            "labels": [], "hint": "卷名如書中所題，如 卷一、十、序；選定一書，即可從其卷中選"}, params


def test_the_juan_filter_offers_the_books_labels(client, kanripo_index):
    html = client.get("/search/", {"edition": kanripo_index.pk}).content.decode()
    assert ('<datalist id="juan-labels"><option value="采輯羣書目・目錄・序"><option value="卷一">'
            '<option value="卷十"></datalist>') in html
    assert ('<input id="id_juan" type="text" name="juan" list="juan-labels" size="12" placeholder="如 卷一、十、序" '
            'value="" aria-describedby="juan-hint">\n    <span class="visually-hidden" id="juan-hint">卷名如書中所題，'
            '可從所選之書的 3 卷中選（按下方向鍵）</span>') in html
    # no work or edition chosen: no list (every work's labels, about 900 with the Kanripo folders,
    # were one <option> each), the field says how it is filled; a label typed still filters
    for params in ({}, {"q": "大射之儀"}, {"q": "大射之儀", "juan": "卷十"}):
        html = client.get("/search/", params).content.decode()
        assert "<datalist" not in html and 'list="juan-labels"' not in html, params
        assert ('<span class="visually-hidden" id="juan-hint" data-script-hint="卷名如書中所題，如 卷一、十、序；選定一書，'
                '即可從其卷中選">卷名如書中所題，如 卷一、十、序；選定一書並檢索後，可從其卷中選</span>') in html, params
    assert html.count('<tr class="hit">') == 3   # 卷十 of every book
    # with a juan chosen, its chapters are offered
    html = client.get("/search/", {"q": "射", "edition": kanripo_index.pk, "juan": "卷十"}).content.decode()
    assert '<label for="id_chapter">篇</label>' in html and ">大射儀</option>" in html


def test_the_api_takes_the_label(client, kanripo_index):
    data = client.get("/api/search/", {"q": "大射之儀", "juan": "卷十"}).json()
    assert data["count"] == 3  # the seed, KR1d0086 and KR1d0086-WYG: every 卷十
    assert sorted((h["url"].split("/")[4], h["juan"], h["juan_label"]) for h in data["results"]) == [
        ("%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE", 10, "卷十"), ("KR1d0086", 12, "卷十"), ("KR1d0086-WYG", 12, "卷十")]
    data = client.get("/api/search/", {"q": "大射之儀", "juan": "卷十", "edition": kanripo_index.pk}).json()
    assert [(h["juan"], h["juan_label"]) for h in data["results"]] == [(12, "卷十")]
    bad = client.get("/api/search/", {"q": "大射之儀", "juan": "卷九十"})
    assert bad.status_code == 400
    assert bad.json() == {"juan": ["沒有「卷九十」這一卷 (no juan labelled '卷九十')"]}


def test_the_api_and_the_page_fold_a_typed_label(client, kanripo_index):
    """KR1d0086's front file holds 采輯羣書目, 目錄 and 序: typed 目録 or simplified (目录, 采辑群书目) they name
    that file on the API and the search page, as the search folds the query; the payloads are the same."""
    asked = {"q": "韋昭注", "edition": kanripo_index.pk}
    printed = client.get("/api/search/", {**asked, "juan": "目錄"})
    assert printed.status_code == 200
    assert [(h["juan"], h["juan_label"]) for h in printed.json()["results"]] == [(0, "采輯羣書目・目錄・序")]
    for typed in ("目録", "目录", "采辑群书目"):
        folded = client.get("/api/search/", {**asked, "juan": typed})
        assert (folded.status_code, folded.json()) == (200, printed.json())
    page = client.get("/search/", {**asked, "juan": "目录"})
    assert page.status_code == 200 and '<a class="where"' in page.content.decode()


def test_the_command_takes_the_label(kanripo_index):
    out = StringIO()
    call_command("search", "大射之儀", "--edition", str(kanripo_index.pk), "--juan", "卷十", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[-1] == "1 hits in 1 passages"
    assert lines[0] == "禮書綱目（四庫全書・文淵閣本） 卷十 1「戒百官」\t經文\t               [大射之儀]君有命戒射宰戒百官有事於射者射"
    # without a filter, the three editions' hits are told apart as in the hit list's CSV
    out = StringIO()
    call_command("search", "大射之儀", "--context", "2", stdout=out)
    assert out.getvalue().splitlines() == [
        "禮書綱目（欽定四庫全書・純文字本） 卷十 1「戒百官」\t經文\t  [大射之儀]君有",
        "禮書綱目（四庫全書・文淵閣本） 卷十 1「戒百官」\t經文\t  [大射之儀]君有",
        "禮書綱目（四庫全書・文淵閣本・原字） 卷十 1「戒百官」\t經文\t  [大射之儀]君有",
        "3 hits in 3 passages",
    ]


def test_work_and_home_pages_count_juans_as_the_book_does(client, kanripo_index):
    # this checkout holds the front matter, 卷一 and 卷十 of KR1d0086
    assert '<p class="juan-count">2 卷（另有卷外 1）</p>' in client.get("/works/KR1d0086/").content.decode()
    home = client.get("/").content.decode()
    assert '<span class="count">2 卷（另有卷外 1）</span>' in home
    assert '<span class="count">1 卷</span>' in home
    assert Juan.objects.filter(edition=kanripo_index).count() == 3


@pytest.mark.django_db
def test_previous_and_next_juan_links_name_one_juan_each_shortly(client, seed_juan):
    front = "漢書敘例・前漢書目錄・高帝紀第一上・高帝紀第一下・惠帝紀第二"
    Juan.objects.create(work=seed_juan.work, edition=seed_juan.edition, number=9, label=front)
    Juan.objects.create(work=seed_juan.work, edition=seed_juan.edition, number=11, label="卷十一")
    assert nav_label(Juan(number=3, label=front)) == "漢書敘例等"
    assert nav_label(Juan(number=3, label="欽定禮記義疏卷首上之下附錄")) == "欽定禮記義疏卷首…"
    assert nav_label(Juan(number=3)) == "卷三"  # as citations write it
    # a file of several printed 卷 of one juan: their range, never cut (it was 卷二十八上等, decision 0089)
    assert nav_label(Juan(number=28, label="卷二十八上・卷二十八下")) == "卷二十八上至卷二十八下"
    assert nav_label(Juan(number=27, label="卷二十七上・卷二十七中之上・卷二十七中之下・卷二十七下之上・卷二十七下之下")) \
        == "卷二十七上至卷二十七下之下"
    for url in ("/works/禮書綱目/juan/10/", "/works/禮書綱目/juan/10/1/"):
        page = client.get(url).content.decode()
        assert f'aria-keyshortcuts="[" title="{front}">← 漢書敘例等</a>' in page
        assert "卷十一 →</a>" in page
        assert f"← {front}" not in page


REFERENCES = KANRIPO.parent / "kanripo-references"


def test_a_book_cut_by_chapter_counts_chapters_not_juans():
    """周易 (KR1a0001, tls): its files are its chapters, 〈乾〉第一 … 〈雜卦〉, as its Readme names them;
    it was counted 「68 卷（另有卷外 1）」, 〈序卦〉 taken for front matter (序)."""
    _, table = parse_readme((REFERENCES / "KR1a0001" / "Readme.org").read_text(encoding="utf-8"))
    juans = [FakeJuan(int(name[9:12]), titles[0][1]) for name, titles in sorted(table.items())]
    assert (len(juans), juans[0].label, juans[-1].label) == (69, "〈乾〉第一", "〈雜卦〉")
    assert juan_count(juans) == JuanCount(juans=0, head=0, other=0, chapters=69)
    assert str(juan_count(juans)) == "69 篇"
    assert str(juan_count([FakeJuan(1, "卷一"), FakeJuan(2, "〈繫辭上〉"), FakeJuan(3, "序")])) == "1 卷、1 篇（另有卷外 1）"


@pytest.mark.parametrize("label,shown", [
    ("卷二十七上・卷二十七中之上・卷二十七中之下・卷二十七下之上・卷二十七下之下", "卷二十七上至卷二十七下之下"),
    ("卷一上・卷一下", "卷一上至卷一下"), ("卷九十九上・卷九十九中・卷九十九下", "卷九十九上至卷九十九下"),
    ("卷十", "卷十"), ("序・目錄", "序・目錄"), ("卷首中・卷首下", "卷首中・卷首下"), ("卷一・卷二", "卷一・卷二"),
    ("卷中之上・卷下之上・卷下之下", "卷中之上・卷下之上・卷下之下"), ("卷十上・卷十上考證", "卷十上・卷十上考證"),
])
def test_the_parts_of_one_juan_are_labelled_once(label, shown):
    """前漢書 卷二十七 (one file of five parts) was labelled with all five in full; then 卷二十七上至下之下 where
    卷二十八 read 卷二十八上・卷二十八下 elsewhere: a range of printed 卷, both ends in full (decision 0089).
    世説新語's 卷中之上・卷下之上・卷下之下 is no range (卷中之下 is in another file)."""
    assert short_label(label) == shown


def test_the_work_page_lists_a_juans_contents_apart_from_its_kaozheng(client, db):
    """周禮注疏: a juan that goes on with the chapter of the juan before lists that chapter
    (續), and its editors' 考證 as its appendix (卷二 listed 〈卷二考證〉 alone)."""
    with muted():
        for n in (1, 2):
            import_file(KANRIPO.parent / "kanripo-jingbu" / "KR1d0003" / f"KR1d0003_00{n}.txt")
    page = client.get("/works/KR1d0003/").content.decode()
    rows = re.findall(r'<li><a href="/works/KR1d0003/juan/\d+/">(.*?)</a>\s*(.*?)\s*<span class="count">', page)
    assert rows == [
        ("卷一", '<span class="chapter-title">〈天官冢宰第一〉</span><span class="appendix">附〈卷一考證〉</span>'),
        ("卷二", '<span class="chapter-title">〈天官冢宰第一〉（續）</span><span class="appendix">附〈卷二考證〉</span>')]


def test_front_matter_does_not_go_on_into_the_first_juan(client, db):
    """毛詩注疏: 卷首 (file 0: 序, 原目, 傳述人) ends with 〈傳述人〉, and 卷一 opens with its chapter
    〈周南〉 of 國風 (printed 國風 over 周南); every juan was listed as 〈傳述人〉（續）, then with no chapter."""
    with muted():
        for n in (0, 1):
            import_file(KANRIPO.parent / "kanripo-jingbu" / "KR1c0004" / f"KR1c0004_00{n}.txt")
    page = client.get("/works/KR1c0004/").content.decode()
    rows = re.findall(r'<li><a href="/works/KR1c0004/juan/\d+/">(.*?)</a>\s*(.*?)\s*<span class="count">', page)
    assert rows[1] == ("卷一", '<span class="category category-over">國風</span><span class="chapter-title">〈周南〉</span>'
                               '<span class="appendix">附〈卷一考證〉</span>')
    assert "傳述人〉（續）" not in page
    # the juan's reading page heads its chapter, and the API titles it
    juan_page = client.get("/works/KR1c0004/juan/1/").content.decode()
    assert re.findall(r'<h2 class="chapter-title">(.*?)</h2>', juan_page)[:1] == ['周南 <span class="category">國風</span>']
    work = Work.objects.get(kanripo_id="KR1c0004")
    chapters = client.get(f"/api/works/{work.pk}/juans/1/").json()["chapters"]
    assert [(c["title"], c["category"], c["sections"][0]["title"]) for c in chapters] == [
        ("周南", "國風", "關雎"), ("卷一考證", "", "")]  # the first poem, named by its count line


def test_an_original_contents_list_opens_no_chapters(client, db):
    """毛詩注疏 卷首's 原目 (the old edition's table of contents) lists 〈鴻鴈之什詁訓傳第十八〉 …
    〈那之什詁訓傳第三十〉 as entries, not as chapters of 卷首: its titles are LABEL pieces, each a
    paragraph of its own, and the notes on them keep their layers (音義 陸德明, 疏 孔穎達)."""
    with muted():
        for n in (0, 1):
            import_file(KANRIPO.parent / "kanripo-jingbu" / "KR1c0004" / f"KR1c0004_00{n}.txt")
    page = client.get("/works/KR1c0004/").content.decode()
    rows = re.findall(r'<li><a href="/works/KR1c0004/juan/\d+/">(.*?)</a>\s*(.*?)\s*<span class="count">', page)
    assert "之什詁訓傳" not in rows[0][1]
    assert rows[0] == ("御製詠詩六義・提要・序・詩譜序・毛詩譜・原目・傳述人", "".join(
        f'<span class="chapter-title">〈{t}〉</span>' for t in ("提要", "序", "詩譜序", "毛詩譜", "原目", "傳述人")) + "".join(
        f'<span class="appendix">附〈{t}考證〉</span>' for t in ("詩譜序", "毛詩譜", "原目")))
    pieces = Piece.objects.filter(section__juan__edition__work__kanripo_id="KR1c0004", section__juan__number=0,
                                  section__chapter__title="原目").order_by("section__position", "position")
    entry = list(pieces.filter(text="周南闗雎詁訓傳第一").values_list("kind", flat=True))
    following = [(p.kind, p.layer_name, p.text[:6]) for p in pieces if p.text in ("鴻鴈之什詁訓傳第十八", "音義")][:2]
    assert entry == ["label"]
    assert following == [("label", "音義", "音義"), ("label", "音義", "音義")]
    assert pieces.filter(text="鴻鴈之什詁訓傳第十八", kind="label").count() == 1


def test_a_daozang_juan_title_ends_with_its_volume_mark_not_its_label():
    """The 正統道藏 ends each juan's title line with its 帙, a character of the 千字文, and the
    juan's place in it (道德眞經註卷之一得一, 南華眞經注䟽卷之七縁一): the label is 卷之一, and
    the book counts its juans (KR5c0073 四卷, KR5c0139 三十五卷, as their SOURCE lines say),
    where the marks made every juan but KR5c0139's first 卷外."""
    from reader.importers.mandoku import parse_mandoku

    commentary = KANRIPO.parent / "kanripo-commentary"
    labels = {}
    for folder, numbers in (("KR5c0073", range(1, 5)), ("KR5c0139", range(1, 36))):
        for n in numbers:
            path = commentary / folder / f"{folder}_{n:03d}.txt"
            doc = parse_mandoku(path.read_text(encoding="utf-8"), str(path))
            labels[folder, n] = doc.juan_label
    assert [labels["KR5c0073", n] for n in range(1, 5)] == ["卷之一", "卷之二", "卷之三", "卷之四"]
    assert (labels["KR5c0139", 2], labels["KR5c0139", 7], labels["KR5c0139", 35]) == ("卷之二", "卷之七", "卷之三十五")
    for folder, total in (("KR5c0073", 4), ("KR5c0139", 35)):
        juans = [FakeJuan(n, label) for (f, n), label in labels.items() if f == folder]
        assert juan_count(juans) == JuanCount(juans=total, head=0, other=0)


class _Chapters(list):
    def all(self):
        return self


def test_matter_after_the_last_juan_goes_on_with_no_chapter():
    """尚書注疏's 考證跋語 (the editors' postface after 卷十九 and its 考證) opens with no chapter title
    and was listed as 〈洪範〉（續）; 儀禮注疏's 後序 and 孝經注疏's 跋語 likewise went on with the
    last 篇. A juan of front or back matter (``juans._MATTER``) goes on with no chapter; a juan of the
    book's text still does (卷二 〈天官冢宰第一〉（續））."""
    class Chapter:
        def __init__(self, title, category=""):
            self.title, self.category = title, category

    juans = [FakeJuan(1, "卷一"), FakeJuan(2, "卷二"), FakeJuan(3, "考證跋語"), FakeJuan(4, "後序")]
    for juan, chapters in zip(juans, [[Chapter("秦誓", "周書"), Chapter("卷一考證")], [Chapter(""), Chapter("卷二考證")],
                                      [Chapter("")], [Chapter("")]]):
        juan.chapters = _Chapters(chapters)
    juan_contents(juans, opening=set())  # none opens with an anthology's piece (decision 0114)
    assert [([(c.title, c.category, c.continued) for c in j.contents], j.appendices) for j in juans] == [
        ([("秦誓", "周書", False)], ["卷一考證"]), ([("秦誓", "周書", True)], ["卷二考證"]), ([], []), ([], [])]


def test_a_works_labels_come_edition_by_edition_the_fullest_first(db):
    """``search.views.juan_labels`` of a work of two editions: the fullest edition's labels in its
    order (卷首, 卷一, 卷二, 卷三), then what the other adds (its 附録), each once, though the other
    comes first by id (by id: 卷二, 附録, 卷三, 卷首, 卷一); an edition chosen lists its own alone."""
    work = Work.objects.create(title="甲書", slug="jiashu")
    copy = Edition.objects.create(work=work, slug="jiashu-a", label="一本")      # first by id and by name
    fuller = Edition.objects.create(work=work, slug="jiashu-b", label="甲本")
    for edition, labels in ((copy, ["卷二", "附録", "卷三"]), (fuller, ["卷首", "卷一", "卷二", "卷三"])):
        for n, label in enumerate(labels):
            Juan.objects.create(work=work, edition=edition, number=n, label=label, char_count=10)
    assert copy.pk < fuller.pk and work.reading_edition_id() == fuller.pk
    names = {pk: place["full_name"] for pk, place in edition_places().items()}
    assert names[copy.pk] < names[fuller.pk], names
    assert juan_labels(str(work.pk)) == ["卷首", "卷一", "卷二", "卷三", "附録"]
    assert juan_labels("", str(copy.pk)) == ["卷二", "附録", "卷三"]
    assert juan_labels(str(work.pk), str(fuller.pk)) == ["卷首", "卷一", "卷二", "卷三"]
