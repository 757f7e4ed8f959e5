"""A ruleset in words: what the rules pages, the sheet, the forms' choices and the hand labels
say of the engine's parameters, in the reader's language.

Builds on the engine (``scoring.engine``) and nothing of the ledger: a ruleset reads the same
whatever games are stored. The table's input (``scoring.entry``) and the pages use it.
"""
