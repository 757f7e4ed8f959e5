"""``{% member_ratings member as ratings %}``: a member's ratings for the member page's
include (templates/ratings/_member_rating.html), so that the page's view need not know them."""

from __future__ import annotations

from django import template

from clubsite.models import Member
from ratings.display import MemberFamily, provisional_games
from ratings.display import member_ratings as read_member_ratings

register = template.Library()


@register.simple_tag
def member_ratings(member: Member) -> list[MemberFamily]:
    """The member's ratings with their history (:func:`ratings.display.member_ratings`)."""
    return read_member_ratings(member.pk)


@register.simple_tag
def provisional_threshold() -> int:
    """Games below which a rating is provisional."""
    return provisional_games()
