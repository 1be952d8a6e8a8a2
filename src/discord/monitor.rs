//! The operator's HTTP listener (`metrics_addr`, off by default): `GET /metrics` serves
//! the [`Telemetry`] in the Prometheus text format, `GET /healthz` answers 200 `ok` when
//! every gateway shard this process runs is connected and the database answers, else 503
//! with a one-line reason. Anything else is 404. It reads no request body and holds no
//! state of its own; HTTP is hyper's. Idle and slow clients cannot starve it: a request's
//! header must arrive within [`HEADER_READ_TIMEOUT`] (hyper's timer), and at most
//! [`connection_cap`] connections are served at once.

use crate::service::referee::Service;
use crate::telemetry::Telemetry;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serenity::all::ShardManager;
use serenity::gateway::ConnectionStage;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

/// How long the health check waits for the database.
const DATABASE_WAIT: Duration = Duration::from_secs(2);

/// What the listener reads: the metrics, the database and the gateway.
#[derive(Clone)]
pub(super) struct Probe {
    pub(super) telemetry: Telemetry,
    pub(super) service: Arc<Service>,
    /// The shard manager of the client running now.
    pub(super) shards: Arc<std::sync::Mutex<Arc<ShardManager>>>,
    /// How many shards this process runs.
    pub(super) expected_shards: u32,
}

impl Probe {
    /// Why the bot is not healthy now, or `None` when it is.
    async fn unhealthy(&self) -> Option<String> {
        let manager = self
            .shards
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let connected = manager
            .runners
            .lock()
            .await
            .values()
            .filter(|r| r.stage == ConnectionStage::Connected)
            .count();
        if connected < self.expected_shards as usize {
            return Some(format!(
                "gateway: {connected} of {} shards connected",
                self.expected_shards
            ));
        }
        match tokio::time::timeout(DATABASE_WAIT, self.service.ping()).await {
            Err(_) => Some(format!(
                "database: no answer within {} s",
                DATABASE_WAIT.as_secs()
            )),
            Ok(Err(e)) => Some(format!("database: {}", one_line(&e.to_string()))),
            Ok(Ok(())) => None,
        }
    }

    /// The answer to one request.
    async fn answer(&self, req: Request<Incoming>) -> Response<Full<Bytes>> {
        let get = req.method() == hyper::Method::GET;
        match (get, req.uri().path()) {
            (true, "/metrics") => respond(
                StatusCode::OK,
                "text/plain; version=0.0.4; charset=utf-8",
                self.telemetry.render(),
            ),
            (true, "/healthz") => match self.unhealthy().await {
                None => respond(StatusCode::OK, "text/plain; charset=utf-8", "ok\n".into()),
                Some(why) => respond(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "text/plain; charset=utf-8",
                    format!("{why}\n"),
                ),
            },
            _ => respond(
                StatusCode::NOT_FOUND,
                "text/plain; charset=utf-8",
                "not found: GET /metrics or /healthz\n".into(),
            ),
        }
    }
}

/// `text` on one line, at most 200 characters.
fn one_line(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(200)
        .collect()
}

fn respond(status: StatusCode, kind: &'static str, body: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(kind),
    );
    r
}

/// How long a client has to send a request's whole header, counted from the moment the
/// listener waits for it: a new connection's first request and each next one on a kept
/// connection. A connection idle or half-written that long is closed (hyper's
/// `header_read_timeout`), so idle or slow clients cannot hold the listener.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);

/// The most connections served at once; more wait in the system's backlog until one
/// ends. Also at most half the process's descriptors ([`connection_cap`]), so that a flood
/// of connections never leaves the bot without descriptors for Discord or its database.
pub const MAX_CONNECTIONS: usize = 1000;

/// The listener's bounds: [`HEADER_READ_TIMEOUT`] and [`connection_cap`] in the bot,
/// shorter in tests.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// hyper's header read timeout (also the idle timeout of a kept connection).
    pub header_read: Duration,
    /// Connections served at once.
    pub connections: usize,
}

impl Limits {
    /// The bot's bounds.
    pub fn bot() -> Limits {
        Limits {
            header_read: HEADER_READ_TIMEOUT,
            connections: connection_cap(),
        }
    }
}

/// [`MAX_CONNECTIONS`], or half the process's descriptor limit if that is lower (at
/// least 8).
pub fn connection_cap() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes the one `rlimit` it is given, which lives for the call.
    let soft = match unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } {
        0 => usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX),
        _ => 256,
    };
    MAX_CONNECTIONS.min(soft / 2).max(8)
}

/// Why binding `ip` exposes the listener beyond this machine and its private network,
/// or `None` for a loopback or private address: the docs ask for a private one, since
/// the metrics tell anyone who reads them how the bot is used.
pub fn exposure(ip: IpAddr) -> Option<&'static str> {
    if ip.is_unspecified() {
        return Some("a wildcard address: every interface of this machine, public ones included");
    }
    let private = match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            v6.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
        }
    };
    (!private).then_some("a public address")
}

