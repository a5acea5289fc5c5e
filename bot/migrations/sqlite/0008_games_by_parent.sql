-- A command in a channel without a game looks for the player's games in that channel's threads:
-- an index of the games in progress by the channel their thread hangs off, so it reads those only.
CREATE INDEX games_active_parent ON games (parent_id) WHERE status = 'active';
