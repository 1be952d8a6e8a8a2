-- Each Discord server's own settings (`/postal server`), set by its members with Manage
-- Server: the prefix of typed commands, whether typed commands are read at all (0 or 1),
-- the channels where games may start (ids separated by commas; '' for anywhere), the
-- default days per move of its challenges (NULL: the operator's), its default variant
-- options (a JSON object, `{"timer":"3"}`), and the role whose members are its
-- moderators (NULL: only Manage Server). One row per server that changed anything.
-- `version` counts its writes: a write names the version it read and is refused when
-- another process wrote in between, so two changes at once each keep the other's.
CREATE TABLE server_settings (
    server TEXT PRIMARY KEY,
    prefix TEXT NOT NULL,
    text_commands INTEGER NOT NULL,
    channels TEXT NOT NULL,
    days INTEGER,
    options TEXT NOT NULL,
    moderator_role TEXT,
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL
);
