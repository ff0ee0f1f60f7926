"""Accepted public annotations as W3C Web Annotations (https://www.w3.org/TR/annotation-model/,
JSON-LD with the context ``http://www.w3.org/ns/anno.jsonld``), the form annotation tools
(Hypothesis, Recogito, Mirador) read.

Each annotation is an ``Annotation`` with its ``body`` (a ``TextualBody``, the note as plain
text, ``purpose: commenting``), its ``creator`` (the proposer's user name), ``created`` and
``modified``, and its ``target``: the permalink of its section (``source``) with a
``TextQuoteSelector`` (``exact`` and its ``prefix``/``suffix``, the anchor's text) refined by
the passage's place (``piece``, code-point ``start``/``end`` in ``TextPositionSelector``).
An annotation's tags are ``tagging`` bodies and its links ``identifying`` (a CBDB person) or
``linking`` bodies beside the note (``bodies``). The whole edition is one
``AnnotationCollection`` with its items on one page; ``?tag=person`` keeps those so tagged.
"""
from __future__ import annotations

from django.urls import reverse

from reader.models import Edition

from .links import href
from .models import ACCEPTED, ANNOTATION, Proposal

CONTEXT = "http://www.w3.org/ns/anno.jsonld"


def public_annotations(edition: Edition, tag: str | None = None) -> list[Proposal]:
    """The edition's accepted annotations (only those tagged ``tag``, one of ``models.TAGS``,
    when given), in text order (one query)."""
    found = [p for p in Proposal.objects.filter(edition=edition, kind=ANNOTATION, status=ACCEPTED)
             .select_related("author").order_by("juan_number", "section_position", "piece_position", "start", "pk")]
    return [p for p in found if tag is None or tag in (p.tags or ())]


def bodies(p: Proposal) -> dict | list[dict]:
    """The ``body`` of an annotation: its note (``purpose: commenting``); with tags or links, a
    list adding a ``tagging`` body for each tag and, for each link, an ``identifying`` one (a
    CBDB person) or a ``linking`` one (a web page), as the Web Annotation model names them."""
    note = {"type": "TextualBody", "value": p.replacement, "format": "text/plain", "language": "zh-Hant",
            "purpose": "commenting"}
    if not p.tags and not p.links:
        return note
    tags = [{"type": "TextualBody", "value": t, "purpose": "tagging"} for t in p.tags]
    links = [{"type": "SpecificResource", "source": href(link),
              "purpose": "identifying" if link.startswith("cbdb:") else "linking"} for link in p.links]
    return [note] + tags + links


def web_annotation(p: Proposal, absolute) -> dict:
    """One annotation as a W3C Web Annotation (``absolute(path)`` makes a path a full IRI)."""
    section = absolute(reverse("reader:section", args=[p.edition_slug, p.juan_number, p.section_position]))
    return {
        "id": absolute(reverse("corrections:history", args=[p.pk])),
        "type": "Annotation",
        "motivation": "commenting",
        "created": p.created_at.isoformat(),
        "modified": (p.reviewed_at or p.updated_at).isoformat(),
        "creator": {"type": "Person", "nickname": p.author.get_username()},
        "body": bodies(p),
        "target": {
            "source": section,
            "selector": {
                "type": "TextQuoteSelector", "exact": p.original, "prefix": p.before, "suffix": p.after,
                "refinedBy": {"type": "TextPositionSelector", "start": p.start, "end": p.end},
            },
            "scope": f"{section}#s{p.section_position}-p{p.piece_position}",
        },
    }


def annotation_collection(edition: Edition, absolute, tag: str | None = None) -> dict:
    """The edition's public annotations (those tagged ``tag`` when given) as one
    ``AnnotationCollection`` (see the module docstring)."""
    items = [web_annotation(p, absolute) for p in public_annotations(edition, tag)]
    me = absolute(reverse("corrections:annotations", args=[edition.slug]) + (f"?tag={tag}" if tag else ""))
    return {"@context": CONTEXT, "id": me, "type": "AnnotationCollection", "label": f"{edition} 注記",
            "total": len(items), "first": {"id": me + "#page1", "type": "AnnotationPage", "items": items}}
