-- Timer ids are never reused. Without AUTOINCREMENT SQLite hands a deleted top rowid out
-- again, so a handler that re-armed its own timer got the id back and the driver, deleting
-- the row it had just handled, deleted the new timer instead.

CREATE TABLE timers_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    due_at      REAL    NOT NULL,
    kind        TEXT    NOT NULL,
    ref_id      INTEGER NOT NULL,
    payload     TEXT    NOT NULL DEFAULT '{}'
);
INSERT INTO timers_new (id, due_at, kind, ref_id, payload) SELECT id, due_at, kind, ref_id, payload FROM timers;
DROP TABLE timers;
ALTER TABLE timers_new RENAME TO timers;
CREATE INDEX timers_due ON timers (due_at);
