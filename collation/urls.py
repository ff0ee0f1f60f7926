from django.urls import path

import config.converters  # noqa: F401 - registers <num:…>

from config.cacheable import cached_page

from reader.display import CHOICES

from . import views
from .service import IMPORTED

app_name = "collation"
#: What a collation page reads (``cached_page(reads=…)``): the editions collated, the glyph
#: variants hidden, the text collated (``?text=imported``: as imported, without the accepted
#: corrections), the display settings (``reader.reading.CHOICES``); any other parameter is
#: dropped by a redirect (``?title=1`` had the page built and kept for each value).
COLLATION = views.ONE_VALUED | {"with"}
#: The values it knows of those with a fixed set: any other is read as none (``?glyphs=x1``).
KNOWN = {**CHOICES, "glyphs": ("hide",), "text": (IMPORTED,)}
urlpatterns = [
    path("works/<str:slug>/juan/<num:number>/collate/", cached_page(views.juan_collation, reads=COLLATION, many={"with"}, values=KNOWN), name="juan"),
    path("works/<str:slug>/juan/<num:number>/<num:position>/collate/", cached_page(views.section_collation, reads=COLLATION, many={"with"}, values=KNOWN),
         name="section"),
    path("works/<str:slug>/juan/<num:number>/layers/", cached_page(views.layer_check, reads={"with"}, many={"with"}),
         name="layers"),
    path("works/<str:slug>/juan/<num:number>/quotations/", cached_page(views.quotation_map, reads=()), name="quotations"),
    path("parallels/", cached_page(views.span_parallels, reads=("text", "from", "section")), name="parallels"),
]
