"""The desk and a person of two clubs: a steward adds someone who has a login in another
club of the site by that login name together with its e-mail address (the same person joins,
keeps their password and is told by mail, queued as the club's); either alone is refused as
taken. A login shared with another club keeps its name, address and password out of one
club's stewards' hands (docs/clubs.md, "One person, many clubs")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from clubsite.club_model import Club
from clubsite.club_scope import club_scope
from clubsite.desk.joined import send_joined_email
from clubsite.members import login_shared, membership_create
from clubsite.models import Member
from tests.test_club_mail_tasks import run_queued
from tests.test_member_desk import CsrfClient, at, logged_in_client, login_status
from tests.test_tasks import DATABASE

pytestmark = pytest.mark.django_db


@pytest.fixture
def kita() -> tuple[Club, CsrfClient]:
    """A second club and its steward Kato at its desk."""
    club = Club.objects.create(slug="kita", name="Kita club")
    with club_scope(club):
        kato = membership_create(
            User.objects.create_user("kato", email="kato@example.org", password="kato-pw"),
            club=club,
            display_name="Kato",
            role=Member.Role.STEWARD,
        )
    return club, logged_in_client(kato)


def joining(member: Member, **changes: str) -> dict[str, str]:
    return {
        "username": member.user.username,
        "email": member.user.email,
        "display_name": "Aoki K.",
        "furigana": "あおき",
        "phone": "",
        "steward": "",
        "women_division": "",
        **changes,
    }


def test_a_login_of_another_club_joins_by_its_name_and_address(
    member: Member, kita, every_club, settings, django_capture_on_commit_callbacks
) -> None:
    club, desk = kita
    settings.TASKS = DATABASE
    member.user.email = "aoki@example.org"
    member.user.save(update_fields=["email"])
    logins = User.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(
            at(club, reverse("desk:member_new")),
            joining(member, username="AOKI", email="Aoki@Example.org"),
            headers={"accept-language": "en"},
        )
    there = Member.objects.get(club=club, user=member.user)
    assert response.status_code == 302
    assert response["Location"] == at(club, reverse("desk:member_edit", args=[there.pk]))
    assert User.objects.count() == logins  # the same person, no second login
    assert (there.display_name, there.furigana, there.role, there.active) == (
        "Aoki K.",
        "あおき",
        "member",
        True,
    )
    # Their own password still lets them in, to both clubs.
    assert login_status("aoki", "aoki-password") == 302
    (queued,) = DBTaskResult.objects.filter(task_path=send_joined_email.module_path)
    assert queued.args_kwargs == {"args": [there.pk, "en"], "kwargs": {"club_id": club.pk}}
    assert run_queued(send_joined_email) == [1]
    (message,) = mail.outbox
    assert message.to == ['"Aoki K." <aoki@example.org>']
    assert message.subject == "You are a member of Kita club"
    assert "http://127.0.0.1:8000/c/kita/" in message.body
    assert "/accounts/reset/" not in message.body  # no link that would set their password
    page = desk.get(response["Location"], headers={"accept-language": "en"})
    assert "Aoki K. joined the club with their login" in page.text


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"email": "someone-else@example.org"}, "username", "is taken. A person with a login"),
        ({"username": "somebody"}, "email", "Another member has the e-mail address"),
    ],
)
def test_a_name_or_an_address_alone_is_taken(
    member: Member, kita, every_club, changes, field, words
) -> None:
    club, desk = kita
    member.user.email = "aoki@example.org"
    member.user.save(update_fields=["email"])
    response = desk.post(
        at(club, reverse("desk:member_new")),
        joining(member, **changes),
        headers={"accept-language": "en"},
    )
    assert response.status_code == 200
    assert words in response.text
    assert f'id="id_{field}"' in response.text
    assert not Member.objects.filter(club=club, user=member.user).exists()
    assert User.objects.filter(username="somebody").count() == 0


def test_a_member_of_the_club_is_not_added_twice(member: Member, kita, every_club) -> None:
    club, desk = kita
    member.user.email = "aoki@example.org"
    member.user.save(update_fields=["email"])
    with club_scope(club):
        membership_create(member.user, club=club, display_name="Aoki K.")
    response = desk.post(
        at(club, reverse("desk:member_new")),
        joining(member, display_name="Aoki Again"),
        headers={"accept-language": "en"},
    )
    assert response.status_code == 200
    assert "is a member of this club already" in response.text
    assert Member.objects.filter(club=club, user=member.user).count() == 1


def test_a_shared_login_keeps_its_name_address_and_password_from_one_clubs_desk(
    member: Member, kita, every_club
) -> None:
    club, desk = kita
    member.user.email = "aoki@example.org"
    member.user.save(update_fields=["email"])
    with club_scope(club):
        there = membership_create(member.user, club=club, display_name="Aoki K.")
    assert login_shared(member.user, club) and login_shared(member.user, member.club)
    page_url = at(club, reverse("desk:member_edit", args=[there.pk]))
    page = desk.get(page_url, headers={"accept-language": "en"}).text
    assert 'id="shared-login"' in page and 'id="set-password"' not in page
    assert 'id="send-link"' not in page
    assert "Shared with another club" in page

    # A forged post changes the club's own fields only.
    response = desk.post(
        page_url, joining(member, username="stolen", email="thief@example.org", display_name="A.K.")
    )
    assert response.status_code == 302
    there.refresh_from_db()
    member.user.refresh_from_db()
    assert there.display_name == "A.K."
    assert (member.user.username, member.user.email) == ("aoki", "aoki@example.org")

    for action, data in (
        (
            "desk:member_password",
            {"new_password1": "x-Long-pass-42", "new_password2": "x-Long-pass-42"},
        ),
        ("desk:member_welcome", {}),
    ):
        response = desk.post(
            at(club, reverse(action, args=[there.pk])), data, headers={"accept-language": "en"}
        )
        assert response.status_code == 200
        assert "also a member of another club" in response.text
    assert login_status("aoki", "aoki-password") == 302
    assert mail.outbox == []


def test_a_login_of_one_club_is_its_stewards_to_edit(member: Member, staff_member: Member) -> None:
    assert not login_shared(member.user, member.club)
    desk = logged_in_client(staff_member)
    page = desk.get(
        reverse("desk:member_edit", args=[member.pk]), headers={"accept-language": "en"}
    )
    assert 'id="set-password"' in page.text and 'id="shared-login"' not in page.text
    assert "Shared with another club" not in page.text
