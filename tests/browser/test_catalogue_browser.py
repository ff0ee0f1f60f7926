"""The catalogue and the facets in a browser (issue 30): / by 部 and 類, a class page, the work
page's class; a search narrowed by a class facet and widened again, and its chart by class;
every page in each state passes axe-core (``Tab.axe``).
Screenshots go to ``artifacts/screenshots/`` (desktop and phone)."""
import shutil
from urllib.parse import unquote

import pytest

from ..conftest import SHARED
from .conftest import SCREENSHOTS  # noqa: F401  (screenshots go there)

pytestmark = pytest.mark.django_db(transaction=True)

HANFEI = SHARED / "corpus" / "kanripo-commentary" / "KR3c0005" / "KR3c0005_001.txt"
SHIJI = SHARED / "corpus" / "kanripo-commentary" / "KR2a0001" / "KR2a0001_201.txt"


@pytest.fixture
def library(site, tmp_path):
    """The seed (禮書綱目, 經部 禮類 as `make setup` classifies it) and 韓非子 卷一 (子部 法家類)."""
    from reader.importers.loader import import_file
    from reader.models import Work

    work = Work.objects.get(title="禮書綱目")
    work.classification = "KR1d"
    work.save()
    folder = tmp_path / "KR3c0005"
    folder.mkdir()
    shutil.copy(HANFEI, folder)
    import_file(folder / HANFEI.name)
    return site


def test_browsing_the_catalogue(library, tabs):
    for device in ["desktop", "phone"]:
        check_browsing_the_catalogue(library, tabs, device)


