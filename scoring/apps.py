from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    # The engine in scoring.engine is plain Python; only this app shell knows about Django.
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from scoring import checks  # noqa: F401  (registers the system checks)
