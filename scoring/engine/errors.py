"""The one exception type the engine raises for bad input."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

UNCLASSIFIED = "unclassified"
"""The ``code`` of a :class:`RecordError` built without one (only code outside the engine does
that; a test makes every engine raise site give its code, listed in
:data:`scoring.engine.error_codes.ERROR_CODES`)."""


class RecordError(ValueError):
    """A game record, a hand or a ruleset that the engine cannot accept.

    Attributes:
        hand_index: 0-based index of the hand at fault in the record's ``hands`` list, or
            ``None`` when the fault is outside any hand (players, ruleset, overrides).
        key: the record key at fault, e.g. ``"loser"``, ``"wins[1].fu"``, ``"overrides.tobi"``.
        message: what is wrong, in one English sentence.
        code: what is wrong, as a stable snake_case name (e.g. ``"too_many_ron_winners"``),
            one of :data:`scoring.engine.error_codes.ERROR_CODES`; callers that show the
            refusal to people choose their sentence by it, never by ``message``.
        params: the numbers and names a sentence for ``code`` needs, e.g. ``{"max": 2}`` (a
            read-only mapping; each code's entry in ``ERROR_CODES`` says which).

    ``str(error)`` is the one-line form ``replay`` prints: ``"hand 3: loser: ..."`` or
    ``"players: ..."`` (see docs/game-record-format.md, "Errors").
    """

    def __init__(
        self,
        hand_index: int | None,
        key: str,
        message: str,
        *,
        code: str = UNCLASSIFIED,
        params: Mapping[str, int | str] | None = None,
    ) -> None:
        self.hand_index = hand_index
        self.key = key
        self.message = message
        self.code = code
        self.params: Mapping[str, int | str] = MappingProxyType(dict(params or {}))
        super().__init__(self.line())

    def line(self) -> str:
        """The one-line form: ``"hand 3: loser: ..."`` (no hand part outside a hand)."""
        prefix = "" if self.hand_index is None else f"hand {self.hand_index}: "
        return f"{prefix}{self.key}: {self.message}"

    def with_hand(self, hand_index: int) -> RecordError:
        """The same error, attributed to ``hand_index`` (for errors raised below the game loop)."""
        return RecordError(hand_index, self.key, self.message, code=self.code, params=self.params)
