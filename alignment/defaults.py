"""Defaults a user sees in `kg align --help`, kept apart from the pipeline so the help does not import it."""

#: The minimum similarity for a correspondence (tuned on the curated reference's four development pairs).
DEFAULT_THRESHOLD = 0.47
