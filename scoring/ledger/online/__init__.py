"""Online games into the ledger, by idea: ``path`` (the one way in, whoever
imports: read, verify once, match, store, outcomes), ``club`` (a verified log as the club
counts it, and the plan verification played), ``players`` (the members at a log's seats),
``store`` (a game stored once, many at once in a batch) and ``lines`` (Tenhou result lines).
Used through :mod:`scoring.ledger` only."""
