//! The variants: each a pure game in its own module, and the registry that lists them.
//! The referee and the adapters know variants only through [`Registry`] and the
//! plug-in interface in [`api`]; adding a variant is one module (its folder, whose
//! description embeds its rules document), its `pub mod` line and one line in
//! [`BUILTIN`], and its documents (ARCHITECTURE.md, "The variant platform", has the
//! recipe; `tests/engine/variant_recipe.rs` checks it).

pub mod antichess;
pub mod api;
pub mod atomic;
pub mod booster;
pub mod chess;
pub mod chess960;
pub mod chess_sharp;
pub mod chesswords;
pub mod cloak;
pub mod crazyhouse;
pub mod double_move;
pub mod gravity;
pub mod horde;
pub mod king_of_the_hill;
pub mod los_alamos;
pub mod neighbour;
pub mod parade;
pub mod player_text;
pub mod racing_kings;
pub mod rules_docs;
#[cfg(test)]
mod shakmaty_perft;
pub mod solitaire;
pub mod split_brain;
pub mod standard;
pub mod three_check;

use api::Action;
use api::{CommandSpec, GameRules, NewGame, RefusalKind, RuleError, Seat, VariantSpec};

/// Every variant the bot plays, in the order `help` and Discord list them.
pub static BUILTIN: &[&dyn VariantSpec] = &[
    &standard::SPEC,
    &chess_sharp::SPEC,
    &los_alamos::SPEC,
    &double_move::SPEC,
    &king_of_the_hill::SPEC,
    &three_check::SPEC,
    &racing_kings::SPEC,
    &horde::SPEC,
    &crazyhouse::SPEC,
    &chess960::SPEC,
    &antichess::SPEC,
    &atomic::SPEC,
    &split_brain::SPEC,
    &chesswords::SPEC,
    &gravity::SPEC,
    &parade::SPEC,
    &neighbour::SPEC,
    &booster::SPEC,
    &cloak::SPEC,
];

/// A list of variants the referee plays: [`BUILTIN`], and in tests any variant a test
/// adds.
#[derive(Clone)]
pub struct Registry {
    variants: Vec<&'static dyn VariantSpec>,
    /// What [`Registry::find`] and [`Registry::declarations`] look up, worked out once
    /// from `variants` (each was worked out again at every command: about 8k
    /// instructions of a move in the referee's bench).
    index: std::sync::Arc<Index>,
}

/// The names of a registry's variants and commands, as they are looked up.
struct Index {
    /// Each variant's keys ([`name_key`] of its id, display name and aliases), in the
    /// registry's order.
    keys: Vec<Vec<String>>,
    /// Every command name and alias, each with the commands it names in registry order.
    commands: std::collections::HashMap<&'static str, Vec<&'static CommandSpec>>,
}

impl Index {
    /// The index of `variants`.
    fn of(variants: &[&'static dyn VariantSpec]) -> Index {
        let keys = variants
            .iter()
            .map(|v| {
                [v.id(), v.display_name()]
                    .into_iter()
                    .chain(v.aliases().iter().copied())
                    .map(|n| name_key(n).into_owned())
                    .collect()
            })
            .collect();
        let mut commands: std::collections::HashMap<&'static str, Vec<&'static CommandSpec>> =
            std::collections::HashMap::new();
        for c in variants.iter().flat_map(|v| v.commands().iter()) {
            let mut words: Vec<&'static str> = std::iter::once(c.name)
                .chain(c.aliases.iter().copied())
                .collect();
            // A command named twice (its name among its aliases) is declared once.
            words.sort_unstable();
            words.dedup();
            for w in words {
                commands.entry(w).or_default().push(c);
            }
        }
        Index { keys, commands }
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.ids()).finish()
    }
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::builtin()
    }
}

/// A variant's name without case, hyphens, underscores or spaces (`Split_Brain` is
/// `splitbrain`).
fn name_key(name: &str) -> std::borrow::Cow<'_, str> {
    // A name already in its key's form (`standard`) is its own key.
    if name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return std::borrow::Cow::Borrowed(name);
    }
    std::borrow::Cow::Owned(
        name.chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_lowercase(),
    )
}

impl Registry {
    /// The built-in variants.
    pub fn builtin() -> Registry {
        Registry {
            index: std::sync::Arc::new(Index::of(BUILTIN)),
            variants: BUILTIN.to_vec(),
        }
    }

    /// This registry with one more variant (a test's own).
    pub fn with(mut self, variant: &'static dyn VariantSpec) -> Registry {
        self.variants.push(variant);
        self.index = std::sync::Arc::new(Index::of(&self.variants));
        self
    }

