"""Pagination of API lists: DRF's page-number style (``count``, ``next``, ``previous``, ``results``)."""
from urllib.parse import urlencode

from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination

from config.cacheable import view_pairs
from config.paging import NO_PAGE, PAGING, one_value_errors, page_number, past_last


def one_paging_value(request, names=PAGING) -> None:
    """Raise ``ValidationError`` (a 400: ``{name: [message]}``, ``config.paging.one_value_errors``)
    when ``request`` gives a paging parameter of ``names`` (``page``, ``page_size``) several
    different values: every list of the API read the last one silently (``/api/works/?page=1&page=2``
    was page 2), where the search answered 400."""
    if repeated := one_value_errors(request.query_params, names):
        raise ValidationError({name: [message] for name, message in repeated.items()})


def read_params(request) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of ``request``'s query string that its view reads, as it reads
    them (``config.cacheable.view_pairs``), for the links an answer holds to other pages and
    searches; every pair for a view the page cache does not keep. The page cache keeps one answer
    for ``?q=射&x=1``, ``?q=射&q=射`` and ``?q=射``, whose links must not carry the first one's ``x``."""
    params = [(name, value) for name, values in request.GET.lists() for value in values]
    view = getattr(request.resolver_match, "func", None)
    read = view_pairs(view, params) if getattr(view, "cached_page", False) else None
    return params if read is None else read


class StandardPagination(PageNumberPagination):
    """``?page=N`` and ``?page_size=M`` (a whole number from 1 to 200); 20 per page by default.
    A ``page_size`` outside that range or not a whole number (-1, 0, abc, 10**9) is a 400 that
    names the parameter and the range (``page_size_of``): DRF's own paginator took any of them
    silently as the default, or as 200, and a client never learnt it got another page size.

    ``next`` and ``previous`` are built from the decoded parameters, so a query sent as
    raw UTF-8 (``curl -g '…?q=之'``) gets working, percent-encoded links (DRF builds them
    from ``QUERY_STRING``, which WSGI hands over as Latin-1), of the parameters the view reads."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 200
    #: A page past the last (404), in both languages as the project's other errors, naming the
    #: last page (``past_last_message``); DRF's own wording, for what Django's paginator refuses
    #: otherwise, is kept for any page the checks before it let through.
    invalid_page_message = ("沒有第「{page_number}」頁 (no page {page_number!r}: pages are numbered from 1 to "
                            "the last, count / page_size rounded up)")

    #: What a page past the last is answered (a 404 naming the last page and the page size).
    past_last_message = ("沒有第「{page}」頁：已過末頁，末頁為第 {last} 頁 (no page {page!r}: past the last page, "
                         "{last}, at {size} a page)")

    #: What a bad ``page_size`` is answered (a 400 naming the parameter and the range).
    invalid_page_size_message = ("page_size 須為 1 至 {max} 的整數 (page_size must be a whole number from 1 to {max}, "
                                 "not {value!r}; the default is {default})")

    #: What a ``page`` that is no page number is answered (a 400 naming the parameter).
    invalid_page_number_message = NO_PAGE

    def paginate_queryset(self, queryset, request, view=None):
        """DRF's page of ``queryset``, after ``one_paging_value``: ``page`` or ``page_size`` given
        several different values is a 400, never the last one."""
        one_paging_value(request)
        return super().paginate_queryset(queryset, request, view)

    def get_page_number(self, request, paginator) -> int | str:
        """The page ``request`` asks for: 1 when ``page`` is absent or empty, the last for
        ``last``, a whole number from 1 (ASCII digits) as itself; past the last page, ``NotFound``
        (a 404 whose ``detail`` names the last page: ``past_last_message``, the page asked as
        ``config.paging.past_last`` shows it); anything else (``0``, ``-1``, ``x``, ``1.5``) raises
        ``ValidationError`` (a 400: ``{"page": [message]}``), where DRF answered 404 as for a
        page past the last."""
        value = request.query_params.get(self.page_query_param)
        if value is None or value == "":
            return 1
        if value in self.last_page_strings:
            return paginator.num_pages
        if (shown := past_last(value, paginator.num_pages)) is not None:  # as the site's pages read it
            raise NotFound(self.past_last_message.format(page=shown, last=paginator.num_pages, size=paginator.per_page))
        if (number := page_number(value)) is not None:
            return number
        raise ValidationError({self.page_query_param: [self.invalid_page_number_message.format(value=value[:20])]})

    def get_page_size(self, request) -> int:
        """The page size ``request`` asks for (``page_size_of``)."""
        return self.page_size_of(request.query_params.get(self.page_size_query_param))

    def page_size_of(self, value: str | None) -> int:
        """``value`` of ``page_size`` as a page size: ``page_size`` (20) when it is absent or
        empty; a whole number from 1 to ``max_page_size`` (ASCII digits) as itself; anything
        else raises ``ValidationError`` (a 400: ``{"page_size": [message]}``)."""
        if value is None or value == "":
            return self.page_size
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= self.max_page_size:
            return int(text)
        raise ValidationError({self.page_size_query_param: [self.invalid_page_size_message.format(
            max=self.max_page_size, value=value[:20], default=self.page_size)]})

    def _link(self, number: int | None) -> str | None:
        if number is None:
            return None
        params = [(name, value) for name, value in read_params(self.request) if name != self.page_query_param]
        if number != 1:
            params.append((self.page_query_param, str(number)))
        url = self.request.build_absolute_uri(self.request.path)
        query = urlencode(sorted(params, key=lambda pair: pair[0]))  # by name, as DRF's own links
        return f"{url}?{query}" if query else url

    def get_next_link(self):
        """The absolute URL of the next page (``_link``: the request's parameters sorted, ``page`` set), or None
        on the last page."""
        return self._link(self.page.next_page_number() if self.page.has_next() else None)

    def get_previous_link(self):
        """The absolute URL of the previous page (the first page's URL has no ``page``), or None on the first
        page."""
        return self._link(self.page.previous_page_number() if self.page.has_previous() else None)


class WholeListPagination(StandardPagination):
    """A list short enough to be read whole (the catalogue's 86 classes, a section's notes) in
    one page by default: ``page_size`` 200 unless asked for fewer, ``page`` as every list."""

    page_size = StandardPagination.max_page_size
