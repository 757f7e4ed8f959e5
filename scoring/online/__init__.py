"""Online game logs into club records, re-scored by the engine (issue 12). Pure Python."""
