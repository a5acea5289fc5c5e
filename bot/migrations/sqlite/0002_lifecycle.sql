-- Clocks, takebacks, aborts, per-server settings and notification preferences.

ALTER TABLE challenges ADD COLUMN clock TEXT NOT NULL DEFAULT '3d';
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT 'none';   -- time per move: none | 5m | 1h | 1d | 3d | 7d
ALTER TABLE games ADD COLUMN deadline REAL;                         -- when the players to move run out of time

-- Taken-back actions stay in the table, marked, so the record keeps that a takeback happened.
ALTER TABLE actions ADD COLUMN taken_back INTEGER NOT NULL DEFAULT 0;

CREATE TABLE takebacks (
    id              INTEGER PRIMARY KEY,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    requester_id    INTEGER NOT NULL,
    last_seq        INTEGER NOT NULL,           -- the newest action when asked; stale if it changed
    status          TEXT    NOT NULL DEFAULT 'open',  -- open | accepted | declined | stale
    undone          TEXT    NOT NULL DEFAULT '',
    created_at      REAL    NOT NULL
);

CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY,
    default_clock       TEXT    NOT NULL DEFAULT '3d',
    challenge_minutes   INTEGER NOT NULL DEFAULT 15,
    always_thread       INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE notify (
    user_id     INTEGER PRIMARY KEY,
    dm          INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
