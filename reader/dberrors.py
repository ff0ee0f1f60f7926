"""Database errors told apart, each with what to do (issue 17, "honest errors").

``classify(exc)`` sorts an exception raised by the database driver (Django's wrapped
``django.db.utils.Error`` or psycopg's and sqlite3's own) into one of:

========== ==================================================================================
kind       recognised by (SQLite message / PostgreSQL SQLSTATE or libpq message)
========== ==================================================================================
busy       "database is locked", "database table is locked", "busy" / 55P03 lock_not_available,
           40P01 deadlock, 40001 serialization failure, 57014 statement timeout
unreachable "unable to open database file" (SQLite: the folder is missing) / libpq: "failed to
           resolve host", "could not translate host name", "Connection refused", "timeout
           expired", "No route to host", "server closed the connection", 08xxx, 57P01-57P03
refused    PostgreSQL refused the login: 28P01, 28000 ("password authentication failed",
           "no pg_hba.conf entry", "role … does not exist"), 3D000 ("database … does not exist")
permission "attempt to write a readonly database", "readonly" / 42501 insufficient privilege,
           25006 read-only transaction, "permission denied"
disk-full  "database or disk is full" (SQLITE_FULL), and SQLite's "disk I/O error" of a write
           (SQLITE_IOERR_SHMSIZE, _WRITE, _FSYNC, _TRUNCATE: in WAL mode a full disk fails
           even reads, when the shared-memory file cannot grow) / 53100 disk_full, 53200
           out_of_memory, "No space left on device", "could not extend file"
schema     "no such table" / 42P01 undefined table, 42703 undefined column (not migrated)
other      anything else (the driver's message is kept)
========== ==================================================================================

Sources: SQLite result codes (https://www.sqlite.org/rescode.html), PostgreSQL error codes
(https://www.postgresql.org/docs/current/errcodes-appendix.html) and libpq's connection
messages as psycopg 3 reports them.
"""
from __future__ import annotations

import functools
import logging
import sqlite3
from dataclasses import dataclass

from django.core.management.base import CommandError
from django.db import Error as DjangoDatabaseError
from django.http import HttpResponse, JsonResponse

from config.api_errors import bilingual

try:  # only a PostgreSQL database needs it (it is in requirements.txt all the same)
    import psycopg
except ImportError:  # pragma: no cover
    psycopg = None

BUSY, UNREACHABLE, REFUSED, PERMISSION, DISK_FULL, SCHEMA, OTHER = (
    "busy", "unreachable", "refused", "permission", "disk-full", "schema", "other")

_STATES = {
    "55P03": BUSY, "40P01": BUSY, "40001": BUSY, "57014": BUSY,
    "28P01": REFUSED, "28000": REFUSED, "3D000": REFUSED,
    "42501": PERMISSION, "25006": PERMISSION,
    "53100": DISK_FULL, "53200": DISK_FULL,
    "57P01": UNREACHABLE, "57P02": UNREACHABLE, "57P03": UNREACHABLE,
    "42P01": SCHEMA, "42703": SCHEMA,
}
#: (kind, words any of which in the lower-cased message gives the kind), checked in order.
_MESSAGES = [
    (DISK_FULL, ("database or disk is full", "no space left on device", "could not extend file", "disk full")),
    (PERMISSION, ("readonly database", "read-only", "permission denied", "insufficient privilege")),
    (REFUSED, ("password authentication failed", "no pg_hba.conf entry", "authentication failed")),
    (SCHEMA, ("no such table", "no such column")),
    (BUSY, ("database is locked", "database table is locked", "is busy", "lock timeout", "deadlock")),
    (UNREACHABLE, ("failed to resolve host", "could not translate host name", "name or service not known",
                   "connection refused", "timeout expired", "no route to host", "could not connect",
                   "server closed the connection", "connection failed", "unable to open database file",
                   "network is unreachable", "temporary failure in name resolution")),
]

#: What to do, per kind ("{detail}" is the driver's message, "{action}" what was not done).
ADVICE = {
    BUSY: "the database is busy: another writer holds a lock (another import, a rebuild or an admin edit). "
          "{action} Try again when it has finished.",
    UNREACHABLE: "cannot reach the database ({detail}). {action} Check the host, port and name in DATABASE_URL "
                 "and that the database server is running and reachable from this machine (for SQLite, that "
                 "the folder of the database file exists).",
    REFUSED: "the database refused the connection ({detail}). {action} Check the user, password and database "
             "name in DATABASE_URL, and that PostgreSQL lets this user connect (pg_hba.conf).",
    PERMISSION: "the database denied the write ({detail}). {action} Give this database user the rights on the "
                "tables (GRANT … ON ALL TABLES IN SCHEMA public), or make the SQLite file and its folder "
                "writable by this process.",
    DISK_FULL: "the disk holding the database is full ({detail}). {action} Free some space (or move the "
               "database to a larger disk) and try again.",
    # a SQLite write error (SQLITE_IOERR_*): nearly always a full disk, else a failing one
    "disk-io": "the disk holding the database cannot be written ({detail}): it is full or failing. {action} Free "
               "some space (or move the database to a larger disk), check the disk, and try again.",
    SCHEMA: "the database has no tables for this version of the project ({detail}). {action} Run "
            "`python manage.py migrate` first.",
    OTHER: "database error ({detail}). {action}",
}


@dataclass(frozen=True)
class DatabaseProblem:
    """A classified database error: ``kind`` (one of the table above) and ``message``, a
    sentence for the user that names what was not done and what to do."""

    kind: str
    message: str


