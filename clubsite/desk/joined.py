"""The e-mail to a person with a login already (a member of another club of the site) whom
a steward made a member of their club too (:func:`clubsite.desk.members.member_add`): which
club, under which name, and where its pages are. No set-password link: the login and its
password are the person's, as in their other clubs. Sent through the task queue
(docs/tasks.md) as the club's (``club_id``); a failed message is logged and tried again
(:func:`clubsite.mail.send_each`)."""

from __future__ import annotations

from django.tasks import task
from django.urls import reverse

from clubsite.club_links import club_name, club_url, site_url
from clubsite.club_scope import task_scope
from clubsite.desk.welcome import member_mail_send, reachable_member

SUBJECT_TEMPLATE = "members/desk/joined_subject.txt"
BODY_TEMPLATE = "members/desk/joined_email.txt"


def joined_email_send(member_id: int, language: str) -> int:
    """Tell member ``member_id`` (a membership of the club in scope), in ``language`` (a code
    of ``LANGUAGES``), that they are a member of its club now. Returns 1 if sent; 0 for a
    membership that is gone or deactivated, a login without an e-mail address, or a message
    the mail server refused."""
    member = reachable_member(member_id)
    if member is None:
        return 0
    context = {
        "member": member,
        "club_name": club_name(member.club),
        "username": member.user.get_username(),
        "url": club_url(member.club, "game_list"),
        "reset_url": site_url(reverse("password_reset")),
    }
    return member_mail_send(
        member,
        language,
        templates=(SUBJECT_TEMPLATE, BODY_TEMPLATE),
        context=context,
        what=f"membership of member {member.pk}",
    )


@task
def send_joined_email(member_id: int, language: str, *, club_id: int | None = None) -> int:
    """:func:`joined_email_send` as a task, run as club ``club_id``'s (the membership's)."""
    with task_scope(club_id):
        return joined_email_send(member_id, language)
