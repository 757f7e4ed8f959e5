"""The local yaku, declared once: each one's id, its han closed and open, the built-in rulesets
that have it and the seed rule it comes from (rules-spec F-15).

Read by the ruleset's check of ``local_yaku`` (:mod:`scoring.engine.ruleset_files`), the
tiles' evaluation (:mod:`scoring.tiles.house_rules`, :mod:`scoring.tiles.yakuman_rules`:
the han a hand gets), and so the table's pads that show the tiles' yaku
(:mod:`scoring.entry.value_pad`), the rules page's yaku table
(:mod:`scoring.rulebook.yaku_table`) and the ruleset sheet (:mod:`scoring.rulebook.sheet`).

A new local yaku needs:

- its entry here;
- its id in the ``local_yaku`` of each ruleset file named in ``rulesets``
  (``scoring/rulesets/*.toml``, where a game's variant may change it; a test holds the two
  together);
- how the tiles show it, where the ``mahjong`` package does not (:mod:`scoring.tiles.house_rules`
  or, for a yakuman, :mod:`scoring.tiles.yakuman_rules`), with the han read from here;
- its label in ``scoring/rulebook/yaku_labels.py`` and the label's Japanese in
  ``locale/ja/LC_MESSAGES/django.po`` (a test checks that every entry has one);
- its line in docs/hand-tiles.md (and rules-spec F-15 where a seed adds it).

Pure Python: no Django import.
"""

from __future__ import annotations

from dataclasses import dataclass

# The han of a yakuman as the tiles count it (one yakuman: 13).
YAKUMAN_HAN = 13


@dataclass(frozen=True, slots=True)
class LocalYaku:
    """One local yaku: ``id`` (the yaku's name in the tiles' reading and the records),
    ``han_closed`` and ``han_open`` (``YAKUMAN_HAN`` for a yakuman; ``han_open`` ``None`` where
    the hand must be closed), ``rulesets`` (the built-in rulesets whose ``local_yaku`` has it)
    and ``source`` (the seed rule)."""

    id: str
    han_closed: int
    han_open: int | None
    rulesets: tuple[str, ...]
    source: str

    @property
    def yakuman(self) -> bool:
        """Whether the yaku is a yakuman."""
        return self.han_closed >= YAKUMAN_HAN

    def han(self, *, closed: bool) -> int:
        """The han of a hand that has this yaku, closed or open (an open hand where the yaku
        needs a closed one is no such hand: 0)."""
        if closed:
            return self.han_closed
        return self.han_open or 0


# In the order the rules pages list them. Seed 004 is FUJI's rules (fuji-sanma), Makura §43
# the Makura club's yakuman (makura-1.3, makura-1.5).
LOCAL_YAKU: dict[str, LocalYaku] = {
    yaku.id: yaku
    for yaku in (
        # 004 L56: any chinitsu chiitoitsu, in every suit.
        LocalYaku("daisharin", YAKUMAN_HAN, None, ("fuji-sanma",), "004 L56"),
        # 004 L59: any honitsu chiitoitsu, in place of the two.
        LocalYaku("shousharin", 6, None, ("fuji-sanma",), "004 L59"),
        # 004 L60: three different wind pungs.
        LocalYaku("sanpuu", 2, 2, ("fuji-sanma",), "004 L60"),
        # 004 L26: a north pung is a yakuhai for everyone.
        LocalYaku("north_yakuhai", 1, 1, ("fuji-sanma",), "004 L26"),
        # 004 L54: every tile manzu or an honour, with manzu.
        LocalYaku("manzu_honitsu", YAKUMAN_HAN, YAKUMAN_HAN, ("fuji-sanma",), "004 L54"),
        # 004 L57: four pungs of one suit in a row.
        LocalYaku("suurenkou", YAKUMAN_HAN, YAKUMAN_HAN, ("fuji-sanma",), "004 L57"),
        # 004 L61: three pungs of one suit in a row.
        LocalYaku("sanrenkou", 2, 2, ("fuji-sanma",), "004 L61"),
        # Makura 1.3/1.5 §43 L350: 13-futou, on the first draw.
        LocalYaku(
            "shiisanputa", YAKUMAN_HAN, None, ("makura-1.3", "makura-1.5"), "Makura §43 L350"
        ),
    )
}
