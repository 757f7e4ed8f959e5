"""A hand on one phone screen, at 390 x 844 and 360 x 740, in Japanese and English: every
tap of a hand is on screen when it is needed (not under the confirm bar, not below the
fold), and no tap makes the page scroll by itself. Taps and scrolls are counted:

- a non-dealer's ron with its value and one riichi: 5 taps with the confirm (tapping who
  dealt in is the ron), 0 scrolls in both languages;
- a mangan tsumo: 4 taps, 0 scrolls;
- an exhaustive draw with two tenpai: 4 taps, 0 scrolls;
- a double ron: 8 taps (one a riichi), 0 scrolls: the first winner's pad, once valued, folds
  to its line and the second winner's comes up where it was (it was below the fold, and the
  confirm then jumped the page to the top); the confirm bar says every payment whole, a
  winner's own riichi stick not going to the table and back.

At both sizes: every step of a ron, a tsumo, a draw, a double ron, a chombo, an abortive draw
and a hand entered by its tiles, nothing interactive under the confirm bar ("More: rare cases"
included, which comes once the value is in) or above the screen, and the page never scrolls by
itself; after an undo the notice is at the top of the hand entry, on screen, with the next
hand's first step.

Measured at every tap of a ron, a tsumo, a draw, a double ron, a chombo and a hand entered by
its tiles, in both languages: no control of the steps on screen (outcomes, seats, the limits,
the han x fu grid to 40 fu, "more fu", "enter by tiles") is under the confirm bar, in a han-only
pad's too (a 3-player club without fu); after a confirm the "recorded" notice and the next
hand's first step are on screen; an undo or a void leaves the actions where the finger was, with
the result there.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring.models import Hanchan
from tests.browser import kept_tap, screenshot, tap_and_settle
from tests.test_browser_confirmation import log_in
from tests.test_browser_hanchan import settle

pytestmark = pytest.mark.browser

# Baba's riichi, pinfu, tanyao ron off Chiba: 3 han 30 fu (tests/test_browser_tiles.py).
TILES = ["2m", "3m", "4m", "5m", "6m", "7m", "2p", "3p", "4p", "8p", "8p", "6s", "7s", "5s"]

PHONE = {"width": 390, "height": 844}

# The controls of the hand form's steps that are on the page without opening anything (the
# summaries of the value pads' closed parts and of "More: rare cases" included), each with
# its box, and the confirm bar's top; what "More: rare cases" holds is left out.
CONTROLS = """([scope, exclude]) => {
    const bar = document.querySelector("#hand-form .form-buttons").getBoundingClientRect().top;
    const root = document.querySelector(scope);
    const controls = [...root.querySelectorAll(
            "label.tap, .value-pad > details > summary, details.more > summary")]
        .filter(el => !(el.closest("details.more")
                && el.parentElement !== el.closest("details.more"))
            && !(exclude && el.closest(exclude))
            && el.getClientRects().length
            && (!el.closest("details") || el.closest("details").open
                || el.parentElement === el.closest("details")));
    return controls.map(el => {
        const box = el.getBoundingClientRect();
        return {text: el.innerText.replace(/\\s+/g, " "), top: box.top, bottom: box.bottom, bar};
    });
}"""


def hidden_controls(
    page: Any, scope: str = "#hand-form .hand-steps", exclude: str = ""
) -> list[str]:
    """The controls in ``scope`` (but not in ``exclude``) not wholly on screen above the
    confirm bar."""
    return [
        c["text"]
        for c in page.evaluate(CONTROLS, [scope, exclude])
        if c["top"] < 0 or c["bottom"] > c["bar"] + 0.5
    ]


def actions_top(page: Any) -> float:
    return float(page.evaluate("document.querySelector('#game-actions').getBoundingClientRect().y"))


class Taps:
    """Taps a control the way a thumb does, counting taps and the scrolls it took to see the
    control; fails if the page scrolls by itself."""

    def __init__(self, page: Any, *, check: bool = True) -> None:
        self.page = page
        self.check = check
        self.taps = 0
        self.scrolls = 0
        if page.evaluate("window.scrollY"):
            # The player scrolled for the last hand: back up for this one.
            page.evaluate("window.scrollTo(0, 0)")
            self.scrolls += 1

    def on_screen(self, control: Any) -> bool:
        """The control's middle is on screen and it is what a finger there would touch."""
        return bool(
            control.evaluate(
                """el => {
                    const target = el.closest("label") || el;
                    const box = target.getBoundingClientRect();
                    const x = box.left + box.width / 2, y = box.top + box.height / 2;
                    if (y < 0 || y > window.innerHeight) return false;
                    const hit = document.elementFromPoint(x, y);
                    return hit !== null && (target.contains(hit) || hit.contains(target));
                }"""
            )
        )

    def tap(self, control: Any, *, preview: bool = True, kept: bool = False) -> None:
        """Tap ``control``: a step of the hand, asking the server or drawn by the phone
        (``preview``), the confirm (not ``preview``), or a tap the page keeps without a
        request (``kept``: a riichi before the value)."""
        if not self.on_screen(control):
            self.scrolls += 1
            control.evaluate("el => (el.closest('label') || el).scrollIntoView({block: 'center'})")
        before = self.page.evaluate("window.scrollY")
        if kept:
            kept_tap(self.page, control)
        elif preview:
            tap_and_settle(self.page, control)
        else:
            with self.page.expect_response(
                lambda r: r.request.method == "POST" and r.url.endswith("/hands/")
            ):
                control.evaluate("el => el.click()")
        settle(self.page)
        self.taps += 1
        if preview:
            assert self.page.evaluate("window.scrollY") == before, "the page scrolled by itself"
            if self.check:
                assert hidden_controls(self.page) == [], "under the confirm bar"

    def confirm(self) -> None:
        """Confirm; the notice and the next hand's first step are then on screen."""
        button = self.page.locator("#hand-form button.confirm")
        self.tap(button, preview=False)
        before = self.page.evaluate("window.scrollY")
        notice = self.page.locator("#hand-entry .notice.success")
        notice.wait_for()
        box = notice.bounding_box()
        assert box is not None and box["y"] >= 0
        assert hidden_controls(self.page) == [], "the next hand's first step is off screen"
        if self.check:
            assert self.page.evaluate("window.scrollY") == before, "the confirm moved the page"


