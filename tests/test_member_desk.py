"""The steward's desk for members: a member added in one step (login and
membership together) gets a welcome e-mail whose link sets a password; edits, the steward
role, deactivation (of the membership: the person's other clubs keep theirs), lockouts and
online names without the admin; venues. Only stewards: 403 for anyone else, and a refused
action writes nothing."""

from __future__ import annotations

import datetime
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from clubsite.club_model import Club
from clubsite.club_scope import club_scope
from clubsite.members import membership_create
from clubsite.models import Member, OnlineName
from meetings.models import Venue
from scoring.ledger import hanchan_start
from scoring.models import Seat

ADDRESS = "10.0.0.9"

NEW = {
    "username": "fujita",
    "display_name": "Fujita",
    "furigana": "ふじた",
    "email": "fujita@example.org",
    "phone": "090-0000-1111",
    "steward": "",
    "women_division": "on",
}


def login_status(username: str, password: str, client: Client | None = None) -> int:
    """The answer to a login: 302 in, 200 refused (the form again), 429 locked out."""
    response = (client or Client()).post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ADDRESS
    )
    return response.status_code


def link_in(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", body)
    assert match, body
    return match.group(1)


class CsrfClient(Client):
    """A CSRF-checking client whose posts carry the token a page of the site gave it, as a
    browser's form does."""

    def __init__(self) -> None:
        super().__init__(enforce_csrf_checks=True)

    def post(self, path, data=None, **extra):  # type: ignore[override]
        if "csrftoken" not in self.cookies:
            # A page of the site, not of a club (on a site of several clubs too): the
            # password change for a logged-in client, the login page for a visitor.
            self.get(reverse("password_change"))
        if "csrftoken" not in self.cookies:
            self.get(reverse("login"))
        token = self.cookies["csrftoken"].value
        return super().post(path, {**(data or {}), "csrfmiddlewaretoken": token}, **extra)


def logged_in_client(member: Member) -> CsrfClient:
    client = CsrfClient()
    client.force_login(member.user)
    return client


@pytest.fixture
def desk(staff_member: Member) -> CsrfClient:
    """The steward Doi at the desk."""
    return logged_in_client(staff_member)


def test_it_adds_a_member_and_mails_a_link_that_sets_the_password(
    desk: CsrfClient, django_capture_on_commit_callbacks, settings
):
    settings.CLUB_SITE_URL = "https://club.example.org"
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(reverse("desk:member_new"), NEW, headers={"accept-language": "en"})
    member = Member.objects.get(display_name="Fujita")
    assert response.status_code == 302
    assert response["Location"] == reverse("desk:member_edit", args=[member.pk])
    user = member.user
    assert (user.username, user.email, user.is_staff, user.is_active) == (
        "fujita",
        "fujita@example.org",
        False,
        True,
    )
    assert (member.role, member.active) == ("member", True)
    assert not user.has_usable_password()
    assert (member.furigana, member.phone, member.women_division) == (
        "ふじた",
        "090-0000-1111",
        True,
    )
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["Fujita <fujita@example.org>"]
    assert message.subject == "Welcome to the club's site"
    assert "Your login name: fujita" in message.body
    assert "https://club.example.org/accounts/reset/" in message.body
    # The link lets the new member choose a password, once; then they log in with it.
    fresh = Client()
    page = fresh.get(link_in(message.body), follow=True)
    assert 'name="new_password1"' in page.text
    done = fresh.post(
        page.redirect_chain[-1][0],
        {"new_password1": "Tile-Wall-2026", "new_password2": "Tile-Wall-2026"},
    )
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert login_status("fujita", "Tile-Wall-2026") == 302
    again = Client().get(link_in(message.body), follow=True)
    assert 'name="new_password1"' not in again.text


def test_the_welcome_mail_is_in_the_stewards_language(
    desk: CsrfClient, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        desk.post(reverse("desk:member_new"), NEW, headers={"accept-language": "ja"})
    assert mail.outbox[0].subject == "クラブのサイトへようこそ"
    assert "ログイン名: fujita" in mail.outbox[0].body


def test_the_steward_flag_makes_a_steward(desk: CsrfClient, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        desk.post(reverse("desk:member_new"), {**NEW, "steward": "on", "women_division": ""})
    member = Member.objects.get(display_name="Fujita")
    assert member.role == "steward" and member.active and not member.women_division
    # The login is staff with it: the Django admin lets in the club's stewards.
    assert member.user.is_staff


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("display_name", "aoki", "Another member is already called aoki."),
        ("username", "AOKI", "The login name AOKI is taken."),
        ("email", "Aoki@Example.org", "Another member has the e-mail address Aoki@Example.org."),
        ("display_name", "Fuji\x00ta", "Null characters are not allowed."),
        ("furigana", "ふじ\x00た", "Null characters are not allowed."),
        ("email", "fujita\x00@example.org", "Null characters are not allowed."),
        ("phone", "090\x00", "Null characters are not allowed."),
        ("username", "fuji\x00ta", "Null characters are not allowed."),
        ("display_name", "F" * 61, "at most 60 characters"),
        ("furigana", "ふ" * 121, "at most 120 characters"),
        ("phone", "0" * 31, "at most 30 characters"),
        ("username", "f" * 151, "at most 150 characters"),
        ("email", "f" * 250 + "@example.org", "at most 254 characters"),
        ("display_name", "Fuji\nta", "one line of text"),
        ("furigana", "ふじ\tた", "One line of text"),
        ("email", "", "This field is required."),
        ("display_name", "  ", "This field is required."),
    ],
)
def test_it_refuses_bad_input_and_writes_nothing(
    desk: CsrfClient,
    member: Member,
    field: str,
    value: str,
    error: str,
    django_capture_on_commit_callbacks,
):
    member.user.email = "aoki@example.org"
    member.user.save()
    users, members = User.objects.count(), Member.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        page = desk.post(
            reverse("desk:member_new"), {**NEW, field: value}, headers={"accept-language": "en"}
        )
    assert page.status_code == 200
    assert error in page.text
    assert (User.objects.count(), Member.objects.count()) == (users, members)
    assert mail.outbox == []


def test_only_stewards_use_the_desk(
    member: Member, other_member: Member, django_capture_on_commit_callbacks
):
    client = logged_in_client(member)
    target = other_member.pk
    gets = [
        reverse("desk:members"),
        reverse("desk:member_new"),
        reverse("desk:member_edit", args=[target]),
        reverse("meetings:venue_new"),
    ]
    for url in gets:
        assert client.get(url).status_code == 403, url
    posts = [
        (reverse("desk:member_new"), NEW),
        (reverse("desk:member_edit", args=[target]), {**NEW, "steward": "on"}),
        (reverse("desk:member_active", args=[target]), {"active": "0"}),
        (reverse("desk:member_unlock", args=[target]), {}),
        (reverse("desk:member_welcome", args=[target]), {}),
        (
            reverse("desk:member_online_name_add", args=[target]),
            {"service": "tenhou", "name": "Baba_T"},
        ),
        (reverse("meetings:venue_new"), {"name": "X", "role": "main", "address": "Y"}),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for url, data in posts:
            assert client.post(url, data).status_code == 403, url
    other_member.refresh_from_db()
    other_member.user.refresh_from_db()
    assert (other_member.active, other_member.role) == (True, "member")
    assert other_member.user.is_active and not other_member.user.is_staff
    assert not Member.objects.filter(display_name="Fujita").exists()
    assert not OnlineName.objects.exists() and not Venue.objects.filter(name="X").exists()
    assert mail.outbox == []
    # Nor does an anonymous visitor: the login page.
    assert Client().get(reverse("desk:members"))["Location"].startswith(reverse("login"))


def test_the_list_finds_members_by_name_or_reading_and_state(
    desk: CsrfClient, member: Member, other_member: Member, staff_member: Member
):
    other_member.active = False
    other_member.save()
    page = desk.get(reverse("desk:members"), headers={"accept-language": "en"})
    assert f'id="member-{member.pk}"' in page.text
    assert f'id="member-{other_member.pk}"' not in page.text  # active ones by default
    page = desk.get(reverse("desk:members"), {"q": "あお", "status": "all"})
    assert f'id="member-{member.pk}"' in page.text
    assert f'id="member-{staff_member.pk}"' not in page.text
    page = desk.get(reverse("desk:members"), {"status": "inactive"})
    assert f'id="member-{other_member.pk}"' in page.text
    assert f'id="member-{member.pk}"' not in page.text
    page = desk.get(reverse("desk:members"), {"q": "Ba\x00ba", "status": "all"})
    assert page.status_code == 200 and f'id="member-{other_member.pk}"' in page.text


def test_a_steward_edits_a_member(desk: CsrfClient, member: Member):
    response = desk.post(
        reverse("desk:member_edit", args=[member.pk]),
        {**NEW, "username": "aoki2", "display_name": "Aoki K.", "email": "k@example.org"},
    )
    assert response.status_code == 302
    member.refresh_from_db()
    member.user.refresh_from_db()
    assert (member.display_name, member.user.username, member.user.email) == (
        "Aoki K.",
        "aoki2",
        "k@example.org",
    )
    assert member.women_division and member.furigana == "ふじた"
    # The member's own name, login and address are no duplicates of themselves.
    again = desk.post(
        reverse("desk:member_edit", args=[member.pk]),
        {**NEW, "username": "AOKI2", "display_name": "aoki k.", "email": "K@example.org"},
    )
    assert again.status_code == 302


def test_a_steward_keeps_their_own_steward_flag(desk: CsrfClient, staff_member: Member):
    page = desk.post(
        reverse("desk:member_edit", args=[staff_member.pk]),
        {**NEW, "username": "doi", "display_name": "Doi", "email": "doi@example.org"},
        headers={"accept-language": "en"},
    )
    assert page.status_code == 200
    assert "You cannot take away your own steward flag." in page.text
    staff_member.refresh_from_db()
    staff_member.user.refresh_from_db()
    assert staff_member.role == "steward" and staff_member.user.email == ""
    assert staff_member.user.is_staff


def test_a_deactivated_member_cannot_log_in_and_keeps_their_games(
    desk: CsrfClient, member: Member, other_member: Member, coordinator: Member, outsider: Member
):
    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, coordinator, outsider],
        played_on=datetime.date(2026, 11, 1),
    )
    logged_in = Client()
    logged_in.force_login(member.user)
    assert logged_in.get(reverse("game_list")).status_code == 200
    response = desk.post(reverse("desk:member_active", args=[member.pk]), {"active": "0"})
    assert response.status_code == 302
    member.refresh_from_db()
    member.user.refresh_from_db()
    # The membership is deactivated; with no other club's left, the login too.
    assert not member.active and not member.user.is_active
    assert login_status("aoki", "aoki-password") == 200
    # The session ended: a member's page sends to the login (the home page is the public one).
    assert logged_in.get(reverse("standings")).status_code == 302
    assert Seat.objects.filter(hanchan=game, member=member).count() == 1
    page = desk.get(
        reverse("desk:member_edit", args=[member.pk]), headers={"accept-language": "en"}
    )
    assert 'id="reactivate"' in page.text
    desk.post(reverse("desk:member_active", args=[member.pk]), {"active": "1"})
    assert login_status("aoki", "aoki-password") == 302


