"""The breadcrumbs (位置) of every page under a work: one trail, built here, shown by one
template (``templates/reader/_crumbs.html`` through the ``crumbs`` tag of
``reader.templatetags.reading``), so that the reading page, the section page, the collation and
the quotation map of one juan name it alike."""
from __future__ import annotations

from typing import NamedTuple

from django.urls import reverse

from reader.citation import section_heading, section_label
from reader.juans import short_label


class Crumb(NamedTuple):
    """One step of the trail: its words and its link ("" for the page itself)."""
    label: str
    url: str = ""


def work_page_url(work) -> str:
    """``/works/<work>/editions/``: the page of a work above its editions (``pages.catalogue.work_detail``);
    a work with one edition has none of its own and this address leads to that edition's page."""
    return reverse("reader:editions", args=[work.slug])


def work_trail(work) -> list[Crumb]:
    """The trail of a work's own page (``work_page_url``): ``[書目, work]``, the work unlinked."""
    return [Crumb("書目", reverse("reader:home")), Crumb(work.title)]


def crumb_trail(edition, juan=None, section=None, tail: str = "", *, juan_url: str = "",
                several: bool | None = None) -> list[Crumb]:
    """``[書目, work, edition, juan, section, tail]``, the steps that apply, the last without a
    link, so that no step links to the page it is on. A work of ``several`` editions (counted
    with one query when not given) has a page of its own above them (``work_page_url``): the
    work's title links there and the edition's name in words (``Edition.name``) to the edition's
    page. A work with one edition is that edition: one step, its title, to the edition's page
    (``/works/<slug>/``), which names the edition itself. Then the juan's label as the book
    prints it (卷十, ``reader.juans.short_label``; to ``juan_url`` or the juan's page, at the
    section's anchor on a section's pages); the section's heading
    (``reader.citation.section_heading``, else its § number); ``tail``, the page's own name (校勘, 引文地圖)."""
    if juan is not None and juan.work_id == edition.work_id:
        edition.work = juan.work  # the juan's work, already loaded with it: no query for the edition's
    work = edition.work
    if several is None:
        several = work.edition_count() > 1
    steps = [Crumb("書目", reverse("reader:home"))]
    if several:
        steps += [Crumb(work.title, work_page_url(work)), Crumb(edition.name, edition.get_absolute_url())]
    else:
        steps.append(Crumb(work.title, edition.get_absolute_url()))
    if juan is not None:
        anchor = f"#s{section.position}" if section and not tail else ""
        steps.append(Crumb(short_label(juan.display_label), (juan_url or juan.get_absolute_url()) + anchor))
    if section:
        steps.append(Crumb(section_heading(section) or section_label(section),
                           section.get_absolute_url() if tail else ""))  # the page itself: no link
    if tail:
        steps.append(Crumb(tail))
    last = steps[-1]
    steps[-1] = Crumb(last.label)
    return steps
