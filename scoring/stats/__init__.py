"""Players' numbers from the ledger's counted games: :mod:`scoring.stats.counts`
adds up the per-hand facts (``HandSeat``) and the counted results into each member's plain
counts, the contract ``manage.py player_stats`` prints (docs/player-stats.md); on them,
:mod:`~scoring.stats.families` (which rulesets a family's figures read),
:mod:`~scoring.stats.figures` (a member's figures), :mod:`~scoring.stats.intervals` (their
95% intervals), :mod:`~scoring.stats.feeding` (who fed whom) and
:mod:`~scoring.stats.head_to_head` (two members against each other)."""
