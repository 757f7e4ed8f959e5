"""Members and access: login, logout, password change, who sees what, create_member."""

import io
import re
import sys
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser, Permission, User
from django.core.management import CommandError, call_command, execute_from_command_line
from django.db import connections
from django.http.response import HttpResponseBase
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from clubsite.club_model import Club
from clubsite.models import Member
from meetings.models import phone_visible_to

ClientFor = Callable[[Member], Client]


def form_token(client: Client, path: str) -> str:
    """Fetch the page at ``path`` as a browser would and return its form's CSRF token."""
    response = client.get(path)
    assert response.status_code == 200
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.text)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def log_in(client: Client, username: str, password: str, next_path: str = "") -> HttpResponseBase:
    login_path = reverse("login") + (f"?next={next_path}" if next_path else "")
    token = form_token(client, login_path)
    data = {"username": username, "password": password, "csrfmiddlewaretoken": token}
    if next_path:
        data["next"] = next_path
    return client.post(reverse("login"), data)


def site_user(html: str) -> str:
    """The name the header shows for whoever is logged in."""
    match = re.search(r'<span class="site-user">(.*?)</span>', html, re.DOTALL)
    assert match, "no logged-in user in the header"
    return match.group(1)


# Access


# The home page answers a visitor with the club's public page (tests/test_club_public_page.py);
# a rules page the club does not publish (a new club publishes none) sends them to log in.
@pytest.mark.parametrize("path", ["/standings/", "/rulesets/makura-1.5/"])
def test_it_redirects_anonymous_visitors_to_the_login_page(
    db: None, client: Client, path: str
) -> None:
    response = client.get(path)

    assertRedirects(response, f"/accounts/login/?next={path}")


def test_it_keeps_the_admins_own_login(client: Client) -> None:
    response = client.get(reverse("admin:index"))

    assertRedirects(response, f"{reverse('admin:login')}?next={reverse('admin:index')}")


def test_it_lets_anonymous_visitors_switch_the_language(csrf_client: Client) -> None:
    token = form_token(csrf_client, reverse("login"))

    response = csrf_client.post(
        reverse("set_language"),
        {"language": "en", "next": reverse("login"), "csrfmiddlewaretoken": token},
    )

    assertRedirects(response, reverse("login"))
    assertContains(csrf_client.get(reverse("login")), "Log in")


# The login page


def test_it_renders_the_login_page_in_japanese_by_default(client: Client) -> None:
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assertContains(response, '<html lang="ja">')
    assertContains(response, "<h1>ログイン</h1>", html=True)
    assertContains(response, "ユーザー名")
    assertContains(response, "パスワード")
    assertNotContains(response, "Log in")


def test_it_renders_the_login_page_in_english_when_the_browser_asks(client: Client) -> None:
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200
    assertContains(response, '<html lang="en">')
    assertContains(response, "<h1>Log in</h1>", html=True)
    assertContains(response, "Username")
    assertNotContains(response, "ログイン")


def test_it_shows_no_account_controls_to_anonymous_visitors(client: Client) -> None:
    response = client.get(reverse("login"))

    assertNotContains(response, 'class="site-user"')
    assertNotContains(response, reverse("logout"))


# Logging in and out


def test_it_logs_a_member_in_and_goes_home(csrf_client: Client, member: Member) -> None:
    response = log_in(csrf_client, "aoki", "aoki-password")

    assertRedirects(response, reverse("game_list"))
    assert site_user(csrf_client.get(reverse("game_list")).text) == "Aoki"


def test_it_honours_next_after_login(csrf_client: Client, member: Member) -> None:
    detail = reverse("ruleset_detail", args=["makura-1.5"])

    response = log_in(csrf_client, "aoki", "aoki-password", next_path=detail)

    assertRedirects(response, detail)


def test_it_ignores_a_next_to_another_site(csrf_client: Client, member: Member) -> None:
    response = log_in(csrf_client, "aoki", "aoki-password", next_path="https://evil.example/")

    assertRedirects(response, reverse("game_list"))


