-- Tournaments run by the bot (issue 46): the tournament, its entrants, its rounds and their games.
-- The pure rules (bot/tournaments/) rebuild a tournament from these rows; a round's row is the
-- guard that pairs it exactly once (its primary key refuses a second pairing of the same round).

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,           -- where it was created: sign-up, rounds, standings
    organiser_id    INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    size            INTEGER NOT NULL,
    variants        TEXT    NOT NULL DEFAULT '',
    format          TEXT    NOT NULL,           -- swiss | round-robin | knockout
    rounds          INTEGER,                    -- Swiss rounds chosen (NULL: the usual number)
    cycles          INTEGER NOT NULL DEFAULT 1, -- round robin: 1 single, 2 double
    clock           TEXT    NOT NULL,
    max_players     INTEGER NOT NULL,
    rated           INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'open',  -- open | running | finished | cancelled
    message_id      INTEGER,                    -- the sign-up message
    created_at      REAL    NOT NULL
);
CREATE INDEX tournaments_channel ON tournaments (channel_id, id);

CREATE TABLE tournament_entrants (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    user_id         INTEGER NOT NULL,
    seq             INTEGER NOT NULL,           -- sign-up order (seeding keeps it among equal ratings)
    name            TEXT    NOT NULL,
    rating          REAL,                       -- the rating seeds came from (set at the start)
    withdrawn_round INTEGER,                    -- NULL: still in
    withdrawn_reason TEXT,                      -- asked | lapsed
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_rounds (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    number          INTEGER NOT NULL,
    byes            TEXT    NOT NULL DEFAULT '',  -- space-separated user ids
    paired_at       REAL    NOT NULL,
    announced       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, number)
);

CREATE TABLE tournament_games (
    tournament_id   INTEGER NOT NULL,
    round           INTEGER NOT NULL,
    board           INTEGER NOT NULL,
    first_id        INTEGER NOT NULL,           -- the first seat
    second_id       INTEGER NOT NULL,
    game_id         INTEGER UNIQUE REFERENCES games (id),  -- NULL until the game is started
    winner_id       INTEGER,
    ending          TEXT,                       -- played | resigned | time | abandoned | withdrew
    PRIMARY KEY (tournament_id, round, board),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, number)
);

-- A server's tournament settings (/settings): whether only members with Manage Server may create one.
CREATE TABLE tournament_settings (
    guild_id        INTEGER PRIMARY KEY,
    staff_only      INTEGER NOT NULL DEFAULT 0
);
