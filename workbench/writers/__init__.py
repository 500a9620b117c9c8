"""From valid canonical frames to what the platform receives, and the record of what it accepted.

``compress`` (ranges with weekday masks), ``batches`` (one hotel and month per request),
``push`` (deltas, sending through the rate-limited client, results per request and row),
``journal`` (SQLite: outcomes, accepted prices, resume), ``deltas`` (what changed since the
last accepted push) and ``overlay`` (room types: the platform's state merged with the sheet,
bed-only / non-bed-only Overlays, each part sent only whole: ``room_parts``, ``room_amenities``,
``room_subrooms``). Writers take frames, not flow objects.
"""
