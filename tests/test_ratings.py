"""Ratings (docs/ratings.md): OpenSkill per family, following what counts
through the ledger's games_counted signal and the task queue (immediate backend here)."""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from clubsite.models import Member
from ratings import updating
from ratings.display import MOVING, NEW, SETTLED, SETTLED_SIGMA, Shown, settled_games, shown
from ratings.model import Rating as ModelRating
from ratings.model import RatingModel
from ratings.models import RatedGame, Rating, RatingStep
from scoring.ledger import hanchan_confirm, hanchan_final_scores, hanchan_start, hanchan_void
from scoring.models import Hanchan
from scoring.standings import club_today
from tests.conftest import make_member
from tests.test_ledger_concurrency import at_once
from tests.test_tasks import run_worker, worker_process_state  # noqa: F401  (a fixture)

Capture = Callable[..., AbstractContextManager[Any]]
DAY = datetime.timedelta(days=1)


@pytest.fixture
def four(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    """Aoki, Baba, Chiba, Endo."""
    return [member, other_member, coordinator, outsider]


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Capture) -> Callable[[], Any]:
    """Run what the ledger's transactions leave for their commit (the ratings' task)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def play(
    players: list[Member],
    scores: list[int],
    played_on: datetime.date,
    commit: Callable[[], Any],
    *,
    steward: Member | None = None,
) -> Hanchan:
    """A game entered as final scores by the first player; counted at once when a steward
    enters it, else waiting for confirmation."""
    by = steward or players[0]
    with commit():
        game = hanchan_start(ruleset_id="makura-1.5", members=players, played_on=played_on, by=by)
        hanchan_final_scores(
            hanchan_id=game.pk,
            final_scores={"scores": scores},
            expected_version=game.version,
            by=by,
            steward=steward is not None,
            user_id=by.user_id,
        )
    game.refresh_from_db()
    return game


def confirm(game: Hanchan, steward: Member, commit: Callable[[], Any]) -> None:
    game.refresh_from_db()
    with commit():
        assert hanchan_confirm(
            hanchan_id=game.pk,
            expected_version=game.version,
            user_id=steward.user_id,
            by=steward,
            steward=True,
        )


def by_hand(games: list[tuple[list[Member], list[int]]]) -> dict[int, ModelRating]:
    """The ratings the model gives the games in order (placements from the scores)."""
    model = RatingModel()
    ratings: dict[int, ModelRating] = {}
    for players, scores in games:
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        placements = [order.index(i) + 1 for i in range(len(scores))]
        before = [ratings.get(p.pk) or model.new() for p in players]
        for p, r in zip(players, model.rate(before, placements), strict=True):
            ratings[p.pk] = r
    return ratings


def stored() -> dict[int, tuple[float, float, int]]:
    return {r.member_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(family=4)}


def assert_ratings(expected: dict[int, ModelRating]) -> None:
    got = stored()
    assert set(got) == set(expected)
    for pk, rating in expected.items():
        assert got[pk][0] == pytest.approx(rating.mu, abs=1e-9)
        assert got[pk][1] == pytest.approx(rating.sigma, abs=1e-9)


A = [40000, 30000, 20000, 10000]
B = [10000, 20000, 30000, 40000]
C = [25000, 35000, 15000, 25000]


def test_it_rates_a_game_when_it_counts_not_while_it_waits(
    four: list[Member], staff_member: Member, commit: Callable[[], Any]
) -> None:
    game = play(four, A, club_today(), commit)
    assert game.counted_version is None  # the others have not confirmed
    assert not Rating.objects.exists() and not RatedGame.objects.exists()
    confirm(game, staff_member, commit)
    assert_ratings(by_hand([(four, A)]))
    winner = Rating.objects.get(member=four[0], family=4)
    assert winner.games == 1 and winner.mu > 25 > Rating.objects.get(member=four[3]).mu
    steps = RatingStep.objects.filter(game__hanchan=game).order_by("placement")
    assert [s.member_id for s in steps] == [p.pk for p in four]
    assert RatedGame.objects.get(hanchan=game).counted_version == game.version


def test_it_rates_in_the_order_played_when_an_older_game_is_confirmed_late(
    four: list[Member], staff_member: Member, commit: Callable[[], Any]
) -> None:
    today = club_today()
    late = play(four, B, today - 2 * DAY, commit)  # waits: played two days ago
    play(four, A, today - 3 * DAY, commit, steward=staff_member)
    play(four, C, today - DAY, commit, steward=staff_member)
    assert_ratings(by_hand([(four, A), (four, C)]))
    confirm(late, staff_member, commit)
    # As if the three had been rated in the order played, not the order confirmed.
    assert_ratings(by_hand([(four, A), (four, B), (four, C)]))
    assert [g.hanchan.played_on for g in RatedGame.objects.order_by("played_on")] == [
        today - 3 * DAY,
        today - 2 * DAY,
        today - DAY,
    ]
    assert list(
        RatingStep.objects.filter(member=four[0])
        .order_by("games")
        .values_list("placement", flat=True)
    ) == [1, 4, 2]


def test_it_takes_a_counted_game_out_when_its_void_is_confirmed(
    four: list[Member], staff_member: Member, commit: Callable[[], Any]
) -> None:
    today = club_today()
    first = play(four, A, today - DAY, commit, steward=staff_member)
    play(four, C, today, commit, steward=staff_member)
    first.refresh_from_db()
    with commit():
        hanchan_void(
            hanchan_id=first.pk, expected_version=first.version, by=staff_member, steward=True
        )
    assert_ratings(by_hand([(four, C)]))
    assert not RatedGame.objects.filter(hanchan=first).exists()


def test_it_rebuilds_what_it_updated_game_by_game(
    four: list[Member], staff_member: Member, commit: Callable[[], Any]
) -> None:
    fifth = make_member("fujii", "Fujii", "ふじい")
    today = club_today()
    late = play(four, B, today - 4 * DAY, commit)
    play(four, A, today - 5 * DAY, commit, steward=staff_member)
    play([fifth, *four[1:]], C, today - 3 * DAY, commit, steward=staff_member)
    play(four, A, today - 2 * DAY, commit, steward=staff_member)
    confirm(late, staff_member, commit)
    incremental = stored()
    steps = sorted(RatingStep.objects.values_list("member_id", "games", "mu", "sigma"))
    out = io.StringIO()
    call_command("rating_rebuild", stdout=out)
    assert out.getvalue() == "4 games rated.\n"
    # The same floating-point operations in the same order: equal to the last bit.
    assert stored() == incremental
    assert sorted(RatingStep.objects.values_list("member_id", "games", "mu", "sigma")) == steps
    assert stored()[fifth.pk][2] == 1 and stored()[four[1].pk][2] == 4


@override_settings(RATING_PROVISIONAL_GAMES=2)
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Rating", "Provisional", "Rated games", "too few to say much", "Still moving"]),
        ("ja", ["レーティング", "暫定", "レーティング対象の半荘", "少なすぎて", "まだ動く"]),
    ],
)
def test_the_member_page_shows_one_number_and_how_sure_it_is_in_words(
    four: list[Member],
    staff_member: Member,
    commit: Callable[[], Any],
    client: Client,
    language: str,
    words: list[str],
) -> None:
    # Not "1.7 ±7.9" (the ordinal with sigma) but the rating, its games and
    # how sure it is in words, with a link to how it is worked out.
    play(four, A, club_today() - DAY, commit, steward=staff_member)
    client.force_login(four[0].user)
    client.cookies["django_language"] = language
    html = client.get(reverse("member_detail", args=[four[0].pk])).content.decode()
    section = html[html.index('id="member-rating"') :]
    section = section[: section.index("</section>")]
    rating = Rating.objects.get(member=four[0], family=4)
    assert f'<dd class="rating-value">{rating.mu:.1f}</dd>' in section
    assert f"{rating.ordinal:.1f}" not in section and "σ" not in section and "±" not in section
    assert "μ" not in section and "OpenSkill" not in section
    assert reverse("rating_list") + "#how-ratings-work" in section
    for word in words[:4]:
        assert word in section
    # Two games: no longer provisional under a threshold of 2, still moving.
    play(four, A, club_today(), commit, steward=staff_member)
    html = client.get(reverse("member_detail", args=[four[0].pk])).content.decode()
    section = html[html.index('id="member-rating"') : html.index('id="hands-head"')]
    assert words[1] not in section and words[4] in section
    assert 'id="rating-chart-4"' in section


def test_a_rating_is_new_then_still_moving_then_settled() -> None:
    # Provisional below the games threshold (10), whatever sigma; then by sigma against half a
    # newcomer's (8.33 / 2), which a table of newcomers reaches after 89 four-player games.
    assert pytest.approx(25 / 6) == SETTLED_SIGMA
    assert shown_of(mu=30.0, sigma=3.0, games=9).state == NEW
    assert shown_of(mu=30.0, sigma=4.2, games=10).state == MOVING
    assert shown_of(mu=30.0, sigma=4.1, games=10).state == SETTLED
    assert (settled_games(4), settled_games(3)) == (89, 71)


def shown_of(*, mu: float, sigma: float, games: int) -> Shown:
    return shown(Rating(mu=mu, sigma=sigma, games=games, family=4, member_id=1, club_id=1))


def test_only_members_with_few_games_are_provisional_and_unranked(
    four: list[Member], staff_member: Member, commit: Callable[[], Any], client: Client
) -> None:
    for day in range(3):
        play(four, A, club_today() - day * DAY, commit, steward=staff_member)
    client.force_login(four[0].user)
    client.cookies["django_language"] = "en"
    url = reverse("rating_list")
    html = client.get(url).content.decode()
    # 3 games each, the default threshold is 10: all four provisional, none ranked.
    assert "Provisional: fewer than 10 rated games" in html
    new = html[html.index('id="rating-new"') : html.index('id="how-ratings-work"')]
    assert all(p.display_name in new for p in four)
    assert 'class="months-table rating-list">' not in html
    with override_settings(RATING_PROVISIONAL_GAMES=3):
        html = client.get(url).content.decode()
    assert 'id="rating-new"' not in html
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    names = [p.display_name for p in four]
    assert sorted(names, key=body.index) == names  # Aoki won all three: first
    mus = [Rating.objects.get(member=p, family=4).mu for p in four]
    assert [f'<td class="num">{mu:.1f}</td>' in body for mu in mus] == [True] * 4
    assert body.count("Still moving") == 4  # 3 games: sigma far above half a newcomer's
    # The plain-words section the member page links to; the model's names only in details.
    how = html[html.index('id="how-ratings-work"') :]
    assert "Everyone starts at 25.0." in how and "after about 89 games" in how
    plain = how[: how.index("<details")]
    assert "μ" not in plain and "σ" not in plain and "OpenSkill" not in plain
    assert client.get(url + "?family=3").content.decode().count("No rated games yet.") == 1


def test_the_standings_link_to_the_ratings(member: Member, client: Client) -> None:
    client.force_login(member.user)
    assert reverse("rating_list") in client.get(reverse("standings")).content.decode()


def test_it_follows_many_games_at_once_in_slices(
    four: list[Member],
    staff_member: Member,
    commit: Callable[[], Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bulk import tells of many games at once: their ids are read in slices that SQLite's
    parameter limit takes (two at a time here), and the result is the order played."""
    today = club_today()
    games = [
        play(four, scores, today - day * DAY, commit, steward=staff_member)
        for day, scores in ((1, A), (4, B), (2, C), (3, A), (5, C))
    ]
    rebuilt = stored()
    RatedGame.objects.all().delete()
    Rating.objects.all().delete()
    monkeypatch.setattr(updating, "BATCH", 2)
    updating.follow([g.pk for g in games])
    assert stored() == rebuilt
    assert_ratings(by_hand([(four, C), (four, B), (four, A), (four, C), (four, A)]))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("worker_process_state")
