"""gunicorn's settings for make serve (clubsite/gunicorn_conf.py, the Procfile's web)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clubsite import gunicorn_conf, procfile

ROOT = Path(__file__).resolve().parent.parent


def test_one_worker_more_than_the_cores_unless_web_concurrency_says():
    assert gunicorn_conf.worker_count({}) == len(os.sched_getaffinity(0)) + 1
    assert gunicorn_conf.worker_count({"WEB_CONCURRENCY": " 3 "}) == 3
    for wrong in ("0", "-2", "two", "1.5"):
        with pytest.raises(ValueError, match="WEB_CONCURRENCY"):
            gunicorn_conf.worker_count({"WEB_CONCURRENCY": wrong})


def test_the_procfiles_gunicorn_reads_it():
    web = procfile.read((ROOT / "Procfile").read_text())["web"]
    assert "--config python:clubsite.gunicorn_conf" in web
    printed = subprocess.run(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "clubsite.wsgi",
            "--config",
            "python:clubsite.gunicorn_conf",
            "--print-config",
        ],
        cwd=ROOT,
        env={**os.environ, "WEB_CONCURRENCY": "2"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    settings = {
        name.strip(): value.strip()
        for name, _, value in (line.partition("=") for line in printed.splitlines())
    }
    assert settings["worker_class"] == "sync"
    assert settings["workers"] == "2"
    # The request's line and headers limited, a worker's timeout.
    assert settings["limit_request_line"] == "4094"
    assert settings["limit_request_fields"] == "64"
    assert settings["limit_request_field_size"] == "8190"
    assert settings["timeout"] == "30" and settings["graceful_timeout"] == "30"
