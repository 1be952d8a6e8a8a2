//! A small UCI client over one engine child process: `uci`, options, `isready`,
//! `ucinewgame`, `position fen ... moves ...`, `go nodes N`, and the last `info ... score
//! ... pv ...` before `bestmove`. Every wait is bounded by a timeout; an engine that
//! exits, hangs or answers what UCI does not say is an [`EngineError`], and the child is
//! killed when the client is dropped.

use super::{EngineError, Level};
use crate::analysis::{PositionEval, Score};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// The longest line read from an engine; a longer one is garbage.
const MAX_LINE: usize = 16 * 1024;
/// How many lines an engine may print before answering a command (its options, its
/// search's `info` lines); more is garbage.
const MAX_LINES: usize = 200_000;

/// A position for the engine: the variant as UCI names it, the start and the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query<'a> {
    /// `UCI_Variant` (`chess` for standard chess and Chess960).
    pub variant: &'a str,
    /// Whether castling is written king-takes-rook (`UCI_Chess960`).
    pub king_takes_rook: bool,
    /// The starting position in FEN.
    pub fen: &'a str,
    /// The moves from it, in UCI.
    pub moves: &'a [String],
    /// Whether White is to move after them.
    pub white_to_move: bool,
}

/// One running engine.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    /// The variants it lists in its `UCI_Variant` option (empty: only chess).
    variants: Vec<String>,
    /// The options last set, so that they are sent only when they change.
    variant_set: Option<(String, bool)>,
    /// The `Skill Level` last set (20, full strength, as the engine starts).
    skill_set: u8,
    timeout: Duration,
}

impl UciEngine {
    /// Starts the engine at `path`, says `uci` and waits for `uciok`, sets its threads
    /// and hash (MB), and waits until it is ready; each step within `timeout`.
    pub async fn start(
        path: &Path,
        threads: u32,
        hash_mb: u32,
        timeout: Duration,
    ) -> Result<UciEngine, EngineError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineError::Start(path.display().to_string(), e.to_string()))?;
        let stdin = child.stdin.take().ok_or(EngineError::Exited)?;
        let stdout = child.stdout.take().ok_or(EngineError::Exited)?;
        let mut engine = UciEngine {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            variants: Vec::new(),
            variant_set: None,
            skill_set: 20,
            timeout,
        };
        engine.send("uci").await?;
        let mut variants = Vec::new();
        engine
            .read_until(|line| {
                if let Some(rest) = line.strip_prefix("option name UCI_Variant ") {
                    variants = rest
                        .split_whitespace()
                        .skip_while(|w| *w != "var")
                        .filter(|w| *w != "var")
                        .map(str::to_string)
                        .collect();
                }
                line == "uciok"
            })
            .await?;
        engine.variants = variants;
        engine
            .send(&format!("setoption name Threads value {threads}"))
            .await?;
        engine
            .send(&format!("setoption name Hash value {hash_mb}"))
            .await?;
        engine.ready().await?;
        Ok(engine)
    }

    /// Whether the engine plays `variant` (`chess` always).
    pub fn knows(&self, variant: &str) -> bool {
        variant == "chess" || self.variants.iter().any(|v| v == variant)
    }

    /// Evaluates a position with a budget of `nodes`: the last score and line the engine
    /// gave before its `bestmove`, turned to White's side.
    pub async fn evaluate(
        &mut self,
        q: &Query<'_>,
        nodes: u64,
    ) -> Result<PositionEval, EngineError> {
        self.set_up(q, 20).await?;
        self.send(&format!("go nodes {nodes}")).await?;
        let mut last: Option<(Score, Vec<String>)> = None;
        let mut best = String::new();
        self.read_until(|line| {
            if let Some(info) = parse_info(line) {
                last = Some(info);
            }
            match line.strip_prefix("bestmove") {
                Some(rest) => {
                    best = rest.split_whitespace().next().unwrap_or("").to_string();
                    true
                }
                None => false,
            }
        })
        .await?;
        let (score, mut line) = last.ok_or(EngineError::Garbage("no score before bestmove"))?;
        if line.is_empty() && best != "(none)" && !best.is_empty() {
            line.push(best);
        }
        // `mate 0`: the side to move is mated; counted as a mate in one of the winner.
        let score = match score {
            Score::Mate(0) => Score::Mate(-1),
            s => s,
        };
        let score = if q.white_to_move {
            score
        } else {
            score.negated()
        };
        Ok(PositionEval { score, line })
    }

    /// Sets the variant and the skill where they changed, starts a new game and sends
    /// the position.
    async fn set_up(&mut self, q: &Query<'_>, skill: u8) -> Result<(), EngineError> {
        let wanted = (q.variant.to_string(), q.king_takes_rook);
        if self.variant_set.as_ref() != Some(&wanted) {
            if !self.variants.is_empty() {
                self.send(&format!("setoption name UCI_Variant value {}", q.variant))
                    .await?;
            }
            self.send(&format!(
                "setoption name UCI_Chess960 value {}",
                q.king_takes_rook
            ))
            .await?;
            self.variant_set = Some(wanted);
        }
        if self.skill_set != skill {
            self.send(&format!("setoption name Skill Level value {skill}"))
                .await?;
            self.skill_set = skill;
        }
        self.send("ucinewgame").await?;
        self.ready().await?;
        let mut position = format!("position fen {}", q.fen);
        if !q.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&q.moves.join(" "));
        }
        self.send(&position).await
    }

    /// Chooses a move at `level`, held to `nodes`: the engine's `bestmove` (UCI) and its
    /// score of the position from the side to move's view (the first line's, where a
    /// handicapped search looks at several). `None` for the move when the engine has
    /// none (the side to move is mated or stalemated).
    pub async fn play(
        &mut self,
        q: &Query<'_>,
        level: &Level,
        nodes: u64,
    ) -> Result<Chosen, EngineError> {
        self.set_up(q, level.skill).await?;
        self.send(&level.go(nodes)).await?;
        let mut score = None;
        let mut best = String::new();
        self.read_until(|line| {
            if first_line(line) {
                if let Some((s, _)) = parse_info(line) {
                    score = Some(s);
                }
            }
            match line.strip_prefix("bestmove") {
                Some(rest) => {
                    best = rest.split_whitespace().next().unwrap_or("").to_string();
                    true
                }
                None => false,
            }
        })
        .await?;
        let score = score.ok_or(EngineError::Garbage("no score before bestmove"))?;
        let plausible = best.len() <= 10 && best.bytes().all(|b| b.is_ascii_graphic());
        if !plausible {
            return Err(EngineError::Garbage("a best move that is no move"));
        }
        let best = (!best.is_empty() && best != "(none)" && best != "0000").then_some(best);
        Ok(Chosen { best, score })
    }

    /// Says `isready` and waits for `readyok`.
    async fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready").await?;
        self.read_until(|line| line == "readyok").await
    }

    async fn send(&mut self, command: &str) -> Result<(), EngineError> {
        let write = async {
            self.stdin.write_all(command.as_bytes()).await?;
            self.stdin.write_all(b"\n").await?;
            self.stdin.flush().await
        };
        match tokio::time::timeout(self.timeout, write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(EngineError::Exited),
            Err(_) => Err(EngineError::Hung),
        }
    }

    /// Reads lines until `done` says so, within the timeout.
    async fn read_until(&mut self, mut done: impl FnMut(&str) -> bool) -> Result<(), EngineError> {
        let lines = &mut self.lines;
        let read = async move {
            for _ in 0..MAX_LINES {
                let line = match lines.next_line().await {
                    Ok(Some(line)) => line,
                    Ok(None) => return Err(EngineError::Exited),
                    Err(_) => return Err(EngineError::Garbage("a line that is not text")),
                };
                if line.len() > MAX_LINE {
                    return Err(EngineError::Garbage("a line too long"));
                }
                if done(line.trim()) {
                    return Ok(());
                }
            }
            Err(EngineError::Garbage("too many lines"))
        };
        tokio::time::timeout(self.timeout, read)
            .await
            .unwrap_or(Err(EngineError::Hung))
    }

    /// Says `quit` and waits a moment for the engine to end; kills it otherwise.
    pub async fn quit(mut self) {
        let _ = self.send("quit").await;
        if tokio::time::timeout(Duration::from_secs(1), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// A move the engine chose ([`UciEngine::play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The move in UCI; `None` where the side to move has none.
    pub best: Option<String>,
    /// The position's score from the side to move's view.
    pub score: Score,
}

/// Whether an `info` line is about the first line of the search (`multipv 1`, or no
/// `multipv` at all), the one whose score is the position's.
fn first_line(line: &str) -> bool {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "multipv" {
            return words.next() == Some("1");
        }
    }
    true
}

