"""The breadcrumbs (位置) of the catalogue's pages and of every page under a work: one trail,
built here, shown by one template (``templates/reader/_crumbs.html``, through the ``crumbs`` tag
of ``reader.templatetags.reading`` on the pages under a work), so that a class page, the work's
page, an edition, the reading page, the section page, the collation and the quotation map of one
juan name it alike: 書目 › 經部 › 禮類 › 周禮之屬 › the work › …, the shelf the catalogue puts the
work on (its class in Kanripo's catalogue, ``catalogue``, and its 屬, ``reader.shelving``)."""
from __future__ import annotations

from typing import NamedTuple

from django.urls import reverse

from catalogue.catalogue import BU, bu_of, get_class
from reader.citation import section_heading, section_label
from reader.shelving import shu_anchor


class Crumb(NamedTuple):
    """One step of the trail: its words and its link ("" for the page itself)."""
    label: str
    url: str = ""


def work_page_url(work) -> str:
    """``/works/<work>/editions/``: the page of a work above its editions (``pages.catalogue.work_detail``);
    a work with one edition has none of its own and this address leads to that edition's page."""
    return reverse("reader:editions", args=[work.slug])


def shelf_trail(code: str, shu: str = "") -> list[Crumb]:
    """``[書目, 部, 類, 屬]``, each linked, for a work of the class ``code`` shelved under ``shu``
    (``Work.shelf_shu``): the 部 and the 類 to their pages (``/classes/KR1/``, ``/classes/KR1d/``),
    the 屬 to its heading on the 類's page (``/classes/KR1d/#KR1d-周禮之屬``,
    ``reader.shelving.shu_anchor``). A work classed by its 部 alone has no 類 step, an
    unclassified work (``code`` "", or one the catalogue lacks) none but 書目, and no 屬 is shown
    without its 類."""
    steps = [Crumb("書目", reverse("reader:home"))]
    cls = get_class(code) if code else None
    if cls is None:
        return steps
    if cls.level != BU:
        bu = get_class(bu_of(code))
        steps.append(Crumb(bu.name, reverse("reader:class", args=[bu.code])))
    steps.append(Crumb(cls.name, reverse("reader:class", args=[cls.code])))
    if shu and cls.level != BU:
        steps.append(Crumb(shu, reverse("reader:class", args=[cls.code]) + "#" + shu_anchor(cls.code, shu)))
    return steps


def class_trail(cls) -> list[Crumb]:
    """The trail of a class's page (``/classes/<code>/``): ``[書目, 部, 類]`` (``shelf_trail``), the
    class itself unlinked: 書目 › 經部 › 禮類, or 書目 › 經部 on the 部's page."""
    return _unlink_last(shelf_trail(cls.code))


def work_trail(work) -> list[Crumb]:
    """The trail of a work's own page (``work_page_url``): the work's shelf (``shelf_trail``: 書目 ›
    部 › 類 › 屬) and the work, unlinked. One query (``Work.shelf_shu``) unless the work's 屬 is stored."""
    return shelf_trail(work.classification, work.shelf_shu) + [Crumb(work.title)]


def _unlink_last(steps: list[Crumb]) -> list[Crumb]:
    """``steps`` with the last one's link taken off: the page the trail is on."""
    return steps[:-1] + [Crumb(steps[-1].label)]


def crumb_trail(edition, juan=None, section=None, tail: str = "", *, juan_url: str = "",
                several: bool | None = None) -> list[Crumb]:
    """``[書目, 部, 類, 屬, work, edition, juan, section, tail]``, the steps that apply, the last
    without a link, so that no step links to the page it is on; the work's shelf as the catalogue
    shelves it (``shelf_trail``: one query, ``Work.shelf_shu``, unless the work's 屬 is stored). A work of ``several`` editions (counted
    with one query when not given) has a page of its own above them (``work_page_url``): the
    work's title links there and the edition's name in words (``Edition.name``) to the edition's
    page. A work with one edition is that edition: one step, its title, to the edition's page
    (``/works/<slug>/``), which names the edition itself. Then the juan's label as the book
    prints it (卷十; ``Juan.display_label``, a file of several printed 卷 of one juan by their range,
    卷一上至卷一下, decision 0089), but on a section's pages the printed 卷 its chapter is in where the
    juan records it (``Chapter.printed_juan``: 卷一下, as its citation names it); to ``juan_url`` or the
    juan's page, at the section's anchor on a section's pages; the section's heading
    (``reader.citation.section_heading``, else its § number); ``tail``, the page's own name (校勘, 引文地圖)."""
    if juan is not None and juan.work_id == edition.work_id:
        edition.work = juan.work  # the juan's work, already loaded with it: no query for the edition's
    work = edition.work
    if several is None:
        several = work.edition_count() > 1
    steps = shelf_trail(work.classification, work.shelf_shu)
    if several:
        steps += [Crumb(work.title, work_page_url(work)), Crumb(edition.name, edition.get_absolute_url())]
    else:
        steps.append(Crumb(work.title, edition.get_absolute_url()))
    if juan is not None:
        anchor = f"#s{section.position}" if section and not tail else ""
        # a section of a file of several printed 卷 names the 卷 its chapter is in (卷一下), as its citation does
        printed = getattr(section.chapter, "printed_juan", "") if section else ""
        steps.append(Crumb(printed or juan.display_label, (juan_url or juan.get_absolute_url()) + anchor))
    if section:
        steps.append(Crumb(section_heading(section) or section_label(section),
                           section.get_absolute_url() if tail else ""))  # the page itself: no link
    if tail:
        steps.append(Crumb(tail))
    return _unlink_last(steps)
