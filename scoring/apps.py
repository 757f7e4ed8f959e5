from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    # The engine in scoring.engine is plain Python; only this app shell knows about Django.
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from clubsite.club_services import register_choice_check
        from scoring import (
            checks,  # (registers the system checks)
            guest_pages,
            placement_tasks,  # noqa: F401  (refits the placement model as games count)
        )

        # A new club's default ruleset is one of ours: clubsite cannot know which exist.
        register_choice_check("default_ruleset", checks.built_in_ruleset)
        # The pages a guest of an event between clubs opens: the core knows no games.
        guest_pages.register()

        # The club's public page shows the rules pages it publishes: the rulesets are ours.
        from clubsite.public import PublicSection, register_public_section
        from scoring.views.public_pages import rules_section

        register_public_section(
            PublicSection(
                key="rules",
                switch="public_rules",
                order=10,
                template="scoring/_public_rules.html",
                build=rules_section,
            )
        )
