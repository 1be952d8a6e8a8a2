//! The key a chat event is stored by (`events.key`, migration 0024): what the
//! duplicate-delivery check looks up, in as few bytes as the id allows.
//!
//! A Discord id, `msg:<snowflake>` or `int:<snowflake>`, is a tag byte ([`MESSAGE`],
//! [`INTERACTION`]) and the snowflake's eight bytes, most significant first (nine bytes
//! where its text takes 23; keys of later events sort later). Any other id (the console's,
//! a test's, a snowflake written another way such as `msg:007`) is [`TEXT`] and the id's
//! UTF-8 bytes. The mapping is exact, not a hash: two ids never share a key, and
//! [`event_id`] gives the id back. The migration converts stored ids by the same rule
//! (`tests/store/event_keys.rs` holds the two to each other).

/// The tag of an id kept as its text.
pub const TEXT: u8 = 0;
/// The tag of a Discord message's id (`msg:`).
pub const MESSAGE: u8 = 1;
/// The tag of a Discord interaction's id (`int:`).
pub const INTERACTION: u8 = 2;

/// The snowflake of `rest`, when it is written exactly as an `i64` writes a non-negative
/// number (digits alone, no sign, no leading zero): only then is the id kept as a number,
/// so that the number gives the same text back.
fn snowflake(rest: &str) -> Option<i64> {
    if !rest.bytes().next()?.is_ascii_digit() {
        return None;
    }
    let n: i64 = rest.parse().ok()?;
    (n.to_string() == rest).then_some(n)
}

/// The stored key of event `id`.
pub fn event_key(id: &str) -> Vec<u8> {
    let tagged = [("msg:", MESSAGE), ("int:", INTERACTION)]
        .into_iter()
        .find_map(|(prefix, tag)| Some((tag, snowflake(id.strip_prefix(prefix)?)?)));
    match tagged {
        Some((tag, n)) => {
            let mut key = Vec::with_capacity(9);
            key.push(tag);
            key.extend_from_slice(&n.to_be_bytes());
            key
        }
        None => {
            let mut key = Vec::with_capacity(1 + id.len());
            key.push(TEXT);
            key.extend_from_slice(id.as_bytes());
            key
        }
    }
}

/// The event id a key was made from ([`event_key`]'s inverse); `None` for bytes no id
/// gives.
pub fn event_id(key: &[u8]) -> Option<String> {
    let (&tag, rest) = key.split_first()?;
    let prefix = match tag {
        TEXT => return String::from_utf8(rest.to_vec()).ok(),
        MESSAGE => "msg:",
        INTERACTION => "int:",
        _ => return None,
    };
    let n = i64::from_be_bytes(rest.try_into().ok()?);
    (n >= 0).then(|| format!("{prefix}{n}"))
}

/// The milliseconds since Discord's epoch (2015-01-01) at which the event of a Discord
/// key (a message's or an interaction's) was made, from its snowflake's top 42 bits;
/// `None` for any other key.
pub fn discord_millis(key: &[u8]) -> Option<i64> {
    let (&tag, rest) = key.split_first()?;
    if tag != MESSAGE && tag != INTERACTION {
        return None;
    }
    let n = i64::from_be_bytes(rest.try_into().ok()?);
    (n >= 0).then_some(n >> 22)
}

/// The smallest key of `tag` made at `millis` since Discord's epoch or later: keys of
/// that tag below it are older.
pub fn discord_bound(tag: u8, millis: i64) -> Vec<u8> {
    let mut key = Vec::with_capacity(9);
    key.push(tag);
    key.extend_from_slice(&(millis.max(0) << 22).to_be_bytes());
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_discord_id_is_its_tag_and_eight_bytes() {
        let key = event_key("msg:1234567890123456789");
        assert_eq!(key.len(), 9);
        assert_eq!(key[0], MESSAGE);
        assert_eq!(&key[1..], &1234567890123456789i64.to_be_bytes());
        assert_eq!(event_key("int:1")[0], INTERACTION);
    }

    #[test]
    fn other_ids_and_snowflakes_written_otherwise_keep_their_text() {
        for id in [
            "console-1f-3",
            "msg:007",
            "msg:+5",
            "msg:-5",
            "msg:",
            "msg:12a",
            "msg:9223372036854775808",
            "int: 5",
            "bench-1",
            "",
        ] {
            let key = event_key(id);
            assert_eq!(key[0], TEXT, "{id}");
            assert_eq!(&key[1..], id.as_bytes(), "{id}");
        }
        assert_eq!(event_key("msg:9223372036854775807")[0], MESSAGE);
        assert_eq!(event_key("msg:0")[0], MESSAGE);
    }

    #[test]
    fn later_snowflakes_have_later_keys() {
        assert!(event_key("msg:1099511627776") < event_key("msg:1099511627777"));
        assert!(event_key("msg:255") < event_key("msg:256"));
    }

    #[test]
    fn bytes_no_id_gives_are_not_read_as_one() {
        assert_eq!(event_id(&[]), None);
        assert_eq!(event_id(&[3, 1]), None);
        assert_eq!(event_id(&[MESSAGE, 1, 2]), None);
        assert_eq!(event_id(&[MESSAGE, 0x80, 0, 0, 0, 0, 0, 0, 0]), None);
        assert_eq!(event_id(&[TEXT, 0xff]), None);
    }

    proptest! {
        #[test]
        fn every_key_gives_its_id_back(id in "(msg:|int:)?[0-9a-z+-]{0,22}") {
            prop_assert_eq!(event_id(&event_key(&id)), Some(id));
        }

        #[test]
        fn every_snowflake_id_gives_its_id_back(n in 0i64.., tag in prop::bool::ANY) {
            let id = format!("{}{n}", if tag { "msg:" } else { "int:" });
            prop_assert_eq!(event_key(&id).len(), 9);
            prop_assert_eq!(event_id(&event_key(&id)), Some(id));
        }

        #[test]
        fn distinct_ids_have_distinct_keys(a in "(msg:|int:)?[0-9a-z]{0,20}", b in "(msg:|int:)?[0-9a-z]{0,20}") {
            prop_assert_eq!(a == b, event_key(&a) == event_key(&b));
        }
    }
}
