"""User-facing errors: the CLI prints these as one clear message, never a traceback."""


class KGError(Exception):
    """An error caused by the user's input or environment (bad path, bad file, bad query)."""


class DataNotFound(KGError):
    """Input data (HERB, ERB) is missing; the message says where to get it and how to point at it."""
