"""What the sandbox's modular APIs hold (SQLite, beside the other state): one JSON document per API, property and
key (``details``, ``settings``, ``description``, ``contacts``, ``facilities``, a room's facilities and bathrooms,
``charges``, ``policies``), and a counter per kind of id the platform gives (facility instances, bathrooms,
policies). Families keep their own merge rules; this module only stores and reads.

``GET /_sandbox/modular/{api}.json?property=ID`` serves one property's documents of an API (:meth:`ModularStore.dump`).
"""

from __future__ import annotations

import json
from typing import Any

from workbench.sandbox.platform.store import Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS modular_docs (api TEXT NOT NULL, property_id INTEGER NOT NULL, key TEXT NOT NULL,
    body TEXT NOT NULL, ruid TEXT, PRIMARY KEY (api, property_id, key));
"""

#: the APIs whose documents ``/_sandbox/modular/{api}.json`` serves
APIS = ("property", "contacts", "facilities", "charges", "policies", "rooms")


class ModularStore:
    """The documents of the modular APIs (tables made on start when missing)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.locked() as db:
            db.executescript(SCHEMA)

    def get(self, api: str, property_id: int, key: str) -> Any:
        """The stored document (decoded), or None."""
        with self.store.locked() as db:
            row = db.execute("SELECT body FROM modular_docs WHERE api=? AND property_id=? AND key=?",
                             (api, property_id, key)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, api: str, property_id: int, key: str, body: Any, ruid: str = "") -> None:
        text = json.dumps(body, ensure_ascii=False, sort_keys=True)
        with self.store.locked() as db:
            db.execute("INSERT OR REPLACE INTO modular_docs VALUES (?,?,?,?,?)", (api, property_id, key, text, ruid))

    def delete(self, api: str, property_id: int, key: str) -> bool:
        with self.store.locked() as db:
            return db.execute("DELETE FROM modular_docs WHERE api=? AND property_id=? AND key=?",
                              (api, property_id, key)).rowcount > 0

    def keys(self, api: str, property_id: int | None = None, prefix: str = "") -> list[tuple[int, str]]:
        """``(property_id, key)`` of the documents of ``api`` (of one property), keys starting with ``prefix``."""
        sql = "SELECT property_id, key FROM modular_docs WHERE api=? AND key >= ? AND key < ?"
        args: list[object] = [api, prefix, prefix + "\U0010ffff"]
        if property_id is not None:
            sql += " AND property_id=?"
            args.append(property_id)
        with self.store.locked() as db:
            return [(int(p), str(k)) for p, k in db.execute(sql + " ORDER BY property_id, key", args)]

    def next_id(self, kind: str, start: int) -> int:
        """A new id of ``kind`` (``instance``, ``bathroom``, ``policy``): never given twice."""
        key = f"modular_seq:{kind}"
        with self.store.locked() as db:
            row = db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
            n = int(row[0]) + 1 if row else start
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(n)))
        return n

    def dump(self, api: str, property_id: int) -> dict[str, Any]:
        """Every document of ``api`` for the property, by key."""
        return {key: self.get(api, pid, key) for pid, key in self.keys(api, property_id)}
