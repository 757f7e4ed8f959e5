"""Join applications (clubsite/desk/join.py): a visitor applies on the club's public page; bad
input is refused with its reason and nothing stored; applications are limited per e-mail and
per client address each hour; the club's stewards are mailed by a task that runs in the club's
scope, and accept (the person becomes a member and gets the welcome e-mail; a login with that
address joins as the same person) or decline (nothing sent) at the desk, once each however
often they tap."""

from __future__ import annotations

import threading
from email.utils import formataddr, parseaddr

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_scopes.state import state

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.desk.join import AlreadyDecided, join_accept, send_join_notice
from clubsite.desk.welcome import send_welcome_email
from clubsite.members import membership_create
from clubsite.models import JoinApplication, Member
from tests.test_member_desk import CsrfClient, link_in, logged_in_client

pytestmark = pytest.mark.django_db

APPLY = {
    "name": "小川",
    "email": "ogawa@example.org",
    "message": "金曜の夜に打てます。\r\nよろしくお願いします。",
    "website": "",
}


@pytest.fixture(autouse=True)
def taking_applications(db: None) -> Club:
    club = current_club()
    club.public_join = True
    club.save(update_fields=["public_join"])
    return club


def apply(data: dict[str, str] | None = None, address: str = "10.0.0.7", **extra):
    client = CsrfClient()
    return client.post(reverse("join"), data or APPLY, REMOTE_ADDR=address, **extra)


def test_an_application_is_stored_and_the_stewards_are_mailed(
    staff_member: Member, member: Member, django_capture_on_commit_callbacks
) -> None:
    staff_member.user.email = "doi@example.org"
    staff_member.user.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = apply(headers={"accept-language": "ja"})
    assert response.status_code == 302 and response["Location"] == "/#join"
    application = JoinApplication.objects.get()
    assert (application.name, application.email, application.status) == (
        "小川",
        "ogawa@example.org",
        "pending",
    )
    assert application.message == "金曜の夜に打てます。\nよろしくお願いします。"
    assert (application.address, application.language) == ("10.0.0.7", "ja")
    # Only the steward with an address is mailed (Aoki is no steward), the applicant replied to.
    assert len(mail.outbox) == 1
    notice = mail.outbox[0]
    assert notice.to == ["Doi <doi@example.org>"]
    assert notice.reply_to == [formataddr(("小川", "ogawa@example.org"))]
    assert "小川" in notice.subject
    assert "ogawa@example.org" in notice.body and "金曜の夜に打てます。" in notice.body
    assert "/c/club/desk/applications/" in notice.body