def test_a_steward_cannot_deactivate_themselves(desk: CsrfClient, staff_member: Member):
    page = desk.post(
        reverse("desk:member_active", args=[staff_member.pk]),
        {"active": "0"},
        headers={"accept-language": "en"},
    )
    assert page.status_code == 200 and "You cannot deactivate your own account." in page.text
    staff_member.refresh_from_db()
    staff_member.user.refresh_from_db()
    assert staff_member.active and staff_member.user.is_active


def test_a_steward_lifts_a_login_lockout(desk: CsrfClient, member: Member, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login_status("aoki", "wrong", client)
    assert login_status("aoki", "aoki-password", client) == 429
    listing = desk.get(reverse("desk:members"), headers={"accept-language": "en"})
    row = listing.text.split(f'id="member-{member.pk}"')[1].split("</li>")[0]
    assert "Locked out" in row
    page = desk.get(
        reverse("desk:member_edit", args=[member.pk]), headers={"accept-language": "en"}
    )
    # Five wrong passwords, then the right one refused while locked out.
    assert "Locked out after too many wrong passwords.<br>6 failed logins recently." in page.text
    response = desk.post(reverse("desk:member_unlock", args=[member.pk]))
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="aoki").exists()
    assert login_status("aoki", "aoki-password", client) == 302
    page = desk.get(reverse("desk:member_edit", args=[member.pk]))
    assert 'id="lift-lockout"' not in page.text


