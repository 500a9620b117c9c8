"""Deltas: which cells differ from what the platform last accepted (per target)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from workbench.writers.journal import NO_GUESTS, Journal


def cell_keys(frame: pd.DataFrame) -> pd.DataFrame:
    """The journal's view of each row: room, rate, night, guests and a price key."""
    dp = frame["decimal_places"].astype("string").fillna("")
    price = (frame["amount_type"].astype(str) + ":" + frame["amount_minor"].astype(str) + "e-"
             + frame["amount_scale"].astype(str) + ":" + dp + ":" + frame["currency_code"].astype(str))
    return pd.DataFrame({
        "hotel_code": frame["hotel_code"].astype("int64").to_numpy(),
        "inv_type_code": frame["inv_type_code"].astype(str).to_numpy(),
        "rate_plan_code": frame["rate_plan_code"].astype(str).to_numpy(),
        "date": frame["date"].dt.strftime("%Y-%m-%d").to_numpy(),
        "guests": frame["number_of_guests"].fillna(NO_GUESTS).astype("int64").to_numpy(),
        "price": price.to_numpy(),
        "source": frame["source"].astype(str).to_numpy(),
        "sheet": frame["sheet"].astype(str).to_numpy(),
        "row": frame["row"].astype("int64").to_numpy(),
        "column": frame["amount_column"].astype(str).to_numpy(),
    }, index=frame.index)


def changed_mask(frame: pd.DataFrame, journal: Journal, target: str) -> np.ndarray:
    """True for the rows whose price the platform has not accepted yet (new or different)."""
    if frame.empty:
        return np.zeros(0, dtype=bool)
    keys = cell_keys(frame)
    return changed_against(keys, journal.accepted(target, hotels=keys["hotel_code"].unique()))


def changed_against(keys: pd.DataFrame, accepted: pd.DataFrame) -> np.ndarray:
    """True for the rows of ``keys`` (:func:`cell_keys`) whose price differs from ``accepted``
    (``hotel_code, inv_type_code, rate_plan_code, date, guests, price``; a journal's or its
    Parquet snapshot's) or has none there."""
    if accepted.empty:
        return np.ones(len(keys), dtype=bool)
    on = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "guests"]
    merged = keys[on + ["price"]].merge(accepted.rename(columns={"price": "accepted_price"}), on=on, how="left")
    return (merged["accepted_price"] != merged["price"]).fillna(True).to_numpy(dtype=bool)
