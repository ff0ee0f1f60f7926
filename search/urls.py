from django.urls import path

from config.cacheable import cached_page

from . import views
from .forms import CANONICAL, MANY_VALUED, ONE_VALUED, PAGING, SEARCH_PARAMETERS

app_name = "search"
#: What the search page reads (``cached_page(reads=…)``): the form, the page of hits and the
#: chart's grouping; the layers and facets with every value.
SEARCH_PAGE = SEARCH_PARAMETERS | {"page", "group"}
urlpatterns = [path("", cached_page(views.search_page, reads=SEARCH_PAGE, many=MANY_VALUED,
                                        canonical=CANONICAL, one=ONE_VALUED | {"page"}), name="search"),
               path("juan-labels/", cached_page(views.juan_labels_page, reads={"work", "edition"}), name="juan-labels")]
