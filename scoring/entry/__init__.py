"""The table's input: the hand form, the value pad and the tile keyboard behind it, the new-game
forms and the figures the offline panel carries to the phone.

Builds on the rulebook's labels (``scoring.rulebook``), the tiles and the engine; stores
nothing itself: the views hand what it reads to the ledger (``scoring.ledger``).
"""
