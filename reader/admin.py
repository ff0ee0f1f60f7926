"""Admin (staff only, Django's default): correct a note or a title; search follows on commit.

A section's pieces are edited inline when they fit in one form (``PieceInline.fits``:
Django refuses a form with more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields, and 42
sections of the shared corpus have more pieces than that allows). A larger section shows
its piece count and a link to its pieces in the piece list, which pages (100 a page) and
edits each piece on its own; the section itself can then always be saved.
"""
from django.conf import settings
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from .models import Chapter, Edition, Juan, LibraryVersion, Piece, Section, Work
from .signals import juans_changing


@admin.register(Work)
class WorkAdmin(admin.ModelAdmin):
    """Works; ``classification`` is the class in Kanripo's catalogue (KR1d, or a 部 such as KR1):
    a code the catalogue lacks is refused with the form's error (``catalogue.validate_class_code``)."""

    list_display = ["title", "author", "native_place", "slug", "classification", "shu"]
    list_filter = ["classification"]
    search_fields = ["title", "author", "kanripo_id"]


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = ["work", "slug", "label", "kanripo_id", "kanripo_edition", "script", "script_given"]
    list_filter = ["script"]
    search_fields = ["slug", "label", "work__title"]

    def save_model(self, request, obj, form, change):
        """A script chosen here is given (imports no longer detect it), and the edition's juans
        are indexed again (its ambiguous simplified forms change keys)."""
        if "script" in form.changed_data:
            obj.script_given = True
        super().save_model(request, obj, form, change)
        if change and "script" in form.changed_data:
            juans = list(obj.juans.values_list("pk", flat=True))
            Juan.objects.filter(pk__in=juans).update(version=LibraryVersion.next())
            juans_changing.send(sender=self.__class__, changes=[(j, j) for j in juans])


@admin.register(Juan)
class JuanAdmin(admin.ModelAdmin):
    list_display = ["work", "edition", "number", "label", "source_name", "imported_at"]
    list_filter = ["work", "edition"]
    readonly_fields = ["sha256", "imported_at"]
    raw_id_fields = ["work"]


@admin.register(Chapter)
class ChapterAdmin(admin.ModelAdmin):
    list_display = ["juan", "position", "title", "category"]
    raw_id_fields = ["juan"]


class PieceInline(admin.TabularInline):
    model = Piece
    extra = 0
    fields = ["position", "paragraph", "kind", "text", "source_tag", "source"]

    @classmethod
    def fits(cls, pieces: int) -> bool:
        """Whether ``pieces`` rows fit in one form: each row posts its fields plus the id,
        the section and DELETE; the management form and the section's own fields take at
        most 50 more."""
        per_row = len(cls.fields) + 3
        return 50 + pieces * per_row <= settings.DATA_UPLOAD_MAX_NUMBER_FIELDS


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ["juan", "position", "title"]
    list_filter = ["juan__work"]
    raw_id_fields = ["juan", "chapter"]
    inlines = [PieceInline]

    def get_inlines(self, request, obj):
        if obj is not None and not PieceInline.fits(obj.pieces.count()):
            return []
        return super().get_inlines(request, obj)

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and not PieceInline.fits(obj.pieces.count()):
            fields.append("pieces_link")
        return fields

    def get_fields(self, request, obj=None):
        fields = [f for f in super().get_fields(request, obj) if f != "pieces_link"]
        if obj is not None and not PieceInline.fits(obj.pieces.count()):
            fields.append("pieces_link")
        return fields

    @admin.display(description="pieces")
    def pieces_link(self, obj):
        url = reverse("admin:reader_piece_changelist") + f"?section__id__exact={obj.pk}"
        return format_html('{} pieces, too many to edit here: <a href="{}">edit them in the piece list</a>',
                           obj.pieces.count(), url)


@admin.register(Piece)
class PieceAdmin(admin.ModelAdmin):
    list_display = ["section", "position", "kind", "text"]
    list_filter = ["kind"]
    list_select_related = ["section__juan__work"]
    ordering = ["section", "position"]
    raw_id_fields = ["section"]
    search_fields = ["text"]
