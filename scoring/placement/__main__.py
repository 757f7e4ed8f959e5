"""``python -m scoring.placement``: fit every family's prior again on simulated games and
write ``scoring/placement/priors.json`` (:func:`scoring.placement.priors.main`)."""

from scoring.placement.priors import main

main()
