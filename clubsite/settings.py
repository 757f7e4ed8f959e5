"""Settings for clubsite, read from the environment.

Development needs no configuration: DEBUG is on, the database is SQLite at db.sqlite3.
A deployment sets DJANGO_DEBUG=0, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and DATABASE_URL.
"""

import datetime
import os
from email.utils import formataddr, getaddresses, parseaddr
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be 1 or 0, not {value!r}")


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = envbool("DJANGO_DEBUG", "1")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    # Only ever used with DEBUG on, so a leaked value protects nothing that matters.
    SECRET_KEY = "django-insecure-clubsite-development-only"

ALLOWED_HOSTS = envlist("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "clubsite",
    "scoring",
    "meetings",
    "tournaments",
    "ratings",
    "axes",
    # The task queue in the database (TASKS below): installed whatever the backend, so that
    # its tables exist and its results show in the admin ("Tasks Database Backend").
    "django_tasks_db",
]

# Request bodies (clubsite/request_limits.py, docs/capacity.md): 512 KiB a
# request, form text included, except an upload page's 5 MiB with at most 20 files (the online
# import's own cap, scoring/views/online.py MAX_FILES); a file over 256 KiB is streamed to a
# temporary file, not held in memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = 512 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 20
FILE_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
CLUB_UPLOAD_MAX_BYTES = 5 * 1024 * 1024

MIDDLEWARE = [
    # /healthz for the process manager and the proxy, before the host check, the HTTPS redirect
    # and logins (clubsite/health.py).
    "clubsite.health.HealthzMiddleware",
    # A page whose database went away (restarting, connections refused) is a 503 with
    # Retry-After, not a 500: outermost, to cover every other middleware.
    "clubsite.db_unavailable.DatabaseUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files answer here, served compressed by WhiteNoise itself (gzip and brotli files
    # made by collectstatic); everything after it is a page.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compressed (the table screen is about a third of its size on the wire). The CSRF
    # token in them is masked afresh for every response, which is what keeps BREACH away.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A body over its page's limit: 413 before anything reads it (clubsite/request_limits.py).
    "clubsite.request_limits.RequestBodyLimitMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every page in a club's scope: its queries of club data read that club's rows only. After
    # the login (a page of another club is 404 to a non-member) and before the views.
    "clubsite.middleware.ClubScopeMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A logged-out phone's htmx request: HX-Redirect to the login page, not a fragment of it.
    "clubsite.middleware.HtmxLoginRedirectMiddleware",
    # Members only: every view needs a login unless marked @login_not_required. This is the
    # one rule for logins: views carry no @login_required of their own.
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Last, as its documentation asks: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
    # The standings pages' views read from the replica, when there is one (clubsite/db_router.py).
    "clubsite.db_router.ReplicaReadsMiddleware",
]

ROOT_URLCONF = "clubsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubsite.context_processors.club",
                "clubsite.context_processors.current_member",
                "clubsite.context_processors.steward_rights",
            ],
        },
    },
]

WSGI_APPLICATION = "clubsite.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    ),
}
# A read replica for the standings pages (docs/capacity.md): DATABASE_REPLICA_URL, a streaming
# replica of DATABASE_URL. Unset: every read goes to the default database.
CLUB_READ_REPLICA = ""
if os.environ.get("DATABASE_REPLICA_URL"):
    CLUB_READ_REPLICA = "replica"
    DATABASES[CLUB_READ_REPLICA] = dj_database_url.parse(os.environ["DATABASE_REPLICA_URL"])
    # The tests read the replica's alias from the default test database.
    DATABASES[CLUB_READ_REPLICA]["TEST"] = {"MIRROR": "default"}
for _database in DATABASES.values():
    if _database["ENGINE"] == "django.db.backends.postgresql":
        _database["CONN_MAX_AGE"] = 600
        _database["CONN_HEALTH_CHECKS"] = True
