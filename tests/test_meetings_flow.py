"""The meetup state machine of rules-spec §5.2 (T1–T12) through ``meetings.services``: every
transition allowed for whom it belongs to and refused for everyone else and in every wrong
state, the notice each one writes and the e-mails it sends, in each recipient's language.

Personas: Chiba (``coordinator``) calls for players and plays; Aoki (``member``), Baba
(``other_member``) and Fujii apply in that order, Goto after them; Doi (``staff_member``) is a
steward; Endo (``outsider``) has nothing to do with the meetup.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db.models import F
from django.utils import translation
from pytest_django import DjangoCaptureOnCommitCallbacks

from clubsite.models import Member
from meetings import services
from meetings.models import (
    Application,
    ChangeRequest,
    Meetup,
    MeetupProfile,
    Notice,
    State,
    Venue,
)
from meetings.services import MeetupError
from scoring.models import Hanchan
from tests.test_meetings_support import (
    apply,
    confirmed,
    day,
    finished_game,
    fresh,
    mail_to,
    mail_to_list,
    more_members,
    post,
    provisional,
    seat_of,
    with_email,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fujii(db: None) -> Member:
    return more_members("fujii")[0]


@pytest.fixture
def goto(db: None) -> Member:
    return more_members("goto")[0]


@pytest.fixture
def players(member: Member, other_member: Member, fujii: Member, goto: Member) -> list[Member]:
    """Four applicants besides the coordinator, in order of arrival."""
    return [member, other_member, fujii, goto]


@pytest.fixture
def everyone(
    players: list[Member], coordinator: Member, staff_member: Member, outsider: Member
) -> list[Member]:
    with_email(*players, coordinator, staff_member, outsider)
    return [*players, coordinator, staff_member, outsider]


Run = Callable[[Callable[[], object]], object]


@pytest.fixture
def send_mail(django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks) -> Run:
    """Run a service and the e-mails it schedules for after the commit."""

    def run(change: Callable[[], object]) -> object:
        with django_capture_on_commit_callbacks(execute=True):
            return change()

    return run


def notices(meetup: Meetup) -> list[str]:
    """The meetup's notice kinds, oldest first."""
    return list(meetup.notices.order_by("created_at", "pk").values_list("kind", flat=True))


def last_notice(meetup: Meetup) -> Notice:
    notice = meetup.notices.order_by("-pk").first()
    assert notice is not None
    return notice


def snapshot(meetup: Meetup) -> tuple[object, ...]:
    """Everything a refused action must leave as it was."""
    meetup = fresh(meetup)
    return (
        meetup.state,
        meetup.date,
        meetup.start_time,
        meetup.tables,
        meetup.notices.count(),
        ChangeRequest.objects.filter(meetup=meetup).count(),
        sorted(
            Application.objects.filter(meetup=meetup).values_list(
                "member_id", "seated", "withdrawn_at", "confirmed_at"
            )
        ),
    )


def assert_refused(
    meetup: Meetup, change: Callable[[], object], *, forbidden: bool, message: str = ""
) -> MeetupError:
    before = snapshot(meetup)
    outbox = len(mail.outbox)
    # In English, for the messages' sake; they are in the active language.
    with translation.override("en"), pytest.raises(MeetupError) as caught:
        change()
    assert caught.value.forbidden is forbidden
    assert message in str(caught.value)
    assert snapshot(meetup) == before
    assert len(mail.outbox) == outbox
    return caught.value


def _main_venue() -> Venue:
    return Venue.objects.get(role="main")


# T1: a call for players


def test_it_lets_any_member_call_for_players_and_makes_them_coordinator(
    everyone: list[Member], coordinator: Member, send_mail: Run
) -> None:
    meetup = send_mail(lambda: post(coordinator, days=(7, 8)))
    assert isinstance(meetup, Meetup)

    meetup = fresh(meetup)
    assert meetup.coordinator == coordinator
    assert meetup.state == State.RECRUITING
    assert meetup.days() == [day(7), day(8)]
    assert meetup.start_time.strftime("%H:%M") == "19:00"
    assert meetup.seats_per_table == 4
    assert [a.member for a in meetup.applications_in_order()] == [coordinator]
    assert notices(meetup) == ["posted"]
    # Only the list hears of a new call: in Japanese, "X日、Y日面子募集".
    (message,) = mail.outbox
    assert message.to == ["club-list@example.org"]
    assert "面子募集" in message.subject
    assert "ビック" in message.subject


def test_it_takes_the_seats_per_table_from_the_ruleset(coordinator: Member) -> None:
    meetup = post(coordinator, ruleset_id="fuji-sanma")

    assert meetup.seats_per_table == 3


def test_it_lets_the_coordinator_call_without_playing(coordinator: Member) -> None:
    meetup = fresh(post(coordinator, plays=False))

    assert meetup.applications_in_order() == []


