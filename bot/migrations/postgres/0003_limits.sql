-- Limits against abuse (bot/data/limits.toml): the values a server's admins set with /settings;
-- a limit without a row is at its default.
CREATE TABLE guild_limits (
    guild_id    BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    value       INTEGER NOT NULL,
    PRIMARY KEY (guild_id, name)
);

-- What the limits count: a server's open challenges by challenger and by target, and a member's
-- games against the computer in progress.
CREATE INDEX challenges_open_from ON challenges (guild_id, challenger_id) WHERE status = 'open';
CREATE INDEX challenges_open_to ON challenges (guild_id, opponent_id) WHERE status = 'open';
CREATE INDEX games_active_ai ON games (guild_id) WHERE status = 'active' AND ai_level IS NOT NULL;

-- Replay GIFs made once and posted again: a cache of the ones used most recently (no foreign key:
-- a copy of the database leaves it out, and a kept GIF is checked against the key it was made from).
CREATE TABLE replay_gifs (
    game_id     BIGINT  PRIMARY KEY,
    key         TEXT    NOT NULL,           -- a hash of what the GIF was made from (moves, names, look)
    gif         BYTEA   NOT NULL,
    made_at     DOUBLE PRECISION NOT NULL,
    used_at     DOUBLE PRECISION NOT NULL
);
CREATE INDEX replay_gifs_used ON replay_gifs (used_at);
