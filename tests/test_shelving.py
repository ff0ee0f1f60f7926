"""One rule shelves a work under its 屬 (``reader.shelving``) for the catalogue pages
(``/classes/<code>/``) and the API (``/api/classes/``, ``/api/classes/<code>/works/?shu=``, a
work's ``shu``), checked on a library of every work the shipped catalogue lists in 經部."""
import re

import pytest

from catalogue import catalogue
from reader.models import Edition, Work

#: The 屬 the test library gives one work of some classes (as a 提要 page or the admin would):
#: a classic's plain text in three, and a 屬 named after no book in 小學類.
GIVEN = {"KR1a0001": "周易之屬", "KR1d0001": "周禮之屬", "KR1e0001": "春秋左傳之屬", "KR1j0001": "訓詁之屬"}


def shelve_jingbu():
    """Every work the shipped catalogue lists in 經部, held (one edition each, no juans), the works of
    ``GIVEN`` given their 屬; the library's other works unclassified."""
    Work.objects.update(classification="")
    entries = catalogue.entries_of("KR1")
    works = Work.objects.bulk_create(Work(title=e.title, slug=e.kr_id, kanripo_id=e.kr_id, classification=e.cls,
                                          shu=GIVEN.get(e.kr_id, "")) for e in entries)
    Edition.objects.bulk_create(Edition(work=w, slug=w.slug, kanripo_id=w.kanripo_id) for w in works)
    return entries


def page_groups(client, code) -> dict[str, list[str]]:
    """``{屬 (or "" for 未分屬): [titles]}`` as ``/classes/<code>/`` shelves them; ``{}`` for an undivided class."""
    html = client.get(f"/classes/{code}/").content.decode()
    shelf = html[html.index('<section class="class"'):]
    heads = list(re.finditer(r'<h3 id="[^"]+" class="shu">([^<]+) <span class="count">(\d+) 部書</span></h3>', shelf))
    groups = {}
    for k, head in enumerate(heads):
        part = shelf[head.end():heads[k + 1].start() if k + 1 < len(heads) else len(shelf)]
        titles = re.findall(r'<li><a href="[^"]+">([^<]+)</a>\s*<span class="byline">', part)
        assert len(titles) == int(head.group(2))
        groups["" if head.group(1) == "未分屬" else head.group(1)] = titles
    return groups


def api_works(client, code, **params) -> list[dict]:
    """Every work ``/api/classes/<code>/works/`` lists, page after page."""
    found, page = [], 1
    while True:
        body = client.get(f"/api/classes/{code}/works/", {**params, "page": page, "page_size": 200}).json()
        found += body["results"]
        if not body["next"]:
            return found
        page += 1


@pytest.mark.django_db
def test_the_class_pages_and_the_api_shelve_every_work_alike(client):
    entries = shelve_jingbu()
    rows = {r["code"]: r for r in client.get("/api/classes/").json()["results"]}
    divided = {}
    for cls in catalogue.members("KR1"):
        groups = page_groups(client, cls.code)
        works = api_works(client, cls.code)
        assert rows[cls.code]["works"] == len(works) == sum(1 for e in entries if e.cls == cls.code)
        # the API's 屬 of the class: those of the page, in its order, with as many works, 未分屬 too
        assert rows[cls.code]["shu"] == [{"name": name or "未分屬", "works": len(titles)} for name, titles in groups.items()]
        for name, titles in groups.items():
            assert [w["title"] for w in works if w["shu"] == name] == titles
            assert [w["title"] for w in api_works(client, cls.code, shu=name or "未分屬")] == titles
        if groups:
            divided[cls.code] = {name: len(titles) for name, titles in groups.items()}
    # the four classes given a 屬 are divided, each classic's works under its book (周易, 春秋左傳 …,
    # also 欽定周官義疏, 周官新義), a 屬 named after no book holding only its own work
    assert divided == {
        "KR1a": {"周易之屬": 60, "": 110},
        "KR1d": {"周禮之屬": 20, "儀禮之屬": 21, "禮記之屬": 13, "": 38},
        "KR1e": {"春秋左傳之屬": 6, "春秋公羊傳之屬": 2, "春秋穀梁傳之屬": 2, "": 112},
        "KR1j": {"訓詁之屬": 1, "爾雅之屬": 5, "": 82}}
    # a 屬 the class does not have is a 400 naming shu and those it has (shu=foo listed no work, a 200)
    response = client.get("/api/classes/KR1d/works/", {"shu": "foo"})
    assert (response.status_code, response.json()) == (400, {"shu": [
        "KR1d 沒有「foo」這一屬；可選：周禮之屬、儀禮之屬、禮記之屬、未分屬（no 屬 'foo' in KR1d; shu is one of: "
        "周禮之屬, 儀禮之屬, 禮記之屬, 未分屬）"]})
    # the work page names the 屬 the shelf puts it under
    html = client.get("/works/KR1d0003/").content.decode()
    assert '<a href="/classes/KR1d/">禮類</a> › 周禮之屬</p>' in html