def test_it_refuses_a_call_from_an_account_without_a_member_profile(staff: User) -> None:
    with pytest.raises(MeetupError) as caught:
        services.meetup_post(
            by=staff,
            dates=[day(3)],
            venue=_main_venue(),
            ruleset_id="makura-1.5",
        )

    assert caught.value.forbidden
    assert not Meetup.objects.exists()


@pytest.mark.parametrize(
    ("dates", "ruleset_id", "tables"),
    [
        ([], "makura-1.5", 1),
        ([-1, 3], "makura-1.5", 1),
        ([3], "no-such-rules", 1),
        ([3], "makura-1.5", 0),
    ],
)
def test_it_refuses_a_call_without_future_dates_known_rules_or_a_table(
    coordinator: Member, dates: list[int], ruleset_id: str, tables: int
) -> None:
    with pytest.raises(MeetupError):
        services.meetup_post(
            by=coordinator.user,
            dates=[day(offset) for offset in dates],
            venue=_main_venue(),
            ruleset_id=ruleset_id,
            tables=tables,
        )

    assert not Meetup.objects.exists()


# T2, T3: applications and withdrawals while recruiting


def test_it_takes_applications_first_come_first_served(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    meetup = post(coordinator)
    member = players[0]

    send_mail(lambda: services.meetup_apply(meetup_id=meetup.pk, by=member.user))
    meetup = apply(meetup, *players[1:])

    assert [a.member for a in meetup.applications_in_order()] == [coordinator, *players]
    assert meetup.state == State.RECRUITING
    assert notices(meetup) == ["posted", "applied", "applied", "applied", "applied"]
    # The coordinator and the list hear of it (on the list, so everyone sees how it stands).
    assert [m.subject for m in mail_to(mail.outbox, coordinator)] == [
        "[麻雀クラブ] Aokiさんが参加を希望しています。"
    ]
    assert len(mail_to_list(mail.outbox)) == 1
    assert not mail_to(mail.outbox, member)


def test_it_records_which_candidate_dates_an_applicant_can_make(
    coordinator: Member, member: Member
) -> None:
    meetup = apply(post(coordinator, days=(7, 8)), member, days=[8])

    application = meetup.application_of(member)
    assert application is not None
    assert application.available_days() == [day(8)]
    assert not application.can_make(day(7))


def test_it_refuses_a_date_that_is_not_a_candidate(coordinator: Member, member: Member) -> None:
    meetup = post(coordinator, days=(7, 8))

    assert_refused(
        meetup,
        lambda: services.meetup_apply(meetup_id=meetup.pk, by=member.user, dates=[day(9)]),
        forbidden=False,
    )


def test_it_refuses_applying_twice(coordinator: Member, member: Member) -> None:
    meetup = apply(post(coordinator), member)

    assert_refused(
        meetup,
        lambda: services.meetup_apply(meetup_id=meetup.pk, by=member.user),
        forbidden=False,
        message="already applied",
    )


def test_it_explains_a_refusal_in_the_active_language(coordinator: Member, member: Member) -> None:
    meetup = apply(post(coordinator), member)

    with translation.override("ja"), pytest.raises(MeetupError) as caught:
        services.meetup_confirm(meetup_id=meetup.pk, by=member.user)

    assert str(caught.value) == "確認するのはメンバーに入った人だけです。"


def test_it_refuses_applications_from_accounts_without_a_profile(
    coordinator: Member, staff: User
) -> None:
    meetup = post(coordinator)

    assert_refused(
        meetup, lambda: services.meetup_apply(meetup_id=meetup.pk, by=staff), forbidden=True
    )


def test_it_lets_an_applicant_withdraw_while_recruiting(
    everyone: list[Member],
    coordinator: Member,
    member: Member,
    other_member: Member,
    send_mail: Run,
) -> None:
    meetup = apply(post(coordinator), member, other_member)

    send_mail(lambda: services.meetup_withdraw(meetup_id=meetup.pk, by=member.user))

    meetup = fresh(meetup)
    assert [a.member for a in meetup.applications_in_order()] == [coordinator, other_member]
    assert last_notice(meetup).kind == "withdrew"
    assert len(mail_to(mail.outbox, coordinator)) == 1


def test_it_puts_an_applicant_who_comes_back_at_the_end_of_the_queue(
    coordinator: Member, member: Member, other_member: Member
) -> None:
    meetup = apply(post(coordinator), member, other_member)
    services.meetup_withdraw(meetup_id=meetup.pk, by=member.user)

    meetup = apply(meetup, member)

    assert [a.member for a in meetup.applications_in_order()] == [coordinator, other_member, member]


def test_it_refuses_a_withdrawal_from_someone_who_did_not_apply(
    coordinator: Member, member: Member, outsider: Member
) -> None:
    meetup = apply(post(coordinator), member)

    assert_refused(
        meetup,
        lambda: services.meetup_withdraw(meetup_id=meetup.pk, by=outsider.user),
        forbidden=True,
    )


# T4: the provisional line-up


def test_it_declares_the_first_applicants_who_can_make_the_date(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    member, other_member, fujii, goto = players
    meetup = apply(post(coordinator, days=(7, 8)), member)
    meetup = apply(meetup, other_member, days=[8])  # cannot make day 7
    meetup = apply(meetup, fujii, goto)

    send_mail(
        lambda: services.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day(7))
    )

    meetup = fresh(meetup)
    assert meetup.state == State.PROVISIONAL
    assert meetup.date == day(7)
    assert [a.member for a in meetup.lineup()] == [coordinator, member, fujii, goto]
    assert [a.member for a in meetup.waiting()] == [other_member]
    # The other candidate date is closed.
    assert meetup.open_dates() == []
    assert meetup.days() == [day(7)]
    # The coordinator declared it, so counts as confirmed; the others are asked.
    assert [a.confirmed_at is not None for a in meetup.lineup()] == [True, False, False, False]
    notice = last_notice(meetup)
    assert notice.kind == "declared"
    assert notice.params["names"] == ["Chiba", "Aoki", "Fujii", "Goto"]
    # "X日成立、メンバーA、B、C、D — 確認をお願いします", to everyone who applied.
    (to_aoki,) = mail_to(mail.outbox, member)
    assert "成立、メンバーChiba、Aoki、Fujii、Goto — 確認をお願いします" in to_aoki.subject
    assert "確認をお願いします" in to_aoki.body
    assert len(mail_to(mail.outbox, other_member)) == 1
    assert len(mail_to_list(mail.outbox)) == 1


def test_it_lets_the_coordinator_pick_the_line_up(
    coordinator: Member, players: list[Member]
) -> None:
    member, other_member, fujii, goto = players
    meetup = apply(post(coordinator), *players)

    services.meetup_declare(
        meetup_id=meetup.pk,
        by=coordinator.user,
        date=day(7),
        members=[coordinator, other_member, fujii, goto],
    )

    meetup = fresh(meetup)
    assert [a.member for a in meetup.lineup()] == [coordinator, other_member, fujii, goto]
    assert [a.member for a in meetup.waiting()] == [member]


def test_it_declares_more_than_one_table(coordinator: Member, players: list[Member]) -> None:
    extra = more_members("harada", "imai", "kanda")
    meetup = apply(post(coordinator, tables=2), *players, *extra)

    services.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day(7))

    meetup = fresh(meetup)
    assert meetup.tables == 2
    assert meetup.seat_count == 8
    assert len(meetup.lineup()) == 8


