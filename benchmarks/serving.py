"""Waiting for a benchmark's own gunicorn to answer before anything is timed."""

from __future__ import annotations

import time
import urllib.request
from typing import IO


def server_answers(base: str, log: IO[bytes], who: str) -> bool:
    """Whether the server at ``base`` (``http://127.0.0.1:<port>``) answers its login page
    within a minute, asked every half second. If not, says so as ``who`` with the last 15
    lines of the server's ``log`` (a file it writes to) and returns False."""
    for _ in range(120):
        try:
            urllib.request.urlopen(base + "/accounts/login/", timeout=5).close()
            return True
        except OSError:
            time.sleep(0.5)
    log.seek(0)
    tail = log.read().decode(errors="replace").splitlines()[-15:]
    print(f"{who}: the server did not answer within a minute; nothing was run")
    print("\n".join(f"   {line}" for line in tail))
    return False
