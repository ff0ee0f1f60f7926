"""Serializers: works, juans with their full structure, search hits."""
from rest_framework import serializers

from reader.models import Juan, Piece, Work
from search.documents import LAYER_NAMES


class JuanSummarySerializer(serializers.ModelSerializer):
    """A juan in a work's list: number, label, chapter titles and its API URL."""

    chapters = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    reading_url = serializers.SerializerMethodField()

    class Meta:
        model = Juan
        fields = ["number", "label", "chapters", "url", "reading_url"]

    def get_chapters(self, juan):
        return [{"title": c.title, "category": c.category} for c in juan.chapters.all()]

    def get_url(self, juan):
        return self.context["request"].build_absolute_uri(f"/api/works/{juan.work_id}/juans/{juan.number}/")

    def get_reading_url(self, juan):
        return self.context["request"].build_absolute_uri(juan.get_absolute_url())


class WorkSerializer(serializers.ModelSerializer):
    """A work: id, title, author, native place, dynasty, collection, slug, juan count."""

    juan_count = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Work
        fields = ["id", "title", "author", "native_place", "dynasty", "collection", "slug", "juan_count", "url"]

    def get_url(self, work):
        return self.context["request"].build_absolute_uri(f"/api/works/{work.pk}/")


class WorkDetailSerializer(WorkSerializer):
    """A work with its juans."""

    juans = JuanSummarySerializer(many=True, read_only=True)

    class Meta(WorkSerializer.Meta):
        fields = WorkSerializer.Meta.fields + ["juans"]


class PieceSerializer(serializers.ModelSerializer):
    """A piece of a section: ``kind`` is text, note, label, record or record_note; notes
    carry ``source_tag`` (as written) and ``source`` (同上 resolved)."""

    class Meta:
        model = Piece
        fields = ["position", "paragraph", "kind", "text", "source_tag", "source"]


def juan_structure(juan, chapters, request) -> dict:
    """The full structure of a juan from ``reader.reading.chapter_views`` output."""
    return {
        "work": {"id": juan.work.pk, "title": juan.work.title, "author": juan.work.author},
        "number": juan.number,
        "label": juan.label,
        "reading_url": request.build_absolute_uri(juan.get_absolute_url()),
        "chapters": [
            {
                "position": cv.chapter.position,
                "title": cv.chapter.title,
                "category": cv.chapter.category,
                "sections": [
                    {
                        "position": view.section.position,
                        "title": view.section.title,
                        "closer": view.section.closer,
                        "reading_url": request.build_absolute_uri(view.section.get_absolute_url()),
                        "pieces": PieceSerializer([p for para in view.paragraphs for p in para] + view.records,
                                                  many=True).data,
                    }
                    for view in cv.sections
                ],
            }
            for cv in chapters
        ],
    }


class HitSerializer(serializers.Serializer):
    """One occurrence: layer, location, KWIC (``before``/``match``/``after``), reading URL."""

    def to_representation(self, hit):
        from search.service import hit_url

        request = self.context["request"]
        return {
            "layer": hit.layer,
            "layer_name": LAYER_NAMES[hit.layer],
            "work": {"id": hit.work_id, "title": hit.work_title},
            "juan": hit.juan_number,
            "section": {"position": hit.section_position, "title": hit.section_title},
            "piece": hit.piece_position,
            "before": hit.before,
            "match": hit.match,
            "after": hit.after,
            "url": request.build_absolute_uri(hit_url(hit, self.context["query"])),
        }