/// The score (side to move's) and line of an `info` line that has a score, where it is
/// an exact one (`lowerbound`/`upperbound` scores are skipped, as lila's fishnet does).
pub fn parse_info(line: &str) -> Option<(Score, Vec<String>)> {
    let mut words = line.split_whitespace();
    if words.next()? != "info" {
        return None;
    }
    let mut score = None;
    let mut pv = Vec::new();
    let mut bound = false;
    while let Some(w) = words.next() {
        match w {
            "score" => {
                let kind = words.next()?;
                let value: i32 = words.next()?.parse().ok()?;
                score = Some(match kind {
                    "cp" => Score::Cp(value),
                    "mate" => Score::Mate(value),
                    _ => return None,
                });
            }
            "lowerbound" | "upperbound" => bound = true,
            "pv" => {
                pv = words.by_ref().map(str::to_string).collect();
            }
            // Free text follows `string`: not a score.
            "string" => return None,
            _ => {}
        }
    }
    match (score, bound) {
        (Some(s), false) => Some((s, pv)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_their_score_and_line() {
        let (s, pv) = parse_info(
            "info depth 8 seldepth 8 multipv 1 score cp -8 nodes 2000 nps 666666 pv f1g1 f3e2",
        )
        .unwrap();
        assert_eq!(s, Score::Cp(-8));
        assert_eq!(pv, ["f1g1", "f3e2"]);
        assert_eq!(
            parse_info("info depth 0 score mate 0").unwrap().0,
            Score::Mate(0)
        );
        assert_eq!(
            parse_info("info depth 9 score cp -1 upperbound pv d7d5"),
            None
        );
        assert_eq!(parse_info("info string NNUE evaluation enabled"), None);
        assert_eq!(parse_info("info score cp x"), None);
        assert_eq!(parse_info("bestmove e2e4"), None);
        assert!(first_line("info depth 3 multipv 1 score cp 5 pv e2e4"));
        assert!(!first_line("info depth 3 multipv 2 score cp -50 pv a2a3"));
        assert!(first_line("info depth 3 score cp 5 pv e2e4"));
    }
}
