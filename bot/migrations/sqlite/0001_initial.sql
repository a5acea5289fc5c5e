-- Challenges, games as append-only action lists, ratings, timers, metadata.

CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    challenger_id   INTEGER NOT NULL,
    opponent_id     INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    size            INTEGER NOT NULL,
    variants        TEXT    NOT NULL DEFAULT '',   -- space-separated, sorted
    seat            TEXT    NOT NULL,              -- challenger's seat: first | second | random
    rated           INTEGER NOT NULL,
    thread          INTEGER NOT NULL,
    message_id      INTEGER,
    status          TEXT    NOT NULL DEFAULT 'open',  -- open | accepted | declined | withdrawn | expired
    game_id         INTEGER,
    created_at      REAL    NOT NULL,
    expires_at      REAL    NOT NULL
);
CREATE INDEX challenges_open ON challenges (channel_id, opponent_id) WHERE status = 'open';

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,           -- where it is played (a channel or a thread)
    parent_id       INTEGER,                    -- the channel a game thread hangs off
    game            TEXT    NOT NULL,
    size            INTEGER NOT NULL,
    variants        TEXT    NOT NULL DEFAULT '',
    first           TEXT,                       -- Blind Hex: who won the cut (x | o)
    seed            INTEGER NOT NULL,           -- the random draw (seats, cut), kept for the record
    seat0_id        INTEGER NOT NULL,           -- who started with the first colour (white / black / x)
    seat1_id        INTEGER NOT NULL,
    rated           INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'active',  -- active | finished | aborted
    winner_seat     INTEGER,
    reason          TEXT,
    challenge_id    INTEGER REFERENCES challenges (id),
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL,
    finished_at     REAL
);
-- One game in progress per channel or thread.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_guild ON games (guild_id, status);

CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL,               -- 0-based position in the record
    action      TEXT    NOT NULL,               -- canonical notation
    user_id     INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)                  -- a double submission cannot apply twice
) WITHOUT ROWID;

CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;

CREATE TABLE rating_changes (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    user_id     INTEGER NOT NULL,
    before      REAL    NOT NULL,
    after       REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- Every timed event (challenge expiry, clock deadlines, reminders) is a row here,
-- driven by one background task, so timers survive restarts.
CREATE TABLE timers (
    id          INTEGER PRIMARY KEY,
    due_at      REAL    NOT NULL,
    kind        TEXT    NOT NULL,
    ref_id      INTEGER NOT NULL,
    payload     TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX timers_due ON timers (due_at);

CREATE TABLE meta (
    key     TEXT PRIMARY KEY,
    value   TEXT NOT NULL
) WITHOUT ROWID;

-- Display names as last seen, for board pictures and leaderboards
-- (the bot runs with default intents, so it has no member list to ask).
CREATE TABLE players (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
