"""Django settings, read from the environment (django-environ) with working local defaults.

Environment:
    DJANGO_DEBUG          "true"/"false", default false
    DJANGO_SECRET_KEY     required unless DEBUG is on (a fixed development key is used then)
    DJANGO_ALLOWED_HOSTS  comma-separated, default "127.0.0.1,localhost"
    DATABASE_URL          default sqlite:///var/db.sqlite3
    SEARCH_INDEX_DIR      default var/index
    SEARCH_BACKEND        positional (default) or whoosh: the search engine
    IMPORT_MAX_FILE_MB    default 8: the largest source file an import reads (docs/importing.md)
    SEARCH_INDEX_SIGNING_KEY  optional: signs each index generation's manifest (HMAC-SHA256);
                          pull_index then takes only generations signed with it (docs/production.md)
"""
import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

DEBUG = env.bool("DJANGO_DEBUG", default=False)
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_DEBUG is off and DJANGO_SECRET_KEY is not set. Locally: DJANGO_DEBUG=true "
            ".venv/bin/python manage.py … (or make serve); in production: set DJANGO_SECRET_KEY "
            "(docs/production.md)."
        )
    SECRET_KEY = "development-only-key-never-use-in-production"
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "axes",
    "characters",
    "catalogue",
    "reader",
    "corrections",
    "search",
    "api",
    "collation",
    "pages",
]

MIDDLEWARE = [
    "config.server_timing.ServerTimingMiddleware",  # outermost: Server-Timing covers the whole request
    "config.security_headers.SecurityHeadersMiddleware",  # headers on every response, early 400s and static too
    "config.request_line.RequestLineMiddleware",  # 414 for a request line over gunicorn's limit, as gunicorn's worker answers it
    "config.budget.RequestBudgetMiddleware",  # a deadline per request; past it, a 503 saying what to narrow
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "config.api_errors.ApiErrorsMiddleware",  # every 404 and 405 under /api/ as JSON, DEBUG on or off
    "reader.validation.RejectNulMiddleware",  # 400 for NUL in a path or parameter, on every database
    "reader.dberrors.DatabaseErrorMiddleware",  # 503 saying what happened for a database error
    "search.middleware.IndexUnavailableMiddleware",  # 503 for an index of another engine or format
    "pages.catalogue.TitledPathMiddleware",  # /works/<title>/juan/1/: a 404 whose key is a title leads to its work
    "pages.caching.PageCacheMiddleware",  # kept pages skip the rest (pages/caching.py)
    "config.capacity.CapacityMiddleware",  # heavy requests: their clients' budgets, the server's slots
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",  # ETag + 304 for repeat requests
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # admin login attempts are throttled (django-axes)
    "django.contrib.auth.backends.ModelBackend",
]
# Accounts for corrections (corrections/roles.py): readers need none; operators create them
# (manage.py create_account) or, when CORRECTIONS_SIGNUP is on, people sign up as contributors.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "corrections:mine"
LOGOUT_REDIRECT_URL = "reader:home"
CORRECTIONS_SIGNUP = env.bool("CORRECTIONS_SIGNUP", default=False)
# Writes of corrections (proposals, reviews): per account and per address (config.ratelimit.write_wait).
CORRECTIONS_USER_RATE = env("CORRECTIONS_USER_RATE", default="30/hour")
CORRECTIONS_ADDRESS_RATE = env("CORRECTIONS_ADDRESS_RATE", default="60/hour")
# An editor's reviews (accept, reject, revert, look again): per account alone, apart from the budgets
# above, so that contributors behind one address never lock the editors out (docs/corrections.md).
CORRECTIONS_REVIEW_RATE = env("CORRECTIONS_REVIEW_RATE", default="600/hour")
# Private notes and bookmarks one account may keep, together (corrections.workflow.propose): a
# reader marking ten passages of every juan he reads, 500 juans, within it.
READER_NOTES_MAX = env.int("READER_NOTES_MAX", default=5000)
# The largest source file an import reads (reader.importers.files.max_file_bytes): the parser holds
# about 70 times a file's size in memory; the largest Kanripo file of the shared corpus is 1.39 MB.
IMPORT_MAX_FILE_BYTES = int(env.float("IMPORT_MAX_FILE_MB", default=8) * 2**20)
# The groups whose signed-in members the anonymous budgets (searches, heavy requests) do not
# count, besides staff (config.clients.unlimited): the editors (corrections/roles.py).
UNLIMITED_GROUPS = ["editor"]
# Password-reset mail: printed on the console unless a backend is configured.
EMAIL_BACKEND = env("DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", default="webmaster@localhost")
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)  # hours
# Locked: a username from one client address (as seen through NUM_PROXIES trusted proxies), so
# one client cannot lock every editor out, and a shared proxy address does not lock everyone.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.clients.client_ip"
AXES_RESET_ON_SUCCESS = True

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.account",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if "DATABASE_URL" not in env:
    VAR_DIR.mkdir(exist_ok=True)  # the embedded default: a SQLite file under var/
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Readers keep reading while an import writes (WAL), and writers wait instead of failing.
    # Transactions start IMMEDIATE, so a second writer waits (up to the timeout) instead
    # of failing at once when it first reads and then writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "timeout": env.int("SQLITE_TIMEOUT", default=120),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    })

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "zh-hant"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Security: Django's protections stay on; production hardening follows DEBUG.
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
#: The page a form whose CSRF token is missing or out of date is answered with (the site's, in Chinese and English).
CSRF_FAILURE_VIEW = "config.urls.csrf_failure"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", default=True)
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto (see docs/production.md).
    if env.bool("DJANGO_BEHIND_PROXY", default=False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (django-csp): no inline scripts or styles anywhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}

