"""Reading cells of the rooms frames: blank (NA) as ``None``, whole numbers as ``int``."""

from __future__ import annotations

from typing import cast

import pandas as pd

from expectations.rooms import room_type_code


def value(x: object) -> object:
    """A cell's value, ``None`` when blank."""
    return None if x is None or (not isinstance(x, (list, tuple, dict, set)) and pd.isna(x)) else x


def text(x: object) -> str | None:
    """A cell of a ``string`` column (``room_id``, ``room_name``): its text, or ``None`` when blank."""
    return cast("str | None", value(x))


def integer(x: object) -> int | None:
    x = value(x)
    return None if x is None else int(x)  # type: ignore[call-overload]


def same(column: str, a: object, b: object) -> bool:
    """Whether two values of a rooms column mean the same (a room type as code or name)."""
    if a is None or b is None:
        return a is b
    if column == "room_type":
        ca, cb = room_type_code(a), room_type_code(b)
        if ca is not None and cb is not None:
            return ca == cb
        return str(a).strip().casefold() == str(b).strip().casefold()
    return wire(a) == wire(b)


def wire(x: object) -> str:
    """How a value is written in a request attribute (``3`` for 3, 3.0 and ``"3"``)."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x).strip() if isinstance(x, str) else str(x)