def test_it_refuses_a_line_up_that_is_not_whole_tables(
    coordinator: Member, players: list[Member]
) -> None:
    member, other_member, fujii, goto = players
    meetup = apply(post(coordinator), *players)

    assert_refused(
        meetup,
        lambda: services.meetup_declare(
            meetup_id=meetup.pk,
            by=coordinator.user,
            date=day(7),
            members=[member, other_member, fujii],
        ),
        forbidden=False,
        message="whole tables",
    )


def test_it_refuses_a_line_up_with_someone_who_did_not_apply(
    coordinator: Member, players: list[Member], outsider: Member
) -> None:
    member, other_member, fujii, _goto = players
    meetup = apply(post(coordinator), *players)

    assert_refused(
        meetup,
        lambda: services.meetup_declare(
            meetup_id=meetup.pk,
            by=coordinator.user,
            date=day(7),
            members=[member, other_member, fujii, outsider],
        ),
        forbidden=False,
        message="Endo",
    )


def test_it_refuses_to_declare_with_too_few_applicants(coordinator: Member, member: Member) -> None:
    meetup = apply(post(coordinator), member)

    assert_refused(
        meetup,
        lambda: services.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day(7)),
        forbidden=False,
    )


def test_it_lets_only_the_coordinator_or_a_steward_declare(
    coordinator: Member, players: list[Member], staff_member: Member, outsider: Member
) -> None:
    meetup = apply(post(coordinator), *players)
    for who in (players[0], outsider):
        assert_refused(
            meetup,
            lambda who=who: services.meetup_declare(meetup_id=meetup.pk, by=who.user, date=day(7)),
            forbidden=True,
            message="coordinator",
        )

    services.meetup_declare(meetup_id=meetup.pk, by=staff_member.user, date=day(7))

    assert fresh(meetup).state == State.PROVISIONAL


def test_it_refuses_to_declare_twice(coordinator: Member, players: list[Member]) -> None:
    meetup = provisional(coordinator, players)

    assert_refused(
        meetup,
        lambda: services.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day(8)),
        forbidden=False,
    )


def test_it_puts_later_applicants_on_the_waiting_list(
    everyone: list[Member],
    coordinator: Member,
    players: list[Member],
    outsider: Member,
    send_mail: Run,
) -> None:
    meetup = provisional(coordinator, players[:3])

    send_mail(lambda: services.meetup_apply(meetup_id=meetup.pk, by=outsider.user))

    meetup = fresh(meetup)
    assert meetup.state == State.PROVISIONAL
    assert [a.member for a in meetup.waiting()] == [outsider]
    assert seat_of(meetup, outsider).can_make(day(7))
    assert last_notice(meetup).params == {"name": "Endo", "waiting": True}


