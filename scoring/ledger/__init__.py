"""The hanchan ledger's one public façade (docs/ledger.md).

Everything outside the ledger imports from here, never from its modules (an import-linter
contract checks it). What it offers:

- **Writes**, each one transaction that plans the change with the engine once, writes the
  plan and confirms it by the one trust rule: :func:`hanchan_start`, :func:`hand_record`,
  :func:`hand_correct`, :func:`hand_undo_last`, :func:`hanchan_void`,
  :func:`hanchan_final_scores`, :func:`hanchan_call_time`, :func:`hanchan_confirm`; imports:
  :func:`hanchan_import`, :func:`prepare_import`, :func:`hanchans_import_bulk`; online
  games by one path, whoever imports them (the upload page, ``import_games``):
  :func:`import_online` (files read, each log verified once, players matched, stored,
  an :class:`ImportOutcome` for each log, line and file; :class:`GameSource`,
  :class:`ImportOptions`, :class:`ImportStatus`), built on :func:`import_logs` (many
  logs in one batch),
  :func:`import_verified` (one log, with :func:`match_players` and its :class:`Players`),
  :func:`result_line_game` and :func:`import_line_game` (a Tenhou result line); any
  imports in one transaction with the roll-ups refreshed once: :func:`one_refresh`.
- **Previews**: :func:`stored_game`, :func:`plan_for` (the plan a write would store) and
  :func:`state_before`, with the changes :class:`NewHand`, :class:`Correction`, ...
- **Loading a game** for a page: :func:`hanchan_with_seats` (one query).
- **The one read of what counts**: :func:`counted_results`, :func:`counted_games`,
  :func:`counted_yaku`, :func:`settled`, :func:`is_settled`, :func:`is_waiting`,
  :func:`is_finished_waiting`, :func:`waiting_games`, :func:`waiting_states`,
  :func:`has_counted_version`, :func:`counts_current_version`, :func:`confirmation_state`,
  the signal :data:`games_counted` (sent when what counts changes); the roll-ups' figures
  (:data:`TOTALS_AGGREGATES` and friends) for the standings.
- **Export**: :func:`hanchan_record`.
- **Guests' games** (events between clubs): :func:`recount_guest_games` (a club's rows of
  its members' games at other clubs' events, made again as live counting makes them).
- **Soundness**: :func:`copied_key_disagreements` (the keys copied onto derived rows agree
  with their sources; the restore drill checks it).
- **Refusals**: :class:`LedgerError` and its kinds :class:`StaleHanchan`,
  :class:`DuplicateGame`, :class:`AlreadyImported`, :class:`UnknownNames`.

Modules (internal): ``plan`` (the engine once), ``create`` and ``write`` (the only code that
stores engine results; ``rows`` builds the rows), ``confirmation`` (the trust rule),
``counts`` (what counts), ``totals`` (members' monthly and yearly totals), ``fingerprint``
(one game stored once), ``services``, ``records`` and ``online`` (the writes above;
``online`` by idea: ``path``, ``club``, ``players``, ``store``, ``lines``),
``checks`` (what a write checks first), ``copied_keys``, ``loading``, ``facts``, ``stored``,
``errors``, ``refusals``.
"""

from scoring.ledger.checks import plan_for, stored_game
from scoring.ledger.confirmation import POLICIES, ConfirmationState, games_counted, one_refresh
from scoring.ledger.confirmation import state_of as confirmation_state
from scoring.ledger.copied_keys import copied_key_disagreements
from scoring.ledger.counts import (
    counted_games,
    counted_results,
    counted_yaku,
    counts_current_version,
    has_counted_version,
    is_finished_waiting,
    is_settled,
    is_waiting,
    settled,
    waiting_games,
    waiting_states,
)
from scoring.ledger.errors import LedgerError, StaleHanchan
from scoring.ledger.fingerprint import DuplicateGame
from scoring.ledger.guests import recount_guest_games
from scoring.ledger.loading import hanchan_with_seats
from scoring.ledger.online.lines import import_line_game, result_line_game
from scoring.ledger.online.path import (
    NOT_READ,
    TOO_LARGE,
    GameSource,
    ImportOptions,
    ImportOutcome,
    ImportStatus,
    import_online,
)
from scoring.ledger.online.players import Players, UnknownNames, match_players
from scoring.ledger.online.store import AlreadyImported, import_logs, import_verified
from scoring.ledger.plan import (
    Correction,
    NewHand,
    Undo,
    Void,
    state_before,
)
from scoring.ledger.records import (
    GameToImport,
    hanchan_import,
    hanchan_record,
    hanchans_import_bulk,
    prepare_import,
)
from scoring.ledger.services import (
    Recorded,
    hanchan_call_time,
    hanchan_confirm,
    hanchan_final_scores,
    hanchan_start,
    hanchan_void,
    hand_correct,
    hand_record,
    hand_undo_last,
)
from scoring.ledger.totals import ADDED as TOTALS_ADDED
from scoring.ledger.totals import AGGREGATES as TOTALS_AGGREGATES
from scoring.ledger.totals import BEST_MASK, BEST_SHIFT
from scoring.ledger.totals import MONTH_SUMS as TOTALS_MONTH_SUMS

__all__ = [
    "recount_guest_games",
    "BEST_MASK",
    "BEST_SHIFT",
    "POLICIES",
    "TOTALS_ADDED",
    "TOTALS_AGGREGATES",
    "TOTALS_MONTH_SUMS",
    "NOT_READ",
    "TOO_LARGE",
    "AlreadyImported",
    "ConfirmationState",
    "Correction",
    "DuplicateGame",
    "GameSource",
    "GameToImport",
    "ImportOptions",
    "ImportOutcome",
    "ImportStatus",
    "LedgerError",
    "NewHand",
    "Players",
    "Recorded",
    "StaleHanchan",
    "Undo",
    "UnknownNames",
    "Void",
    "confirmation_state",
    "copied_key_disagreements",
    "counted_games",
    "counted_results",
    "counted_yaku",
    "counts_current_version",
    "games_counted",
    "hand_correct",
    "hand_record",
    "hand_undo_last",
    "hanchan_call_time",
    "hanchan_confirm",
    "hanchan_final_scores",
    "hanchan_import",
    "hanchan_record",
    "hanchan_start",
    "hanchan_void",
    "hanchan_with_seats",
    "has_counted_version",
    "hanchans_import_bulk",
    "import_line_game",
    "import_logs",
    "import_online",
    "import_verified",
    "one_refresh",
    "is_finished_waiting",
    "is_settled",
    "is_waiting",
    "match_players",
    "plan_for",
    "result_line_game",
    "prepare_import",
    "settled",
    "state_before",
    "stored_game",
    "waiting_games",
    "waiting_states",
]
