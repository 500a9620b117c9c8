"""What an analyst does end to end, per kind of data: check -> plan -> send -> results.

``rates`` (check_rates, dry_run, push_rates) and ``rooms`` (check_rooms, preview_rooms,
push_rooms). A flow ties the pure stages (``loaders``, ``expectations``) to the writers and the
platform reads; it holds no parsing, no message building and no HTTP of its own.
"""
