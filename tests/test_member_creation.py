"""The one member-creation service (``clubsite.members``): a login and its membership,
written the same way by the desk, the admin, ``create_member``, the demo club and imports; an
existing login joins another club as the same person; the login's flags follow its
memberships."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.members import (
    NewMember,
    imported_member_create,
    imported_member_save,
    login_flags_sync,
    member_create,
    member_profile_create,
    members_create_many,
    membership_create,
)
from clubsite.models import Member, OnlineName


def test_it_creates_a_login_and_its_profile(db: None) -> None:
    member = member_create(
        username="fujii",
        display_name="藤井",
        password="riichi-ippatsu-ura",
        email="fujii@EXAMPLE.org",
        furigana="ふじい",
        phone="080-0000-0000",
        women_division=True,
    )

    member = Member.objects.select_related("user").get(pk=member.pk)
    assert member.user.username == "fujii"
    assert member.user.email == "fujii@example.org"
    assert member.user.check_password("riichi-ippatsu-ura")
    assert not member.user.is_staff and not member.user.is_superuser
    assert (member.display_name, member.furigana, member.phone) == (
        "藤井",
        "ふじい",
        "080-0000-0000",
    )
    assert member.women_division


def test_it_makes_a_steward_and_a_superuser_only_when_asked(db: None) -> None:
    steward = member_create(username="s", display_name="S", steward=True)
    owner = member_create(username="o", display_name="O", steward=True, superuser=True)

    assert (steward.user.is_staff, steward.user.is_superuser) == (True, False)
    assert (owner.user.is_staff, owner.user.is_superuser) == (True, True)
    assert (steward.role, owner.role) == ("steward", "steward")
    assert member_create(username="m", display_name="M").role == "member"


def test_it_leaves_a_login_without_a_password_unusable(db: None) -> None:
    member = member_create(username="nopass", display_name="No pass")

    assert not member.user.has_usable_password()


def test_it_writes_nothing_when_the_display_name_is_taken(member: Member) -> None:
    with pytest.raises(IntegrityError):
        member_create(username="aoki2", display_name="Aoki", password="riichi-ippatsu-ura")

    assert not User.objects.filter(username="aoki2").exists()
    assert Member.objects.count() == 1


def test_it_gives_an_existing_login_its_profile(db: None) -> None:
    user = User.objects.create_user("owner", password="owner-password", is_superuser=True)

    member = member_profile_create(user=user, display_name="Owner", phone="03-0000-0000")

    assert Member.objects.get(user=user) == member
    assert (member.display_name, member.phone) == ("Owner", "03-0000-0000")


def test_it_gives_an_imported_player_a_login_nobody_logs_in_with(db: None) -> None:
    first = imported_member_create(display_name="NoName (2)")
    second = imported_member_create(display_name="傍若無人51")

    for member in (first, second):
        assert re.fullmatch(r"imported-[0-9a-f]{12}", member.user.username)
        assert not member.user.has_usable_password()
        assert not member.user.is_staff
    assert first.user.username != second.user.username
    assert [first.display_name, second.display_name] == ["NoName (2)", "傍若無人51"]


def test_it_saves_an_imported_players_profile_as_that_same_object(db: None) -> None:
    built = Member(display_name="ロン太郎")

    saved = imported_member_save(built)

    assert saved is built and built.pk is not None
    assert re.fullmatch(r"imported-[0-9a-f]{12}", built.user.username)
    assert not built.user.has_usable_password()
    assert Member.objects.get(pk=built.pk).display_name == "ロン太郎"
    with pytest.raises(ValueError, match="saved already"):
        imported_member_save(built)
    assert Member.objects.count() == 1


def test_it_creates_many_members_at_once_in_order(db: None) -> None:
    created = members_create_many(
        new=[
            NewMember(
                username="history-1-0001", display_name="佐藤 一郎", furigana="さとう いちろう"
            ),
            NewMember(username="history-1-0002", display_name="鈴木 花子"),
        ]
    )

    assert [m.display_name for m in created] == ["佐藤 一郎", "鈴木 花子"]
    stored = list(Member.objects.select_related("user").order_by("pk"))
    assert [(m.user.username, m.display_name, m.furigana) for m in stored] == [
        ("history-1-0001", "佐藤 一郎", "さとう いちろう"),
        ("history-1-0002", "鈴木 花子", ""),
    ]
    assert not any(m.user.has_usable_password() or m.user.is_staff for m in stored)


def test_it_creates_none_of_many_when_one_name_is_taken(member: Member) -> None:
    with pytest.raises(IntegrityError):
        members_create_many(
            new=[
                NewMember(username="history-1-0001", display_name="Fresh"),
                NewMember(username="history-1-0002", display_name="Aoki"),
            ]
        )

    assert list(Member.objects.values_list("display_name", flat=True)) == ["Aoki"]
    assert not User.objects.filter(username__startswith="history-").exists()


def test_the_desk_adds_a_member_through_the_service(staff_member: Member) -> None:
    client = Client()
    client.force_login(staff_member.user)
    with mock.patch("clubsite.desk.members.member_create", wraps=member_create) as spy:
        response = client.post(
            reverse("desk:member_new"),
            {
                "username": "fujii",
                "display_name": "藤井",
                "furigana": "ふじい",
                "email": "fujii@example.org",
                "phone": "",
            },
        )

    assert response.status_code == 302
    assert spy.call_count == 1
    member = Member.objects.select_related("user").get(display_name="藤井")
    assert member.user.email == "fujii@example.org" and not member.user.has_usable_password()


def test_the_admin_adds_a_profile_through_the_service(db: None) -> None:
    owner = User.objects.create_superuser("owner", password="owner-password")
    login = User.objects.create_user("late", password="late-password")
    client = Client()
    client.force_login(owner)
    with mock.patch("clubsite.admin.member_profile_create", wraps=member_profile_create) as spy:
        response = client.post(
            reverse("admin:clubsite_member_add"),
            {
                "user": login.pk,
                "display_name": "Late",
                "furigana": "れいと",
                "phone": "",
                "role": "steward",
                "active": "on",
                "online_names-TOTAL_FORMS": "1",
                "online_names-INITIAL_FORMS": "0",
                "online_names-MIN_NUM_FORMS": "0",
                "online_names-MAX_NUM_FORMS": "1000",
                "online_names-0-service": "tenhou",
                "online_names-0-name": "late-on-tenhou",
            },
        )

    assert response.status_code == 302, response.content.decode()[:2000]
    assert spy.call_count == 1
    member = Member.objects.get(user=login)
    assert (member.display_name, member.furigana, member.role) == ("Late", "れいと", "steward")
    login.refresh_from_db()
    assert login.is_staff  # a steward's login opens the admin
    # The inline's online name is saved onto the profile the service wrote.
    assert list(OnlineName.objects.values_list("member_id", "name")) == [
        (member.pk, "late-on-tenhou")
    ]


def test_the_admin_changes_a_profile_as_before(member: Member) -> None:
    owner = User.objects.create_superuser("owner", password="owner-password")
    client = Client()
    client.force_login(owner)
    with mock.patch("clubsite.admin.member_profile_create") as spy:
        response = client.post(
            reverse("admin:clubsite_member_change", args=[member.pk]),
            {
                "user": member.user_id,
                "display_name": "Aoki Renamed",
                "furigana": "あおき",
                "phone": member.phone,
                "role": "member",
                "active": "on",
                "online_names-TOTAL_FORMS": "0",
                "online_names-INITIAL_FORMS": "0",
                "online_names-MIN_NUM_FORMS": "0",
                "online_names-MAX_NUM_FORMS": "1000",
            },
        )

    assert response.status_code == 302
    assert spy.call_count == 0
    member.refresh_from_db()
    assert member.display_name == "Aoki Renamed"
    assert Member.objects.count() == 1


def test_an_existing_login_joins_another_club_as_the_same_person(
    member: Member, every_club: None
) -> None:
    kita = Club.objects.create(slug="kita", name="Kita club")

    there = membership_create(
        member.user, club=kita, display_name="Aoki", furigana="あおき", role="steward"
    )

    assert there.user_id == member.user_id and there.pk != member.pk
    assert (there.club_id, there.display_name, there.role, there.active) == (
        kita.pk,
        "Aoki",
        "steward",
        True,
    )
    assert sorted(member.user.memberships.values_list("club__slug", flat=True)) == [
        "club",
        "kita",
    ]
    assert User.objects.count() == 1
    with club_scope(kita):
        assert Member.for_user(User.objects.get(pk=member.user_id)) == there
    assert Member.for_user(User.objects.get(pk=member.user_id)) == member


def test_a_login_is_a_member_of_a_club_once(member: Member) -> None:
    with pytest.raises(IntegrityError):
        membership_create(member.user, club=current_club(), display_name="Aoki again")

    assert list(Member.objects.values_list("display_name", flat=True)) == ["Aoki"]


def test_an_unknown_role_is_refused(member: Member) -> None:
    kita = Club.objects.create(slug="kita", name="Kita club")

    with pytest.raises(ValueError, match="no such role: 'owner'"):
        membership_create(member.user, club=kita, display_name="Aoki", role="owner")

    assert Member.objects.filter(club=kita).count() == 0


def test_the_logins_flags_follow_its_memberships(member: Member, every_club: None) -> None:
    kita = Club.objects.create(slug="kita", name="Kita club")
    there = membership_create(member.user, club=kita, display_name="Aoki", role="steward")
    user = User.objects.get(pk=member.user_id)
    assert (user.is_active, user.is_staff) == (True, True)

    Member.objects.filter(pk=there.pk).update(active=False)
    login_flags_sync(user)
    user.refresh_from_db()
    assert (user.is_active, user.is_staff) == (True, False)  # still a member here

    Member.objects.filter(pk=member.pk).update(active=False)
    login_flags_sync(user)
    user.refresh_from_db()
    assert (user.is_active, user.is_staff) == (False, False)  # no club left


def test_a_login_without_memberships_keeps_its_flags(db: None) -> None:
    owner = User.objects.create_superuser("owner", password="owner-password")
    staff = User.objects.create_user("helper", password="helper-password", is_staff=True)

    login_flags_sync(owner)
    login_flags_sync(staff)

    owner.refresh_from_db()
    staff.refresh_from_db()
    assert (owner.is_active, owner.is_staff, staff.is_active, staff.is_staff) == (
        True,
        True,
        True,
        True,
    )
    # A superuser who is a plain member keeps the admin: their staff flag stays.
    member_profile_create(user=owner, display_name="Owner")
    owner.refresh_from_db()
    assert owner.is_staff and owner.is_superuser


def test_the_admin_refuses_a_second_membership_in_the_club(member: Member) -> None:
    owner = User.objects.create_superuser("owner", password="owner-password")
    client = Client()
    client.force_login(owner)

    response = client.post(
        reverse("admin:clubsite_member_add"),
        {
            "user": member.user_id,
            "display_name": "Aoki again",
            "furigana": "",
            "phone": "",
            "role": "member",
            "active": "on",
            "online_names-TOTAL_FORMS": "0",
            "online_names-INITIAL_FORMS": "0",
            "online_names-MIN_NUM_FORMS": "0",
            "online_names-MAX_NUM_FORMS": "1000",
        },
        headers={"accept-language": "en"},
    )

    assert response.status_code == 200
    assert "This login is a member of the club already." in response.content.decode()
    assert list(Member.objects.values_list("display_name", flat=True)) == ["Aoki"]
