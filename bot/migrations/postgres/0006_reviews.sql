-- Game reviews (the Review button, /review): one row per reviewed game, and each position's
-- value as the AI workers compute it, so that a restart resumes a review where it stopped and
-- a finished one is served again without a search.
CREATE TABLE reviews (
    game_id     BIGINT  PRIMARY KEY,
    key         TEXT    NOT NULL,           -- a hash of what the review is of (moves, budget, seed)
    total       INTEGER NOT NULL,           -- how many positions it values
    asked_at    DOUBLE PRECISION NOT NULL,
    done_at     DOUBLE PRECISION            -- NULL while it runs
);
CREATE INDEX reviews_running ON reviews (asked_at) WHERE done_at IS NULL;
CREATE TABLE review_values (
    game_id     BIGINT  NOT NULL,
    ply         INTEGER NOT NULL,           -- the position after this many of the game's actions
    seat0       DOUBLE PRECISION NOT NULL,  -- the first player's chance to win there (0-1)
    proven      BOOLEAN NOT NULL,           -- true when the search proved it
    best        TEXT,                       -- the search's move there (NULL: none)
    PRIMARY KEY (game_id, ply)
);
-- Puzzles (issue 48, /puzzle to come): positions of finished games where the player to move had
-- a win the search proved and played a move that threw it away; found from a finished review.
CREATE TABLE puzzles (
    game_id     BIGINT  NOT NULL,
    ply         INTEGER NOT NULL,           -- the position after this many of the game's actions
    mover       TEXT    NOT NULL,           -- the colour to find the win for
    answer      TEXT    NOT NULL,           -- the proven winning move the search found
    missed      TEXT    NOT NULL,           -- the move played instead
    found_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, ply)
);