# T5, T6: confirmations and the final notice


def test_it_takes_confirmations_from_the_line_up(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    meetup = provisional(coordinator, players)
    member = players[0]

    send_mail(lambda: services.meetup_confirm(meetup_id=meetup.pk, by=member.user))

    meetup = fresh(meetup)
    assert seat_of(meetup, member).confirmed_at is not None
    assert meetup.state == State.PROVISIONAL
    assert last_notice(meetup).kind == "confirmed"
    (to_coordinator,) = mail_to(mail.outbox, coordinator)
    assert to_coordinator.subject == "[麻雀クラブ] Aokiさんが確認しました。"


def test_it_says_when_everyone_has_confirmed(coordinator: Member, players: list[Member]) -> None:
    meetup = provisional(coordinator, players)
    for who in players[:3]:
        services.meetup_confirm(meetup_id=meetup.pk, by=who.user)

    notice = last_notice(meetup)
    assert notice.params == {"name": "Fujii", "everyone": True}
    assert fresh(meetup).everyone_confirmed()


@pytest.mark.parametrize("who", ["goto", "outsider", "staff_member"])
def test_it_refuses_confirmations_from_outside_the_line_up(
    coordinator: Member, players: list[Member], outsider: Member, staff_member: Member, who: str
) -> None:
    meetup = provisional(coordinator, players)  # Goto waits
    person = {"goto": players[3], "outsider": outsider, "staff_member": staff_member}[who]

    assert_refused(
        meetup,
        lambda: services.meetup_confirm(meetup_id=meetup.pk, by=person.user),
        forbidden=True,
        message="line-up",
    )


def test_it_refuses_a_second_confirmation(coordinator: Member, players: list[Member]) -> None:
    meetup = provisional(coordinator, players)
    services.meetup_confirm(meetup_id=meetup.pk, by=players[0].user)

    assert_refused(
        meetup,
        lambda: services.meetup_confirm(meetup_id=meetup.pk, by=players[0].user),
        forbidden=False,
    )


def test_it_refuses_the_final_notice_until_everyone_has_confirmed(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)
    services.meetup_confirm(meetup_id=meetup.pk, by=players[0].user)

    assert_refused(
        meetup,
        lambda: services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user),
        forbidden=False,
        message="confirmed",
    )


def test_it_posts_the_final_notice_with_date_time_and_venue(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    meetup = provisional(coordinator, players)
    for who in players[:3]:
        services.meetup_confirm(meetup_id=meetup.pk, by=who.user)

    send_mail(lambda: services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user))

    meetup = fresh(meetup)
    assert meetup.state == State.CONFIRMED
    notice = last_notice(meetup)
    assert notice.kind == "finalized"
    # "X日１９時ビック": to everyone who applied (the waiting list too) and to the list.
    (to_aoki,) = mail_to(mail.outbox, players[0])
    assert "本成立" in to_aoki.subject
    assert "19:00" in to_aoki.subject and "ビック" in to_aoki.subject
    assert len(mail_to(mail.outbox, players[3])) == 1
    assert len(mail_to_list(mail.outbox)) == 1


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_it_lets_only_the_coordinator_or_a_steward_post_the_final_notice(
    coordinator: Member,
    players: list[Member],
    member: Member,
    outsider: Member,
    staff_member: Member,
    who: str,
) -> None:
    meetup = provisional(coordinator, players)
    for person in players[:3]:
        services.meetup_confirm(meetup_id=meetup.pk, by=person.user)
    person = {"member": member, "outsider": outsider}[who]

    assert_refused(
        meetup,
        lambda: services.meetup_finalize(meetup_id=meetup.pk, by=person.user),
        forbidden=True,
    )
    services.meetup_finalize(meetup_id=meetup.pk, by=staff_member.user)
    assert fresh(meetup).state == State.CONFIRMED


# T-08: a withdrawal while provisional reopens the seat