def test_a_steward_sends_a_new_set_password_link(
    desk: CsrfClient, member: Member, django_capture_on_commit_callbacks
):
    member.user.email = "aoki@example.org"
    member.user.save()
    response = desk.post(reverse("desk:member_welcome", args=[member.pk]))
    assert response.status_code == 302
    assert mail.outbox[0].to == ["Aoki <aoki@example.org>"]
    fresh = Client()
    page = fresh.get(link_in(mail.outbox[0].body), follow=True)
    fresh.post(
        page.redirect_chain[-1][0],
        {"new_password1": "Tile-Wall-2026", "new_password2": "Tile-Wall-2026"},
    )
    assert login_status("aoki", "Tile-Wall-2026") == 302


def test_no_link_for_a_member_without_an_address(desk: CsrfClient, member: Member):
    page = desk.post(
        reverse("desk:member_welcome", args=[member.pk]), headers={"accept-language": "en"}
    )
    assert page.status_code == 200
    assert "A link goes only to an active member with an e-mail address." in page.text
    assert mail.outbox == []


def test_a_steward_sets_a_members_online_names(
    desk: CsrfClient, member: Member, other_member: Member
):
    url = reverse("desk:member_online_name_add", args=[member.pk])
    assert desk.post(url, {"service": "tenhou", "name": "Aoki_K"}).status_code == 302
    assert list(member.online_names.values_list("service", "name")) == [("tenhou", "Aoki_K")]
    OnlineName.objects.create(member=other_member, service="majsoul", name="baba")
    page = desk.post(url, {"service": "majsoul", "name": "baba"}, headers={"accept-language": "en"})
    assert page.status_code == 200 and "baba is already the online name of Baba." in page.text
    assert member.online_names.count() == 1
    name = member.online_names.get()
    other = OnlineName.objects.get(member=other_member)
    delete = "desk:member_online_name_delete"
    assert desk.post(reverse(delete, args=[member.pk, other.pk])).status_code == 404
    assert desk.post(reverse(delete, args=[member.pk, name.pk])).status_code == 302
    assert not member.online_names.exists() and OnlineName.objects.filter(pk=other.pk).exists()