def test_it_refuses_a_wrong_password(csrf_client: Client, member: Member) -> None:
    response = log_in(csrf_client, "aoki", "not-the-password")

    assert response.status_code == 200
    assertContains(response, "正しいユーザー名とパスワードを入力してください。")
    assertRedirects(csrf_client.get("/standings/"), "/accounts/login/?next=/standings/")


def test_it_refuses_a_login_without_csrf_token(csrf_client: Client, member: Member) -> None:
    response = csrf_client.post(reverse("login"), {"username": "aoki", "password": "aoki-password"})

    assert response.status_code == 403
    assertRedirects(csrf_client.get("/standings/"), "/accounts/login/?next=/standings/")


def test_it_sends_a_logged_in_member_from_the_login_page_home(
    client_for: ClientFor, member: Member
) -> None:
    response = client_for(member).get(reverse("login"))

    assertRedirects(response, reverse("game_list"))


def test_it_logs_out_by_post(client_for: ClientFor, member: Member) -> None:
    client = client_for(member)
    token = form_token(client, reverse("ruleset_list"))

    response = client.post(reverse("logout"), {"csrfmiddlewaretoken": token})

    assertRedirects(response, reverse("login"))
    assertRedirects(client.get("/standings/"), "/accounts/login/?next=/standings/")


def test_it_does_not_log_out_on_a_get(client_for: ClientFor, member: Member) -> None:
    client = client_for(member)

    response = client.get(reverse("logout"))

    assert response.status_code == 405
    assert client.get("/standings/").status_code == 200


# Changing the password


def test_it_changes_the_password(
    client_for: ClientFor, csrf_client: Client, member: Member
) -> None:
    client = client_for(member)
    token = form_token(client, reverse("password_change"))

    response = client.post(
        reverse("password_change"),
        {
            "old_password": "aoki-password",
            "new_password1": "tsumo-pinfu-dora2",
            "new_password2": "tsumo-pinfu-dora2",
            "csrfmiddlewaretoken": token,
        },
    )

    assertRedirects(response, reverse("password_change_done"))
    assertContains(client.get(reverse("password_change_done")), "パスワードを変更しました")
    # Still logged in on the phone that made the change.
    assert client.get("/").status_code == 200
    assert log_in(csrf_client, "aoki", "aoki-password").status_code == 200
    assertRedirects(log_in(csrf_client, "aoki", "tsumo-pinfu-dora2"), reverse("game_list"))


def test_it_refuses_a_password_change_with_the_wrong_old_password(
    client_for: ClientFor, member: Member
) -> None:
    client = client_for(member)
    token = form_token(client, reverse("password_change"))

    response = client.post(
        reverse("password_change"),
        {
            "old_password": "a-guess",
            "new_password1": "tsumo-pinfu-dora2",
            "new_password2": "tsumo-pinfu-dora2",
            "csrfmiddlewaretoken": token,
        },
    )

    assert response.status_code == 200
    assertContains(response, "元のパスワードが間違っています。")
    member.user.refresh_from_db()
    assert member.user.check_password("aoki-password")


def test_it_leaves_the_admins_password_change_page_alone(client: Client, staff: User) -> None:
    client.force_login(staff)

    response = client.get(reverse("admin:password_change"))

    assert response.status_code == 200
    assertContains(response, 'id="site-name"')
    assertNotContains(response, 'class="site-header"')


# Members and roles


def test_it_shows_the_members_display_name_in_the_header(
    client_for: ClientFor, member: Member
) -> None:
    response = client_for(member).get(reverse("ruleset_list"))

    assert site_user(response.text) == "Aoki"
    assertContains(response, f'href="{reverse("password_change")}"')
    assertContains(response, f'action="{reverse("logout")}" method="post"')
    assertNotContains(response, f'href="{reverse("admin:index")}"')


def test_it_links_staff_to_the_admin(client_for: ClientFor, staff_member: Member) -> None:
    response = client_for(staff_member).get(reverse("ruleset_list"))

    assert site_user(response.text) == "Doi"
    assertContains(response, f'href="{reverse("admin:index")}"')


