//! The two traits of the plug-in interface: [`VariantSpec`], what the registry knows of a
//! variant, and [`GameRules`], one game of it as a state machine.

use super::random::Hidden;
use super::{
    Action, CommandSpec, Description, EngineRecord, GameCommand, GameOutcome, Loaded, Note,
    OptionSpec, Options, Projection, Prompt, Reading, ResourceError, ResourceSpec, Resources,
    RuleError, Seat, SeatPlan, Standing, Viewer,
};
use crate::render::Renderer;
use crate::rules::Variant;

/// What a new game is set up from.
#[derive(Clone, Debug, Default)]
pub struct NewGame<'a> {
    /// The starting position, for a game set up for testing or teaching (`fen:"..."`).
    pub fen: Option<&'a str>,
    /// The challenge's options, validated against [`VariantSpec::options`].
    pub options: Options,
    /// The seed of the game's public draws (a letter grid); hidden draws never come
    /// from it.
    pub seed: u64,
    /// The seed of the game's hidden draws (deals, piles), only where every draw must be
    /// reproducible (the console's `--seed`, tests); `None`, as on the bot: the operating
    /// system's entropy.
    pub hidden_seed: Option<u64>,
}

impl NewGame<'_> {
    /// Where this game's hidden draws (deals, piles, shuffled decks) come from: the
    /// operating system's entropy, or the seeded stream of [`NewGame::hidden_seed`]. A
    /// variant keeps what it drew in its state, so the game's log replays without it.
    pub fn hidden_draws(&self) -> Hidden {
        Hidden::new(self.hidden_seed)
    }
}

/// What a game may consult while reading a command, beyond itself: the operator's files.
#[derive(Clone, Copy, Debug, Default)]
pub struct Env<'a> {
    /// The resources the operator configured, for the variants that declare them.
    pub resources: Option<&'a Resources>,
}

/// The longest [`VariantSpec::rules_summary`], in characters: with the name, the commands,
/// the options and the link around it, `rules VARIANT` stays one Discord message (2000).
pub const RULES_SUMMARY_MAX: usize = 1200;

/// A variant as the registry knows it: what it declares of itself (its
/// [`Description`], one constant value, which the getters read), and how to make or
/// reload a game of it. One static value per variant.
pub trait VariantSpec: Sync {
    /// What the variant declares of itself: its names, document, seats, options,
    /// commands and policies.
    fn description(&self) -> &Description;
    /// The id used in commands and stored with games (`chess-sharp`).
    fn id(&self) -> &'static str {
        self.description().id
    }
    /// The name shown to people (`Chess#`).
    fn display_name(&self) -> &'static str {
        self.description().display_name
    }
    /// Other names users type for it, compared without case, spaces, `-` or `_`.
    fn aliases(&self) -> &'static [&'static str] {
        self.description().aliases
    }
    /// The name of its rules document, `docs/rules/NAME.md`
    /// ([`Description::document`]).
    fn rules_document(&self) -> &'static str {
        self.description().document.name
    }
    /// Its whole rules document ([`Description::document`]), as embedded in the binary
    /// when it was built, in the form a chat shows
    /// ([`player_document`](crate::variants::rules_docs::player_document)).
    fn rules_text(&self) -> &'static str {
        crate::variants::rules_docs::player_document(&self.description().document)
    }
    /// One line on what the game is, for `help` and Discord's choices.
    fn summary(&self) -> &'static str {
        self.description().summary
    }
    /// The rules in brief, for `rules VARIANT` in a chat
    /// ([`Description::rules_summary`]).
    fn rules_summary(&self) -> &'static str {
        self.description().rules_summary
    }
    /// The chess-like board it is played on, where the chess engine plays it (for
    /// `postal perft` and `postal render`); `None` for a board of its own.
    fn board_variant(&self) -> Option<Variant> {
        self.description().board_variant
    }
    /// What it needs from outside its games, each named by a setting (see
    /// [`setting_key`](super::setting_key)).
    fn resources(&self) -> &'static [ResourceSpec] {
        self.description().resources
    }
    /// Parses the text of its resource `name`'s file (the service reads the file).
    fn parse_resource(&self, name: &str, _text: &str) -> Result<Loaded, ResourceError> {
        Err(ResourceError::Unknown {
            variant: self.id(),
            name: name.to_string(),
        })
    }
    /// The seats.
    fn seats(&self) -> SeatPlan {
        self.description().seats
    }
    /// The options a challenge may give it.
    fn options(&self) -> &'static [OptionSpec] {
        self.description().options
    }
    /// Its commands, beyond the referee's own (`challenge`, `resign`, `board`, ...).
    fn commands(&self) -> &'static [CommandSpec] {
        self.description().commands
    }
    /// How its finished games count on a server's tables (ratings, best scores).
    fn standing(&self) -> Standing {
        self.description().standing
    }
    /// Whether its players may agree to take a move back, or why not
    /// ([`Description::takebacks`]).
    fn takebacks(&self) -> Result<(), &'static str> {
        self.description().takebacks
    }
    /// Whether its players may store conditional moves, or why not
    /// ([`Description::conditional_moves`]).
    fn conditional_moves(&self) -> Result<(), &'static str> {
        self.description().conditional_moves
    }
    /// Whether a deal of it, once shown, counts ([`Description::shown_deal_counts`]).
    fn shown_deal_counts(&self) -> bool {
        self.description().shown_deal_counts
    }
    /// Whether a challenge may start it from a position (`fen:"..."`).
    fn takes_fen(&self) -> bool {
        self.description().takes_fen
    }
    /// A new game.
    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError>;
    /// The game as one stored before games kept their starting state
    /// (`games.start_snapshot` empty) was set up, for its log to replay from: every draw
    /// from its seed, and the rules it began with. By default [`VariantSpec::new_game`]
    /// with its hidden draws from the seed.
    fn new_game_stored_before(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        self.new_game(&NewGame {
            hidden_seed: Some(setup.seed),
            ..setup.clone()
        })
    }
    /// A game rebuilt from its stored snapshot.
    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError>;
    /// A game rebuilt from its stored snapshot's text ([`GameRules::snapshot_text`]): by
    /// default read as JSON and [`VariantSpec::load`]ed; a variant loaded at every move
    /// may read its text straight into its own state.
    fn load_text(&self, text: &str) -> Result<Box<dyn GameRules>, RuleError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        self.load(&value)
    }
}

