import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django.asserts import assertContains, assertRedirects

from clubsite.models import Member
from scoring.engine import load_ruleset


@pytest.fixture
def member_client(client_for: Callable[[Member], Client], member: Member) -> Client:
    return client_for(member)


def element_by_id(html: str, tag: str, element_id: str) -> str:
    """The inside of the <tag id="element_id"> element; these pages never nest such tags."""
    match = re.search(
        rf'<{tag}[^>]* id="{re.escape(element_id)}"[^>]*>(.*?)</{tag}>', html, re.DOTALL
    )
    assert match, f"no <{tag} id={element_id!r}>"
    return match.group(1)


def test_it_lists_the_builtin_rulesets(member_client: Client) -> None:
    response = member_client.get(reverse("ruleset_list"))

    assert response.status_code == 200
    card = element_by_id(response.text, "article", "ruleset-makura-1.5")
    assert "makura-1.5" in card
    assert "25,000" in card
    assert reverse("ruleset_detail", args=["makura-1.5"]) in card


def test_it_shows_a_rulesets_parameters(member_client: Client) -> None:
    ruleset = load_ruleset("makura-1.5")

    response = member_client.get(reverse("ruleset_detail", args=["makura-1.5"]))

    assert response.status_code == 200
    assert ruleset.name == "Makura Club standard rules v1.5"
    assertContains(response, "<h1>枕倶楽部 標準ルール v1.5</h1>")  # in the reader's language
    row = element_by_id(response.text, "div", "parameter-start_points")
    assert "25,000" in row
    # A rules sheet for players: no engine notes such as "(M-01 i)".
    assert "M-01" not in response.text


def test_it_cites_a_rulesets_sources_in_the_readers_language(member_client: Client) -> None:
    """A Japanese rules sheet reads in Japanese, its citations too; members
    see the club's documents by title, the seed numbers stay the developers'."""
    page = member_client.get(reverse("ruleset_detail", args=["home-nashinashi"])).text
    assert "<li>わが家のルール（2015年1月現在）</li>" in page
    assert "as of January" not in page and "seed 003" not in page
    page = member_client.get(reverse("ruleset_detail", args=["sanma-float"])).text
    assert "<li>三人麻雀クラブのルール（抜粋）</li>" in page
    member_client.cookies["django_language"] = "en"
    page = member_client.get(reverse("ruleset_detail", args=["home-nashinashi"])).text
    assert "<li>わが家のルール (as of January 2015)</li>" in page


def test_it_gives_404_for_an_unknown_ruleset(member_client: Client) -> None:
    response = member_client.get(reverse("ruleset_detail", args=["no-such-ruleset"]))

    assert response.status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        reverse("ruleset_list"),
        reverse("ruleset_detail", args=["makura-1.5"]),
        # Not a 404: anonymous visitors learn nothing, not even which rulesets exist.
        reverse("ruleset_detail", args=["no-such-ruleset"]),
    ],
)
def test_it_sends_anonymous_visitors_to_the_login_page(db: None, client: Client, path: str) -> None:
    # A rules page answers a visitor only where the club publishes it (a new club does not).
    response = client.get(path)

    assertRedirects(response, f"{reverse('login')}?next={path}")


def test_it_serves_the_full_page_with_vendored_htmx(member_client: Client) -> None:
    response = member_client.get(reverse("ruleset_list"))

    assertContains(response, "<html")
    assertContains(response, "django_htmx/htmx-2.min.js")
    assert '<script src="http' not in response.text


def test_it_lets_staff_into_the_admin(client: Client, staff: User) -> None:
    client.force_login(staff)

    response = client.get(reverse("admin:index"))

    assert response.status_code == 200


def test_every_rule_of_the_engine_is_on_the_sheet() -> None:
    import dataclasses

    from scoring.rulebook.sheet import shown_parameters

    fields = {f.name for f in dataclasses.fields(load_ruleset("makura-1.5"))}
    assert fields - set(shown_parameters()) == {"id", "name", "sources"}


@pytest.mark.parametrize(
    "ruleset_id",
    [
        "makura-1.3", "makura-1.5", "sanma-float", "home-nashinashi", "fuji-sanma",
        "tenhou-4p", "tenhou-3p",
    ],
)  # fmt: skip
def test_a_rules_sheet_reads_in_japanese(member_client: Client, ruleset_id: str) -> None:
    """Labels and values in Japanese, no engine notes."""
    page = member_client.get(reverse("ruleset_detail", args=[ruleset_id])).text
    sheet = page[page.index('class="rules-section"') : page.index('<h2 id="sources">出典</h2>')]
    cells = re.findall(r"<d[td]>(.*?)</d[td]>", sheet)
    assert len(cells) > 60
    english = [c for c in cells if re.search(r"[A-Za-z]{3,}", c)]
    assert english == []
