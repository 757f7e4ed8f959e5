"""Benchmarks run by ``make bench`` (speed targets live here, never in timed tests)."""