def check_browsing_the_catalogue(library, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(library + "/")
    assert tab.axe() == []
    assert page.locator("h2").all_inner_texts()[:2] == ["經部", "子部"]
    assert page.locator(".catalogue-index li").all_inner_texts() == ["經部 1 部書", "子部 1 部書"]
    tab.shot("catalogue-home")
    page.get_by_role("link", name="法家類").click()
    page.wait_for_url("**/classes/KR3c/")
    assert page.locator("h1").inner_text() == "法家類 KR3c"
    assert page.locator("nav.crumbs").inner_text() == "書目 › 子部 › 法家類"
    assert tab.axe() == []
    tab.shot("catalogue-class")
    page.get_by_role("link", name="韓非子", exact=True).first.click()
    page.wait_for_url("**/works/KR3c0005/")
    assert page.locator("p.classification").inner_text() == "子部 › 法家類"
    page.locator("p.classification").get_by_role("link", name="子部").click()
    page.wait_for_url("**/classes/KR3/")
    assert page.locator("main h2").all_inner_texts() == ["法家類 1 部書"]
    assert tab.axe() == []


def test_narrowing_a_search_by_a_facet_and_the_chart_by_class(library, tabs):
    tab = tabs()
    page = tab.page
    page.goto(library + "/search/?q=臣&exact=on")
    assert page.locator("p.summary strong").inner_text() == "182"
    classes = page.locator(".facet-class li")
    assert classes.all_inner_texts() == ["法家類 113", "禮類 69"]
    # the author facet says what it counts: each hit under who wrote its layer (韓非's text, 何犿's notes)
    # in one short line, the rest behind a disclosure
    note = page.locator(".facet-author .facet-note")
    assert (note.inner_text(), note.locator("p").is_visible()) == ("命中計入所在之層的作者", False)
    note.locator("summary").click()
    assert note.locator("p").inner_text() == ("注、疏歸其注者，經文與正文歸本書撰者（注本之注者不作經文撰者），"
                                              "提要、考證等編者之語不歸本書撰者，與不知撰者者同歸「未詳」。"
                                              "總集各篇歸其作者：篇題下署名者從署名（如《文選》「班孟堅」），"
                                              "《楚辭》各卷從王逸序所言（「離騷經者屈原之所作也」），序存疑者（如〈大招〉）歸「未詳」。")
    assert page.locator(".facet-author li").all_inner_texts() == ["韓非 96", "江永 69", "何犿 17"]
    # and the dynasty facet under that writer's dynasty (韓非 周, 江永 清, 何犿 元)
    note = page.locator(".facet-dynasty .facet-note")
    note.locator("summary").click()
    assert (note.locator("summary").inner_text(), note.locator("p").inner_text()) == (
        "命中計入所在之層作者的朝代", "注、疏從其注者，經文與正文從本書撰者（不知撰者從本書），"
        "四庫本的提要、考證等編者之語成於清，歸「清」；不知朝代歸「未詳」。")
    assert page.locator(".facet-dynasty li").all_inner_texts() == ["周 96", "清 69", "元 17"]
    assert tab.axe() == []
    tab.shot("search-facets")
    # by keyboard: the facet's first link takes focus and Enter follows it
    page.locator(".facet-class a").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**class=KR3c")
    assert page.locator("p.summary strong").inner_text() == "113"
    assert page.locator(".facet-class a.selected").inner_text() == "✓ 法家類"
    assert page.locator(".facet-class a.selected").get_attribute("aria-current") == "true"
    # the other class and the 部 stay offered as alternatives, with their counts; the two facets say so
    assert page.locator(".facet-class li").all_inner_texts() == ["✓ 法家類 113", "禮類 69"]
    assert page.locator(".facet-bu li").all_inner_texts() == ["子部 113", "經部 69"]
    assert page.locator(".facet-hint").all_inner_texts() == [
        "✓ 為已選，點之取消；其餘可加選，其數為各項命中，不受部、類篩選所限。"] * 2
    assert tab.axe() == []
    assert set(page.locator("td.place a.where").all_inner_texts()) == {
        text for text in page.locator("td.place a.where").all_inner_texts() if text.startswith("韓非子")}
    page.locator(".facet-class a.selected").click()   # the filter taken off again
    page.wait_for_url(lambda url: "class=" not in url)
    assert page.locator("p.summary strong").inner_text() == "182"
    page.locator(".distribution > summary").click()   # the distribution is closed until asked for
    page.get_by_role("link", name="依類").click()
    page.wait_for_url("**group=class")
    assert page.locator(".bar-list.classes li").all_inner_texts() == ["法家類\n113", "禮類\n69"]
    assert tab.axe() == []
    tab.shot("search-chart-by-class")


def test_a_title_typed_as_an_address_leads_to_its_work_or_lists_the_works_of_that_title(library, tabs):
    """``/works/韓非子/`` (its title, where the library's key is KR3c0005) opens the work; with a
    second work of that title, the address lists both to choose from (a 300), and that page passes
    axe-core on a desktop and a phone."""
    from reader.models import Edition, Work

    for device in ["desktop", "phone"]:
        tab = tabs(device)
        page = tab.page
        # the tab fetches a document itself to give it the site's policy (conftest.Tab), following the
        # 302 (tests/test_catalogue.py pins it): the work's page is shown under the typed address
        answer = page.goto(library + "/works/韓非子/")
        assert answer.status == 200 and page.locator("h1").first.inner_text().startswith("韓非子")
        assert page.locator("p.classification").inner_text() == "子部 › 法家類"
        assert tab.axe() == []
    other = Work.objects.create(title="韓非子", slug="hanfeizi-plain")
    Edition.objects.create(work=other, slug="hanfeizi-plain")
    for device in ["desktop", "phone"]:
        tab = tabs(device)
        page = tab.page
        answer = page.goto(library + "/works/韓非子/")
        assert answer.status == 300
        assert page.locator("h1").inner_text() == "「韓非子」"
        assert [unquote(a) for a in page.locator("ul.works > li > a").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))")] == ["/works/KR3c0005/", "/works/hanfeizi-plain/"]
        assert tab.axe() == []
        tab.shot("works-of-one-title")
        page.locator("ul.works > li > a").first.click()
        page.wait_for_url("**/works/KR3c0005/")
        # an address under the title lists them too, each linked to that address under its key
        answer = page.goto(library + "/works/韓非子/juan/1/")
        assert answer.status == 300
        assert [unquote(a) for a in page.locator("ul.works > li > a").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))")] == ["/works/KR3c0005/juan/1/", "/works/hanfeizi-plain/juan/1/"]
        assert tab.axe() == []


