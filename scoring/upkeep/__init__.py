"""Keeping a site: the restore drill, seeding a season's history, the sample games of the demo
club and the game-record files of ``manage.py replay``.

Used by the management commands, the benchmarks and the tests; no page imports it.
"""