def test_a_steward_adds_and_edits_venues(desk: CsrfClient):
    venue = {"name": "Sakura", "role": "backup", "address": "1-2-3 Chuo", "phone": "011-000"}
    response = desk.post(reverse("meetings:venue_new"), {**venue, "directions": "2F\nLeft"})
    assert response.status_code == 302 and response["Location"] == reverse("meetings:venues")
    added = Venue.objects.get(name="Sakura")
    assert (added.role, added.directions) == ("backup", "2F\nLeft")
    listing = desk.get(reverse("meetings:venues"))
    assert reverse("meetings:venue_edit", args=[added.pk]) in listing.text
    assert reverse("meetings:venue_new") in listing.text
    edit = reverse("meetings:venue_edit", args=[added.pk])
    assert desk.post(edit, {**venue, "address": "4-5-6 Kita"}).status_code == 302
    added.refresh_from_db()
    assert added.address == "4-5-6 Kita"
    for bad, error in [
        ({"name": "sakura"}, "There is already a venue called sakura."),
        ({"name": "Sa\x00kura2"}, "Null characters are not allowed."),
        ({"address": "a" * 201}, "at most 200 characters"),
        ({"address": "1\n2"}, "One line of text"),
    ]:
        page = desk.post(
            reverse("meetings:venue_new"), {**venue, **bad}, headers={"accept-language": "en"}
        )
        assert page.status_code == 200 and error in page.text, bad
    assert Venue.objects.filter(name__iexact="sakura").count() == 1


