"""The admin, read-only for the ledger and in the reader's language.

Only the ledger writes a game's counted version, final scores, status or date
(``scoring.ledger``): the admin shows them and takes no change, addition or deletion, not
even from a superuser. And a Japanese admin is Japanese: every model's name, every field it
shows and every app's name, the packages' (axes, django-tasks-db) and Django's gaps included.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib import admin
from django.contrib.admin.utils import label_for_field
from django.contrib.auth.models import Permission, User
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from clubsite.admin import permission_label
from clubsite.models import Member
from scoring.ledger import hanchan_final_scores, hanchan_start
from scoring.models import Hanchan, LedgerChange, OnlineGame, RulesetVersion, Seat

# Technical words that stay as they are in Japanese.
UNTRANSLATED = {"ID", "HTTP Accept"}


@pytest.fixture
def superuser(db: None) -> User:
    return User.objects.create_superuser("root", password="root-password")


@pytest.fixture
def root_client(superuser: User) -> Client:
    client = Client(enforce_csrf_checks=False)
    client.force_login(superuser)
    return client


@pytest.fixture
def game(member: Member, other_member: Member, coordinator: Member, staff_member: Member):
    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, coordinator, staff_member],
        played_on=datetime.date(2026, 11, 1),
        table_name="Table A",
    )
    hanchan_final_scores(
        hanchan_id=game.pk,
        final_scores={"scores": [40000, 30000, 20000, 10000]},
        expected_version=game.version,
        by=staff_member,
        steward=True,
    )
    game.refresh_from_db()
    return game


def test_the_game_page_shows_the_ledger_fields_as_text(root_client: Client, game: Hanchan):
    assert game.counted_version is not None and game.final_scores_only
    page = root_client.get(
        reverse("admin:scoring_hanchan_change", args=[game.pk]), headers={"accept-language": "en"}
    )
    assert page.status_code == 200
    text = page.text
    for name in ("counted_version", "final_scores_only", "played_on", "status", "version"):
        assert f'name="{name}"' not in text, name
    assert 'name="seats-0-final_score"' not in text
    assert "Counted version:" in text and "40000" in text
    assert 'name="_save"' not in text


def test_no_one_changes_adds_or_deletes_a_game_in_the_admin(root_client: Client, game: Hanchan):
    before = (game.counted_version, game.version, game.status, game.played_on)
    seats = list(Seat.objects.filter(hanchan=game).values_list("final_score", flat=True))
    change = reverse("admin:scoring_hanchan_change", args=[game.pk])
    response = root_client.post(
        change,
        {
            "counted_version": "99",
            "final_scores_only": "",
            "played_on": "2026-01-01",
            "table_name": "Moved",
            "seats-TOTAL_FORMS": "4",
            "seats-INITIAL_FORMS": "4",
            "seats-0-id": Seat.objects.filter(hanchan=game).first().pk,
            "seats-0-final_score": "99999",
            "_save": "Save",
        },
    )
    assert response.status_code == 403
    assert root_client.get(reverse("admin:scoring_hanchan_add")).status_code == 403
    delete = reverse("admin:scoring_hanchan_delete", args=[game.pk])
    assert root_client.post(delete, {"post": "yes"}).status_code == 403
    game.refresh_from_db()
    assert (game.counted_version, game.version, game.status, game.played_on) == before
    assert game.table_name == "Table A"
    assert list(Seat.objects.filter(hanchan=game).values_list("final_score", flat=True)) == seats


@pytest.mark.parametrize("model", [RulesetVersion, LedgerChange, OnlineGame, Hanchan])
def test_every_ledger_model_is_read_only(model, root_client: Client, superuser: User):
    model_admin = admin.site._registry[model]
    request = RequestFactory().get("/")
    request.user = superuser
    assert model_admin.has_view_permission(request)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)


def _shown_fields(model_admin: admin.ModelAdmin, request) -> list[str]:
    names = list(model_admin.get_list_display(request))
    names += [
        name
        for entry in model_admin.get_fields(request)
        for name in (entry if isinstance(entry, tuple) else (entry,))
    ]
    return [name for name in dict.fromkeys(names) if name not in ("pk", "__str__")]


def _label(model_admin: admin.ModelAdmin, name: str, form_fields: dict) -> str:
    """The label the admin shows for a column or field: its form field's label, else
    Django's own choice (:func:`label_for_field`: verbose name, display description)."""
    field = form_fields.get(name)
    if field is not None and field.label:
        return str(field.label)
    return str(label_for_field(name, model_admin.model, model_admin))


def _japanese(text: str) -> bool:
    return text in UNTRANSLATED or bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text))


def test_every_admin_name_is_japanese_in_japanese(superuser: User):
    request = RequestFactory().get("/")
    request.user = superuser
    english = []
    with translation.override("ja"):
        for model, model_admin in admin.site._registry.items():
            meta = model._meta
            for text in (meta.app_config.verbose_name, meta.verbose_name, meta.verbose_name_plural):
                if not _japanese(str(text)):
                    english.append(f"{meta.label}: {text}")
            form_fields = model_admin.get_form(request)().fields
            for name in _shown_fields(model_admin, request):
                label = _label(model_admin, name, form_fields)
                if not _japanese(label):
                    english.append(f"{meta.label}.{name}: {label}")
    assert english == [], "\n".join(english)


def test_the_japanese_admin_index_and_lists_read_japanese(root_client: Client, game: Hanchan):
    index = root_client.get(reverse("admin:index"), headers={"accept-language": "ja"}).text
    for words in ("Access attempts", "Change requests", "Notices", "Task Results", "Axes"):
        assert words not in index, words
    assert "ログイン試行" in index and "お知らせ" in index and "バックグラウンドのタスク" in index
    members = root_client.get(
        reverse("admin:clubsite_member_changelist"), headers={"accept-language": "ja"}
    ).text
    assert "- Select an option -" not in members and "- 選択してください -" in members
    games = root_client.get(
        reverse("admin:scoring_hanchan_changelist"), headers={"accept-language": "ja"}
    ).text
    assert "Filter by" not in games and "日付 で絞り込む" in games


def test_permissions_are_named_in_the_readers_language(root_client: Client, member: Member):
    add_member = Permission.objects.get(codename="add_member")
    with translation.override("ja"):
        assert permission_label(add_member) == "クラブサイト | メンバー | メンバーの追加"
    with translation.override("en"):
        assert permission_label(add_member) == "Club site | member | Can add member"
    page = root_client.get(
        reverse("admin:auth_user_change", args=[member.user.pk]),
        headers={"accept-language": "ja"},
    )
    assert "Can add" not in page.text and "Can view" not in page.text
    assert "例会 | 会場 | 会場の変更" in page.text
