"""Online game logs into club records, re-scored by the engine. Pure Python."""