@pytest.fixture
def three_bu(library, tmp_path):
    """The library of ``library`` and 史記 (史部 正史類, one juan); 禮書綱目 given its 屬
    (通禮之屬, as the admin would: the shipped catalogue marks none)."""
    from reader.importers.loader import import_file
    from reader.models import Work

    folder = tmp_path / "KR2a0001"
    folder.mkdir()
    shutil.copy(SHIJI, folder)
    import_file(folder / SHIJI.name)
    Work.objects.filter(title="禮書綱目").update(shu="通禮之屬")
    return library


def test_browsing_bu_class_shu_and_work(three_bu, tabs):
    for device in ["desktop", "phone"]:
        check_browsing_bu_class_shu_and_work(three_bu, tabs, device)


def check_browsing_bu_class_shu_and_work(three_bu, tabs, device):
    tab = tabs(device)
    page = tab.page
    page.goto(three_bu + "/")
    assert page.locator(".catalogue-index li").all_inner_texts() == ["經部 1 部書", "史部 1 部書", "子部 1 部書"]
    assert page.locator("main h2").all_inner_texts() == ["經部", "史部", "子部"]
    assert page.locator("h4.shu").all_inner_texts() == ["通禮之屬 1 部書"]
    assert tab.axe() == []
    tab.shot("catalogue-three-bu")
    page.locator("main h2").get_by_role("link", name="史部").click()        # a 部
    page.wait_for_url("**/classes/KR2/")
    assert page.locator("main h2").all_inner_texts() == ["正史類 1 部書"]
    assert tab.axe() == []
    page.locator("main h2").get_by_role("link", name="正史類").click()      # its 類
    page.wait_for_url("**/classes/KR2a/")
    assert page.locator(".works > li > a").all_inner_texts() == ["史記"]
    assert page.locator(".works .byline").first.inner_text().startswith("〔漢〕司馬遷撰")
    page.goto(three_bu + "/classes/KR1d/")                                  # a 類 divided by 屬
    # one 屬: its heading, with no index of one entry above it (read as the heading of the works below)
    assert page.get_by_role("navigation", name="屬").count() == 0
    assert tab.axe() == []
    tab.shot("catalogue-class-shu")
    assert page.locator("h3.shu").inner_text() == "通禮之屬 1 部書"
    page.locator("h3.shu + ul.works > li > a").first.click()               # the work
    page.wait_for_url(lambda url: "/works/" in url)
    assert unquote(page.url).endswith("/works/禮書綱目/")
    assert page.locator("p.classification").inner_text() == "經部 › 禮類 › 通禮之屬"
    # the juans are named as the book names them, with no list number beside (「1. 卷十」)
    assert page.locator("ol.juans").evaluate("e => getComputedStyle(e).listStyleType") == "none"
    assert page.locator("ol.juans > li > a").all_inner_texts() == ["卷十"]
    assert tab.axe() == []


