"""An index this server's engine cannot read, answered 503 (``IndexUnavailable``).

The index folder may hold an index of the other engine (``rebuild_index`` run with another
``SEARCH_BACKEND`` than the running servers': every section page
answered 500) or of a format this version does not read. A request that needs the index is
answered 503 with what happened, in JSON under ``/api/``; the details (the folder, what to
run) go to the log, not to the public. Pages that only use the index for extras (a section's
parallels, the other pages' highlight counts) leave them out instead (``pages.views``).
"""
from __future__ import annotations

import logging

from django.http import HttpResponse, JsonResponse

from config.api_errors import bilingual
from search.backends import IndexUnavailable

#: What a visitor reads.
PUBLIC = ("The library's search index cannot be read by this server: it was built for another search engine "
          "or by another version. Please try again later; if it lasts, tell the site's administrator (the "
          "server's log says what to do).")
PUBLIC_ZH = ("本館的檢索索引，此伺服器無法讀取：它是為另一種檢索引擎或由另一個版本所建。請稍後再試；"
             "若一直如此，請告知網站管理者（伺服器的日誌說明該怎麼做）。")


class IndexUnavailableMiddleware:
    """``IndexUnavailable`` during a request: 503, ``PUBLIC_ZH`` then ``PUBLIC`` (JSON
    ``{"detail", "kind": "search-index"}`` under ``/api/``, the English in brackets as every
    error of the API; plain text, a line each, elsewhere), the exception's message logged."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, IndexUnavailable):
            return None
        logging.getLogger("django.request").error("search index unavailable on %s: %s", request.path, exception)
        if request.path_info.startswith("/api/"):
            return JsonResponse({"detail": bilingual(PUBLIC_ZH, PUBLIC), "kind": "search-index"}, status=503,
                                json_dumps_params={"ensure_ascii": False})
        return HttpResponse(f"{PUBLIC_ZH}\n{PUBLIC}", status=503, content_type="text/plain; charset=utf-8")
