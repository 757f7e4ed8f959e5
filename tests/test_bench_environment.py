"""The environment the PostgreSQL benchmarks run the site in (benchmarks/scratch_db.py): what
hand entry, the capacity run, the fault runs and the online store each set before Django starts."""

from __future__ import annotations

import os
import re
from unittest import mock

from benchmarks.scratch_db import bench_environment, use_bench_environment

SERVER = "postgres://postgres@127.0.0.1:5432"


def test_a_fresh_environment_is_production_on_the_loopback() -> None:
    env = bench_environment(SERVER, "clubsite_bench_x", secret_prefix="bench-", environ={})
    secret = env.pop("DJANGO_SECRET_KEY")
    assert re.fullmatch(r"bench-[0-9a-f]{32}", secret)
    assert env == {
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/clubsite_bench_x",
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SESSION_COOKIE_SECURE": "0",
        "DJANGO_CSRF_COOKIE_SECURE": "0",
    }
    # A new key each run.
    again = bench_environment(SERVER, "clubsite_bench_x", secret_prefix="bench-", environ={})
    assert again["DJANGO_SECRET_KEY"] != secret


def test_the_callers_settings_module_and_key_are_kept_the_rest_overwritten() -> None:
    caller = {
        "DJANGO_SETTINGS_MODULE": "other.settings",
        "DJANGO_SECRET_KEY": "the operator's",
        "DJANGO_DEBUG": "1",
        "DJANGO_ALLOWED_HOSTS": "club.example.org",
        "DJANGO_SECURE_SSL_REDIRECT": "1",
        "DATABASE_URL": "postgres://elsewhere/club",
        "CLUB_TASKS_BACKEND": "database",
    }
    env = bench_environment(
        SERVER,
        "clubsite_faults",
        secret_prefix="faults-",
        tasks_backend="immediate",
        environ=caller,
    )
    assert env == {
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/clubsite_faults",
        "DJANGO_SETTINGS_MODULE": "other.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "the operator's",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
        "CLUB_TASKS_BACKEND": "immediate",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SESSION_COOKIE_SECURE": "0",
        "DJANGO_CSRF_COOKIE_SECURE": "0",
    }


def test_use_sets_them_in_this_process() -> None:
    # The whole environment is put back afterwards, the names this test never had included:
    # a test run after it starts gunicorn with a copy of it (tests/test_gunicorn_conf.py).
    before = dict(os.environ)
    with mock.patch.dict(os.environ):
        for name in (
            "DATABASE_URL",
            "DJANGO_DEBUG",
            "DJANGO_ALLOWED_HOSTS",
            "CLUB_TASKS_BACKEND",
            "DJANGO_SECURE_SSL_REDIRECT",
            "DJANGO_SESSION_COOKIE_SECURE",
            "DJANGO_CSRF_COOKIE_SECURE",
            "DJANGO_SETTINGS_MODULE",
        ):
            os.environ.pop(name, None)
        os.environ["DJANGO_SECRET_KEY"] = "kept"
        use_bench_environment(
            SERVER, "clubsite_bench_capacity_7", secret_prefix="capacity-", tasks_backend="database"
        )
        assert (
            os.environ["DATABASE_URL"]
            == "postgres://postgres@127.0.0.1:5432/clubsite_bench_capacity_7"
        )
        assert os.environ["DJANGO_SETTINGS_MODULE"] == "clubsite.settings"
        assert os.environ["DJANGO_SECRET_KEY"] == "kept"
        assert os.environ["DJANGO_DEBUG"] == "0"
        assert os.environ["CLUB_TASKS_BACKEND"] == "database"
        assert os.environ["DJANGO_CSRF_COOKIE_SECURE"] == "0"
    assert dict(os.environ) == before
