"""Settings of the fault runs' server (:mod:`benchmarks.faults`): the site's own settings,
and with ``FAULTS_HOOK_DIR`` set, :class:`benchmarks.fault_hooks.KillAfterCommitMiddleware`
innermost, so that a run can kill a worker between a hand's commit and its answer.
Production runs ``clubsite.settings``, which never names the hook."""

import os

from clubsite.settings import *  # noqa: F403 - the site's settings, all of them
from clubsite.settings import MIDDLEWARE

if os.environ.get("FAULTS_HOOK_DIR"):
    MIDDLEWARE = [*MIDDLEWARE, "benchmarks.fault_hooks.KillAfterCommitMiddleware"]