def in_place(page: Any, summary: str, button: str) -> str:
    """Open an action's confirm step (undo, void) where it is on the page and tap its button:
    the actions stay where they were on screen, the result shown at their top. Returns it."""
    page.locator("#game-actions summary", has_text=summary).evaluate(
        "el => el.scrollIntoView({block: 'center'})"
    )
    page.locator("#game-actions summary", has_text=summary).click()
    before = actions_top(page)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#game-actions button.danger", has_text=button).click()
    settle(page)
    # Unless the page, much shorter (a voided game has no hand form), is back at its top.
    moved = actions_top(page) - before
    assert abs(moved) < 1 or page.evaluate("window.scrollY") == 0, f"the actions moved {moved}"
    result = page.locator("#game-actions > .notice.in-place")
    box = result.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
    return str(result.inner_text())


def radio(page: Any, name: str, value: str) -> Any:
    return page.locator(f"#hand-form input[name={name}][value='{value}']")


SIZES = {"390x844": PHONE, "360x740": {"width": 360, "height": 740}}


def undo_in_entry(page: Any, language: str) -> None:
    """Undo the last hand from the actions below the hand list: the notice is then at the top
    of the hand entry, on screen, with the next hand's first step above the confirm bar (there
    was once no notice there and the outcomes were above the screen)."""
    summary = page.locator(
        "#game-actions summary",
        has_text="最後の局を取り消す" if language == "ja" else "Undo the last hand",
    )
    summary.evaluate("el => el.scrollIntoView({block: 'center'})")
    summary.click()
    with page.expect_response(lambda r: r.request.method == "POST" and "/undo/" in r.url):
        page.locator(
            "#game-actions button.danger",
            has_text="取り消す" if language == "ja" else "Yes, undo it",
        ).click()
    settle(page)
    notice = page.locator("#hand-entry > .notice.success")
    done = "最後の局を取り消しました。" if language == "ja" else "The last hand was undone."
    assert notice.inner_text() == done
    box = notice.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
    assert hidden_controls(page) == [], "the next hand's first step is off screen"
    assert page.locator("#hand-form input[name=result]").count() == 5