def test_the_applicant_is_thanked_on_the_page(django_capture_on_commit_callbacks) -> None:
    client = CsrfClient()
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(reverse("join"), APPLY, follow=True, headers={"accept-language": "en"})
    assert page.redirect_chain == [("/#join", 302)]
    assert (
        '<p class="notice success" role="status" id="public-message">Thank you: your '
        "application is with the club's stewards" in page.text.replace("&#x27;", "'")
    )
    # The form is there again, empty, for another person.
    assert 'id="join-form"' in page.text and "小川" not in page.text


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"name": "小\x00川"}, "NUL"),
        ({"message": "hello\x00"}, "NUL"),
        ({"message": "x" * 2001}, "at most 2000 characters"),
        ({"name": "x" * 61}, "at most 60 characters"),
        ({"name": "  "}, "This field is required"),
        ({"email": "not-an-address"}, "valid email address"),
        ({"message": "bell\x07"}, "control character"),
    ],
)
def test_bad_input_is_refused_with_its_reason_and_nothing_stored(
    changes: dict[str, str], error: str, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = apply({**APPLY, **changes}, headers={"accept-language": "en"})
    assert response.status_code == 400
    assert error in response.text
    assert "Nothing was sent" in response.text
    assert JoinApplication.objects.count() == 0 and mail.outbox == []


def test_the_honeypot_thanks_a_robot_and_keeps_nothing(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = apply({**APPLY, "website": "http://spam.example"})
    assert response.status_code == 302
    assert JoinApplication.objects.count() == 0 and mail.outbox == []


def test_applications_are_limited_per_email_and_per_address(settings) -> None:
    settings.CLUB_JOIN_EMAIL_LIMIT = 2
    settings.CLUB_JOIN_ADDRESS_LIMIT = 3
    assert apply().status_code == 302
    assert apply(address="10.0.0.8").status_code == 302
    third = apply(
        {**APPLY, "email": "OGAWA@example.org"},
        address="10.0.0.9",
        headers={"accept-language": "en"},
    )
    assert third.status_code == 429
    assert "Please wait an hour" in third.text
    assert JoinApplication.objects.count() == 2
    # Another address from 10.0.0.7: its third is over the address's limit.
    assert apply({**APPLY, "email": "a@example.org"}).status_code == 302
    assert apply({**APPLY, "email": "b@example.org"}).status_code == 302
    fourth = apply({**APPLY, "email": "c@example.org"}, headers={"accept-language": "en"})
    assert fourth.status_code == 429 and "Too many applications" in fourth.text
    assert JoinApplication.objects.count() == 4
    # Another club's limits are its own.
    north = Club.objects.create(slug="north", name="North", public_join=True)
    answer = CsrfClient().post(f"/c/{north.slug}/join/", APPLY, REMOTE_ADDR="10.0.0.7")
    assert answer.status_code == 302
    with club_scope(north):
        assert JoinApplication.objects.get().email == "ogawa@example.org"


def pending() -> JoinApplication:
    return JoinApplication.objects.create(
        name="小川",
        email="ogawa@example.org",
        message="よろしく",
        language="ja",
        created_at=timezone.now(),
    )


def test_the_desk_lists_them_for_stewards_only(staff_member: Member, member: Member) -> None:
    application = pending()
    desk = logged_in_client(staff_member)
    page = desk.get(reverse("desk:applications"), headers={"accept-language": "en"})
    assert page.status_code == 200
    row = page.text.split(f'id="application-{application.pk}"')[1].split("</li>")[0]
    assert "小川" in row and "ogawa@example.org" in row and "よろしく" in row
    assert f'id="accept-{application.pk}"' in row and f'id="decline-{application.pk}"' in row
    members = desk.get(reverse("desk:members"))
    assert 'id="pending-count">1<' in members.text
    assert logged_in_client(member).get(reverse("desk:applications")).status_code == 403
    assert Client().get(reverse("desk:applications")).status_code == 302
    accept = reverse("desk:application_accept", args=[application.pk])
    assert logged_in_client(member).post(accept).status_code == 403
    application.refresh_from_db()
    assert application.status == "pending"


def test_accepting_makes_a_member_once_and_sends_the_welcome(
    staff_member: Member, django_capture_on_commit_callbacks, settings
) -> None:
    settings.CLUB_SITE_URL = "https://club.example.org"
    application = pending()
    User.objects.create_user("ogawa", password="x")  # the login name is taken
    desk = logged_in_client(staff_member)
    accept = reverse("desk:application_accept", args=[application.pk])
    with django_capture_on_commit_callbacks(execute=True):
        first = desk.post(accept, headers={"accept-language": "en", "HX-Request": "true"})
        second = desk.post(accept, headers={"accept-language": "en", "HX-Request": "true"})
    assert first.status_code == 200
    assert first.text.startswith(f'<li class="desk-application" id="application-{application.pk}"')
    assert "is a member now (login name ogawa-2)" in first.text
    assert "was already accepted by Doi" in second.text
    member = Member.objects.get(display_name="小川")
    assert member.user.username == "ogawa-2" and member.user.email == "ogawa@example.org"
    assert (member.role, member.active, member.user.has_usable_password()) == (
        "member",
        True,
        False,
    )
    application.refresh_from_db()
    assert (application.status, application.member, application.decided_by) == (
        "accepted",
        member,
        staff_member,
    )
    # One welcome, in the applicant's language, with the link to choose a password.
    assert len(mail.outbox) == 1
    welcome = mail.outbox[0]
    assert welcome.subject == "クラブのサイトへようこそ"
    assert "ログイン名: ogawa-2" in welcome.body
    assert link_in(welcome.body).startswith("/accounts/reset/")
    # Without htmx: back to the list with the note.
    again = desk.post(accept, follow=True, headers={"accept-language": "en"})
    assert "was already accepted by Doi" in again.text


def test_a_login_with_that_address_joins_as_the_same_person(
    staff_member: Member, django_capture_on_commit_callbacks
) -> None:
    north = Club.objects.create(slug="north", name="North")
    ogawa = User.objects.create_user("ogawa", email="Ogawa@Example.org", password="x")
    membership_create(ogawa, club=north, display_name="Ogawa")
    Member.objects.create(user=User.objects.create_user("kogawa"), display_name="小川")
    application = pending()
    desk = logged_in_client(staff_member)
    with django_capture_on_commit_callbacks(execute=True):
        answer = desk.post(f"/c/club{reverse('desk:application_accept', args=[application.pk])}")
    assert answer.status_code == 302
    joined = Member.objects.get(user=ogawa)
    # The club's name for them is numbered: another member is 小川 here.
    assert joined.display_name == "小川 (2)"
    assert User.objects.filter(email__iexact="ogawa@example.org").count() == 1
    with club_scope(north):
        assert Member.objects.get(user=ogawa).display_name == "Ogawa"
    # Told which club they joined, with no link that would set a new password: the login
    # and its password are theirs, as in North (clubsite.desk.joined).
    (message,) = mail.outbox
    assert parseaddr(message.to[0])[1].lower() == "ogawa@example.org"
    assert message.subject.endswith("に入会しました")
    assert "/accounts/reset/" not in message.body and "/c/club/" in message.body


def test_declining_sends_nothing_and_cannot_be_accepted_after(
    staff_member: Member, django_capture_on_commit_callbacks
) -> None:
    application = pending()
    desk = logged_in_client(staff_member)
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(
            reverse("desk:application_decline", args=[application.pk]),
            follow=True,
            headers={"accept-language": "en"},
        )
        late = desk.post(
            reverse("desk:application_accept", args=[application.pk]),
            follow=True,
            headers={"accept-language": "en"},
        )
    assert "was declined; no e-mail was sent" in response.text
    assert "was already declined by Doi" in late.text
    application.refresh_from_db()
    assert application.status == "declined" and application.member is None
    assert mail.outbox == []
    assert not Member.objects.filter(display_name="小川").exists()


def test_another_clubs_application_is_not_found_at_this_desk(staff_member: Member) -> None:
    north = Club.objects.create(slug="north", name="North")
    with club_scope(north):
        theirs = pending()
    desk = logged_in_client(staff_member)
    answer = desk.post(f"/c/club{reverse('desk:application_accept', args=[theirs.pk])}")
    assert answer.status_code == 404
    with club_scope(north):
        assert JoinApplication.objects.get().status == "pending"


def test_the_tasks_run_in_the_club_they_were_queued_for(
    django_capture_on_commit_callbacks,
) -> None:
    """On a site of two clubs (no scope to fall back on), the stewards' notice and the welcome
    go to the club of the application: the tasks carry its id."""
    north = Club.objects.create(slug="north", name="North", public_join=True)
    with club_scope(north):
        kita = Member.objects.create(
            user=User.objects.create_user("kita", email="kita@example.org"),
            display_name="北",
            role=Member.Role.STEWARD,
        )
    home_steward = Member.objects.create(
        user=User.objects.create_user("home", email="home@example.org"),
        display_name="Home",
        role=Member.Role.STEWARD,
    )
    with django_capture_on_commit_callbacks(execute=True):
        answer = CsrfClient().post(f"/c/{north.slug}/join/", APPLY, REMOTE_ADDR="10.0.0.7")
    assert answer.status_code == 302 and answer["Location"] == "/c/north/#join"
    assert [m.to for m in mail.outbox] == [[formataddr(("北", "kita@example.org"))]]
    assert "/c/north/desk/applications/" in mail.outbox[0].body
    with club_scope(north):
        application = JoinApplication.objects.get()
    # The task itself, given the club, outside any club's scope.
    previous = state.get()
    state.set({"_enabled": True})
    try:
        assert send_join_notice.call(application.pk, club_id=north.pk) == 1
        with club_scope(north):
            accepted = join_accept(application_id=application.pk, by=kita)
        mail.outbox.clear()
        assert send_welcome_email.call(accepted.member.pk, "en", club_id=north.pk) == 1
    finally:
        state.set(previous)
    assert mail.outbox[0].to == [formataddr(("小川", "ogawa@example.org"))]
    assert "Your login name: ogawa" in mail.outbox[0].body
    assert home_steward.user.email not in str([m.to for m in mail.outbox])
    with club_scope(north), pytest.raises(AlreadyDecided):
        join_accept(application_id=application.pk, by=kita)


@pytest.mark.django_db(transaction=True)
def test_two_taps_at_once_accept_once(staff_member: Member) -> None:
    """Two stewards' taps at the same moment, each in its own connection: one accepts, the
    other finds it decided; one login, one membership."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serializes the two writes anyway")
    club = current_club()
    application = pending()
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def tap() -> None:
        from django.db import connections

        try:
            with club_scope(Club.objects.get(pk=club.pk)):
                barrier.wait()
                try:
                    join_accept(application_id=application.pk, by=None)
                    outcomes.append("accepted")
                except AlreadyDecided:
                    outcomes.append("decided")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["accepted", "decided"]
    assert Member.objects.filter(user__email="ogawa@example.org").count() == 1
    assert User.objects.filter(email="ogawa@example.org").count() == 1