def test_it_offers_a_seat_given_up_while_provisional_to_the_next_applicant(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    member, other_member, fujii, goto = players
    meetup = provisional(coordinator, players)
    services.meetup_confirm(meetup_id=meetup.pk, by=other_member.user)

    send_mail(lambda: services.meetup_withdraw(meetup_id=meetup.pk, by=member.user))

    meetup = fresh(meetup)
    assert meetup.state == State.PROVISIONAL
    assert [a.member for a in meetup.lineup()] == [coordinator, other_member, fujii, goto]
    # Baba's confirmation stands (nothing about the night changed); Goto is asked.
    goto_seat = meetup.application_of(goto)
    assert goto_seat is not None and goto_seat.awaiting_confirmation()
    assert seat_of(meetup, other_member).confirmed_at is not None
    notice = last_notice(meetup)
    assert notice.kind == "withdrew"
    assert notice.params["offered_to"] == ["Goto"]
    (to_goto,) = mail_to(mail.outbox, goto)
    assert "Goto" in to_goto.subject and "確認をお願いします" in to_goto.subject


def test_it_goes_back_to_recruiting_when_nobody_waits_for_the_seat(
    coordinator: Member, players: list[Member], outsider: Member
) -> None:
    member = players[0]
    meetup = provisional(coordinator, players[:3])

    services.meetup_withdraw(meetup_id=meetup.pk, by=member.user)

    meetup = fresh(meetup)
    assert meetup.state == State.RECRUITING
    assert meetup.date == day(7)
    assert meetup.open_seats() == 1
    assert last_notice(meetup).params["open_seats"] == 1
    # The next applicant takes the open seat and is asked to confirm: provisional again.
    services.meetup_apply(meetup_id=meetup.pk, by=outsider.user)
    meetup = fresh(meetup)
    assert meetup.state == State.PROVISIONAL
    assert seat_of(meetup, outsider).awaiting_confirmation()
    assert last_notice(meetup).params == {"name": "Endo", "seated": True, "full": True}


def test_it_asks_the_member_who_takes_an_open_seat_to_confirm_not_those_who_have(
    everyone: list[Member],
    coordinator: Member,
    players: list[Member],
    outsider: Member,
    send_mail: Run,
) -> None:
    member, other_member, fujii = players[:3]
    meetup = provisional(coordinator, players[:3])
    for confirming in (other_member, fujii):
        services.meetup_confirm(meetup_id=meetup.pk, by=confirming.user)
    services.meetup_withdraw(meetup_id=meetup.pk, by=member.user)
    mail.outbox.clear()

    send_mail(lambda: services.meetup_apply(meetup_id=meetup.pk, by=outsider.user))

    meetup = fresh(meetup)
    assert seat_of(meetup, outsider).awaiting_confirmation()
    (to_endo,) = mail_to(mail.outbox, outsider)
    assert "Endo" in to_endo.subject and "確認をお願いします" in to_endo.subject
    assert "例会のページで確認をお願いします" in to_endo.body
    assert mail_to(mail.outbox, other_member) == []
    assert mail_to(mail.outbox, fujii) == []
    assert len(mail_to(mail.outbox, coordinator)) == 1


def test_it_lets_a_waiting_applicant_withdraw_without_touching_the_line_up(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)
    before = [a.member for a in meetup.lineup()]

    services.meetup_withdraw(meetup_id=meetup.pk, by=players[3].user)

    meetup = fresh(meetup)
    assert [a.member for a in meetup.lineup()] == before
    assert meetup.waiting() == []


# T7, T8: not established


@pytest.mark.parametrize("stage", ["recruiting", "provisional"])
def test_it_lets_the_coordinator_declare_it_not_established(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run, stage: str
) -> None:
    if stage == "recruiting":
        meetup = apply(post(coordinator), players[0])
    else:
        meetup = provisional(coordinator, players)

    send_mail(lambda: services.meetup_call_off(meetup_id=meetup.pk, by=coordinator.user))

    meetup = fresh(meetup)
    assert meetup.state == State.NOT_ESTABLISHED
    assert last_notice(meetup).kind == "called_off"
    (to_aoki,) = mail_to(mail.outbox, players[0])
    assert "不成立" in to_aoki.subject


def test_it_refuses_not_established_after_the_final_notice_or_from_a_member(
    coordinator: Member, players: list[Member]
) -> None:
    recruiting = apply(post(coordinator), players[0])
    assert_refused(
        recruiting,
        lambda: services.meetup_call_off(meetup_id=recruiting.pk, by=players[0].user),
        forbidden=True,
    )
    final = confirmed(coordinator, players)
    assert_refused(
        final,
        lambda: services.meetup_call_off(meetup_id=final.pk, by=coordinator.user),
        forbidden=False,
    )


def test_it_takes_no_applications_once_not_established(
    coordinator: Member, member: Member, outsider: Member
) -> None:
    meetup = apply(post(coordinator), member)
    services.meetup_call_off(meetup_id=meetup.pk, by=coordinator.user)

    assert_refused(
        meetup,
        lambda: services.meetup_apply(meetup_id=meetup.pk, by=outsider.user),
        forbidden=False,
    )
    assert_refused(
        meetup,
        lambda: services.meetup_withdraw(meetup_id=meetup.pk, by=member.user),
        forbidden=False,
    )


# T9: change requests after the final notice


def test_it_takes_a_cancellation_after_the_final_notice_as_a_request_to_the_coordinator(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    member, other_member = players[:2]
    meetup = confirmed(coordinator, players)

    send_mail(
        lambda: services.meetup_request_change(
            meetup_id=meetup.pk, by=member.user, kind="cancel", message="急用です"
        )
    )

    meetup = fresh(meetup)
    assert meetup.state == State.CONFIRMED
    (request,) = meetup.open_change_requests()
    assert (request.member, request.kind, request.message) == (member, "cancel", "急用です")
    # Aoki keeps the seat until the coordinator decides.
    assert seat_of(meetup, member).seated
    assert last_notice(meetup).kind == "change_requested"
    # The coordinator and the other members hear of it.
    assert len(mail_to(mail.outbox, coordinator)) == 1
    assert len(mail_to(mail.outbox, other_member)) == 1
    assert "急用です" in mail_to(mail.outbox, coordinator)[0].body


def test_it_refuses_a_plain_withdrawal_from_the_line_up_after_the_final_notice(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = confirmed(coordinator, players)

    assert_refused(
        meetup,
        lambda: services.meetup_withdraw(meetup_id=meetup.pk, by=players[0].user),
        forbidden=False,
        message="coordinator",
    )


@pytest.mark.parametrize("who", ["goto", "outsider"])
def test_it_takes_change_requests_only_from_the_line_up(
    coordinator: Member, players: list[Member], outsider: Member, who: str
) -> None:
    meetup = confirmed(coordinator, players)
    person = {"goto": players[3], "outsider": outsider}[who]

    assert_refused(
        meetup,
        lambda: services.meetup_request_change(meetup_id=meetup.pk, by=person.user, kind="cancel"),
        forbidden=True,
    )


def test_it_takes_change_requests_only_after_the_final_notice(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)

    assert_refused(
        meetup,
        lambda: services.meetup_request_change(
            meetup_id=meetup.pk, by=players[0].user, kind="change"
        ),
        forbidden=False,
    )


def test_it_refuses_a_second_open_request_from_the_same_member(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = confirmed(coordinator, players)
    services.meetup_request_change(meetup_id=meetup.pk, by=players[0].user, kind="change")

    assert_refused(
        meetup,
        lambda: services.meetup_request_change(
            meetup_id=meetup.pk, by=players[0].user, kind="cancel"
        ),
        forbidden=False,
    )


# T10a: re-recruit the seat


def test_it_re_recruits_the_seat_for_the_next_applicant(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    member, other_member, fujii, goto = players
    meetup = confirmed(coordinator, players)
    services.meetup_request_change(meetup_id=meetup.pk, by=member.user, kind="cancel")

    send_mail(lambda: services.meetup_rerecruit(meetup_id=meetup.pk, by=coordinator.user))

    meetup = fresh(meetup)
    assert meetup.state == State.PROVISIONAL
    assert [a.member for a in meetup.lineup()] == [coordinator, other_member, fujii, goto]
    assert meetup.application_of(member) is None  # out
    assert meetup.open_change_requests() == []
    # Only the newcomer has to confirm; then the final notice goes out again.
    assert [a.member for a in meetup.lineup() if a.awaiting_confirmation()] == [goto]
    notice = last_notice(meetup)
    assert notice.kind == "rerecruited"
    assert notice.params["names"] == ["Aoki"] and notice.params["offered_to"] == ["Goto"]
    assert "面子再募集" in mail_to(mail.outbox, goto)[0].subject
    services.meetup_confirm(meetup_id=meetup.pk, by=goto.user)
    services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)
    assert fresh(meetup).state == State.CONFIRMED


def test_it_recruits_again_when_nobody_waits(
    coordinator: Member, players: list[Member], outsider: Member
) -> None:
    meetup = confirmed(coordinator, players[:3])
    services.meetup_request_change(meetup_id=meetup.pk, by=players[0].user, kind="cancel")

    services.meetup_rerecruit(meetup_id=meetup.pk, by=coordinator.user)

    meetup = fresh(meetup)
    assert meetup.state == State.RECRUITING
    assert meetup.open_seats() == 1
    services.meetup_apply(meetup_id=meetup.pk, by=outsider.user)
    assert fresh(meetup).state == State.PROVISIONAL


def test_it_refuses_to_re_recruit_without_a_request_or_for_a_member(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = confirmed(coordinator, players)
    assert_refused(
        meetup,
        lambda: services.meetup_rerecruit(meetup_id=meetup.pk, by=coordinator.user),
        forbidden=False,
        message="Nobody",
    )
    services.meetup_request_change(meetup_id=meetup.pk, by=players[0].user, kind="cancel")
    assert_refused(
        meetup,
        lambda: services.meetup_rerecruit(meetup_id=meetup.pk, by=players[1].user),
        forbidden=True,
    )


# T10b: move the date or time


def test_it_moves_the_date_and_asks_everyone_to_confirm_again(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    meetup = confirmed(coordinator, players)
    services.meetup_request_change(meetup_id=meetup.pk, by=players[0].user, kind="change")
    send_mail(
        lambda: services.meetup_move(
            meetup_id=meetup.pk, by=coordinator.user, date=day(10), start_time=datetime.time(18, 30)
        )
    )

    meetup = fresh(meetup)
    assert meetup.state == State.PROVISIONAL
    assert (meetup.date, meetup.start_time) == (day(10), datetime.time(18, 30))
    assert meetup.open_change_requests() == []
    # Everyone but the coordinator, who moved it, must confirm again.
    assert [a.member for a in meetup.lineup() if a.awaiting_confirmation()] == players[:3]
    # The waiting list stays eligible for a seat on the new date.
    assert meetup.waiting_for(day(10)) == meetup.waiting()
    assert last_notice(meetup).kind == "moved"
    (to_aoki,) = mail_to(mail.outbox, players[0])
    assert "日時変更" in to_aoki.subject and "18:30" in to_aoki.subject


def test_it_refuses_a_move_to_the_past_or_to_the_same_time(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = confirmed(coordinator, players)

    assert_refused(
        meetup,
        lambda: services.meetup_move(
            meetup_id=meetup.pk, by=coordinator.user, date=day(-1), start_time=meetup.start_time
        ),
        forbidden=False,
    )
    assert_refused(
        meetup,
        lambda: services.meetup_move(
            meetup_id=meetup.pk, by=coordinator.user, date=day(7), start_time=meetup.start_time
        ),
        forbidden=False,
    )


def test_it_lets_only_the_coordinator_move_a_confirmed_meetup(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)
    assert_refused(
        meetup,
        lambda: services.meetup_move(
            meetup_id=meetup.pk, by=coordinator.user, date=day(9), start_time=meetup.start_time
        ),
        forbidden=False,
    )
    for person in players[:3]:
        services.meetup_confirm(meetup_id=meetup.pk, by=person.user)
    services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)
    assert_refused(
        meetup,
        lambda: services.meetup_move(
            meetup_id=meetup.pk, by=players[0].user, date=day(9), start_time=meetup.start_time
        ),
        forbidden=True,
    )


# T10c: cancel


def test_it_cancels_a_confirmed_meetup(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    meetup = confirmed(coordinator, players)
    services.meetup_request_change(meetup_id=meetup.pk, by=players[0].user, kind="cancel")

    send_mail(lambda: services.meetup_cancel(meetup_id=meetup.pk, by=coordinator.user))

    meetup = fresh(meetup)
    assert meetup.state == State.CANCELLED
    assert meetup.open_change_requests() == []
    assert ChangeRequest.objects.get().decision == "cancelled"
    assert "中止" in mail_to(mail.outbox, players[1])[0].subject
    assert len(mail_to(mail.outbox, players[3])) == 1  # the waiting list too


def test_it_refuses_to_cancel_before_the_final_notice_or_for_a_member(
    coordinator: Member, players: list[Member], staff_member: Member
) -> None:
    meetup = provisional(coordinator, players)
    assert_refused(
        meetup,
        lambda: services.meetup_cancel(meetup_id=meetup.pk, by=coordinator.user),
        forbidden=False,
    )
    final = confirmed(coordinator, players, days=(9,))
    assert_refused(
        final,
        lambda: services.meetup_cancel(meetup_id=final.pk, by=players[0].user),
        forbidden=True,
    )
    services.meetup_cancel(meetup_id=final.pk, by=staff_member.user)
    assert fresh(final).state == State.CANCELLED


# T11, T12: held and reported


def test_it_marks_a_meetup_held_on_its_day(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    meetup = confirmed(coordinator, players, days=(0,))

    send_mail(lambda: services.meetup_mark_held(meetup_id=meetup.pk, by=coordinator.user))

    meetup = fresh(meetup)
    assert meetup.state == State.HELD
    assert "開催済" in mail_to(mail.outbox, players[0])[0].subject
    assert not mail_to(mail.outbox, players[3])  # not the waiting list


def test_it_refuses_to_mark_held_before_the_day_or_for_a_member(
    coordinator: Member, players: list[Member]
) -> None:
    future = confirmed(coordinator, players, days=(3,))
    assert_refused(
        future,
        lambda: services.meetup_mark_held(meetup_id=future.pk, by=coordinator.user),
        forbidden=False,
        message="not come",
    )
    today = confirmed(coordinator, players, days=(0,))
    assert_refused(
        today,
        lambda: services.meetup_mark_held(meetup_id=today.pk, by=players[0].user),
        forbidden=True,
    )


def test_it_reports_the_results_with_the_games_played(
    everyone: list[Member],
    coordinator: Member,
    players: list[Member],
    outsider: Member,
    send_mail: Run,
) -> None:
    meetup = confirmed(coordinator, players, days=(0,))
    services.meetup_mark_held(meetup_id=meetup.pk, by=coordinator.user)
    lineup = [a.member for a in meetup.lineup()]
    played = finished_game(day(0), lineup)
    finished_game(day(0), [*lineup[:3], outsider])  # not this meetup's table
    finished_game(day(-1), lineup)  # another day
    assert list(fresh(meetup).report_candidates()) == [played]

    send_mail(
        lambda: services.meetup_report(
            meetup_id=meetup.pk, by=coordinator.user, hanchans=[played], note="楽しかった"
        )
    )

    meetup = fresh(meetup)
    assert meetup.state == State.REPORTED
    assert list(meetup.hanchans.all()) == [played]
    assert [p.name for p in meetup.results()[0].players] == ["Chiba", "Aoki", "Baba", "Fujii"]
    to_aoki = mail_to(mail.outbox, players[0])[0]
    assert "結果報告" in to_aoki.subject
    assert "41,000" in to_aoki.body and "楽しかった" in to_aoki.body
    assert len(mail_to_list(mail.outbox)) == 1
    # Not confirmed at its table yet: the results say so, until it counts.
    assert meetup.results()[0].waiting and "(承認待ち)" in to_aoki.body
    Hanchan.objects.filter(pk=played.pk).update(counted_version=F("version"))
    assert not fresh(meetup).results()[0].waiting


def test_it_refuses_a_report_with_someone_elses_game_or_before_it_was_held(
    coordinator: Member, players: list[Member], outsider: Member
) -> None:
    meetup = confirmed(coordinator, players, days=(0,))
    lineup = [a.member for a in meetup.lineup()]
    game = finished_game(day(0), lineup)
    assert_refused(
        meetup,
        lambda: services.meetup_report(meetup_id=meetup.pk, by=coordinator.user, hanchans=[game]),
        forbidden=False,
    )
    services.meetup_mark_held(meetup_id=meetup.pk, by=coordinator.user)
    other = finished_game(day(0), [*lineup[:3], outsider])
    assert_refused(
        meetup,
        lambda: services.meetup_report(meetup_id=meetup.pk, by=coordinator.user, hanchans=[other]),
        forbidden=False,
    )
    assert_refused(
        meetup,
        lambda: services.meetup_report(meetup_id=meetup.pk, by=players[0].user, hanchans=[game]),
        forbidden=True,
    )
    assert_refused(
        meetup,
        lambda: services.meetup_report(meetup_id=meetup.pk, by=coordinator.user, hanchans=[]),
        forbidden=False,
    )


def test_it_writes_one_notice_per_transition_through_a_whole_meetup(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = confirmed(coordinator, players, days=(0, 1))
    services.meetup_mark_held(meetup_id=meetup.pk, by=coordinator.user)
    services.meetup_report(meetup_id=meetup.pk, by=coordinator.user, hanchans=[], note="記録は後日")

    assert notices(meetup) == [
        "posted",
        *["applied"] * 4,
        "declared",
        *["confirmed"] * 3,
        "finalized",
        "held",
        "reported",
    ]


# E-mail: who gets what, in which language


def test_it_mails_each_recipient_in_their_last_used_language(
    everyone: list[Member], coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    member, other_member = players[:2]
    MeetupProfile.remember_language(other_member, "en")
    meetup = apply(post(coordinator), *players)

    send_mail(
        lambda: services.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day(7))
    )

    (to_aoki,) = mail_to(mail.outbox, member)
    (to_baba,) = mail_to(mail.outbox, other_member)
    (to_list,) = mail_to_list(mail.outbox)
    assert "確認をお願いします" in to_aoki.subject
    assert to_baba.subject.startswith("[Mahjong club] ")
    assert "is on, members Chiba, Aoki, Baba, Fujii — please confirm." in to_baba.subject
    assert "Please confirm on the meetup's page" in to_baba.body
    assert "確認をお願いします" in to_list.subject
    assert to_aoki.to == ["Aoki <aoki@example.org>"]


def test_it_skips_members_without_an_e_mail_address(
    coordinator: Member, players: list[Member], send_mail: Run
) -> None:
    with_email(coordinator)
    meetup = apply(post(coordinator), *players)

    send_mail(
        lambda: services.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day(7))
    )

    assert [m.to for m in mail.outbox] == [["club-list@example.org"]]


def test_it_sends_nothing_to_the_list_when_there_is_no_list_address(
    coordinator: Member, send_mail: Run, club_choices: Callable[..., object]
) -> None:
    club_choices(list_address="")

    send_mail(lambda: post(coordinator))

    assert mail.outbox == []


def test_it_sends_no_mail_for_a_refused_action(
    everyone: list[Member],
    coordinator: Member,
    players: list[Member],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    meetup = apply(post(coordinator), *players)

    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(MeetupError),
    ):
        services.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)

    assert callbacks == []
    assert mail.outbox == []


def test_it_renders_each_notice_in_the_readers_language(
    coordinator: Member, players: list[Member]
) -> None:
    meetup = provisional(coordinator, players)
    notice = last_notice(meetup)

    with translation.override("ja"):
        japanese = notice.text()
    with translation.override("en"):
        english = notice.text()

    date = day(7)
    weekday_ja = "月火水木金土日"[date.weekday()]
    assert japanese == (
        f"{date.month}月{date.day}日({weekday_ja})成立、メンバーChiba、Aoki、Baba、Fujii"
        " — 確認をお願いします"
    )
    assert english == (
        f"{date:%a} {date.day} {date:%b} is on, members Chiba, Aoki, Baba, Fujii — please confirm."
    )


def test_it_seeds_the_three_venues_of_seed_001(db: None) -> None:
    venues = {v.name: (v.role, v.phone) for v in Venue.objects.all()}

    assert venues == {
        "ビック": ("main", "011-271-0102"),
        "麻雀クラブJUN": ("tournament", "011-231-3144"),
        "さわやか麻雀": ("backup", "011-708-9394"),
    }
    assert Venue.default() == Venue.objects.get(name="ビック")
