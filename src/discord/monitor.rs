//! The operator's HTTP listener (`metrics_addr`, off by default): `GET /metrics` serves
//! the [`Telemetry`] in the Prometheus text format, `GET /healthz` answers 200 `ok` when
//! every gateway shard this process runs is connected and the database answers, else 503
//! with a one-line reason. Anything else is 404. It reads no request body and holds no
//! state of its own; HTTP is hyper's.

use crate::service::referee::Service;
use crate::telemetry::Telemetry;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serenity::all::ShardManager;
use serenity::gateway::ConnectionStage;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
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

/// Starts serving `probe` on `addr`; returns the address bound (a port 0 gets one) and
/// the task, which the bot aborts when it stops.
pub(super) async fn serve(
    addr: SocketAddr,
    probe: Probe,
) -> std::io::Result<(SocketAddr, JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    tracing::info!(%bound, "serving /metrics and /healthz");
    let task = tokio::spawn(async move {
        loop {
            let (stream, _) = match listener.accept().await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %e, "the metrics listener cannot accept");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let probe = probe.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| {
                    let probe = probe.clone();
                    async move { Ok::<_, std::convert::Infallible>(probe.answer(req).await) }
                });
                let conn = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service);
                if let Err(e) = conn.await {
                    tracing::debug!(error = %e, "a metrics connection ended with an error");
                }
            });
        }
    });
    Ok((bound, task))
}
