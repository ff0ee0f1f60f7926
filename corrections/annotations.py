"""Accepted public annotations as W3C Web Annotations (https://www.w3.org/TR/annotation-model/,
JSON-LD with the context ``http://www.w3.org/ns/anno.jsonld``), the form annotation tools
(Hypothesis, Recogito, Mirador) read.

Each annotation is an ``Annotation`` with its ``body`` (a ``TextualBody``, the note as plain
text, ``purpose: commenting``), its ``creator`` (the proposer's user name), ``created`` and
``modified``, and its ``target``: the permalink of its section (``source``) with a
``TextQuoteSelector`` (``exact`` and its ``prefix``/``suffix``, the anchor's text) refined by
the passage's place (``piece``, code-point ``start``/``end`` in ``TextPositionSelector``).
The whole edition is one ``AnnotationCollection`` with its items on one page.
"""
from __future__ import annotations

from django.urls import reverse

from reader.models import Edition

from .models import ACCEPTED, ANNOTATION, Proposal

CONTEXT = "http://www.w3.org/ns/anno.jsonld"


def public_annotations(edition: Edition) -> list[Proposal]:
    """The edition's accepted annotations, in text order (one query)."""
    return list(Proposal.objects.filter(edition=edition, kind=ANNOTATION, status=ACCEPTED).select_related("author")
                .order_by("juan_number", "section_position", "piece_position", "start", "pk"))


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
        "body": {"type": "TextualBody", "value": p.replacement, "format": "text/plain", "language": "zh-Hant",
                 "purpose": "commenting"},
        "target": {
            "source": section,
            "selector": {
                "type": "TextQuoteSelector", "exact": p.original, "prefix": p.before, "suffix": p.after,
                "refinedBy": {"type": "TextPositionSelector", "start": p.start, "end": p.end},
            },
            "scope": f"{section}#s{p.section_position}-p{p.piece_position}",
        },
    }


def annotation_collection(edition: Edition, absolute) -> dict:
    """The edition's public annotations as one ``AnnotationCollection`` (see the module docstring)."""
    items = [web_annotation(p, absolute) for p in public_annotations(edition)]
    me = absolute(reverse("corrections:annotations", args=[edition.slug]))
    return {"@context": CONTEXT, "id": me, "type": "AnnotationCollection", "label": f"{edition} 注記",
            "total": len(items), "first": {"id": me + "#page1", "type": "AnnotationPage", "items": items}}
