"""``python manage.py db_worker``: django-tasks-db's worker, which first starts the heartbeat
chain that ``/healthz`` reads (``clubsite.worker_health``; not with ``--batch``, a run that
ends when the queue is empty). clubsite comes before django_tasks_db in ``INSTALLED_APPS``, so
this command stands in for that one; every option is its own."""

from __future__ import annotations

from typing import Any

from django_tasks_db.management.commands import db_worker

from clubsite.worker_health import start_heartbeat


class Command(db_worker.Command):
    help = db_worker.Command.help + " (starting the heartbeat that /healthz reads first)"

    def handle(self, **options: Any) -> None:
        if not options["batch"]:  # a run that ends with the queue empty keeps no heartbeat
            start_heartbeat()
        super().handle(**options)
