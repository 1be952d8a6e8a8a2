-- Each Discord server's own settings, as SQLite's migration 0017: prefix, whether typed
-- commands are read (0 or 1), the channels where games may start ('' for anywhere),
-- default days per move and variant options (JSON), and the moderators' role.
CREATE TABLE server_settings (
    server TEXT PRIMARY KEY,
    prefix TEXT NOT NULL,
    text_commands BIGINT NOT NULL,
    channels TEXT NOT NULL,
    days BIGINT,
    options TEXT NOT NULL,
    moderator_role TEXT,
    updated_at BIGINT NOT NULL,
    version BIGINT NOT NULL
);