def test_the_search_options_are_readable_and_say_what_is_in_force(library, tabs):
    # a search narrowed by commentator shows the filter (the options were folded away, hiding it):
    # without hits (洪興祖 is nobody here: a 400 naming him, decision 0074) the options stay open, to be
    # changed; their summary names what they hold, and a chip the filter; and the text boxes are in the
    # page's type, as the selects beside them (they were the browser's 13px default)
    tab = tabs("desktop")
    page = tab.page
    assert page.goto(library + "/search/?q=%E5%B0%84&commentator=%E6%B4%AA%E8%88%88%E7%A5%96").status == 400
    assert page.locator("p.error").inner_text() == "沒有「洪興祖」這位注者 (no commentator '洪興祖': no work held names a writer so)"
    tab.errors[:] = [e for e in tab.errors if "status of 400" not in e]  # the answer the page is meant to give
    assert page.locator("details.more-options").evaluate("d => d.open") is True
    assert page.locator(".more-options summary").inner_text() == "篩選與排序（已設：注者）"
    assert page.locator(".filter-chips .chip").evaluate_all("es => es.map(e => e.textContent)") == ["取消篩選 注者：洪興祖×"]
    assert page.locator("#id_commentator").input_value() == "洪興祖"
    size = "e => getComputedStyle(e).fontSize"
    assert (page.locator("#id_commentator").evaluate(size) == page.locator("#id_juan").evaluate(size)
            == page.locator("#id_sort").evaluate(size) == page.locator("#id_context").evaluate(size))
    # the placeholder and a three-character name fit their boxes
    for box in ("#id_commentator", "#id_juan"):
        assert page.locator(box).evaluate("e => e.scrollWidth <= e.clientWidth"), box
    assert tab.axe() == []
    # with hits (何犿's notes hold 17 of 臣) they are folded: the summary and the chip name the filter
    page.goto(library + "/search/?q=%E8%87%A3&exact=on&commentator=%E4%BD%95%E7%8A%BF")
    assert page.locator("p.summary strong").inner_text() == "17"
    assert page.locator("details.more-options").evaluate("d => d.open") is False
    assert page.locator(".more-options summary").inner_text() == "篩選與排序（已設：注者）"
    assert page.locator(".filter-chips .chip").evaluate_all("es => es.map(e => e.textContent)") == ["取消篩選 注者：何犿×"]
    assert tab.axe() == []


def test_a_search_sent_again_from_its_form_keeps_the_facet_filters(library, tabs):
    # from a search narrowed by a facet (周: 96 of 臣's 182, those in text 周 writers wrote), another sort chosen in the
    # form keeps the filter (the form had no input for it: the hits and the CSV were 182); the
    # filter is a chip whose link takes it off
    tab = tabs("desktop")
    page = tab.page
    page.goto(library + "/search/?q=%E8%87%A3&exact=on&dynasty=%E5%91%A8")
    assert page.locator(".summary strong").inner_text() == "96"
    assert page.locator(".filter-chips .chip").evaluate_all("es => es.map(e => e.textContent)") == ["取消篩選 朝代：周×"]
    assert page.get_by_role("link", name="取消篩選 朝代：周").count() == 1  # the × is not read out
    page.click(".more-options summary")
    page.select_option("#id_sort", "after")
    page.locator("form.search-form button[type=submit]").click()
    page.wait_for_url("**sort=after**")
    assert "dynasty=%E5%91%A8" in page.url
    assert page.locator(".summary strong").inner_text() == "96"
    assert "dynasty=%E5%91%A8" in page.locator(".export a").first.get_attribute("href")
    # each label stays on the line of its control, whatever the width
    for width in (1280, 700, 390):
        page.set_viewport_size({"width": width, "height": 900})
        apart = page.evaluate("""() => [...document.querySelectorAll('.more-options .field')].filter(f => {
            const l = f.querySelector('label').getBoundingClientRect(), c = f.lastElementChild.getBoundingClientRect();
            return Math.abs((l.top + l.bottom) / 2 - (c.top + c.bottom) / 2) > 4; }).map(f => f.innerText.trim())""")
        assert apart == [], width
    page.set_viewport_size({"width": 1280, "height": 900})
    assert tab.axe() == []
    tab.shot("search-chips")
    page.locator(".filter-chips .chip").click()
    page.wait_for_url(lambda url: "dynasty" not in url)
    assert page.locator(".summary strong").inner_text() == "182"
    assert page.locator(".filter-chips").count() == 0
