"""What if the club had played under other rules (docs/what-if.md): a
period's counted games re-scored under another ruleset's payment and settlement rules, from
their hands as entered, and each member's standing both ways.

Modules: :mod:`~scoring.whatif.rules` (which rules are taken from the other ruleset),
:mod:`~scoring.whatif.games` (one game re-scored, or why it cannot be),
:mod:`~scoring.whatif.standings` (the members' totals both ways) — pure Python over
records — and :mod:`~scoring.whatif.period` (the period's counted games, read through the
ledger's façade).
"""