def test_it_escapes_the_display_name(client_for: ClientFor, member: Member) -> None:
    member.display_name = "<b>Aoki</b>"
    member.save()

    response = client_for(member).get(reverse("ruleset_list"))

    assert site_user(response.text) == escape("<b>Aoki</b>")


def test_it_lets_a_user_without_a_profile_log_in(csrf_client: Client, staff: User) -> None:
    response = log_in(csrf_client, "staff", "staff-password")

    assertRedirects(response, reverse("game_list"))
    assert site_user(csrf_client.get(reverse("game_list")).text) == "staff"


def test_it_finds_the_member_for_a_user(member: Member, staff: User) -> None:
    user = User.objects.get(username="aoki")

    assert Member.for_user(user) == member
    assert Member.for_user(staff) is None
    assert Member.for_user(AnonymousUser()) is None


def test_it_shows_phone_numbers_to_staff_only(
    member: Member, other_member: Member, staff_member: Member, staff: User
) -> None:
    assert phone_visible_to(member, staff_member.user)
    assert phone_visible_to(member, staff)
    assert not phone_visible_to(member, other_member.user)
    assert not phone_visible_to(member, AnonymousUser())


def test_it_lets_staff_find_members_in_the_admin(
    client_for: ClientFor, staff_member: Member, member: Member, other_member: Member
) -> None:
    # Which stewards may do what in the admin is up to Django's permissions.
    staff_member.user.user_permissions.add(Permission.objects.get(codename="view_member"))

    response = client_for(staff_member).get(
        reverse("admin:clubsite_member_changelist"), {"q": "あお"}
    )

    assert response.status_code == 200
    assertContains(response, "Aoki")
    assertNotContains(response, "Baba")


# create_member


def test_it_creates_a_member_with_a_login(db: None) -> None:
    out = io.StringIO()

    call_command(
        "create_member",
        "fujii",
        "--name=藤井",
        "--furigana=ふじい",
        "--phone=080-0000-0000",
        "--staff",
        "--password=riichi-ippatsu-ura",
        stdout=out,
    )

    member = Member.objects.select_related("user").get(display_name="藤井")
    assert member.user.username == "fujii"
    assert (member.club.slug, member.role, member.active) == ("club", "steward", True)
    assert member.user.is_staff
    assert not member.user.is_superuser
    assert member.user.check_password("riichi-ippatsu-ura")
    assert (member.furigana, member.phone) == ("ふじい", "080-0000-0000")
    assert "'藤井'" in out.getvalue()


def test_it_refuses_a_username_already_a_member_of_the_club(member: Member) -> None:
    with pytest.raises(CommandError, match="user 'aoki' is a member of the club 'club'") as e:
        call_command("create_member", "aoki", "--name=Aoki 2", "--password=riichi-ippatsu-ura")

    assert e.value.returncode == 2
    assert not Member.objects.filter(display_name="Aoki 2").exists()
    assert member.user.check_password("aoki-password")


@pytest.fixture
def kita(db: None) -> Club:
    """A second club on the site."""
    return Club.objects.create(slug="kita", name="Kita club")


def test_it_needs_the_club_on_a_site_of_several(member: Member, kita: Club) -> None:
    with pytest.raises(CommandError, match=r"several clubs \(club, kita\).*--club SLUG") as e:
        call_command("create_member", "fujii", "--name=藤井", "--password=riichi-ippatsu-ura")

    assert e.value.returncode == 2
    assert not User.objects.filter(username="fujii").exists()
    assert Member.objects.count() == 1


def test_it_refuses_an_unknown_club(member: Member) -> None:
    with pytest.raises(CommandError, match="no club with the short name 'minami'") as e:
        call_command(
            "create_member",
            "fujii",
            "--name=藤井",
            "--password=riichi-ippatsu-ura",
            "--club=minami",
        )

    assert e.value.returncode == 2
    assert not User.objects.filter(username="fujii").exists()
    assert Member.objects.count() == 1


