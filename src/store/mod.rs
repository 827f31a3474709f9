//! Per-game store: the hash-chained journal, snapshots, secrets and outbox, written atomically.
