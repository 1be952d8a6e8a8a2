//! Database URLs with their secrets hidden, for every log line, error and echo: the
//! password of the user information (`postgres://user:secret@host/db`) and the value of
//! every parameter whose name ends in `password` (libpq's `?password=`, `sslpassword=`;
//! also in the `key=value` form), whatever the scheme. One place, so that no message
//! hides one form and prints the other.
//!
//! The URL is read as sqlx reads it (the `url` crate), so what is hidden is what sqlx
//! would send as the password; a URL the crate cannot read is hidden whole after its
//! scheme.

use url::Url;

/// What a hidden secret is shown as.
pub const HIDDEN: &str = "***";

/// `url` with every secret in it replaced by [`HIDDEN`]; a SQLite path or URL without a
/// secret comes back as it was.
pub fn redact_url(url: &str) -> String {
    match Url::parse(url) {
        Ok(mut parsed) => {
            let mut changed = false;
            if parsed.password().is_some() {
                changed = parsed.set_password(Some(HIDDEN)).is_ok();
            }
            if let Some(query) = parsed.query() {
                let hidden = hide_params(query, &['&']);
                if hidden != query {
                    parsed.set_query(Some(&hidden));
                    changed = true;
                }
            }
            if changed {
                parsed.to_string()
            } else {
                url.to_string()
            }
        }
        // Not a URL the crate reads: a path, or libpq's `key=value` form, or a URL sqlx
        // cannot read either (hidden whole after its scheme, for it may hold anything).
        Err(_) => match url.split_once("://") {
            Some((scheme, _)) => format!("{scheme}://{HIDDEN}"),
            None => hide_params(url, &['&', '?', ' ', '\t', '\n', ';']),
        },
    }
}

/// `text` (an error, a log line) with every secret of `url` replaced by [`HIDDEN`]: the
/// URL itself by its redacted form, then each secret wherever it still appears, as
/// written and percent-decoded (a driver's error may quote either).
pub fn scrub(text: &str, url: &str) -> String {
    let mut out = if url.is_empty() {
        text.to_string()
    } else {
        text.replace(url, &redact_url(url))
    };
    for secret in secrets(url) {
        out = out.replace(&secret, HIDDEN);
    }
    out
}

/// The secrets of `url`, longest first (so that a secret containing another is hidden
/// whole), each as written and decoded.
fn secrets(url: &str) -> Vec<String> {
    let mut found = Vec::new();
    match Url::parse(url) {
        Ok(parsed) => {
            if let Some(password) = parsed.password() {
                found.push(password.to_string());
            }
            if let Some(query) = parsed.query() {
                found.extend(param_secrets(query, &['&']));
            }
        }
        Err(_) => match url.split_once("://") {
            Some((_, rest)) => found.push(rest.to_string()),
            None => found.extend(param_secrets(url, &['&', '?', ' ', '\t', '\n', ';'])),
        },
    }
    let decoded: Vec<String> = found.iter().map(|s| decode(s)).collect();
    found.extend(decoded);
    found.retain(|s| !s.is_empty() && s != HIDDEN);
    found.sort_by_key(|s| std::cmp::Reverse(s.len()));
    found.dedup();
    found
}

/// The first parameter of `url` that names a password but is not `password` itself
/// (libpq's `sslpassword`, a misspelling): sqlx does not read it and would log it, value
/// and all, as unrecognised, so the store refuses such a URL instead.
pub(super) fn foreign_password_param(url: &str) -> Option<String> {
    let parsed = Url::parse(url).ok()?;
    parsed
        .query_pairs()
        .map(|(key, _)| key)
        .find(|key| is_password_key(key) && key != "password")
        .map(|key| key.chars().take(40).collect())
}

/// Whether a parameter's name (percent-decoded, any case) names a password.
fn is_password_key(key: &str) -> bool {
    decode(key)
        .trim()
        .to_ascii_lowercase()
        .ends_with("password")
}

/// `params` (pieces separated by any of `separators`, each `key=value`) with the value
/// of each password parameter replaced by [`HIDDEN`].
fn hide_params(params: &str, separators: &[char]) -> String {
    let mut out = String::with_capacity(params.len());
    let mut piece = String::new();
    let flush = |piece: &mut String, out: &mut String| {
        match piece.split_once('=') {
            Some((key, _)) if is_password_key(key) => {
                out.push_str(key);
                out.push('=');
                out.push_str(HIDDEN);
            }
            _ => out.push_str(piece),
        }
        piece.clear();
    };
    for c in params.chars() {
        if separators.contains(&c) {
            flush(&mut piece, &mut out);
            out.push(c);
        } else {
            piece.push(c);
        }
    }
    flush(&mut piece, &mut out);
    out
}