def test_a_members_page_links_stewards_to_the_desk(desk: CsrfClient, member: Member):
    edit = reverse("desk:member_edit", args=[member.pk])
    assert edit in desk.get(reverse("member_detail", args=[member.pk])).text
    assert edit not in logged_in_client(member).get(reverse("member_detail", args=[member.pk])).text


def test_the_list_marks_members_without_an_address(desk: CsrfClient, member: Member):
    page = desk.get(reverse("desk:members"), headers={"accept-language": "en"})
    row = page.text.split(f'id="member-{member.pk}"')[1].split("</li>")[0]
    assert "No e-mail" in row
    member.user.email = "aoki@example.org"
    member.user.save()
    page = desk.get(reverse("desk:members"), headers={"accept-language": "en"})
    assert "No e-mail" not in page.text.split(f'id="member-{member.pk}"')[1].split("</li>")[0]


def test_the_header_links_stewards_to_the_desk(desk: CsrfClient, member: Member):
    assert reverse("desk:members") in desk.get(reverse("game_list")).text
    assert reverse("desk:members") not in logged_in_client(member).get(reverse("game_list")).text


def test_a_steward_sets_the_password_of_a_member_without_an_address(
    desk: CsrfClient, member: Member, settings
):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login_status("aoki", "wrong", client)
    url = reverse("desk:member_password", args=[member.pk])
    page = desk.post(
        url,
        {"new_password1": "short", "new_password2": "short"},
        headers={"accept-language": "en"},
    )
    assert page.status_code == 200 and "This password is too short." in page.text
    member.user.refresh_from_db()
    assert member.user.check_password("aoki-password")  # unchanged
    assert login_status("aoki", "aoki-password", client) == 429  # still locked out
    response = desk.post(
        url, {"new_password1": "Tile-Wall-2026", "new_password2": "Tile-Wall-2026"}
    )
    assert response.status_code == 302
    assert login_status("aoki", "Tile-Wall-2026", client) == 302  # the lockout went too


def test_only_a_superuser_changes_a_superusers_login(desk: CsrfClient, member: Member):
    member.user.is_superuser = True
    member.user.save()
    for url, data in [
        (reverse("desk:member_edit", args=[member.pk]), {**NEW, "username": "aoki"}),
        (reverse("desk:member_active", args=[member.pk]), {"active": "0"}),
        (
            reverse("desk:member_password", args=[member.pk]),
            {"new_password1": "Tile-Wall-2026", "new_password2": "Tile-Wall-2026"},
        ),
    ]:
        page = desk.post(url, data, headers={"accept-language": "en"})
        assert page.status_code == 200, url
        assert "Only a superuser changes the login of a superuser." in page.text
    member.refresh_from_db()
    member.user.refresh_from_db()
    assert member.active and member.user.is_active
    assert member.user.email == "" and member.display_name == "Aoki"
    assert member.user.check_password("aoki-password")


def edit(member: Member, **changes: str) -> dict[str, str]:
    """The desk's edit form for ``member`` as it stands, with ``changes``."""
    return {
        "username": member.user.get_username(),
        "display_name": member.display_name,
        "furigana": member.furigana,
        "email": member.user.email,
        "phone": member.phone,
        "steward": "on" if member.role == "steward" else "",
        "women_division": "",
        **changes,
    }


