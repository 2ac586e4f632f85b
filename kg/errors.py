"""User-facing errors: the CLI prints these as one clear message, never a traceback."""


class KGError(Exception):
    """An error caused by the user's input or environment (bad path, bad file, bad query)."""


class DataNotFound(KGError):
    """Input data (HERB, ERB) is missing; the message says where to get it and how to point at it."""


class Unavailable(KGError):
    """An endpoint that could not be reached or answered 5xx: another replica of the same data may answer."""


class ShardDown(KGError):
    """Every replica of a shard failed to connect or answered 5xx: its products cannot be answered now."""

    def __init__(self, shard: str, products: list[str], message: str) -> None:
        super().__init__(message)
        self.shard, self.products = shard, products
