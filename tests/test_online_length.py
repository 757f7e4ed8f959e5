"""The game's length when an mjlog's GO type disagrees with its log id and its hands: both
lengths are tried, as the Tenhou variants are, and the one under which every
hand agrees is kept.

The logs here are derived from real ones (tests/data/online/README.md, "Derived"): the GO
type of ``mjlog/2020060723gm-00a9-0000-58807e27.mjlog`` (mjx-project/mjx, an East-South game
played into West) set to East-only (169 → 161), and that of
``mjlog-gz/2009082812gm-00e1-0000-47dd79cf_tw=3.mjlog`` (terralian/fastmaj, East-only, gzip)
set to East-South (225 → 233), and that of ``mjlog/2018011723gm-00e1-0000-d28ec3fd.xml``
(Ledenel/auto-white-reimu, East-only, ended by a bust in East 4) set the same way;
everything else byte for byte (the gzip ones stored unpacked).
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils.translation import override

from scoring.models import Hanchan
from scoring.online.log import LogMismatch
from scoring.online.reading import read_game_file
from scoring.online.verify import _verify_under, verify

DATA = Path(__file__).parent / "data" / "online" / "mjlog"
HANCHAN = DATA / "2020060723gm-00a9-0000-58807e27.mjlog"
EAST_ONLY = DATA.parent / "mjlog-gz" / "2009082812gm-00e1-0000-47dd79cf_tw=3.mjlog"
BUSTED_IN_EAST = DATA / "2018011723gm-00e1-0000-d28ec3fd.xml"


def with_go_type(path: Path, old: int, new: int) -> bytes:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    assert raw.count(f'<GO type="{old}"'.encode()) == 1
    return raw.replace(f'<GO type="{old}"'.encode(), f'<GO type="{new}"'.encode())


def read(raw: bytes, name: str):
    log = read_game_file(raw, name).log
    assert log is not None
    return log


def test_a_hanchan_whose_go_type_says_east_only_is_read_as_its_hands_were_played():
    raw = with_go_type(HANCHAN, 169, 161)
    log = read(raw, "edited.mjlog")  # no log id: the GO type first, then the other length
    assert log.rule_label == "GO type 161"
    assert log.rulesets == ("tenhou-4p-east", "tenhou-4p")
    # Under the GO type's length alone it is refused at East 4, as it once was.
    with pytest.raises(LogMismatch) as refused:
        _verify_under(log, "tenhou-4p-east", {})
    assert refused.value.round == "E4"
    verified = verify(log)
    assert (verified.ruleset, verified.overrides) == ("tenhou-4p", None)
    assert {h.round[0] for h in log.hands} == {"E", "S", "W"}
    assert len(verified.played) == len(log.hands)
    # With its log id, the id's lobby type (00a9: East-South) comes first.
    assert read(raw, HANCHAN.name).rulesets == ("tenhou-4p", "tenhou-4p-east")


def test_an_east_only_game_whose_go_type_says_east_south_ends_where_it_ended():
    log = read(with_go_type(EAST_ONLY, 225, 233), "edited.mjlog")
    assert log.rulesets == ("tenhou-4p", "tenhou-4p-east")
    with pytest.raises(LogMismatch):  # the game would go on to South 1
        _verify_under(log, "tenhou-4p", {})
    assert verify(log).ruleset == "tenhou-4p-east"


def test_where_the_hands_cannot_tell_the_lobby_rules_decide():
    """A game that ends by a bust in East 4 is the same game under either length: it keeps
    the length its log id (then its GO type) gives."""
    raw = with_go_type(BUSTED_IN_EAST, 225, 233)
    assert verify(read(raw, "edited.xml")).ruleset == "tenhou-4p"
    assert verify(read(raw, BUSTED_IN_EAST.name)).ruleset == "tenhou-4p-east"


def test_the_command_stores_the_game_under_the_length_that_agrees(db, tmp_path):
    path = tmp_path / "edited.mjlog"
    path.write_bytes(with_go_type(HANCHAN, 169, 161))
    out = io.StringIO()
    with override("en"):
        call_command("import_games", str(path), "--create-members", stdout=out)
    assert "(tenhou-4p, " in out.getvalue()
    game = Hanchan.objects.get()
    assert game.ruleset_version.ruleset_id == "tenhou-4p"