def test_its_exit_status_is_2_for_a_wrong_club(
    member: Member, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The system checks ask every database, the replica's too, which this test may not; and a
    # command run from the command line closes the connections at its end, the test's own
    # transaction's on PostgreSQL.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    argv = ["manage.py", "create_member", "fujii", "--name=藤井", "--password=x", "--club=nope"]
    with pytest.raises(SystemExit) as exit_:
        execute_from_command_line([*argv, "--skip-checks"])

    assert exit_.value.code == 2
    assert "There is no club with the short name 'nope'." in capsys.readouterr().err
    assert not User.objects.filter(username="fujii").exists()


def test_it_creates_a_member_of_the_club_named(
    member: Member, kita: Club, every_club: None
) -> None:
    out = io.StringIO()

    call_command(
        "create_member",
        "fujii",
        "--name=藤井",
        "--staff",
        "--password=riichi-ippatsu-ura",
        "--club=kita",
        stdout=out,
    )

    created = Member.objects.get(user__username="fujii")
    assert (created.club_id, created.display_name, created.role) == (kita.pk, "藤井", "steward")
    assert created.user.check_password("riichi-ippatsu-ura")
    assert "Created steward '藤井' of the club 'kita' with the username 'fujii'." in out.getvalue()


def test_an_existing_login_joins_another_club_as_the_same_person(
    member: Member, kita: Club, every_club: None
) -> None:
    out = io.StringIO()

    call_command(
        "create_member",
        "aoki",
        "--name=青木",
        "--furigana=あおき",
        "--password=another-password-1",
        "--club=kita",
        stdout=out,
    )

    there = Member.objects.get(club=kita)
    assert (there.user_id, there.display_name, there.furigana, there.role) == (
        member.user_id,
        "青木",
        "あおき",
        "member",
    )
    assert User.objects.count() == 1
    # The login's password is its own: the option is ignored, and the command says so.
    assert User.objects.get(username="aoki").check_password("aoki-password")
    assert "--password is ignored" in out.getvalue()
    assert "The user 'aoki' joined the club 'kita' as member '青木'." in out.getvalue()
    member.refresh_from_db()
    assert (member.club.slug, member.display_name) == ("club", "Aoki")


def test_a_display_name_is_the_clubs_own(member: Member, kita: Club, every_club: None) -> None:
    """Another club's "Aoki" is no obstacle; this club's is."""
    call_command(
        "create_member", "aoki2", "--name=Aoki", "--password=riichi-ippatsu-ura", "--club=kita"
    )
    with pytest.raises(CommandError, match="display name 'Aoki' is already taken in the club"):
        call_command(
            "create_member", "aoki3", "--name=Aoki", "--password=riichi-ippatsu-ura", "--club=kita"
        )

    assert sorted(Member.objects.values_list("club__slug", "user__username")) == [
        ("club", "aoki"),
        ("kita", "aoki2"),
    ]


def test_it_refuses_a_duplicate_display_name(member: Member) -> None:
    with pytest.raises(CommandError, match="display name 'Aoki' is already taken.*'aoki'"):
        call_command("create_member", "aoki2", "--name=Aoki", "--password=riichi-ippatsu-ura")

    assert not User.objects.filter(username="aoki2").exists()


def test_it_refuses_a_weak_password(db: None) -> None:
    with pytest.raises(CommandError, match="too short"):
        call_command("create_member", "fujii", "--name=藤井", "--password=ron")

    assert not User.objects.exists()


def test_it_needs_a_password_when_it_cannot_ask(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO())

    with pytest.raises(CommandError, match="--password"):
        call_command("create_member", "fujii", "--name=藤井")

    assert not User.objects.exists()


def test_it_asks_for_the_password_on_a_terminal(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", lambda prompt: "riichi-ippatsu-ura")

    call_command("create_member", "fujii", "--name=藤井", stdout=io.StringIO())

    assert User.objects.get(username="fujii").check_password("riichi-ippatsu-ura")
