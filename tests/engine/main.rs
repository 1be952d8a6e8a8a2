//! The pure libraries under the referee: the engine's rules and perft counts, notation,
//! board images, and the variants as games of the plug-in interface (no database, no
//! chat), and the playing strength of the UCI engines' levels. One test crate, so that it is compiled and linked once; each module is one
//! area, named for it.

#[path = "../common/mod.rs"]
mod common;
#[path = "../toy/mod.rs"]
mod toy;

mod booster_perft;
mod descriptive;
mod engine_strength;
mod layers;
mod leak_walker;
mod lichess_pgn;
mod lichess_rules;
mod notation;
mod parsers_fuzz;
mod perft;
mod python_oracle;
mod referee_parts;
mod render;
mod resume;
mod rules_chess_sharp;
mod rules_double_move;
mod rules_los_alamos;
mod rules_standard;
mod service_rules;
mod two_seat_lifecycle;
mod typed_moves;
mod variant_names;
mod variant_recipe;
