"""Why an outbound request did not happen: ``FetchRefused`` and its public codes."""

from typing import Literal

RefusalCode = Literal["url_not_allowed", "fetch_failed", "too_large"]


class FetchRefused(Exception):
    """An outbound request was refused or failed; ``code`` is part of the public API."""

    def __init__(self, code: RefusalCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code: RefusalCode = code
        self.message = message