def test_with_the_worker_the_rating_follows_when_the_worker_runs(
    four: list[Member], settings: Any
) -> None:
    """With the database backend the ledger's commit queues the task; the worker rates."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    game = hanchan_start(ruleset_id="makura-1.5", members=four, played_on=club_today(), by=None)
    hanchan_final_scores(
        hanchan_id=game.pk, final_scores={"scores": A}, expected_version=game.version, steward=True
    )
    queued = DBTaskResult.objects.get(status="READY")
    assert queued.args_kwargs["args"] == [[game.pk]]
    assert not Rating.objects.exists()
    run_worker()
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
    assert_ratings(by_hand([(four, A)]))


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_workers_at_once_rate_in_turn(four: list[Member], staff_member: Member) -> None:
    """Two workers each take some of the games at the same moment: the family's lock makes
    them rate in turn, and the result is the order played whoever came first."""
    today = club_today()
    no_commit = nullcontext
    games = [
        play(four, scores, today - day * DAY, no_commit, steward=staff_member)
        for day, scores in ((4, A), (3, B), (2, C), (1, A))
    ]
    rebuilt = stored()  # each game was rated as its import committed
    RatedGame.objects.all().delete()
    Rating.objects.all().delete()
    results = at_once(
        lambda: updating.follow([games[1].pk, games[3].pk]),
        lambda: updating.follow([games[0].pk, games[2].pk]),
    )
    assert results == [None, None]
    assert stored() == rebuilt
    assert RatedGame.objects.count() == 4
