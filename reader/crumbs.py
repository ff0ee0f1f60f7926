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


def crumb_trail(edition, juan=None, section=None, tail: str = "", *, juan_url: str = "",
                several: bool | None = None) -> list[Crumb]:
    """``[書目, work, edition, juan, section, tail]``, the steps that apply, the last without a
    link: the work's title (to the work's link, ``Work.get_absolute_url``: its reading edition); the edition's name in words
    (``Edition.name``, to its page) when the edition has a name to cite (a Kanripo or named
    edition) or the work has ``several`` editions (counted with one query when not given); the
    juan's label as the book prints it (卷十, ``reader.juans.short_label``; to ``juan_url`` or
    the juan's page, at the section's anchor on a section's pages); the section's heading
    (``reader.citation.section_heading``, else its § number); ``tail``, the page's own name (校勘, 引文地圖)."""
    if juan is not None and juan.work_id == edition.work_id:
        edition.work = juan.work  # the juan's work, already loaded with it: no query for the edition's
    work = edition.work
    if several is None:
        several = work.edition_count() > 1
    # the work's link opens its reading edition (``Work.get_absolute_url``): this one when it is the only one
    work_url = work.get_absolute_url() if several else reverse("reader:work", args=[edition.slug])
    steps = [Crumb("書目", reverse("reader:home")), Crumb(work.title, work_url)]
    if edition.cited_name or several:
        steps.append(Crumb(edition.name, edition.get_absolute_url()))
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
