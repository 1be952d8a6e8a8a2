//! No database password in anything the binary prints: every command that takes a
//! database (`run` in both log formats, `console`, `export`, `ratings`, `backup`,
//! `forget-user`, `migrate-db`), given a URL with a password in its user information and
//! in `password=` parameters (and in `sslpassword=`, which is refused), on a server that cannot be reached and
//! on one that answers; standard output, standard error and the logs are searched for
//! each secret, as written and percent-decoded.

use crate::common;

use common::postgres::Schema;
use common::service::TempDir;
use std::process::{Command, Output, Stdio};

/// The secrets, as written in the URLs below; each decodes to itself with the `%40`
/// read as `@`.
const SECRETS: &[&str] = &["SuperSecret123", "QuerySecret9", "Ssl%40Secret5"];

/// What a secret could be printed as besides its written form.
const DECODED: &[&str] = &["Ssl@Secret5"];

/// `base` (`postgres://user@host:port/db...`) with a user-info password and a
/// `password=` parameter put in.
fn with_secrets(base: &str) -> String {
    let (scheme, rest) = base.split_once("://").unwrap();
    let (user, host) = rest.split_once('@').unwrap();
    let join = if host.contains('?') { '&' } else { '?' };
    format!("{scheme}://{user}:SuperSecret123@{host}{join}password=QuerySecret9")
}

/// `base` with only the query form of the password.
fn with_query_secret(base: &str) -> String {
    let join = if base.contains('?') { '&' } else { '?' };
    format!("{base}{join}password=QuerySecret9")
}

/// `postal ARGS` in `dir` with `envs`, standard input closed; what it printed, both
/// streams.
fn postal(dir: &TempDir, args: &[&str], envs: &[(&str, &str)]) -> (Output, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_postal"));
    cmd.args(args)
        .current_dir(&dir.0)
        .stdin(Stdio::null())
        .env_remove("POSTAL_CONFIG")
        .env_remove("POSTAL_DISCORD_CONFIG")
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "debug");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

/// Fails if `text` holds any secret.
fn assert_clean(what: &str, text: &str) {
    for secret in SECRETS.iter().chain(DECODED) {
        assert!(
            !text.contains(secret),
            "{what}: the secret {secret} was printed:\n{text}"
        );
    }
}

/// A command to run: its name for messages, its arguments, its environment.
type Run<'a> = (&'a str, Vec<&'a str>, Vec<(&'a str, &'a str)>);

/// Every command taking a database, run on `url`; each one's printout checked.
fn every_command(dir: &TempDir, url: &str, tag: &str) {
    let out = dir.0.join(format!("backup-{tag}.db"));
    let copy = dir.0.join(format!("copy-{tag}.db"));
    let runs: Vec<Run> = vec![
        ("console --db", vec!["console", "--db", url], vec![]),
        (
            "console (DATABASE_URL)",
            vec!["console"],
            vec![("DATABASE_URL", url)],
        ),
        ("export", vec!["export", "1", "--db", url], vec![]),
        (
            "export (DATABASE_URL)",
            vec!["export", "1"],
            vec![("DATABASE_URL", url)],
        ),
        (
            "ratings",
            vec!["ratings", "--recompute", "--db", url],
            vec![],
        ),
        (
            "backup",
            vec!["backup", out.to_str().unwrap(), "--db", url],
            vec![],
        ),
        (
            "forget-user",
            vec!["forget-user", "300000000000000201", "--db", url],
            vec![],
        ),
        (
            "migrate-db --from",
            vec!["migrate-db", "--from", url, "--to", copy.to_str().unwrap()],
            vec![],
        ),
    ];
    for (what, args, envs) in runs {
        let (_, text) = postal(dir, &args, &envs);
        assert_clean(&format!("{tag}: postal {what}"), &text);
    }
    for format in ["text", "json"] {
        let (status, text) = postal(
            dir,
            &["run"],
            &[
                ("DATABASE_URL", url),
                ("DISCORD_TOKEN", "fake.token.value"),
                ("DISCORD_API_BASE", "http://127.0.0.1:1"),
                ("POSTAL_LOG_FORMAT", format),
            ],
        );
        assert!(!status.status.success(), "{tag}: postal run: {text}");
        // The start is logged, naming the database by its host.
        assert!(text.contains("starting"), "{tag}: postal run: {text}");
        assert!(text.contains("127.0.0.1"), "{tag}: postal run: {text}");
        assert_clean(&format!("{tag}: postal run ({format})"), &text);
    }
}

/// A server that closes every connection at once: the database's open fails at the
/// first try (a refused connection would be tried again for the pool's 10 s).
fn closing_server() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            drop(stream);
        }
    });
    port
}

#[test]
fn no_command_prints_the_password_of_an_unreachable_database() {
    let dir = TempDir::new("secrets-unreachable");
    let base = format!("postgres://postgres@127.0.0.1:{}/x", closing_server());
    for url in [
        with_secrets(&base),
        with_query_secret(&base),
        with_secrets(&format!("{base}?sslmode=disable")).replace("postgres://", "postgresql://"),
        // A password parameter sqlx does not read (it would log it as unrecognised,
        // value and all): refused, unprinted.
        format!("{}&sslpassword=Ssl%40Secret5", with_secrets(&base)),
    ] {
        every_command(&dir, &url, "unreachable");
        // The open error names the database, password hidden.
        let (out, text) = postal(&dir, &["export", "1", "--db", &url], &[]);
        assert!(!out.status.success());
        assert!(
            text.contains("@127.0.0.1:") && text.contains("***"),
            "{text}"
        );
        // Either way the database is the one that failed: migrate-db to it too.
        let (_, text) = postal(&dir, &["migrate-db", "--from", "a.db", "--to", &url], &[]);
        assert_clean("migrate-db --to", &text);
    }
}

#[test]
fn no_command_prints_the_password_of_a_database_that_answers() {
    // The project's server trusts its clients: any password is accepted, so every
    // command runs to its end (or its own refusal) with the secrets in its URL.
    let Some(schema) =
        Schema::for_test("no_command_prints_the_password_of_a_database_that_answers")
    else {
        return;
    };
    let dir = TempDir::new("secrets-answering");
    let url = with_secrets(&schema.url());
    every_command(&dir, &url, "answering");
    let (out, text) = postal(&dir, &["backup", "b.db", "--db", &url], &[]);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("pg_dump"), "{text}");
    assert_clean("backup refused", &text);
    // A password parameter sqlx would log: refused before any connection, unprinted.
    let foreign = format!("{url}&sslpassword=Ssl%40Secret5");
    let (out, text) = postal(&dir, &["export", "1", "--db", &foreign], &[]);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("sslpassword is not supported"), "{text}");
    assert_clean("sslpassword", &text);
}
