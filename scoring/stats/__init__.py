"""Players' numbers from the ledger's counted games (issue 23): :mod:`scoring.stats.counts`
adds up the per-hand facts (``HandSeat``) and the counted results into each member's plain
counts, the contract ``manage.py player_stats`` prints (docs/player-stats.md)."""
