"""The frozen held-out quarter of each corpus, chosen by a stable hash of the item's id.

The same id always lands on the same side, whatever else is added to the corpus, so the
held-out items stay unseen as the corpora grow. Nobody reads held-out items or their results
while tuning the engine: the report prints only their figures.
"""

from __future__ import annotations

import hashlib

HOLDOUT_BUCKETS = 4  # one bucket in four is held out


def is_held_out(item_id: str) -> bool:
    digest = hashlib.sha256(f"todo-corpus-split:{item_id}".encode()).digest()
    return digest[0] % HOLDOUT_BUCKETS == 0


def split_name(item_id: str) -> str:
    return "holdout" if is_held_out(item_id) else "tuning"
