from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularRedocView

import config.converters  # noqa: F401 - registers <num:…>

from config.cacheable import cached_page
from search.forms import CANONICAL, MANY_VALUED, ONE_VALUED, PAGING, SEARCH_PARAMETERS

from . import redirects, views
from .catalogue import ClassList, ClassWorks
from .collation import CollationExport, CollationView, LayerCheckView, SectionParallels, SpanParallels, WorkCollationExport
from .docs import DocsView
from .schema import SchemaView

app_name = "api"
KINDS = "<str:kind>"
EDITION = {"edition": True}
# The query parameters each view reads (``cached_page(reads=…)``): the page cache keys an answer
# by these alone, so ``?x=1`` is the answer kept for the URL without it (pages/caching.py).
# Every view reads ``format`` (DRF's content negotiation), a list its page and page size.
ONE = frozenset({"format"})
LIST = ONE | PAGING
#: A list's paging (and a long section's ``page``) given several different values is a 400
#: (``api.pagination.one_paging_value``): never tidied nor kept (``cached_page(one=…)``).
PAGED = {"one": PAGING}
PAGE = {"one": {"page"}}
SEARCH = SEARCH_PARAMETERS | ONE
COLLATION = ONE | {"with", "glyphs", "section"}
urlpatterns = [
    path("", views.ApiRoot.as_view(), name="root"),
    path("works/", cached_page(views.WorkList.as_view(), reads=LIST | {"title", "author", "dynasty"},
                                  many={"author", "dynasty"}, **PAGED), name="work-list"),
    path("works/<num:pk>/", cached_page(views.WorkDetail.as_view(), reads=ONE), name="work-detail"),
    path("works/<num:pk>/export/<str:kind>/", cached_page(views.WorkExport.as_view(), reads=ONE), name="work-export"),
    path("works/<num:pk>/juans/<num:number>/", cached_page(views.JuanDetail.as_view(), reads=ONE), name="juan-detail"),
    path("works/<num:pk>/juans/<num:number>/export/<str:kind>/", cached_page(views.JuanExport.as_view(), reads=ONE), name="juan-export"),
    path("works/<num:pk>/juans/<num:number>/sections/<num:position>/", cached_page(views.SectionDetail.as_view(), reads=ONE | {"page"}, **PAGE),
         name="section-detail"),
    path("works/<num:pk>/juans/<num:number>/sections/<num:position>/notes/", views.SectionNotes.as_view(),
         name="section-notes"),
    path("editions/<num:pk>/", cached_page(views.EditionDetail.as_view(), reads=ONE), name="edition-detail"),
    # The juans of one edition: the same views, told by ``EDITION`` that ``pk`` is an edition id.
    path("editions/<num:pk>/export/<str:kind>/", cached_page(views.WorkExport.as_view(), reads=ONE), EDITION,
         name="edition-export"),
    path("editions/<num:pk>/juans/<num:number>/", cached_page(views.JuanDetail.as_view(), reads=ONE), EDITION,
         name="edition-juan-detail"),
    path("editions/<num:pk>/juans/<num:number>/export/<str:kind>/", cached_page(views.JuanExport.as_view(), reads=ONE), EDITION,
         name="edition-juan-export"),
    path("editions/<num:pk>/juans/<num:number>/sections/<num:position>/",
         cached_page(views.SectionDetail.as_view(), reads=ONE | {"page"}, **PAGE), EDITION, name="edition-section-detail"),
    path("editions/<num:pk>/juans/<num:number>/sections/<num:position>/notes/", views.SectionNotes.as_view(),
         EDITION, name="edition-section-notes"),
    path("editions/<num:pk>/juans/<num:number>/collation/", cached_page(CollationView.as_view(), reads=COLLATION, many={"with"}), EDITION,
         name="collation"),
    path("editions/<num:pk>/juans/<num:number>/collation/<str:kind>/", cached_page(CollationExport.as_view(), reads=COLLATION, many={"with"}),
         EDITION, name="collation-export"),
    path("editions/<num:pk>/juans/<num:number>/layer-check/", cached_page(LayerCheckView.as_view(), reads=ONE | {"with"}, many={"with"}),
         EDITION, name="layer-check"),
    path("works/<num:pk>/juans/<num:number>/layer-check/", cached_page(LayerCheckView.as_view(), reads=ONE | {"with"}, many={"with"}),
         name="work-layer-check"),
    # The same collation read in the work's default edition, as the other juan URLs under works/.
    path("works/<num:pk>/juans/<num:number>/collation/", cached_page(CollationView.as_view(), reads=COLLATION, many={"with"}),
         name="work-collation"),
    path("works/<num:pk>/juans/<num:number>/collation/<str:kind>/", cached_page(WorkCollationExport.as_view(), reads=COLLATION, many={"with"}),
         name="work-collation-export"),
    path("editions/<num:pk>/juans/<num:number>/sections/<num:position>/parallels/",
         cached_page(SectionParallels.as_view(), reads=ONE | {"page"}, **PAGE), EDITION, name="edition-section-parallels"),
    path("works/<num:pk>/juans/<num:number>/sections/<num:position>/parallels/",
         cached_page(SectionParallels.as_view(), reads=ONE | {"page"}, **PAGE), name="section-parallels"),
    path("parallels/", cached_page(SpanParallels.as_view(), reads=ONE | {"text", "page"}, **PAGE), name="parallels"),
    path("search/", cached_page(views.SearchView.as_view(), reads=SEARCH | PAGING, many=MANY_VALUED,
                                canonical=CANONICAL, one=ONE_VALUED | PAGING), name="search"),
    path("classes/", cached_page(ClassList.as_view(), reads=LIST, **PAGED), name="class-list"),
    path("classes/<str:code>/works/", cached_page(ClassWorks.as_view(), reads=LIST | {"shu"}, **PAGED), name="class-works"),
    path("search/export/<str:kind>/", views.SearchExport.as_view(), name="search-export"),
    path("search/distribution/", cached_page(views.SearchDistributionView.as_view(), reads=SEARCH | {"group"}, many=MANY_VALUED,
                                                          canonical=CANONICAL, one=ONE_VALUED), name="search-distribution"),
    # A work or edition named by its slug, as on the reading pages: redirected to its id (api.redirects).
    path("works/<str:slug>/", redirects.work_by_slug),
    path("works/<str:slug>/<path:rest>", redirects.work_by_slug),
    path("editions/<str:slug>/", redirects.edition_by_slug),
    path("editions/<str:slug>/<path:rest>", redirects.edition_by_slug),
    # The schema changes with the code alone (in the page cache's key): built once (0.4-1.9 s each).
    path("schema/", cached_page(SchemaView.as_view(), reads=ONE | {"version", "lang"}), name="schema"),
    # Swagger UI sets a style attribute from its script: inline styles allowed on this page only.
    # The page lists the endpoints itself at once (api.docs), before Swagger UI has the schema.
    path("docs/", csp_update({"style-src": ["'unsafe-inline'"]})(
        DocsView.as_view(url_name="api:schema", template_name="api/swagger_ui.html")),
         name="docs"),
    # ReDoc styles itself with inline styles and a blob: worker: allowed on this page only.
    path("redoc/", csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"],
                               "img-src": ["data:"]})(
        SpectacularRedocView.as_view(url_name="api:schema", template_name="api/redoc.html")), name="redoc"),
]