def test_the_steward_checkbox_sets_the_members_role(desk: CsrfClient, member: Member) -> None:
    response = desk.post(reverse("desk:member_edit", args=[member.pk]), edit(member, steward="on"))
    assert response.status_code == 302
    member.refresh_from_db()
    member.user.refresh_from_db()
    assert (member.role, member.user.is_staff) == ("steward", True)
    page = desk.get(reverse("desk:members"), headers={"accept-language": "en"})
    row = page.text.split(f'id="member-{member.pk}"')[1].split("</li>")[0]
    assert '<span class="desk-tag">Steward</span>' in row
    response = desk.post(reverse("desk:member_edit", args=[member.pk]), edit(member, steward=""))
    assert response.status_code == 302
    member.refresh_from_db()
    member.user.refresh_from_db()
    assert (member.role, member.user.is_staff) == ("member", False)


@pytest.fixture
def kita(member: Member) -> Club:
    """A second club, which Aoki belongs to as a steward (as "Aoki K.")."""
    club = Club.objects.create(slug="kita", name="Kita club")
    with club_scope(club):
        membership_create(member.user, club=club, display_name="Aoki K.", role=Member.Role.STEWARD)
    return club


def at(club: Club, path: str) -> str:
    """``path`` (a reversed address) as a page of ``club``: under its ``/c/<slug>/``."""
    return f"/c/{club.slug}{path}"


def test_deactivating_a_member_leaves_their_other_clubs_alone(
    desk: CsrfClient, member: Member, kita: Club, every_club: None
) -> None:
    home = member.club
    response = desk.post(at(home, reverse("desk:member_active", args=[member.pk])), {"active": "0"})
    assert response.status_code == 302
    member.refresh_from_db()
    member.user.refresh_from_db()
    there = Member.objects.get(club=kita, user=member.user)
    assert (member.active, there.active, there.role) == (False, True, "steward")
    # Still a member of Kita, they log in, and Kita's steward they stay.
    assert member.user.is_active and member.user.is_staff
    assert login_status("aoki", "aoki-password") == 302
    with club_scope(home):
        assert Member.for_user(User.objects.get(pk=member.user_id)) is None
        assert list(Member.objects.seatable().filter(user=member.user)) == []
    with club_scope(kita):
        assert Member.for_user(User.objects.get(pk=member.user_id)) == there
        assert list(Member.objects.seatable().filter(user=member.user)) == [there]
    page = desk.get(
        at(home, reverse("desk:member_edit", args=[member.pk])), headers={"accept-language": "en"}
    )
    assert "Deactivated in this club: offered no seat here." in page.text
    assert 'id="reactivate"' in page.text
    # Deactivated in Kita too, they have no club left: the login is refused.
    with club_scope(kita):
        steward_of_kita = membership_create(
            User.objects.create_user("kato", password="kato-password"),
            club=kita,
            display_name="Kato",
            role=Member.Role.STEWARD,
        )
    kita_desk = logged_in_client(steward_of_kita)
    response = kita_desk.post(
        at(kita, reverse("desk:member_active", args=[there.pk])), {"active": "0"}
    )
    assert response.status_code == 302
    member.user.refresh_from_db()
    assert not member.user.is_active and not member.user.is_staff
    assert login_status("aoki", "aoki-password") == 200


def test_a_club_steward_is_no_steward_of_another_club(
    desk: CsrfClient, staff_member: Member, member: Member, kita: Club, every_club: None
) -> None:
    home = staff_member.club
    there = Member.objects.get(club=kita)
    # Doi is no member of Kita: its pages, the desk among them, are not there for him.
    assert desk.get(at(kita, reverse("desk:members"))).status_code == 404
    # Aoki is Kita's steward: its desk is his.
    for_kita = logged_in_client(member)
    assert for_kita.get(at(kita, reverse("desk:members"))).status_code == 200
    # Kita's member is not found at the desk of Doi's club.
    assert desk.get(at(home, reverse("desk:member_edit", args=[there.pk]))).status_code == 404
    response = desk.post(at(home, reverse("desk:member_active", args=[there.pk])), {"active": "0"})
    assert response.status_code == 404
    there.refresh_from_db()
    assert there.active