/// The values of the password parameters of `params`, as written.
fn param_secrets(params: &str, separators: &[char]) -> Vec<String> {
    params
        .split(|c| separators.contains(&c))
        .filter_map(|piece| piece.split_once('='))
        .filter(|(key, _)| is_password_key(key))
        .map(|(_, value)| value.to_string())
        .collect()
}

/// `s` percent-decoded, a `+` read as a space (as a query's reader does).
fn decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", s.replace('&', "%26")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_user_password_is_hidden_whatever_the_scheme() {
        for url in [
            "postgres://postgres:SuperSecret123@127.0.0.1:1/x",
            "postgresql://postgres:SuperSecret123@127.0.0.1:1/x?sslmode=require",
            "mysql://u:SuperSecret123@h/x",
            "postgres://postgres:Super%53ecret123@h/x",
        ] {
            let shown = redact_url(url);
            assert!(!shown.contains("SuperSecret123"), "{shown}");
            assert!(!shown.contains("Super%53ecret123"), "{shown}");
            assert!(shown.contains(":***@"), "{shown}");
        }
    }

    #[test]
    fn every_password_parameter_is_hidden() {
        for url in [
            "postgres://postgres@127.0.0.1:1/x?password=QuerySecret9",
            "postgres://h/x?sslmode=disable&PASSWORD=QuerySecret9&application_name=a",
            "postgres://h/x?pass%77ord=QuerySecret9",
            "postgres://h/x?sslpassword=QuerySecret9&password=QuerySecret9",
            "host=h user=u password=QuerySecret9 dbname=x",
            "sqlite:///tmp/a.db?password=QuerySecret9",
            "postal.db?password=QuerySecret9",
        ] {
            let shown = redact_url(url);
            assert!(!shown.contains("QuerySecret9"), "{url}: {shown}");
            assert!(shown.contains(HIDDEN), "{url}: {shown}");
        }
        assert_eq!(
            redact_url("postgres://u@h/x?sslmode=require&password=s3&application_name=a"),
            "postgres://u@h/x?sslmode=require&password=***&application_name=a"
        );
    }

    #[test]
    fn a_password_parameter_sqlx_does_not_read_is_found() {
        let found = |url| foreign_password_param(url);
        assert_eq!(
            found("postgres://h/x?sslpassword=a"),
            Some("sslpassword".into())
        );
        assert_eq!(found("postgres://h/x?Password=a"), Some("Password".into()));
        assert_eq!(found("postgres://h/x?password=a&sslmode=disable"), None);
        assert_eq!(found("postgres://u:p@h/x"), None);
    }

    #[test]
    fn a_url_without_a_secret_is_shown_as_it_is() {
        for url in [
            "sqlite://postal.db",
            "sqlite:postal.db",
            "postal.db",
            "sqlite::memory:",
            "postgres://postal@db.example:5432/postal?options[search_path]=s",
            "/data/me@host/postal.db",
        ] {
            assert_eq!(redact_url(url), url);
        }
    }

    #[test]
    fn an_unreadable_url_is_hidden_after_its_scheme() {
        let url = "postgres://u:Secret7@h:notaport/x";
        assert_eq!(redact_url(url), "postgres://***");
        assert!(!scrub(&format!("cannot open {url}: bad"), url).contains("Secret7"));
    }

    #[test]
    fn scrub_hides_the_url_and_each_secret_as_written_and_decoded() {
        let url = "postgres://u:S%40cret1@h/x?password=Q%2Fsecret2";
        let text = format!("open {url} failed: password S@cret1 or Q/secret2 or S%40cret1");
        let clean = scrub(&text, url);
        for secret in ["S%40cret1", "S@cret1", "Q%2Fsecret2", "Q/secret2"] {
            assert!(!clean.contains(secret), "{clean}");
        }
        assert!(
            clean.contains("postgres://u:***@h/x?password=***"),
            "{clean}"
        );
        assert_eq!(scrub("nothing here", "postal.db"), "nothing here");
    }
}
