//! How `postal run` and `postal console` learn that they are asked to stop.

/// Ctrl-C (SIGINT) and, on Unix, SIGTERM (what service managers and containers send),
/// listened for from the moment it is made: a signal that comes while the bot is still
/// starting waits here instead of killing the process before it can stop cleanly.
pub struct StopSignal {
    #[cfg(unix)]
    unix: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl StopSignal {
    /// Starts listening (within a Tokio runtime).
    pub fn listen() -> StopSignal {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let unix = signal(SignalKind::interrupt())
                .and_then(|int| Ok((int, signal(SignalKind::terminate())?)))
                .ok();
            StopSignal { unix }
        }
        #[cfg(not(unix))]
        StopSignal {}
    }

    /// Waits for a signal; says which.
    pub async fn wait(self) -> &'static str {
        #[cfg(unix)]
        if let Some((mut int, mut term)) = self.unix {
            return tokio::select! {
                _ = int.recv() => "Ctrl-C",
                _ = term.recv() => "SIGTERM",
            };
        }
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}