# Search: backends chosen by alias, like Django's CACHES (see search/backends/__init__.py).
SEARCH_INDEX_DIR = Path(env.str("SEARCH_INDEX_DIR", default=str(VAR_DIR / "index")))
#: The search engine (docs/production.md, "Search engines"): ``positional`` (the default) or ``whoosh``.
SEARCH_ENGINES = {
    "positional": "search.backends.positional.PositionalIndexBackend",
    "whoosh": "search.backends.whoosh.WhooshBackend",
}
SEARCH_BACKEND = env.str("SEARCH_BACKEND", default="positional")
if SEARCH_BACKEND not in SEARCH_ENGINES:
    raise ImproperlyConfigured(
        f"SEARCH_BACKEND={SEARCH_BACKEND!r}: choose one of {', '.join(SEARCH_ENGINES)} (docs/production.md, section Search engines)."
    )
SEARCH_BACKENDS = {
    "default": {
        "BACKEND": SEARCH_ENGINES[SEARCH_BACKEND],
        "PATH": SEARCH_INDEX_DIR,
        "LOCK_TIMEOUT": env.float("SEARCH_LOCK_TIMEOUT", default=60.0),
        # Whoosh only: processes that write a rebuild (whoosh's multiprocess writer; docs/decisions/0013)
        "WRITER_PROCS": env.int("SEARCH_WRITER_PROCS", default=1),
    },
}
#: A query of several terms that would examine more index positions than this is refused
#: with a 400 saying why (search/backends/positional/backend.py, check_work); one term is always answered.
SEARCH_MAX_WORK = env.int("SEARCH_MAX_WORK", default=4_000_000)
#: A secret that signs the manifest of every index generation this server writes or publishes
#: (HMAC-SHA256 of MANIFEST.json, in MANIFEST.sig); when set, pull_index swaps in only generations
#: whose manifest it signed, and a Whoosh server pulls nothing unsigned (its files are read with
#: pickle). Set the same value on the server that publishes and on those that pull
#: (search/shipping.py, docs/production.md). Empty: manifests are unsigned, checksums still checked.
SEARCH_INDEX_SIGNING_KEY = env.str("SEARCH_INDEX_SIGNING_KEY", default="")
#: Hits a CSV/TSV hit list may hold (api/hitlists.py); a query with more is a 400 that says
#: to narrow it. About 10,000 rows a second are written: 200,000 stay under the request
#: budget (20 s), within which a list is written before it is sent (a 503 past it).
HIT_LIST_MAX_ROWS = env.int("HIT_LIST_MAX_ROWS", default=200_000)
# Whole rendered pages and API responses for anonymous GETs (pages/caching.py), shared by
# the workers on disk; keys change with every change to the texts or the index.
PAGE_CACHE = "pages"
PAGE_CACHE_SECONDS = env.int("PAGE_CACHE_SECONDS", default=7 * 24 * 3600)  # 0 turns it off
PAGE_CACHE_MAX_BYTES = 16 * 2**20  # whole-work exports reach 6 MB
PAGE_CACHE_MEMORY_BYTES = env.int("PAGE_CACHE_MEMORY_MB", default=32) * 2**20  # per process
PAGE_CACHE_STAMP = Path(env.str("PAGE_CACHE_DIR", default=str(VAR_DIR / "cache"))) / "corpus-version"
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    PAGE_CACHE: {  # a byte budget, least recently used pages go first (pages/caching.py)
        "BACKEND": "pages.caching.BoundedFileCache",
        "LOCATION": str(PAGE_CACHE_STAMP.parent / "pages"),
        "OPTIONS": {"MAX_ENTRIES": env.int("PAGE_CACHE_ENTRIES", default=5000),
                    "MAX_BYTES": env.int("PAGE_CACHE_MB", default=512) * 2**20},
    },
}
#: Seconds a request may take (config/budget.py): past it, a 503 that says what to narrow;
#: 0 sets no budget. Below gunicorn's worker timeout (30 s by default).
REQUEST_BUDGET_SECONDS = env.float("REQUEST_BUDGET_SECONDS", default=20.0)
#: Seconds a section's reading page gives its parallel passages (pages/views.py,
#: section_parallels); past them the page is sent without them, with a link to look them up, and
#: is not kept by the page cache. 0: only the request's budget bounds them.
SECTION_PARALLELS_SECONDS = env.float("SECTION_PARALLELS_SECONDS", default=1.0)
#: Threads per process that find sections' parallels (config/kept_work.py): a search cut by
#: SECTION_PARALLELS_SECONDS goes on in one and is kept, for the next request of the section.
SECTION_PARALLELS_THREADS = env.int("SECTION_PARALLELS_THREADS", default=2)
#: Seconds a request waits for its juan's quotation map (collation/views.py, quotation_map),
#: never past its own budget less one second; past them a 503 with Retry-After that says the map
#: is being made: it goes on in its own thread and is kept. 0: only the request's budget bounds
#: the wait (with no budget either, the request makes the map itself).
QUOTATION_MAP_SECONDS = env.float("QUOTATION_MAP_SECONDS", default=10.0)
#: Quotation maps made at once per process (each in its own thread, config/kept_work.py).
QUOTATION_MAP_THREADS = env.int("QUOTATION_MAP_THREADS", default=1)
#: Characters of main text of the largest juan a quotation map is made for (collation/views.py):
#: a larger one (the TLS edition of 史記 gathers its 列傳 in one "juan" of 305,410) is answered with
#: its sections, each linking to its own parallel passages. 0 sets no limit.
QUOTATION_MAP_MAX_CHARS = env.int("QUOTATION_MAP_MAX_CHARS", default=100_000)
#: Seconds a quotation map takes per character of its juan's main text before this process has
#: made one (then the last one made gives the rate): what a 503's Retry-After is reckoned from.
QUOTATION_MAP_SECONDS_PER_CHAR = env.float("QUOTATION_MAP_SECONDS_PER_CHAR", default=0.001)
#: A juan's exports made at once per process (api/views.py, JuanExport: each in a thread of its own,
#: config/kept_work.py; the requests asking for one while it is made wait for it, never past their
#: budget less one second, then a 503 with Retry-After while it goes on and is kept).
JUAN_EXPORT_THREADS = env.int("JUAN_EXPORT_THREADS", default=1)
#: Seconds a juan's export takes per character of the juan before this process has made one of
#: 10,000 characters or more (then the last one gives the rate): what a 503's Retry-After is reckoned from.
JUAN_EXPORT_SECONDS_PER_CHAR = env.float("JUAN_EXPORT_SECONDS_PER_CHAR", default=0.00005)
#: Seconds a request waits for the layer check of its juan's edition against a reference
#: (collation/juanlayers.py: the whole editions aligned, then kept), never past its own budget less
#: one second; past them a 503 with Retry-After that says the check is being made (正在核對): it goes
#: on in its own thread and is kept. 0: only the request's budget bounds the wait (with no budget
#: either, the request aligns them itself).
LAYER_CHECK_SECONDS = env.float("LAYER_CHECK_SECONDS", default=3.0)
#: Characters of a section per reading page (reader/paging.py): longer sections are paged.
SECTION_PAGE_CHARS = env.int("SECTION_PAGE_CHARS", default=20_000)
#: Trusted proxies in front of the app: the client is the NUM_PROXIES-th address from the
#: right of X-Forwarded-For; 0 (the default) trusts no header (config/clients.py).
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
#: Rate limits per client (DRF's "N/s|min|hour|day" form; config/ratelimit.py), counted in
#: a cache all workers share.
API_ANON_RATE = env.str("API_ANON_RATE", default="600/min")
API_USER_RATE = env.str("API_USER_RATE", default="1200/min")
SEARCH_ANON_RATE = env.str("SEARCH_ANON_RATE", default="60/min")  # API and HTML searches together
EXPORT_ANON_RATE = env.str("EXPORT_ANON_RATE", default="10/min")  # whole-work exports
#: The CPU time an anonymous client's API requests (those the page cache does not answer, heavy
#: ones aside) may take ("N/min": N seconds a minute), each charged when it took at least
#: API_COST_FLOOR_SECONDS (config/ratelimit.py).
API_ANON_SECONDS = env.str("API_ANON_SECONDS", default="30/min")
API_COST_FLOOR_SECONDS = env.float("API_COST_FLOOR_SECONDS", default=0.01)
#: The same for the site's HTML pages (search results, reading pages with highlights, a section's
#: collation …: any page the page cache does not answer, heavy ones aside), a budget of its own,
#: each page charged under the same floor; over it a 429 page with Retry-After (config/capacity.py).
PAGE_ANON_SECONDS = env.str("PAGE_ANON_SECONDS", default="30/min")
#: Heavy requests (config/capacity.py): each kind's number per anonymous client, and the
#: server time all of a client's heavy requests may take ("N/min": N seconds a minute).
SORT_ANON_RATE = env.str("SORT_ANON_RATE", default="30/min")  # concordance sorts (sort=after|before)
QUOTATIONS_ANON_RATE = env.str("QUOTATIONS_ANON_RATE", default="6/min")  # a juan's quotation map
HITLIST_ANON_RATE = env.str("HITLIST_ANON_RATE", default="10/min")  # hit lists as CSV/TSV files
COLLATION_ANON_RATE = env.str("COLLATION_ANON_RATE", default="10/min")  # whole juans collated
HEAVY_ANON_SECONDS = env.str("HEAVY_ANON_SECONDS", default="30/min")
#: Heavy requests that run at once on this server (every worker process of it), the most that
#: wait for one in a process (each holds a thread: keep slots + queue below gunicorn's
#: threads), how long one waits at most (and never past its budget), and how many one
#: anonymous client may have running or waiting at once (0: no limit).
HEAVY_REQUEST_SLOTS = env.int("HEAVY_REQUEST_SLOTS", default=max(1, (os.cpu_count() or 2) // 2))
HEAVY_QUEUE_LENGTH = env.int("HEAVY_QUEUE_LENGTH", default=3)
HEAVY_QUEUE_SECONDS = env.float("HEAVY_QUEUE_SECONDS", default=10.0)
HEAVY_PER_CLIENT = env.int("HEAVY_PER_CLIENT", default=1)
#: A gunicorn worker process running a heavy request takes no new connections while it runs,
#: so that light requests go to processes that run none (config/workers.py); only with
#: HEAVY_REQUEST_SLOTS + 2 worker processes or more.
HEAVY_STANDS_ASIDE = env.bool("HEAVY_STANDS_ASIDE", default=True)
#: The lock files of the slots and lanes, shared by the worker processes of one server.
HEAVY_SLOTS_DIR = env.str("HEAVY_SLOTS_DIR", default=str(PAGE_CACHE_STAMP.parent / "heavy"))
THROTTLE_CACHE = "throttle"
CACHES[THROTTLE_CACHE] = {  # Django's file-based cache, written in place (config/ratelimit.py)
    "BACKEND": "config.filecache.CounterFileCache",
    "LOCATION": env.str("THROTTLE_CACHE_DIR", default=str(PAGE_CACHE_STAMP.parent / "throttle")),
    "OPTIONS": {"MAX_ENTRIES": 100_000},
}

#: Text bundled with the project and imported by `make serve`.
BUNDLED_CORPUS = BASE_DIR / "corpus"

REST_FRAMEWORK = {
    # Every API view is read-only (GET/HEAD/OPTIONS): a write is 405 Method Not Allowed for anyone.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # Anonymous and read-only: no sessions or passwords on the API (the admin has its own login).
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.ApiRateThrottle"],  # API_ANON_RATE and API_USER_RATE
    # DRF's, with a 429 for a client's spent CPU time (API_ANON_SECONDS) that says so
    "EXCEPTION_HANDLER": "api.throttling.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "api.pagination.StandardPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_RENDERER_CLASSES": [
        "api.renderers.FastJSONRenderer",  # DRF's JSON, encoded by orjson
        "api.renderers.BrowsableRenderer",  # DRF's browsable API, with no inline style (the CSP)
    ],
    "UNICODE_JSON": True,
    # a ?format= no renderer of the view writes is a 400 naming format and those it has, not a 404
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.renderers.FormatNegotiation",
    "VIEW_DESCRIPTION_FUNCTION": "api.renderers.view_description",  # `code` as <code>, not raw backticks
    "NUM_PROXIES": NUM_PROXIES,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "經注閱讀 API",
    "DESCRIPTION": (
        "Read-only API for classical Chinese texts with their commentary: works, juans (卷), sections, "
        "notes (注), records (記), character-level search with variant folding, hit distributions and "
        "exports (source text, main text, JSON, TEI P5)."
    ),
    "VERSION": "1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",  # served from our own static files: no internet needed
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No deep links: Swagger UI puts each operation's link inside its expand button, a control
    # in a control (axe-core's nested-interactive); the operations stay reachable by the button.
    # No syntax colouring of JSON examples and responses: its theme's colours fall below AA
    # contrast on its dark background (set as inline styles, beyond the reach of a style sheet).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "syntaxHighlight": {"activated": False}},
    # drf-spectacular's own hook, then the JSON routes outside the API's views (/chars/<char>/ …)
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.outside_routes.json_routes_outside_the_api",
                           "api.schema_summaries.operations_named_for_readers"],
}

# CORS: the API is open to browser notebooks for reading (GET), nothing else.
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
