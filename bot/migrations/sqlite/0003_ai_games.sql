-- Games against the bot's own AI: the level it plays at (NULL for games between people).
ALTER TABLE games ADD COLUMN ai_level TEXT;