def summary_whole(page: Any) -> str:
    """The confirm bar's payments, every one of them shown whole (none cut off)."""
    summary = page.locator("#confirm-summary")
    assert summary.evaluate("el => el.scrollHeight <= el.clientHeight + 1")
    assert summary.evaluate(
        """el => [...el.querySelectorAll('.summary-payment')].every(p => {
            const b = p.getBoundingClientRect(), s = el.getBoundingClientRect();
            return b.left >= s.left - 1 && b.right <= s.right + 1 && b.bottom <= s.bottom + 1;
        })"""
    )
    return re.sub(r"\s+", " ", str(summary.inner_text()))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_hand_is_entered_on_one_screen(
    phone: Any, table_game: Hanchan, language: str, size: str
) -> None:
    game = table_game
    phone.set_viewport_size(SIZES[size])
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{game.pk}/")
    taps = Taps(phone)

    # East 1: Baba rons Chiba for 3 han 30 fu, with his own riichi. Tapping who dealt in,
    # before any outcome, is the ron. His stick goes out and comes back: the bar says only
    # what Chiba pays him (it said "Baba → Table 1,000 · Table → Baba 1,000" too).
    taps.tap(radio(phone, "loser", "2"))
    taps.tap(radio(phone, "winners", "1"))
    taps.tap(radio(phone, "riichi", "1"), kept=True)
    taps.tap(radio(phone, "value_1", "3-30"))
    assert summary_whole(phone) == "Chiba → Baba 3,900"
    # Valued, the pad is one line, and "More: rare cases" is above the confirm bar.
    assert phone.locator("#pad-fold-1:not([open])").is_visible()
    assert phone.locator("#hand-form details.more > summary").is_visible()
    screenshot(phone, f"one-screen-ron-{language}-{size}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (5, 0)

    # East 2 (Baba deals): Endo's mangan tsumo.
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "tsumo"))
    taps.tap(radio(phone, "winner", "3"))
    taps.tap(radio(phone, "value_3", "mangan"))
    screenshot(phone, f"one-screen-tsumo-{language}-{size}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (4, 0)

    # East 3: a draw, Aoki and Chiba tenpai.
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "draw"))
    taps.tap(radio(phone, "tenpai", "0"))
    taps.tap(radio(phone, "tenpai", "2"))
    screenshot(phone, f"one-screen-draw-{language}-{size}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (4, 0)

    # East 3, 1 honba: Baba deals into Aoki (in riichi) and Endo. The second pad says it comes
    # next; once Aoki's value is in, his pad is one line and Endo's comes up where it was,
    # above the bar; no scroll, and the confirm leaves the page where it is.
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "ron"))
    taps.tap(radio(phone, "loser", "1"))
    taps.tap(radio(phone, "winners", "0"))
    taps.tap(radio(phone, "winners", "3"))
    assert phone.locator("#value-pad-3.pad-waiting").is_visible()
    taps.tap(radio(phone, "riichi", "0"), kept=True)
    taps.tap(radio(phone, "value_0", "2-30"))
    assert phone.locator("#pad-fold-0:not([open])").is_visible()
    taps.tap(radio(phone, "value_3", "1-30"))
    # Both winners' payments whole, each payer and payee once (value and honba together).
    pairs = re.findall(r"(\S+) → (\S+) [\d,]+", summary_whole(phone))
    assert ("Baba", "Aoki") in pairs and ("Baba", "Endo") in pairs
    assert len(pairs) == len(set(pairs))
    screenshot(phone, f"one-screen-double-ron-{language}-{size}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (8, 0)

    # East 4 (Endo deals): Aoki's chombo, then undone from below the hand list.
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "chombo"))
    taps.tap(radio(phone, "offender", "0"))
    screenshot(phone, f"one-screen-chombo-{language}-{size}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (3, 0)
    undo_in_entry(phone, language)
    screenshot(phone, f"one-screen-undone-{language}-{size}")

    # East 4 again: nine terminals, an abortive draw.
    phone.evaluate("window.scrollTo(0, 0)")
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "abort"))
    taps.tap(radio(phone, "kind", "kyuushu_kyuuhai"))
    screenshot(phone, f"one-screen-abort-{language}-{size}")
    taps.confirm()
    assert (taps.taps, taps.scrolls) == (3, 0)

    # East 4, 1 honba: Baba rons Chiba, entered by its tiles; the tiles' value is shown and
    # the confirm with the keyboard open brings the next hand into view.
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "ron"))
    taps.tap(radio(phone, "loser", "2"))
    taps.tap(radio(phone, "winners", "1"))
    taps.tap(radio(phone, "riichi", "1"), kept=True)
    phone.locator("#value-pad-1 details.tile-entry > summary").click()
    keyboard = phone.locator("#value-pad-1 .tile-keyboard")
    for tile in TILES[:-1]:
        keyboard.locator(f"button[data-tile='{tile}']").click()
    last = keyboard.locator(f"button[data-tile='{TILES[-1]}']")
    last.evaluate("el => el.scrollIntoView({block: 'center'})")
    before = phone.evaluate("window.scrollY")
    with phone.expect_response(lambda r: "/preview/" in r.url):
        last.click()
    settle(phone)
    # The tiles' value is lifted from under the confirm bar, by no more than it takes.
    result = phone.locator("#tile-result-1")
    bar = phone.locator("#hand-form .form-buttons").bounding_box()
    box = result.bounding_box()
    assert box is not None and bar is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 1
    assert 0 <= phone.evaluate("window.scrollY") - before <= box["height"] + 1
    assert "3" in result.inner_text()
    screenshot(phone, f"one-screen-tiles-{language}-{size}")
    taps.check = False  # the keyboard, open, was scrolled to
    taps.confirm()

    game.refresh_from_db()
    assert game.hands.count() == 6

    # While the game is in play the charts are drawn when scrolled to, with every hand so
    # far (neither the page nor a confirm's answer carries them).
    chart_rows = phone.locator("#score-chart #scores-chart table tbody tr")
    # Scrolled by the page itself: the marker may be swapped for the chart while Playwright
    # waits for it to stand still.
    phone.evaluate("document.getElementById('score-chart').scrollIntoView()")
    chart_rows.nth(6).wait_for(state="attached")
    assert chart_rows.count() == 7  # the start and six hands
    assert phone.locator("#chart-refresh[hx-get]").count() == 0

    voided = in_place(
        phone,
        "対局を無効にする" if language == "ja" else "Void the game",
        "無効にする" if language == "ja" else "Yes, void the game",
    )
    assert voided == ("対局を無効にしました。" if language == "ja" else "The game was voided.")


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_last_hand_at_time_up_fits_too(phone: Any, table_game: Hanchan, language: str) -> None:
    """Time called (T-07): the confirm bar says so beside the button, hardly taller; a ron's
    pad down to 40 fu and "more fu" stays above it."""
    Hanchan.objects.filter(pk=table_game.pk).update(time_called=True)
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{table_game.pk}/")
    taps = Taps(phone)
    taps.tap(radio(phone, "loser", "2"))
    taps.tap(radio(phone, "winners", "1"))
    taps.tap(radio(phone, "value_1", "3-40"))
    assert phone.locator("#time-up-confirm").is_visible()
    assert re.search(r"Chiba → Baba\s*5,200", phone.locator("#confirm-summary").inner_text())
    screenshot(phone, f"one-screen-time-up-{language}")
    assert (taps.taps, taps.scrolls) == (3, 0)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_han_only_pad_fits(
    phone: Any, member: Any, other_member: Any, coordinator: Any, language: str
) -> None:
    """A 3-player club counting han without fu (fuji-sanma), a tsumo and a ron: 1-14 han and
    "enter by tiles" above the confirm bar. Japanese puts five to a row; English
    keeps four ("Sanbaiman") and "enter by tiles" takes the last row's free half (a row of
    its own left it about 30 px under the bar after a ron's winner)."""
    from scoring.ledger import hanchan_start
    from scoring.standings.periods import club_today

    game = hanchan_start(
        ruleset_id="fuji-sanma",
        members=[member, other_member, coordinator],
        played_on=club_today(),
        by=member,
    )
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{game.pk}/")
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "tsumo"))
    taps.tap(radio(phone, "winner", "0"))
    assert phone.locator("#value-pad-0 .han-taps.no-fu label.tap").count() == 14
    taps.tap(radio(phone, "value_0", "3"))
    assert (taps.taps, taps.scrolls) == (3, 0)

    # Baba rons Chiba for 3 han: every tap from the outcome to the value checked.
    taps = Taps(phone)
    taps.tap(radio(phone, "result", "ron"))
    taps.tap(radio(phone, "loser", "2"))
    taps.tap(radio(phone, "winners", "1"))
    taps.tap(radio(phone, "value_1", "3"))
    assert re.search(r"Chiba → Baba\s*3,900", phone.locator("#confirm-summary").inner_text())
    screenshot(phone, f"one-screen-han-only-ron-{language}")
    assert (taps.taps, taps.scrolls) == (4, 0)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_riichi_row_is_whole_on_a_320_by_568_phone(
    phone: Any, table_game: Hanchan, language: str
) -> None:
    """At 320 x 568 the riichi row was half under the confirm bar once a
    ron's winner was tapped. Every step above the value pad is whole above the bar."""
    phone.set_viewport_size({"width": 320, "height": 568})
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{table_game.pk}/")
    taps = Taps(phone, check=False)
    taps.tap(radio(phone, "loser", "2"))
    taps.tap(radio(phone, "winners", "1"))
    riichi = phone.locator("#hand-form .riichi-step").bounding_box()
    bar = phone.locator("#hand-form .form-buttons").bounding_box()
    assert riichi is not None and bar is not None
    assert riichi["y"] >= 0 and riichi["y"] + riichi["height"] <= bar["y"] + 0.5
    assert hidden_controls(phone, exclude=".value-pad") == []
    assert taps.scrolls == 0
    screenshot(phone, f"one-screen-320-{language}")
