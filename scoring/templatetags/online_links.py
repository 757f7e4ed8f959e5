"""``{% online_review_url online as url %}``: the AI review page of an imported online game
(:func:`scoring.online.links.review_url`), ``""`` for a game with none."""

from __future__ import annotations

from django import template

from scoring.models import OnlineGame
from scoring.online.links import review_url

register = template.Library()


@register.simple_tag
def online_review_url(online: OnlineGame) -> str:
    """The review page for ``online`` (its service and log id), or ``""``."""
    return review_url(online.service, online.log_id)
