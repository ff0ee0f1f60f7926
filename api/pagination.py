"""Pagination of API lists: DRF's page-number style (``count``, ``next``, ``previous``, ``results``)."""
from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    """``?page=N`` and ``?page_size=M`` (at most 200); 20 per page by default."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 200
