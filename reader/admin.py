"""Admin (staff only, Django's default): correct a note or a title; search follows on commit."""
from django.contrib import admin

from .models import Chapter, Edition, Juan, Piece, Section, Work


@admin.register(Work)
class WorkAdmin(admin.ModelAdmin):
    list_display = ["title", "author", "native_place", "slug"]
    search_fields = ["title", "author"]


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = ["work", "slug", "label", "kanripo_id", "kanripo_edition"]
    search_fields = ["slug", "label", "work__title"]


@admin.register(Juan)
class JuanAdmin(admin.ModelAdmin):
    list_display = ["work", "edition", "number", "label", "source_name", "imported_at"]
    list_filter = ["work", "edition"]
    readonly_fields = ["sha256", "imported_at"]


@admin.register(Chapter)
class ChapterAdmin(admin.ModelAdmin):
    list_display = ["juan", "position", "title", "category"]


class PieceInline(admin.TabularInline):
    model = Piece
    extra = 0
    fields = ["position", "paragraph", "kind", "text", "source_tag", "source"]


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ["juan", "position", "title"]
    list_filter = ["juan__work"]
    inlines = [PieceInline]


@admin.register(Piece)
class PieceAdmin(admin.ModelAdmin):
    list_display = ["section", "position", "kind", "text"]
    list_filter = ["kind"]
    search_fields = ["text"]
