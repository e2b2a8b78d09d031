from __future__ import annotations

from typing import Any, Callable, Iterator, Union

from ._models import UNSET, Unset


def paginate(fetch_page: Callable[[Union[str, Unset]], Any]) -> Iterator[Any]:
    """Yields every item of every page, asking for the next page only when the previous one is used up."""
    cursor: Union[str, Unset] = UNSET
    while True:
        page = fetch_page(cursor)
        yield from page.items
        next_cursor = page.next_cursor
        if getattr(page, "has_more", None) is False or not next_cursor:
            return
        cursor = next_cursor