/// What an action changes in a game: the step of [`GameRules`] on its own, so that a
/// game acting on a copy ([`ActsOnCopy`]) has it by default.
pub trait Apply {
    /// Applies one action of `seat`. On error nothing changed.
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError>;
}

/// A game whose actions each work on a copy of it, kept only when the action succeeds
/// ("clone, act, commit"): its [`Apply`] is given, reading the action as the variant's
/// own type. A game that keeps itself unchanged on an error in another way implements
/// [`Apply`] itself.
pub trait ActsOnCopy: Clone {
    /// The variant's own type of action, as stored in the log.
    type Action: serde::de::DeserializeOwned;
    /// The variant's name, in the refusal of an action that is not its own.
    const NAME: &'static str;
    /// Applies `action` of `seat` to the copy, which is dropped if this fails.
    fn act(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Note>, RuleError>;
}

impl<G: ActsOnCopy> Apply for G {
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let action: G::Action = action.to(G::NAME)?;
        // On error nothing changed: the action works on a copy.
        let mut next = self.clone();
        let notes = ActsOnCopy::act(&mut next, seat, action)?;
        *self = next;
        Ok(notes)
    }
}

/// One game of a variant as a state machine: whom it awaits, what a typed command means,
/// what an action changes ([`Apply`]), and what each viewer sees.
pub trait GameRules: Apply + Send + Sync {
    /// The variant's id.
    fn variant(&self) -> &'static str;
    /// The seats: the plan of its [`VariantSpec::seats`].
    fn seats(&self) -> SeatPlan;
    /// How many seats the game has: by default as many as its plan names.
    fn seat_count(&self) -> usize {
        self.seats().count()
    }
    /// The name of a seat (`White`, `Black`): by default its plan's.
    fn seat_name(&self, seat: Seat) -> &'static str {
        self.seats().name(seat)
    }
    /// Who must act now, and for what; empty once the game is over. This is public: the
    /// referee's status line is built from it, so a prompt must not exist, or differ,
    /// because of a secret (a prompt to discard only when a card qualifies would tell).
    fn awaiting(&self) -> Vec<(Seat, Prompt)>;
    /// Reads one of the variant's commands typed by `seat` (already known to be one of
    /// [`VariantSpec::commands`], with a fitting number of arguments) into what the
    /// referee should do. Reads only: the game is unchanged.
    fn read(&self, seat: Seat, command: &GameCommand, env: Env) -> Result<Reading, RuleError>;
    /// What `viewer` may see now.
    fn project(&self, viewer: Viewer) -> Projection;
    /// What `viewer` sees of the board now, for a view drawn after every action (the
    /// board image, the diagram, the FEN, the last move, the counters): [`project`]
    /// where a variant may leave out what grows with the game (the record, the numbered
    /// record) and the legal moves, which no board view shows. By default the whole
    /// projection.
    ///
    /// [`project`]: GameRules::project
    fn project_board(&self, viewer: Viewer) -> Projection {
        self.project(viewer)
    }
    /// How the game ended, if it has (an aborted game has no outcome).
    fn outcome(&self) -> Option<GameOutcome>;
    /// Whether the game was aborted.
    fn aborted(&self) -> bool;
    /// Whether the game is over (finished or aborted).
    fn is_over(&self) -> bool {
        self.aborted() || self.outcome().is_some()
    }
    /// Whether a seat whose time ran out loses at once ([`Action::timeout`] from the
    /// referee) rather than only when an opponent claims it.
    fn timeout_is_automatic(&self) -> bool;
    /// Seconds `seat` has for what it is asked now, where the variant sets that itself;
    /// `None`: the game's days per move.
    fn time_limit(&self, _seat: Seat) -> Option<i64> {
        None
    }
    /// What the two rows of a board image's caption and the White and Black tags of a
    /// record call the players, given the player of each seat in seat order.
    fn side_names(&self, names: &[&str]) -> [String; 2] {
        let name = |i: usize| names.get(i).copied().unwrap_or("").to_string();
        [name(0), name(1)]
    }
    /// The caption's names for the current turn: [`GameRules::side_names`] with what
    /// the variant adds (the roles of a team's partners).
    fn caption_names(&self, names: &[&str]) -> [String; 2] {
        self.side_names(names)
    }
    /// The record as PGN as `viewer` may read it, given the tags the referee knows.
    fn pgn(&self, viewer: Viewer, tags: &[(String, String)]) -> String;
    /// The whole game as an animated GIF of `viewer`'s views, or `None` for a variant
    /// without animations.
    fn animation(&self, viewer: Viewer, renderer: &Renderer, names: &[&str]) -> Option<Vec<u8>>;
    /// Keeps the cards this game was dealt secret even once it is over, because other
    /// players still play the same deal (a best-score competition deals every entrant the
    /// same cards): its record and export then show only what its player saw, and say
    /// why. Called on a game read to be shown, never on one to be stored. By default
    /// nothing: a game whose deal is its own, or that has none.
    fn keep_deal_secret(&mut self) {}
    /// The variant's own fields for an export to `viewer` (JSON object members).
    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
    /// The same game with the secrets that only `owner` may see now (a hand, a pick not
    /// yet revealed) replaced by others it could as well hold, or `None` when `owner`
    /// holds none. It is the variant's statement of what is secret, for the leak test
    /// (`tests/engine/leak_walker.rs`): nothing any other viewer sees, and no action of another
    /// seat, may come out differently in the two games.
    fn disguised(&self, _owner: Seat) -> Option<Box<dyn GameRules>> {
        None
    }
    /// [`GameRules::disguised`] for the moment before `actor`'s `action`: a disguise that
    /// keeps whatever the rules make that action reveal of `owner`'s secret (Cloak and
    /// Dagger Chess announces a captured checker's identity and whether a guess is
    /// right), so that the leak test can hold the action to saying the same in both
    /// games. By default the plain disguise: the action reveals nothing.
    fn disguised_before(
        &self,
        owner: Seat,
        _actor: Seat,
        _action: &Action,
    ) -> Option<Box<dyn GameRules>> {
        self.disguised(owner)
    }
    /// The full state as JSON, secrets included: for the store alone. Equal states give
    /// equal snapshots. A state that cannot be written is an error
    /// ([`to_stored`](super::to_stored)), never a `null` stored in its place.
    fn snapshot(&self) -> Result<serde_json::Value, RuleError>;

    /// [`GameRules::snapshot`] as the text the store keeps: by default the snapshot
    /// written out; a variant written at every move may write its state straight to text
    /// (the same JSON, its keys perhaps in another order).
    fn snapshot_text(&self) -> Result<String, RuleError> {
        Ok(self.snapshot()?.to_string())
    }

    /// The snapshot's parts that are the game itself, for comparing a stored game with
    /// the replay of its log (the service's replay check), possibly stored by an earlier
    /// release: by default the whole snapshot. A variant whose snapshot also keeps words
    /// for people, which a later release may write differently, leaves them out.
    fn state_for_replay_check(&self) -> Result<serde_json::Value, RuleError> {
        self.snapshot()
    }
    /// The whole game as a UCI engine reads it, for an analysis once it is over; `None`
    /// (the default) where no engine plays the variant, or the game is not whole (a game
    /// loaded from its snapshot rather than replayed from its log).
    fn engine_record(&self) -> Option<EngineRecord> {
        None
    }
    /// The variant's UCI name where an engine may analyse the game once it is over
    /// (what [`GameRules::engine_record`] would name, without replaying the game), and
    /// it has a move to analyse; `None` by default.
    fn engine_variant(&self) -> Option<&'static str> {
        None
    }
    /// The game's opening by name and ECO code, where its variant's openings are chess's
    /// and it began at the standard start ([`crate::notation::openings::classify`]);
    /// `None` by default.
    fn opening(&self) -> Option<crate::notation::openings::Opening> {
        None
    }
    /// An engine's `line` (UCI moves) from the position after `ply` plies, in SAN, as far
    /// as its moves are legal; empty where [`GameRules::engine_record`] is `None`.
    fn line_san(&self, _ply: usize, _line: &[String]) -> Vec<String> {
        Vec::new()
    }
    /// The public record as PGN with an engine's analysis: after each ply's move (by
    /// index from 0) its assessment in `glyphs` (`?!`, `?`, `??`) and its comment in
    /// `after` (`[%eval 0.35]`); `None` where [`GameRules::engine_record`] is.
    fn pgn_analysed(
        &self,
        _tags: &[(String, String)],
        _after: &[(usize, String)],
        _glyphs: &[(usize, &str)],
    ) -> Option<String> {
        None
    }
}