    /// The variants, in order.
    pub fn all(&self) -> impl Iterator<Item = &'static dyn VariantSpec> + '_ {
        self.variants.iter().copied()
    }

    /// The variant `name` means: its id, display name or an alias, compared without
    /// case, spaces, `-` or `_`.
    pub fn find(&self, name: &str) -> Option<&'static dyn VariantSpec> {
        let key = name_key(name);
        let i = self
            .index
            .keys
            .iter()
            .position(|keys| keys.iter().any(|k| *k == key))?;
        self.variants.get(i).copied()
    }

    /// The variant `name` means, or a refusal that lists the known ones.
    pub fn get(&self, name: &str) -> Result<&'static dyn VariantSpec, RuleError> {
        self.find(name).ok_or_else(|| {
            RuleError::of(
                RefusalKind::Unknown,
                format!(
                    "unknown variant '{}' (known: {})",
                    name.chars().take(30).collect::<String>(),
                    self.ids().join(", ")
                ),
            )
        })
    }

    /// The chess-like board of the variant `name` means, for the engine's tools
    /// (`postal perft`, `postal render`), or a refusal naming the variants that have one.
    pub fn board_variant(&self, name: &str) -> Result<crate::rules::Variant, RuleError> {
        let boards = || {
            self.all()
                .filter(|v| v.board_variant().is_some())
                .map(|v| v.id())
                .collect::<Vec<_>>()
                .join(", ")
        };
        self.find(name)
            .and_then(|v| v.board_variant())
            .ok_or_else(|| {
                RuleError::of(
                    RefusalKind::Unknown,
                    format!(
                        "no chess-like variant '{}' (known: {})",
                        name.chars().take(30).collect::<String>(),
                        boards()
                    ),
                )
            })
    }

    /// The board shapes (files, ranks) the variants draw at their start, each once, in
    /// registry order: what a renderer prepares at start-up. A variant that cannot start
    /// without options or a position is left out.
    pub fn board_shapes(&self) -> Vec<(u8, u8)> {
        let setup = NewGame {
            fen: None,
            options: Default::default(),
            seed: 0,
            hidden_seed: None,
        };
        let mut shapes = Vec::new();
        for v in self.all() {
            if let Ok(game) = v.new_game(&setup) {
                let board = game.project(api::Viewer::Public).board;
                if !shapes.contains(&(board.width, board.height)) {
                    shapes.push((board.width, board.height));
                }
            }
        }
        shapes
    }

    /// The variants' ids.
    pub fn ids(&self) -> Vec<&'static str> {
        self.all().map(|v| v.id()).collect()
    }

    /// Every variant command, once per name (the first variant to declare a name gives
    /// its usage), in the order of the registry.
    pub fn commands(&self) -> Vec<&'static CommandSpec> {
        let mut out: Vec<&'static CommandSpec> = Vec::new();
        for v in self.all() {
            for c in v.commands() {
                if !out.iter().any(|o| o.name == c.name) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// Every declaration of the command `word` (a name or an alias), in registry order.
    pub fn declarations(&self, word: &str) -> Vec<&'static CommandSpec> {
        self.index.commands.get(word).cloned().unwrap_or_default()
    }

    /// A new game of the variant `name`.
    pub fn new_game(&self, name: &str, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        self.get(name)?.new_game(setup)
    }

    /// A game of the variant `name` rebuilt from its stored snapshot.
    pub fn load(
        &self,
        name: &str,
        snapshot: &serde_json::Value,
    ) -> Result<Box<dyn GameRules>, RuleError> {
        // A game a moderator ended keeps its own snapshot inside the ending's.
        if let Some((entry, game)) = api::Adjudicable::unwrap_snapshot(snapshot) {
            return Ok(api::Adjudicable::ended(self.get(name)?.load(&game)?, entry));
        }
        self.get(name)?.load(snapshot)
    }

    /// A game of the variant `name` rebuilt from its stored snapshot's text: the variant
    /// reads the text itself ([`api::VariantSpec::load_text`]); a text it does not read
    /// (a moderator's ending wrapping the game's snapshot) is read as JSON and
    /// [`Registry::load`]ed.
    pub fn load_text(&self, name: &str, text: &str) -> Result<Box<dyn GameRules>, RuleError> {
        let spec = self.get(name)?;
        if !text.trim_start().starts_with("{\"Adjudicated\"") {
            if let Ok(game) = spec.load_text(text) {
                return Ok(game);
            }
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        self.load(name, &value)
    }

    /// A game of the variant `name` replayed through its action log from its start: the
    /// state stored as it was set up (`start`) when there is one, else a new game of
    /// `setup` (a game stored before starting states were kept, whose draws all came
    /// from its seed). Takeback entries are the referee's ([`api::Takebacks`]): an
    /// accepted one rebuilds the game from its start without the action taken back.
    pub fn replay<'a>(
        &self,
        name: &str,
        start: Option<&serde_json::Value>,
        setup: &NewGame,
        log: impl IntoIterator<Item = &'a (Seat, Action)>,
    ) -> Result<Box<dyn GameRules>, RuleError> {
        let begin = || match start {
            Some(snapshot) => self.load(name, snapshot),
            None => self.get(name)?.new_game_stored_before(setup),
        };
        let mut game = begin()?;
        // The entries the game is made of now: an accepted takeback removes the last,
        // and the game is rebuilt from its start without it.
        let mut kept: Vec<&(Seat, Action)> = Vec::new();
        let mut takebacks = api::Takebacks::default();
        for entry in log {
            let (seat, action) = entry;
            // A moderator's ending: the game as it stands, ended ([`api::Adjudicable`]).
            if let Some(ending) = action.adjudication_entry() {
                game = api::Adjudicable::ended(game, ending);
                continue;
            }
            match takebacks.step(*seat, action)? {
                api::Effect::Apply => {
                    game.apply(*seat, action)?;
                    kept.push(entry);
                }
                api::Effect::Nothing => {}
                api::Effect::TakeBack => {
                    kept.pop();
                    game = begin()?;
                    for (seat, action) in &kept {
                        game.apply(*seat, action)?;
                    }
                }
            }
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use api::IdRule;

    #[test]
    fn the_board_shapes_are_each_variants_once() {
        let shapes = Registry::builtin().board_shapes();
        assert!(
            shapes.contains(&(8, 8)) && shapes.contains(&(6, 6)),
            "{shapes:?}"
        );
        for (i, s) in shapes.iter().enumerate() {
            assert!(!shapes[i + 1..].contains(s), "{s:?} twice");
        }
    }

    /// A variant's description, its board and its games agree on its id (a
    /// `ChessSpec` names its config twice: for its game and in its description).
    #[test]
    fn a_variants_board_and_games_carry_its_id() {
        for v in Registry::builtin().all() {
            if let Some(board) = v.board_variant() {
                assert_eq!(board.name(), v.id());
            }
            let game = v.new_game(&NewGame::default());
            if let Ok(game) = game {
                assert_eq!(game.variant(), v.id());
            }
            assert!(!v.summary().is_empty() && !v.rules_summary().is_empty());
        }
    }

    #[test]
    fn names_and_aliases_find_their_variant() {
        let r = Registry::builtin();
        for (name, id) in [
            ("Chess#", "chess-sharp"),
            ("chess_sharp", "chess-sharp"),
            ("Split Brain", "split-brain"),
            ("fide", "standard"),
            ("Los Alamos", "los-alamos"),
            ("secret-chesswords", "chesswords"),
            ("Parade Chess Solitaire", "parade"),
            ("neighbor", "neighbour"),
            ("Neighbour Chess Solitaire", "neighbour"),
        ] {
            assert_eq!(r.find(name).map(|v| v.id()), Some(id), "{name}");
        }
        let e = r.get("checkers").err().unwrap();
        assert_eq!(e.kind, RefusalKind::Unknown);
        assert!(e.text.contains("known: standard, chess-sharp"), "{e}");
    }

    #[test]
    fn declarations_of_one_command_agree_on_its_shape() {
        // The parser reads a game id after a command before it knows the game: every
        // variant declaring a word must read ids the same way, and no variant command may
        // take the name of one of the referee's own.
        let r = Registry::builtin();
        for c in r.commands() {
            let decls = r.declarations(c.name);
            assert!(decls.iter().all(|d| d.id == decls[0].id), "{}", c.name);
            assert!(
                decls.iter().all(|d| d.secret == decls[0].secret),
                "{}",
                c.name
            );
        }
        assert!(r
            .declarations("clue")
            .iter()
            .all(|d| d.id == IdRule::HashOnly));
        let mut seen = std::collections::HashSet::new();
        for v in r.all() {
            assert!(seen.insert(v.id()), "two variants are called {}", v.id());
            let n = v.seats().count();
            assert!((1..=4).contains(&n), "{} has {n} seats", v.id());
        }
    }
}
