-- The languages chosen (issue 47): a member's own (scope 'user', kept across servers, /language)
-- and a server's for its public messages (scope 'guild', /settings language). No row: Discord's
-- locale of the user or of the server decides.
CREATE TABLE languages (
    scope       TEXT    NOT NULL,           -- 'user' or 'guild'
    id          INTEGER NOT NULL,           -- the user's or the server's id
    language    TEXT    NOT NULL,           -- 'en', 'ja' or 'fr'
    PRIMARY KEY (scope, id)
);
