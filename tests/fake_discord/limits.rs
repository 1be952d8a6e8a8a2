//! Discord's rate limits, as the fake answers them. A test asks for a storm of 429s on
//! a route ([`Fake::rate_limit_storm`]) or for the global limit ([`Fake::global_limit`]);
//! each 429 carries `retry_after` (seconds, a float) in its JSON body and the headers
//! Discord sends (`Retry-After` in whole seconds, rounded up; `X-RateLimit-*`, with
//! `X-RateLimit-Global: true` and `X-RateLimit-Scope: global` for the global limit).
//!
//! Once it has answered a 429 the fake enforces it, as Discord does: until `retry_after`
//! has passed, another request on that route (on any route but the interaction
//! endpoints, for the global limit) is answered 429 again and kept as a request that did
//! not wait ([`Fake::early_requests`]).

use super::{Fake, Recorded};
use serde_json::{json, Value};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// 429s the test asked for: the next `left` requests with `method` whose path matches
/// `pattern` (segments, `*` for any one) get one.
struct Storm {
    method: String,
    pattern: String,
    left: usize,
    retry_after: Duration,
    global: bool,
}

/// A limit in force after a 429: no request on `route` (`None`: on any route the global
/// limit binds) before `until`.
struct Window {
    route: Option<(String, String)>,
    until: Instant,
}

/// The rate limits of a fake: those asked for and those in force.
#[derive(Default)]
pub(super) struct Limits {
    storms: Vec<Storm>,
    windows: Vec<Window>,
    early: Vec<Limited>,
}

/// A request the fake answered with 429 because it came while a limit was in force.
#[derive(Clone, Debug)]
pub struct Limited {
    /// GET, POST, ...
    pub method: String,
    /// Its path (after `/api/v10`).
    pub path: String,
    /// Whether the limit it broke was the global one.
    pub global: bool,
    /// How long before the end of the limit it came.
    pub early_by: Duration,
}

/// The status, JSON body and headers of a 429.
pub(super) type Answer = (u16, Value, Vec<(&'static str, String)>);

/// Whether `path` matches `pattern`, segment by segment, `*` matching any one.
fn matches(pattern: &str, path: &str) -> bool {
    let p: Vec<&str> = pattern.trim_matches('/').split('/').collect();
    let s: Vec<&str> = path.trim_matches('/').split('/').collect();
    p.len() == s.len() && p.iter().zip(&s).all(|(p, s)| *p == "*" || p == s)
}

/// Whether the global limit binds a request on `path`: the interaction endpoints
/// (callbacks and their webhooks) are not bound by it.
fn under_global(path: &str) -> bool {
    !path.starts_with("/interactions/") && !path.starts_with("/webhooks/")
}

/// A 429 as Discord sends it, asking to wait `after`.
fn too_many(after: Duration, global: bool) -> Answer {
    let secs = after.as_secs_f64();
    let body =
        json!({"message": "You are being rate limited.", "retry_after": secs, "global": global});
    let mut headers = vec![("retry-after", (secs.ceil() as u64).max(1).to_string())];
    if global {
        headers.push(("x-ratelimit-global", "true".to_string()));
        headers.push(("x-ratelimit-scope", "global".to_string()));
    } else {
        let reset = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            + after;
        headers.extend([
            ("x-ratelimit-limit", "5".to_string()),
            ("x-ratelimit-remaining", "0".to_string()),
            ("x-ratelimit-reset", format!("{:.3}", reset.as_secs_f64())),
            ("x-ratelimit-reset-after", format!("{secs:.3}")),
            ("x-ratelimit-bucket", "f4e2c1d0b9a8".to_string()),
            ("x-ratelimit-scope", "user".to_string()),
        ]);
    }
    (429, body, headers)
}

impl Limits {
    /// The 429 for a request with `method` on `path` arriving `now`, if it gets one: a
    /// limit in force (the request did not wait: kept) or a storm's next.
    pub(super) fn check(&mut self, method: &str, path: &str, now: Instant) -> Option<Answer> {
        self.windows.retain(|w| w.until > now);
        let route = (method.to_string(), path.to_string());
        let in_force = self.windows.iter().find(|w| match &w.route {
            None => under_global(path),
            Some(r) => *r == route,
        });
        if let Some(w) = in_force {
            let left = w.until - now;
            let global = w.route.is_none();
            self.early.push(Limited {
                method: method.to_string(),
                path: path.to_string(),
                global,
                early_by: left,
            });
            return Some(too_many(left, global));
        }
        let storm = self.storms.iter_mut().find(|s| {
            s.left > 0
                && s.method == method
                && matches(&s.pattern, path)
                && (!s.global || under_global(path))
        })?;
        storm.left -= 1;
        let (after, global) = (storm.retry_after, storm.global);
        self.storms.retain(|s| s.left > 0);
        self.windows.push(Window {
            route: (!global).then_some(route),
            until: now + after,
        });
        Some(too_many(after, global))
    }
}

impl Fake {
    /// The next `n` requests with `method` on a path matching `pattern` (segments, `*`
    /// for any one: `/channels/*/messages`) are answered 429 (this route's limit, scope
    /// `user`) asking to wait `retry_after`.
    pub fn rate_limit_storm(&self, method: &str, pattern: &str, n: usize, retry_after: Duration) {
        self.push_storm(method, pattern, n, retry_after, false);
    }

    /// The next request with `method` on a path matching `pattern` is answered with the
    /// global 429, asking to wait `retry_after` before any request (but those of
    /// interactions).
    pub fn global_limit(&self, method: &str, pattern: &str, retry_after: Duration) {
        self.push_storm(method, pattern, 1, retry_after, true);
    }

    fn push_storm(
        &self,
        method: &str,
        pattern: &str,
        n: usize,
        retry_after: Duration,
        global: bool,
    ) {
        self.shared.inner.lock().unwrap().limits.storms.push(Storm {
            method: method.to_string(),
            pattern: pattern.to_string(),
            left: n,
            retry_after,
            global,
        });
    }

    /// The 429s of storms asked for that have not been answered yet.
    pub fn storm_left(&self) -> usize {
        let inner = self.shared.inner.lock().unwrap();
        inner.limits.storms.iter().map(|s| s.left).sum()
    }

    /// The requests that came while a limit was in force (answered 429 again).
    pub fn early_requests(&self) -> Vec<Limited> {
        self.shared.inner.lock().unwrap().limits.early.clone()
    }
}

/// The requests of `reqs` that came before the `retry_after` of an earlier 429 had
/// passed: on its route for a route's limit, on any route the global limit binds for the
/// global one. Compares the fake's recorded instants only (each taken when the fake
/// answered), so a client that waited is never counted.
pub fn sent_too_soon(reqs: &[Recorded]) -> Vec<(Recorded, Recorded)> {
    let mut bad = Vec::new();
    for limited in reqs.iter().filter(|r| r.status == 429) {
        let after = limited.response["retry_after"].as_f64().unwrap_or(0.0);
        let until = limited.at + Duration::from_secs_f64(after);
        let global = limited.response["global"] == json!(true);
        for r in reqs.iter().filter(|r| r.at > limited.at) {
            let bound = match global {
                true => under_global(&r.path),
                false => r.method == limited.method && r.path == limited.path,
            };
            if bound && r.at < until {
                bad.push((limited.clone(), r.clone()));
            }
        }
    }
    bad
}
