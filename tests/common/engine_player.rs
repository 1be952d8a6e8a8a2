//! A scripted human for whole games against the bot (issue 60): it keeps its own copy of
//! the game, by the project's own rules, reads each of the engine's moves into it (so
//! that a move the rules refuse fails the test) and plays a legal move chosen with a
//! fixed seed.

use postal::service::referee::whole_with;
use postal::store::Store;
use postal::variants::api::{Env, GameCommand, GameRules, Reading, Seat, Viewer};
use postal::variants::Registry;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The variants and levels of the whole games: standard chess and Chess960 (Stockfish),
/// two Fairy-Stockfish variants, each at level 1 and level 8.
pub const WHOLE_GAMES: [(&str, u8); 8] = [
    ("standard", 1),
    ("standard", 8),
    ("chess960", 1),
    ("chess960", 8),
    ("crazyhouse", 1),
    ("crazyhouse", 8),
    ("three-check", 1),
    ("three-check", 8),
];

/// How many moves the human plays before resigning a game that has not ended.
pub const MOST_MOVES: usize = 12;

/// One human's game against the bot.
pub struct Human {
    /// The game's id.
    pub id: i64,
    /// The human's user.
    pub user: String,
    seat: Seat,
    rules: Box<dyn GameRules>,
    rng: StdRng,
    /// The moves the human played.
    pub moves: usize,
    /// The engine's moves read.
    pub engine_moves: usize,
}

impl Human {
    /// `user`'s game `id` as stored now, replayed by the project's rules.
    pub async fn of_stored(store: &Store, id: i64, user: &str) -> Human {
        let g = store.game(id).await.unwrap().unwrap();
        let log = store.actions(id).await.unwrap();
        let rules = whole_with(&Registry::builtin(), &g, &log).unwrap();
        let engine_moves = log.iter().filter(|a| a.author != user).count();
        Human {
            id,
            user: user.into(),
            seat: Seat(g.seat_of(user).unwrap()),
            rules,
            rng: StdRng::seed_from_u64(60 + id as u64),
            moves: 0,
            engine_moves,
        }
    }

    /// Whether the game is over on the human's board.
    pub fn is_over(&self) -> bool {
        self.rules.is_over()
    }

    /// Reads the engine's move `san` into the human's copy: it must be legal.
    pub fn engine_played(&mut self, san: &str) {
        let engine = Seat(1 - self.seat.0);
        let command = GameCommand::new("move", san);
        let action = match self.rules.read(engine, &command, Env::default()) {
            Ok(Reading::Act(a) | Reading::Noted { action: a, .. }) => a,
            other => panic!(
                "game #{}: the engine's {san} is not a move: {other:?}",
                self.id
            ),
        };
        self.rules
            .apply(engine, &action)
            .unwrap_or_else(|e| panic!("game #{}: the engine's {san}: {e:?}", self.id));
        self.engine_moves += 1;
    }

    /// The engine's move announced in `text`, if it announces one in this game: the SAN
    /// after `(White) played ` where the engine plays White (the names before it are
    /// the console's, or mentions on Discord).
    pub fn engine_move_in(&self, text: &str) -> Option<String> {
        if !text.contains(&format!("game #{}:", self.id)) {
            return None;
        }
        let side = self.rules.seat_name(Seat(1 - self.seat.0));
        let said = format!("({side}) played ");
        let at = text.find(&said)?;
        let san = text[at + said.len()..].split_whitespace().next()?;
        Some(san.trim_end_matches(['.', ';', ',']).to_string())
    }

    /// Whether `text` says that this game is over.
    pub fn ends(&self, text: &str) -> bool {
        text.contains(&format!("game #{}:", self.id)) && text.contains("game over")
    }

    /// A legal move of the human's, chosen with the game's seed and played on its copy;
    /// `None` when it is not the human's move.
    pub fn choose(&mut self) -> Option<String> {
        let legal = self.rules.project(Viewer::Seat(self.seat)).legal;
        if legal.is_empty() {
            return None;
        }
        let san = legal[self.rng.gen_range(0..legal.len())].clone();
        let action =
            match self
                .rules
                .read(self.seat, &GameCommand::new("move", &san), Env::default())
            {
                Ok(Reading::Act(a) | Reading::Noted { action: a, .. }) => a,
                other => panic!("{san} is listed as legal but reads as {other:?}"),
            };
        self.rules.apply(self.seat, &action).unwrap();
        self.moves += 1;
        Some(san)
    }
}
