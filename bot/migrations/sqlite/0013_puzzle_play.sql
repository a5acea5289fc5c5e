-- Playing the puzzles (issue 48's practice: /puzzle, /puzzle mine): each puzzle's own Glicko-2
-- rating (an attempt is a rating period for the member and for the puzzle, lichess-style), every
-- member's attempts (spaced repetition reads them: a failed puzzle comes back after 1, 3, 7 days)
-- and each member's puzzle rating and streak in a server.
ALTER TABLE puzzles ADD COLUMN rating REAL NOT NULL DEFAULT 1500;
ALTER TABLE puzzles ADD COLUMN deviation REAL NOT NULL DEFAULT 350;
ALTER TABLE puzzles ADD COLUMN volatility REAL NOT NULL DEFAULT 0.06;
CREATE TABLE puzzle_attempts (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,           -- the puzzle: (game_id, ply) of table puzzles
    ply         INTEGER NOT NULL,
    line        TEXT    NOT NULL DEFAULT '',  -- the moves played in the puzzle so far, ';' between actions
    status      TEXT    NOT NULL DEFAULT 'open',  -- open | solved | failed | expired
    started_at  REAL    NOT NULL,
    ended_at    REAL                        -- NULL while open
);
-- one open puzzle per member and server at a time
CREATE UNIQUE INDEX puzzle_attempts_open ON puzzle_attempts (guild_id, user_id) WHERE status = 'open';
CREATE INDEX puzzle_attempts_of ON puzzle_attempts (guild_id, user_id, game_id, ply);
CREATE TABLE puzzle_players (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    solved      INTEGER NOT NULL DEFAULT 0,
    failed      INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0, -- puzzles solved in a row, now
    best_streak INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
