"""Hands from tiles: mpsz notation and the evaluation of a winning hand under a
ruleset, built on the ``mahjong`` package. Pure Python: no Django import."""
