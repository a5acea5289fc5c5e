-- A rematch is a challenge that names the game it repeats. One game has at most one rematch
-- asked for or started at a time (two presses of Rematch, even at once or in two processes).
ALTER TABLE challenges ADD COLUMN rematch_of INTEGER;    -- NULL: an ordinary challenge
CREATE UNIQUE INDEX challenges_one_rematch ON challenges (rematch_of) WHERE status IN ('open', 'accepted');
