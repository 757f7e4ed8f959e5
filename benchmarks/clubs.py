"""Pages with 200 clubs: a club's standings, player and game pages cost the same whether the
site holds that club alone or 200 clubs of history (target: the median time with 200 clubs at
most 1.2 times the median with one, and the same number of queries), on PostgreSQL.

:func:`run_clubs_bench` builds two databases on the PostgreSQL server of ``DATABASE_URL`` (or
127.0.0.1:5432 as ``postgres``), named from ``CLUBS_BENCH_DATABASE`` (else
``clubsite_bench_clubs_<pid>``) with ``_one`` and ``_many`` after it, and drops them at the end:

- ``_one``: the site's one club (the migration's, ``/c/club/``) with the standings bench's
  history, ``seed_history`` of 10 years and 120 members ending on 31 October 2026 (22,653
  hanchans, about 3 minutes);
- ``_many``: a copy of ``_one`` (``CREATE DATABASE ... TEMPLATE``: the measured club's rows
  and ids the same, byte for byte) to which ``CLUBS - 1`` clubs are added. Seeding each
  through the ledger would take some ten seconds a club, half an hour for 199, so one of them
  gets its history through ``seed_history`` (``OTHER_YEARS`` years of ``OTHER_MEMBERS``
  members, 624 hanchans: its logins, members, games, seats, hands, counted seats and
  roll-ups) and the rows it made are copied into each of the others by SQL
  (:func:`copy_club_rows`, about 2.5 minutes), every key moved to the copy's own rows. Each
  other club then holds a real history, the same as its template's, under its own club id;
  the measured club is 1 of 200, its rows a sixth of the site's.

Both are ``ANALYZE``\\ d after loading, so that the planner sees the real sizes. A child process
then holds one warm connection to each database and takes the pages in turns, a round on one,
the same round on the other (this machine's speed moves from one minute to the next; rounds
in turns keep that out of the ratio), through Django's test client as a logged-in member of the
measured club, under its prefix ``/c/club/``: the monthly and the all-time standings, the
busiest member's page of all time, and the latest finished game's page. It reports per page
the median and the spread (the 10th to 90th percentile) of ``ROUNDS`` rounds, the query count
(in a round of its own), the ratio of the medians and a verdict.

``python -m benchmarks.clubs`` prints the report; ``make bench`` runs it (``--only
clubs_pages``). ``CLUBS_BENCH_CLUBS`` (default 200), ``CLUBS_BENCH_OTHER_YEARS`` (1) and
``CLUBS_BENCH_OTHER_MEMBERS`` (40) change the sizes.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks import timing
from benchmarks.scratch_db import bench_environment, drop_database

if TYPE_CHECKING:
    from django.db import models

    from clubsite.club_model import Club

ROOT = Path(__file__).resolve().parent.parent
BENCH_DATABASE = os.environ.get("CLUBS_BENCH_DATABASE") or f"clubsite_bench_clubs_{os.getpid()}"
CLUBS = int(os.environ.get("CLUBS_BENCH_CLUBS", "200"))
MEASURED_YEARS = 10
MEASURED_MEMBERS = 120
OTHER_YEARS = int(os.environ.get("CLUBS_BENCH_OTHER_YEARS", "1"))
OTHER_MEMBERS = int(os.environ.get("CLUBS_BENCH_OTHER_MEMBERS", "40"))
# The standings bench's last day: the month measured is the last one of the history.
END = datetime.date(2026, 10, 31)
ROUNDS = 25
RATIO_TARGET = 1.2

# The apps whose rows belong to a club (tests/test_club_scoping.py), and their site-wide models.
CLUB_APPS = ("clubsite", "scoring", "meetings", "tournaments", "ratings")
SITE_WIDE = {"clubsite.Club", "scoring.RulesetVersion", "clubsite.PasswordResetRequest"}

# -- copying a club's history into other clubs ---------------------------------------------------


def copied_models() -> list[type[models.Model]]:
    """The models whose rows a club's history is made of: the logins (``User``, site-wide,
    but each of a copied club's members needs one of their own) and every club-owned model,
    each after the models its foreign keys point to."""
    from django.apps import apps
    from django.contrib.auth import get_user_model

    wanted = [get_user_model()] + [
        model
        for model in apps.get_models()
        if model._meta.app_label in CLUB_APPS and model._meta.label not in SITE_WIDE
    ]
    ordered: list[type[models.Model]] = []
    pending = list(wanted)
    while pending:
        for model in pending:
            targets = {
                field.related_model
                for field in model._meta.concrete_fields
                if field.is_relation and field.related_model is not model
            }
            if not any(target in pending for target in targets):
                ordered.append(model)
                pending.remove(model)
                break
        else:
            raise RuntimeError(f"foreign keys in a circle among {pending}")
    return ordered


def high_water() -> dict[str, int]:
    """Per table of :func:`copied_models`, the highest primary key now (0 for an empty one):
    the rows made after this are those with a higher key."""
    from django.db import connection

    marks = {}
    with connection.cursor() as cursor:
        for model in copied_models():
            meta = model._meta
            cursor.execute(f'SELECT MAX("{meta.pk.column}") FROM "{meta.db_table}"')
            marks[meta.db_table] = int(cursor.fetchone()[0] or 0)
    return marks


def copy_club_rows(since: Mapping[str, int], template: Club, clubs: Sequence[Club]) -> int:
    """Copy the rows made after ``since`` (:func:`high_water`), which must all be
    ``template``'s (its seeded history and its members' logins), once into each of ``clubs``.

    Copy ``k`` (1, 2, ...) of a row keeps every column but: its primary key, moved by ``k``
    times the span of the keys copied from its table, and so every foreign key to a copied
    row; its ``club`` (the ``k``-th club); and every unique text column (a login's username)
    with ``~k`` after it. Unique keys per club or per parent stay unique. One statement a
    table, all the copies at once, so the cost is the database's, not Python's; on
    PostgreSQL the sequences are then set past the new keys.

    Returns the rows written. Raises ``ValueError`` if a row after ``since`` is another
    club's, or a table to copy has a unique column of another kind (no copy could keep it).
    Run it in a transaction (the caller's) so that a failure writes nothing.
    """
    from django.core.management.color import no_style
    from django.db import connection

    if not clubs:
        return 0
    models_ = copied_models()
    spans: dict[str, tuple[int, int]] = {}
    written = 0
    with connection.cursor() as cursor:
        for model in models_:
            meta = model._meta
            cursor.execute(f'SELECT MAX("{meta.pk.column}") FROM "{meta.db_table}"')
            top = int(cursor.fetchone()[0] or 0)
            first = since.get(meta.db_table, 0)
            if top > first:
                spans[meta.db_table] = (first, top - first)
                cursor.execute(
                    f'SELECT COUNT(*) FROM "{meta.db_table}" WHERE "{meta.pk.column}" > %s',
                    [first],
                )
                written += int(cursor.fetchone()[0]) * len(clubs)
            if top > first and any(f.column == "club_id" for f in meta.concrete_fields):
                cursor.execute(
                    f'SELECT COUNT(*) FROM "{meta.db_table}" WHERE "{meta.pk.column}" > %s '
                    "AND club_id <> %s",
                    [first, template.pk],
                )
                if cursor.fetchone()[0]:
                    raise ValueError(f"{meta.db_table}: rows of another club after the mark")
        copies = ", ".join(f"({k}, {int(club.pk)})" for k, club in enumerate(clubs, 1))
        for model in models_:
            meta = model._meta
            if meta.db_table not in spans:
                continue
            first, span = spans[meta.db_table]
            columns, values = [], []
            for field in meta.concrete_fields:
                column = f't."{field.column}"'
                target = field.related_model._meta.db_table if field.related_model else ""
                if field.primary_key:
                    value = f"{column} + copies.k * {span}"
                elif field.column == "club_id":
                    value = "copies.club"
                elif target in spans:
                    target_first, target_span = spans[target]
                    value = (
                        f"CASE WHEN {column} > {target_first} "
                        f"THEN {column} + copies.k * {target_span} ELSE {column} END"
                    )
                elif field.unique and field.get_internal_type() in ("CharField", "TextField"):
                    value = f"{column} || '~' || CAST(copies.k AS TEXT)"
                elif field.unique:
                    raise ValueError(f"{meta.db_table}.{field.column}: unique, not text")
                else:
                    value = column
                columns.append(f'"{field.column}"')
                values.append(value)
            cursor.execute(
                f"WITH copies(k, club) AS (VALUES {copies}) "
                f'INSERT INTO "{meta.db_table}" ({", ".join(columns)}) '
                f'SELECT {", ".join(values)} FROM "{meta.db_table}" t, copies '
                f'WHERE t."{meta.pk.column}" > {first} AND t."{meta.pk.column}" <= {first + span}'
            )
        for statement in connection.ops.sequence_reset_sql(no_style(), models_):
            cursor.execute(statement)
    return written


def add_clubs(count: int, *, years: int, members: int, seed: int = 2) -> dict[str, Any]:
    """Add ``count`` clubs (``other-001``, ...) to the site, each with the same history of
    ``years`` years and ``members`` members ending on :data:`END`: the first seeded through
    the ledger (``seed_history``), the others copies of it (:func:`copy_club_rows`). One
    transaction for the copies.

    Returns the seconds each step took and the first club's hanchans:
    ``{"seeding_s", "copying_s", "rows", "hanchans_each"}``."""
    from django.db import transaction

    from clubsite.club_scope import club_scope
    from clubsite.club_services import club_create
    from scoring.models import Hanchan
    from scoring.upkeep.history_seeding import seed_history

    started = time.perf_counter()
    template = club_create(slug="other-001", name="Club 1")
    since = high_water()
    with club_scope(template):
        seed_history(years=years, members=members, seed=seed, end=END)
        hanchans = Hanchan.objects.count()
    seeded = time.perf_counter()
    clubs = [club_create(slug=f"other-{n:03d}", name=f"Club {n}") for n in range(2, count + 1)]
    with transaction.atomic():
        rows = copy_club_rows(since, template, clubs)
    return {
        "seeding_s": seeded - started,
        "copying_s": time.perf_counter() - seeded,
        "rows": rows,
        "hanchans_each": hanchans,
    }


# -- the pages measured --------------------------------------------------------------------------


def page_urls(club: Club) -> dict[str, str]:
    """The pages measured, as ``club``'s member opens them under its prefix: name to path.
    The player is the member with the most finished games, the game the club's latest
    finished one (highest id on the last day)."""
    from django.db.models import Count, Q

    from clubsite.club_scope import club_scope
    from clubsite.models import Member
    from scoring.models import Hanchan

    with club_scope(club):
        regular = (
            Member.objects.annotate(
                played=Count("seats", filter=Q(seats__hanchan__status=Hanchan.Status.FINISHED))
            )
            .order_by("-played", "pk")
            .values_list("pk", flat=True)[0]
        )
        game = (
            Hanchan.objects.finished().order_by("-played_on", "-pk").values_list("pk", flat=True)[0]
        )
    prefix = f"/c/{club.slug}"
    return {
        "month_page": f"{prefix}/standings/?period=month&month={END:%Y-%m}",
        "all_time_page": f"{prefix}/standings/?period=all",
        "player_page": f"{prefix}/members/{regular}/?period=all",
        "game_page": f"{prefix}/games/{game}/",
    }


def viewer_client(club: Club) -> Any:
    """A test client logged in as ``club``'s first member (a member page's viewer)."""
    from django.test import Client

    from clubsite.club_scope import club_scope
    from clubsite.models import Member

    with club_scope(club):
        user = Member.objects.order_by("pk").select_related("user")[0].user
    client = Client()
    client.force_login(user)
    return client


def page_queries(client: Any, path: str) -> int:
    """The queries one request of ``path`` runs (after a request that warms the process).

    Raises AssertionError on an answer other than 200."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _get(client, path)
    with CaptureQueriesContext(connection) as queries:
        _get(client, path)
    return len(queries)


def _getter(client: Any, path: str) -> Callable[[], None]:
    return lambda: _get(client, path)


def _get(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)


def time_in_turns(
    works: Sequence[Callable[[], object]], rounds: int, before: Callable[[int], None]
) -> list[list[float]]:
    """Milliseconds of each of ``works``, ``rounds`` times, in turns
    (:func:`benchmarks.timing.time_in_turns`: one untimed warm-up run of each first)."""
    return [
        [seconds * 1000 for seconds in times]
        for times in timing.time_in_turns(works, rounds, before)
    ]


def spread(times: Sequence[float]) -> dict[str, float]:
    """Median, the 10th and 90th percentiles and the best (lowest) of ``times`` (ms)."""
    measured = timing.figure(times, higher_is_better=False)
    return {
        "median_ms": measured.median,
        "p10_ms": measured.p10,
        "p90_ms": measured.p90,
        "best_ms": measured.best,
    }


# -- the run -------------------------------------------------------------------------------------


def run_clubs_bench(*, keep: bool = False) -> list[str]:
    """Build the two databases, measure, drop them (``keep``: leave them); the report lines.

    Raises:
        RuntimeError: PostgreSQL is unreachable or a child process failed.
        ValueError: ``CLUBS_BENCH_CLUBS`` below 2.
    """
    from benchmarks.standings import _admin, _server_url

    if CLUBS < 2:
        raise ValueError(f"CLUBS_BENCH_CLUBS={CLUBS}: at least 2 clubs to compare with one")
    server = _server_url()
    one, many = f"{BENCH_DATABASE}_one", f"{BENCH_DATABASE}_many"
    try:
        for name in (one, many):
            _admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        _admin(server, f'CREATE DATABASE "{one}"')
        built = _child(server, one, ["build"])
        # A file copy: the measured club's rows, ids and statistics exactly as in the first.
        _admin(server, f'CREATE DATABASE "{many}" TEMPLATE "{one}"')
        grown = _child(server, many, ["grow", str(CLUBS - 1)])
        measured = _child(server, one, ["measure", many])
    finally:
        if not keep:
            for name in (one, many):
                drop_database(server, name)
    return report(built, grown, measured)


def _child(server: str, database: str, arguments: list[str]) -> dict[str, Any]:
    env = {
        **os.environ,
        **bench_environment(server, database, secret_prefix="clubs-", environ=os.environ),
    }
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.clubs", "--child", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"clubs bench ({arguments[0]}) failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        # What autovacuum does soon after a bulk load; without statistics the planner guesses.
        cursor.execute("ANALYZE")


def _sizes() -> dict[str, int]:
    """Rows of the whole database (every club's), by what they are."""
    from django.db import connection

    counts = {}
    with connection.cursor() as cursor:
        for key, table in (
            ("clubs", "clubsite_club"),
            ("members", "clubsite_member"),
            ("hanchans", "scoring_hanchan"),
            ("hands", "scoring_handentry"),
            ("counted_seats", "scoring_countedseat"),
        ):
            cursor.execute(f'SELECT COUNT(*) FROM "{table}"')
            counts[key] = int(cursor.fetchone()[0])
        cursor.execute("SELECT pg_database_size(current_database())")
        counts["bytes"] = int(cursor.fetchone()[0])
    return counts


def _build() -> dict[str, Any]:
    """In the child on ``_one``: migrate, seed the measured club's history, analyze."""
    from django.core.management import call_command

    from clubsite.club_scope import club_scope, only_club
    from scoring.upkeep.history_seeding import seed_history

    call_command("migrate", verbosity=0, skip_checks=True)
    started = time.perf_counter()
    with club_scope(only_club()):
        seed_history(years=MEASURED_YEARS, members=MEASURED_MEMBERS, seed=1, end=END)
    seeding = time.perf_counter() - started
    _analyze()
    return {"seeding_s": seeding, **_sizes()}


def _grow(count: int) -> dict[str, Any]:
    """In the child on ``_many``: the other clubs, then analyze."""
    from django.db import DatabaseError, connection

    try:
        with connection.cursor() as cursor:
            # A bulk load: the copies' keys are the template's, moved; checking each of
            # millions of foreign keys one by one would be most of the copy's time.
            cursor.execute("SET session_replication_role = replica")
    except DatabaseError:
        pass  # not a superuser: the copy checks every key, slower
    grown = add_clubs(count, years=OTHER_YEARS, members=OTHER_MEMBERS)
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = DEFAULT")
    started = time.perf_counter()
    _analyze()
    return {**grown, "analyze_s": time.perf_counter() - started, **_sizes()}


def _measure(many: str) -> dict[str, Any]:
    """In the child: one connection to this process's database (one club) and one to
    ``many``; the pages in turns."""
    from django.core.management import call_command
    from django.db import connections

    from clubsite.club_scope import only_club

    call_command("collectstatic", interactive=False, verbosity=0)
    default = connections["default"]
    settings_many = {**default.settings_dict, "NAME": many}
    wrappers = [default, type(default)(settings_many, "default")]

    def use(index: int) -> None:
        connections["default"] = wrappers[index]

    use(0)
    club = only_club()
    urls = page_urls(club)
    clients = []
    for index in range(2):
        use(index)
        clients.append(viewer_client(club))
    measured: dict[str, Any] = {}
    for name, path in urls.items():
        times = time_in_turns([_getter(client, path) for client in clients], ROUNDS, use)
        queries = []
        for index, client in enumerate(clients):
            use(index)
            queries.append(page_queries(client, path))
        measured[name] = [{**spread(times[index]), "queries": queries[index]} for index in range(2)]
    return {"club": club.slug, "urls": urls, "measured": measured}


def report(built: dict[str, Any], grown: dict[str, Any], measured: dict[str, Any]) -> list[str]:
    """The lines ``make bench`` prints; a page's verdict ``ok`` or ``ABOVE TARGET``."""
    clubs = grown["clubs"]
    lines = [
        f"pages with {clubs} clubs on PostgreSQL: club /c/{measured['club']}/ "
        f"{MEASURED_YEARS} years, {MEASURED_MEMBERS} members, {built['hanchans']:,} hanchans "
        f"(seeded in {built['seeding_s']:.0f} s); {clubs - 1} other clubs of "
        f"{grown['hanchans_each']:,} hanchans each ({OTHER_YEARS} year, {OTHER_MEMBERS} members:"
        f" one seeded in {grown['seeding_s']:.0f} s, copied in {grown['copying_s']:.0f} s, "
        f"analyzed in {grown['analyze_s']:.0f} s)",
        f"{'site (every club)':<38} {_site(built):>46} {_site(grown):>46}",
        f"median (p10-p90; best) of {ROUNDS} rounds in turns after a warm-up; "
        f"target {clubs} / 1 <= {RATIO_TARGET} by the medians, queries equal",
        f"{'':<38} {'1 club':>46} {f'{clubs} clubs':>46}",
    ]
    labels = {
        "month_page": f"monthly standings page ({END:%Y-%m})",
        "all_time_page": "all-time standings page",
        "player_page": "player page, busiest member, all time",
        "game_page": "game page, latest game",
    }
    for name, label in labels.items():
        one, many = measured["measured"][name]
        ratio = many["median_ms"] / one["median_ms"]
        ok = ratio <= RATIO_TARGET and one["queries"] == many["queries"]
        verdict = "ok" if ok else "ABOVE TARGET"
        lines.append(f"{label:<38} {_cell(one):>46} {_cell(many):>46} {ratio:.2f}x {verdict}")
    return lines


def _site(sizes: dict[str, Any]) -> str:
    return (
        f"{sizes['hanchans']:,} hanchans, {sizes['hands']:,} hands, "
        f"{sizes['bytes'] / 2**20:,.0f} MB"
    )


def _cell(figures: dict[str, Any]) -> str:
    return (
        f"{figures['median_ms']:.1f} ({figures['p10_ms']:.1f}-{figures['p90_ms']:.1f}; "
        f"best {figures['best_ms']:.1f}) ms, "
        f"{figures['queries']} q"
    )


def _child_main(arguments: list[str]) -> dict[str, Any]:
    import django

    django.setup()
    if arguments[0] == "build":
        return _build()
    if arguments[0] == "grow":
        return {"clubs": int(arguments[1]) + 1, **_grow(int(arguments[1]))}
    return _measure(arguments[1])


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        print(json.dumps(_child_main(sys.argv[2:])))
    else:
        print("\n".join(run_clubs_bench(keep="--keep" in sys.argv)))
