-- Reviews found in the background as games end (issue 48: puzzles "found in the background as
-- games finish"): a review queued when a game finished, not asked for by a member, waits behind
-- the asked ones; and which process makes a review (a lease renewed position by position, like
-- the timers' claims), so that two processes on one database never make the same review twice.
ALTER TABLE reviews ADD COLUMN background INTEGER NOT NULL DEFAULT 0;
ALTER TABLE reviews ADD COLUMN claimed_by TEXT;
ALTER TABLE reviews ADD COLUMN claimed_until REAL;
-- A server's switch for them (/settings background_reviews); a server without a row has them on.
CREATE TABLE review_settings (
    guild_id    INTEGER PRIMARY KEY,
    background  INTEGER NOT NULL DEFAULT 1
);