/// Starts serving `probe` on `addr` within `limits`; returns the address bound (a port
/// 0 gets one) and the task, which the bot aborts when it stops. A wildcard or public
/// address is served, with a warning ([`exposure`]).
pub(super) async fn serve(
    addr: SocketAddr,
    probe: Probe,
    limits: Limits,
) -> std::io::Result<(SocketAddr, JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    if let Some(why) = exposure(bound.ip()) {
        tracing::warn!(
            %bound,
            "the metrics listener is bound to {why}: anyone who can reach it reads the bot's metrics; bind a loopback or private address (metrics_addr)"
        );
    }
    tracing::info!(%bound, "serving /metrics and /healthz");
    let answer = move |req| {
        let probe = probe.clone();
        async move { probe.answer(req).await }
    };
    Ok((bound, tokio::spawn(listen(listener, limits, answer))))
}

/// Serves each connection of `listener` with `answer`, HTTP/1 by hyper: at most
/// `limits.connections` at once (a semaphore's permit held by each connection's task; the
/// next connection is accepted once one ends), each closed when a request's header does
/// not arrive whole within `limits.header_read`.
pub async fn listen<F, Fut>(listener: TcpListener, limits: Limits, answer: F)
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = Response<Full<Bytes>>> + Send + 'static,
{
    let slots = Arc::new(Semaphore::new(limits.connections));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let (stream, _) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "the metrics listener cannot accept");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let answer = answer.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let reply = answer(req);
                async move { Ok::<_, std::convert::Infallible>(reply.await) }
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = conn.await {
                tracing::debug!(error = %e, "a metrics connection ended with an error");
            }
            drop(slot);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;
    use tokio::time::{timeout, Instant};

    #[test]
    fn wildcard_and_public_addresses_are_named() {
        for (ip, expected) in [
            ("0.0.0.0", Some("wildcard")),
            ("::", Some("wildcard")),
            ("203.0.113.7", Some("public")),
            ("2001:db8::1", Some("public")),
            ("127.0.0.1", None),
            ("::1", None),
            ("10.1.2.3", None),
            ("192.168.0.9", None),
            ("172.16.0.1", None),
            ("fd00::1", None),
            ("fe80::1", None),
        ] {
            let found = exposure(ip.parse().unwrap());
            match expected {
                Some(word) => assert!(found.is_some_and(|w| w.contains(word)), "{ip}: {found:?}"),
                None => assert_eq!(found, None, "{ip}"),
            }
        }
    }

    /// A listener answering `ok` within `limits`, and its address.
    async fn start(limits: Limits) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(listen(listener, limits, |_| async {
            respond(StatusCode::OK, "text/plain", "ok\n".into())
        }));
        addr
    }

    /// One `GET /` on a new connection: the whole answer.
    async fn get(addr: SocketAddr) -> String {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    }

    /// Reads `s` until the server closes it; how long that took.
    async fn closed_after(mut s: TcpStream) -> Duration {
        let start = Instant::now();
        let mut buf = [0u8; 256];
        while s.read(&mut buf).await.is_ok_and(|n| n > 0) {}
        start.elapsed()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn idle_and_half_written_connections_are_closed_and_others_served_meanwhile() {
        let limits = Limits {
            header_read: Duration::from_millis(300),
            connections: 4,
        };
        let addr = start(limits).await;
        // Every slot taken: two idle, two with half a header.
        let mut held = Vec::new();
        for half in [false, false, true, true] {
            let mut s = TcpStream::connect(addr).await.unwrap();
            if half {
                s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
            }
            held.push(s);
        }
        // A fifth client is served once a slot frees, within the header timeout and a
        // margin, not never.
        let answer = timeout(Duration::from_secs(3), get(addr)).await;
        assert!(answer.expect("starved").starts_with("HTTP/1.1 200"));
        for s in held {
            let took = timeout(Duration::from_secs(3), closed_after(s))
                .await
                .expect("a held connection stays open");
            assert!(took < Duration::from_secs(2), "{took:?}");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_kept_connection_is_served_then_closed_when_idle() {
        let addr = start(Limits {
            header_read: Duration::from_millis(300),
            connections: 4,
        })
        .await;
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 512];
        let n = s.read(&mut buf).await.unwrap();
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
        let took = timeout(Duration::from_secs(3), closed_after(s))
            .await
            .expect("an idle kept connection stays open");
        assert!(took >= Duration::from_millis(200), "{took:?}");
    }

    #[test]
    fn the_cap_leaves_descriptors_to_the_bot() {
        let cap = connection_cap();
        assert!((8..=MAX_CONNECTIONS).contains(&cap), "{cap}");
    }
}