#: SQLite's extended result codes (``sqlite3.Error.sqlite_errorname``, Python 3.11+) whose
#: generic message ("disk I/O error") hides the kind.
_SQLITE_NAMES = {
    "SQLITE_FULL": DISK_FULL, "SQLITE_IOERR_SHMSIZE": DISK_FULL, "SQLITE_IOERR_WRITE": DISK_FULL,
    "SQLITE_IOERR_FSYNC": DISK_FULL, "SQLITE_IOERR_TRUNCATE": DISK_FULL,
}


def _sqlite_name(exc: BaseException) -> str | None:
    for e in (exc, exc.__cause__, exc.__context__):
        name = getattr(e, "sqlite_errorname", None)
        if name:
            return name
    return None


def _state(exc: BaseException) -> str | None:
    for e in (exc, exc.__cause__, exc.__context__):
        state = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
        if state:
            return state
    return None


def classify(exc: BaseException) -> str:
    """The kind of a database error (see the module docstring)."""
    state = _state(exc)
    if state in _STATES:
        return _STATES[state]
    if _sqlite_name(exc) in _SQLITE_NAMES:
        return _SQLITE_NAMES[_sqlite_name(exc)]
    if state and state.startswith("08"):
        return UNREACHABLE
    text = " ".join(str(e) for e in (exc, exc.__cause__) if e is not None).lower()
    if "does not exist" in text and ('role "' in text or 'database "' in text):
        return REFUSED
    for kind, words in _MESSAGES:
        if any(w in text for w in words):
            return kind
    return OTHER


def describe(exc: BaseException, action: str = "Nothing was changed.") -> DatabaseProblem:
    """``classify(exc)`` with its message: ``action`` says what was not done (``"Nothing from
    this file was stored."``). The driver's own message is kept, on one line (libpq's
    messages name the host and the user, never the password)."""
    kind = classify(exc)
    detail = " ".join(str(exc).split())
    name = _sqlite_name(exc)
    io_error = bool(name and name.startswith("SQLITE_IOERR"))
    advice = ADVICE["disk-io"] if kind == DISK_FULL and io_error else ADVICE[kind]
    if io_error:
        detail += f", {name}"
    return DatabaseProblem(kind, advice.format(detail=detail, action=action))


def is_database_error(exc: BaseException) -> bool:
    """Whether ``exc`` comes from the database driver (Django's wrapper, sqlite3 or psycopg)."""
    if isinstance(exc, (DjangoDatabaseError, sqlite3.Error)):
        return True
    return psycopg is not None and isinstance(exc, psycopg.Error)


def explained(action: str = "Nothing was changed."):
    """Decorator for a management command's ``handle``: a database error (``is_database_error``)
    becomes a ``CommandError`` with ``describe(exc, action).message`` (what happened and what
    to do) instead of a traceback: ``@explained("The index was not rebuilt.")``."""
    def wrap(handle):
        @functools.wraps(handle)
        def handle_explained(*args, **kwargs):
            try:
                return handle(*args, **kwargs)
            except Exception as exc:
                if not is_database_error(exc):
                    raise
                raise CommandError(describe(exc, action).message) from None
        return handle_explained
    return wrap


#: What a visitor is told, per kind (the driver's message goes to the log, not to the page).
PUBLIC = {
    BUSY: "The library's database is busy (an update is being written). Please try again in a minute.",
    UNREACHABLE: "The library's database cannot be reached just now. Please try again later; if it lasts, "
                 "tell the site's administrator.",
    DISK_FULL: "The library's database has run out of disk space. Please tell the site's administrator.",
}
#: The same in Chinese, which the page and the API's ``detail`` give first.
PUBLIC_ZH = {
    BUSY: "本館的資料庫正忙（正在寫入更新），請一分鐘後再試。",
    UNREACHABLE: "本館的資料庫一時無法連上，請稍後再試；若一直如此，請告知網站管理者。",
    DISK_FULL: "本館的資料庫已無磁碟空間，請告知網站管理者。",
}
#: What a visitor is told of any other database error, in English and in Chinese.
OTHER_PUBLIC = ("The library's database failed to answer this request. Please try again later; if it lasts, tell "
                "the site's administrator.")
OTHER_PUBLIC_ZH = "本館的資料庫未能答覆此請求，請稍後再試；若一直如此，請告知網站管理者。"


class DatabaseErrorMiddleware:
    """A database error during a request is answered 503 with what happened and what to
    do (``PUBLIC_ZH`` then ``PUBLIC``: JSON under ``/api/``, the English in brackets as every error
    of the API, else plain text, a line each), and a ``Retry-After`` when waiting may help,
    instead of a bare 500. The driver's message is logged with ``describe``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not is_database_error(exception):
            return None
        problem = describe(exception, "The request was not answered.")
        logging.getLogger("django.request").error("database error on %s: %s", request.path, problem.message)
        text, text_zh = PUBLIC.get(problem.kind, OTHER_PUBLIC), PUBLIC_ZH.get(problem.kind, OTHER_PUBLIC_ZH)
        if request.path_info.startswith("/api/"):
            response = JsonResponse({"detail": bilingual(text_zh, text), "kind": problem.kind}, status=503,
                                    json_dumps_params={"ensure_ascii": False})
        else:
            response = HttpResponse(f"{text_zh}\n{text}", status=503, content_type="text/plain; charset=utf-8")
        if problem.kind in (BUSY, UNREACHABLE):
            response["Retry-After"] = "60"
        return response