DATABASE_ROUTERS = ["clubsite.db_router.ReplicaRouter"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- Clubs (docs/clubs.md) ----------------------------------------------------------------------
# A site holds one club or many; each club's choices are its own fields (clubsite.models.Club).
# The CLUB_* settings below marked "a new club's" are what a new club starts with, and what an
# existing one-club site's club was given when clubs came in. CLUB_SLUG and CLUB_NAME name that
# first club (the one a fresh database starts with).
CLUB_SLUG = os.environ.get("CLUB_SLUG", "club")
CLUB_NAME = os.environ.get("CLUB_NAME", "Mahjong club")

# A new club's: the ruleset a new game starts with unless the players pick another.
CLUB_DEFAULT_RULESET = "makura-1.5"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "game_list"
LOGOUT_REDIRECT_URL = "login"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ja"
LANGUAGES = [
    ("ja", _("Japanese")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Tokyo"
USE_TZ = True
# Links made from bare addresses (a ruleset's sources) use HTTPS, as Django 2028 will.
URLIZE_ASSUME_HTTPS = True

# -- The club's own rules for standings and titles (rules-spec §4.4, T-04, T-06) -------------
# Those marked "a new club's" are each club's own choice (Club's fields, which stewards change
# on /desk/club/; docs/clubs.md): these settings are only what a new club starts with.
# A new club's: where the club lives: "this month" and every month/half-year boundary are
# dates there.
CLUB_TIME_ZONE = os.environ.get("CLUB_TIME_ZONE", TIME_ZONE)
# A new club's: rulesets whose games count when a standings table names none ("standard-rule
# games", §4.4).
CLUB_STANDARD_RULESETS = ["makura-1.5"]
# A new club's: online games count in their own standings filter ("tenhou-4p@tenhou"); list
# such keys here for them to count in the standard table too. Comma-separated in the
# environment.
CLUB_ONLINE_IN_STANDINGS = [
    key.strip() for key in os.environ.get("CLUB_ONLINE_IN_STANDINGS", "").split(",") if key.strip()
]
# A new club's: whether tournament games count in the standings unless the page's filter says
# otherwise (§4.4 leaves "whether tournament games count" to the club). "0": left out.
CLUB_TOURNAMENTS_IN_STANDINGS = os.environ.get("CLUB_TOURNAMENTS_IN_STANDINGS", "1") != "0"
# A new club's: whether its members' games as guests at other clubs' events count in its own
# standings (events between clubs, docs/clubs.md). "1": they do; otherwise only in the event.
CLUB_GUEST_EVENTS_IN_STANDINGS = os.environ.get("CLUB_GUEST_EVENTS_IN_STANDINGS", "0") == "1"
# Minimum finished games in the month (the half year) to hold that title; the spec leaves both
# open (§4.4 "Minimum games ... configurable, since none is stated").
CHAMPION_MIN_GAMES = 4
HALF_YEAR_CHAMPION_MIN_GAMES = 24
# Equal top totals: "standings" breaks them as the standings table does (average rank, then
# best game) and shares the title only when those are equal too; "shared" shares the title
# among everyone on the top total. The spec leaves ties open (§4.4, T-06).
CHAMPION_TIES = "standings"
# A new club's: equal totals in a standings table, after points and then ep where a ruleset
# keeps floating uma in ep (seed 002 L10-24, S-01): the seeds are silent (T-06), so the club
# chooses the order of these tie-breakers: "average_rank" (lowest first), "best_points"
# (highest first), "top_rate" (highest first), "games" (most first). The display name always
# ends the order.
CLUB_STANDINGS_TIES = [
    name.strip()
    for name in os.environ.get("CLUB_STANDINGS_TIES", "average_rank,best_points").split(",")
    if name.strip()
]
# The qualification races' open points (§4.2, §4.3, T-02, T-05; tournaments/races.py, where
# each key and its default is described): e.g. {"grand_champion_top": 6, "title_points": 100,
# "tournament_formats": ["gp", "meijin"], "meijin_monthly_seats": 6,
# "meijin_substitutes": "total_points", "substitutes": 4}. Empty: the defaults.
QUALIFICATION: dict[str, object] = {}
# A new club's: who confirms a finished game before it counts (scoring/ledger/confirmation.py):
# "every_other" seated player (the default), "one_other", "steward" only, or "none".
CLUB_CONFIRMATION = os.environ.get("CLUB_CONFIRMATION", "every_other")

# Absolute: a club's pages run under /c/<slug>/ as their script prefix, and a relative
# STATIC_URL would take it on.
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
if not DEBUG:
    # Hashed, compressed files need `collectstatic`, so development keeps Django's default.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# E-mail: meetup notices and reminders, through Django's mailers. Development prints them on
# the console as a reader sees them (clubsite.mail.ConsoleEmailBackend); a deployment sets
# DJANGO_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend (the default when not
# debugging) and DJANGO_EMAIL_HOST, _PORT, _HOST_USER, _HOST_PASSWORD,
# _USE_TLS.
email_backend = os.environ.get(
    "DJANGO_EMAIL_BACKEND",
    "clubsite.mail.ConsoleEmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
MAILERS: dict[str, dict[str, object]] = {"default": {"BACKEND": email_backend}}
if email_backend == "django.core.mail.backends.smtp.EmailBackend":
    MAILERS["default"]["OPTIONS"] = {
        "host": os.environ.get("DJANGO_EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("DJANGO_EMAIL_PORT", "25")),
        "username": os.environ.get("DJANGO_EMAIL_HOST_USER", ""),
        "password": os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", ""),
        "use_tls": envbool("DJANGO_EMAIL_USE_TLS", "0"),
    }
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "clubsite@example.org")

# -- Tasks: the e-mails (meetup notices and reminders, seating, password resets) -----------------
# Django's task framework (django.tasks) runs them: "immediate" runs a task in the request that
# enqueues it (development and tests need no other process); "database" stores it in the
# database for a worker, `manage.py db_worker` (django-tasks-db; `make serve` starts one beside
# gunicorn; docs/tasks.md), so that no request waits for the mail server and a password reset
# answers alike whether the club has the address or not.
CLUB_TASKS_BACKEND = os.environ.get("CLUB_TASKS_BACKEND", "immediate" if DEBUG else "database")
_task_backends = {
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
    "database": "django_tasks_db.DatabaseBackend",
}
if CLUB_TASKS_BACKEND not in _task_backends:
    raise ImproperlyConfigured(
        f"CLUB_TASKS_BACKEND is one of {', '.join(_task_backends)}, not {CLUB_TASKS_BACKEND!r}"
    )
TASKS = {"default": {"BACKEND": _task_backends[CLUB_TASKS_BACKEND]}}

# Meetups: every notice also goes to the club's mailing list (a new club's CLUB_LIST_ADDRESS;
# empty: none); links in e-mails start with CLUB_SITE_URL; members who have not confirmed a
# line-up are reminded after MEETUP_REMINDER_HOURS (manage.py send_meetup_reminders).
CLUB_LIST_ADDRESS = os.environ.get("CLUB_LIST_ADDRESS", "club-list@example.org")
CLUB_SITE_URL = os.environ.get("CLUB_SITE_URL", "http://127.0.0.1:8000")
MEETUP_REMINDER_HOURS = int(os.environ.get("MEETUP_REMINDER_HOURS", "24"))

# Ratings (docs/ratings.md): a rating is shown as provisional until the member has this many
# rated games in the family.
RATING_PROVISIONAL_GAMES = int(os.environ.get("RATING_PROVISIONAL_GAMES", "10"))

# -- Errors and logs ---------------------------------------------------------------------------
# One line per record on standard error, where a process manager (systemd, a container) keeps
# it; server errors are also mailed to ADMINS ("Name <address>, ..."; none by default). The
# "django" logger is named here, or Django's own default handlers on it would print each of its
# records a second time.
ADMINS = [
    formataddr(pair) for pair in getaddresses([os.environ.get("DJANGO_ADMINS", "")]) if any(pair)
]
if any("@" not in parseaddr(admin)[1] for admin in ADMINS):
    raise ImproperlyConfigured("DJANGO_ADMINS is 'Name <address>, ...' (or bare addresses)")
SERVER_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", DEFAULT_FROM_EMAIL)
ERROR_MAIL_MINUTES = float(os.environ.get("CLUB_ERROR_MAIL_MINUTES", "5"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"()": "clubsite.logs.OneLineFormatter"},
    },
    "filters": {
        "debug_off": {"()": "django.utils.log.RequireDebugFalse"},
        # One mail per cause (exception type and place) every CLUB_ERROR_MAIL_MINUTES: a 500
        # that anyone can bring about again and again does not flood the stewards' inbox.
        "once_per_cause": {"()": "clubsite.logs.OncePerCause", "minutes": ERROR_MAIL_MINUTES},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "line"},
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "filters": ["debug_off", "once_per_cause"],
            "level": "ERROR",
        },
    },
    "root": {"handlers": ["stderr"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["stderr", "mail_admins"], "level": "INFO", "propagate": False},
        # Every 500 (with its traceback) and nothing below: 404s and 403s are the proxy's
        # access log's business.
        "django.request": {"level": "ERROR"},
        # Requests for a host name not in ALLOWED_HOSTS come from scanners: logged, not mailed.
        "django.security.DisallowedHost": {"handlers": ["stderr"], "propagate": False},
        "meetings": {"level": "INFO"},
        # Every task run is two INFO lines (running, successful); a failure is logged by the
        # task's own code (an undelivered e-mail) and by the framework as an error.
        "django.tasks": {"level": "WARNING"},
        # Failed logins and lockouts are warnings; its start-up banner is not worth a line.
        "axes": {"level": "WARNING"},
    },
}

# -- Deployment behind HTTPS (each from the environment; production defaults when DEBUG is off)
SECURE_HSTS_SECONDS = int(
    os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000")
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool(
    "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", "0" if DEBUG else "1"
)
SECURE_HSTS_PRELOAD = envbool("DJANGO_SECURE_HSTS_PRELOAD", "0")
# Preloading is a submission to the browsers' lists, the operator's own decision: its warning
# is silenced so that `check --deploy` reports only what this project decides.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
SECURE_SSL_REDIRECT = envbool("DJANGO_SECURE_SSL_REDIRECT", "0" if DEBUG else "1")
SESSION_COOKIE_SECURE = envbool("DJANGO_SESSION_COOKIE_SECURE", "0" if DEBUG else "1")
# A refused form in the site's language and look (templates/403.html).
CSRF_FAILURE_VIEW = "clubsite.views.csrf_failure"
CSRF_COOKIE_SECURE = envbool("DJANGO_CSRF_COOKIE_SECURE", "0" if DEBUG else "1")
CSRF_TRUSTED_ORIGINS = envlist("DJANGO_CSRF_TRUSTED_ORIGINS", "")
# "HTTP_X_FORWARDED_PROTO,https" behind a proxy that sets that header (and strips it from
# clients); unset otherwise, since trusting it without such a proxy is unsafe.
_proxy_header = envlist("DJANGO_SECURE_PROXY_SSL_HEADER", "")
if _proxy_header:
    if len(_proxy_header) != 2:
        raise ImproperlyConfigured("DJANGO_SECURE_PROXY_SSL_HEADER is 'HEADER,value'")
    SECURE_PROXY_SSL_HEADER = (_proxy_header[0], _proxy_header[1])

# Content-Security-Policy (Django 6's own): scripts and styles only from this site's files
# (htmx and django-htmx are vendored static files; no page has an inline script or style, and
# htmx's inline indicator styles are turned off in base.html); forms post only here.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

# -- Logins ------------------------------------------------------------------------------------
# django-axes (chosen over django-ratelimit and hand-written counters: it is maintained, counts
# failures per username and address in the database, so every gunicorn worker sees them, and
# lists lockouts for stewards in the admin). After AXES_FAILURE_LIMIT wrong passwords for one
# username from one address, logins from there wait AXES_COOLOFF_TIME; so do all logins from an
# address after CLUB_LOGIN_ADDRESS_FAILURE_LIMIT wrong passwords from it, whatever the usernames
# (a few guesses at each of many usernames: password spraying; clubsite.accounts.LoginFailures
# gives each lockout parameter its limit). A steward can lift a lockout in the admin ("Access
# attempts") or with `manage.py axes_reset_username NAME` / `axes_reset_ip ADDRESS`.
# clubsite.auth_backends.MemberModelBackend loads the member profile with the user (one
# query less on every page); Django's own path stays listed after it only for the sessions
# logged in before it (see that module: nobody is logged out at the deploy, and a wrong
# password is still hashed once).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "clubsite.auth_backends.MemberModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("CLUB_LOGIN_FAILURE_LIMIT", "5"))
CLUB_LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("CLUB_LOGIN_ADDRESS_FAILURE_LIMIT", "20"))
if AXES_FAILURE_LIMIT < 1 or CLUB_LOGIN_ADDRESS_FAILURE_LIMIT < 1:
    raise ImproperlyConfigured("CLUB_LOGIN_FAILURE_LIMIT and _ADDRESS_FAILURE_LIMIT must be >= 1")
AXES_COOLOFF_TIME = datetime.timedelta(
    minutes=int(os.environ.get("CLUB_LOGIN_COOLOFF_MINUTES", "15"))
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "clubsite.accounts.LoginFailures"
AXES_RESET_ON_SUCCESS = True
# A failed login is recorded under the username as typed, without what the database refuses
# (a NUL character, a name longer than any username).
AXES_USERNAME_CALLABLE = "clubsite.accounts.attempted_username"
# The lockout page (HTTP 429, registration/locked_out.html) says how many minutes to wait.
AXES_LOCKOUT_CALLABLE = "clubsite.accounts.lockout_response"
# Behind the proxy of README "Deploying" (DJANGO_SECURE_PROXY_SSL_HEADER set), the client's
# address is the last one in X-Forwarded-For, which that proxy added; without a proxy the header
# could be made up, so only the connecting address counts (clubsite/accounts.py).
AXES_CLIENT_IP_CALLABLE = "clubsite.accounts.client_address"
# Password reset e-mails (clubsite/password_reset.py): at most so many an hour to one e-mail
# address, and asked for from one client address; a request beyond gets the same answer as any
# other, and no e-mail.
CLUB_PASSWORD_RESET_ACCOUNT_LIMIT = int(os.environ.get("CLUB_PASSWORD_RESET_ACCOUNT_LIMIT", "3"))
CLUB_PASSWORD_RESET_ADDRESS_LIMIT = int(os.environ.get("CLUB_PASSWORD_RESET_ADDRESS_LIMIT", "10"))
if CLUB_PASSWORD_RESET_ACCOUNT_LIMIT < 1 or CLUB_PASSWORD_RESET_ADDRESS_LIMIT < 1:
    raise ImproperlyConfigured("CLUB_PASSWORD_RESET_ACCOUNT_LIMIT and _ADDRESS_LIMIT must be >= 1")

# Join applications from a club's public page (clubsite/join.py): at most this many an hour
# from one e-mail address, and from one client address, per club.
CLUB_JOIN_EMAIL_LIMIT = int(os.environ.get("CLUB_JOIN_EMAIL_LIMIT", "2"))
CLUB_JOIN_ADDRESS_LIMIT = int(os.environ.get("CLUB_JOIN_ADDRESS_LIMIT", "5"))
if CLUB_JOIN_EMAIL_LIMIT < 1 or CLUB_JOIN_ADDRESS_LIMIT < 1:
    raise ImproperlyConfigured("CLUB_JOIN_EMAIL_LIMIT and CLUB_JOIN_ADDRESS_LIMIT must be >= 1")
