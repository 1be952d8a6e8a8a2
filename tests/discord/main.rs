//! The Discord adapter end to end against the fake Discord (`tests/fake_discord`): the
//! real `postal run` code (serenity client, gateway, REST, slash commands, buttons,
//! threads, private messages, shards) playing every variant, many games per player.

#[path = "../common/mod.rs"]
mod common;
#[path = "../fake_discord/mod.rs"]
mod fake_discord;
#[path = "../toy/mod.rs"]
mod toy;

mod analysis;
mod analysis_processes;
mod chess960;
mod chesswords;
mod competition_deals;
mod crazyhouse;
mod dm_games;
mod e2e;
mod engine_games;
mod every_command;
mod faults;
mod forget;
mod games;
mod help;
mod lists;
mod load;
mod many_games;
mod operations;
mod play;
mod privacy;
mod refereeing;
mod server;
mod shards;
mod start_time;
mod tournament;
mod tournament_slash;
mod variants;
mod words;
