-- Several bot processes: a timer belongs to a server (its shard's process fires it) and is
-- claimed for a while (a lease) by the process that fires it, so no two fire the same one.

ALTER TABLE timers ADD COLUMN guild_id INTEGER;          -- NULL: no server (shard 0)
ALTER TABLE timers ADD COLUMN claimed_by TEXT;           -- the process handling it now
ALTER TABLE timers ADD COLUMN claimed_until REAL;        -- its claim lapses then (a crashed claimant)

UPDATE timers SET guild_id = (SELECT guild_id FROM challenges WHERE challenges.id = timers.ref_id)
    WHERE kind = 'challenge-expiry';
UPDATE timers SET guild_id = (SELECT guild_id FROM games WHERE games.id = timers.ref_id)
    WHERE kind <> 'challenge-expiry';

-- /history, /stats and /leaderboard stay fast with 100,000 stored games (bench/scale.py).
-- (the partial index's condition is written as the query writes it, so SQLite can use it)
CREATE INDEX games_finished ON games (guild_id, finished_at DESC, id DESC) WHERE status != 'active';
CREATE INDEX games_seat0 ON games (guild_id, seat0_id);
CREATE INDEX games_seat1 ON games (guild_id, seat1_id);
CREATE INDEX ratings_board ON ratings (guild_id, game, rating);
