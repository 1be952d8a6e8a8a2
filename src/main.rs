//! The `postal` command line.

use clap::{Parser, Subcommand};
use postal::notation::fen::parse_fen;
use postal::rules::{divide, perft, Position, Variant};
use std::process::ExitCode;
use std::time::Instant;

/// Postal: a referee for correspondence games of chess and chess variants.
#[derive(Parser)]
#[command(name = "postal", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Counts move paths of DEPTH plies (rules testing).
    Perft {
        /// standard, chess-sharp or los-alamos.
        variant: Variant,
        /// Plies to count.
        depth: u32,
        /// Start from this position instead of the variant's start.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count for each root move (UCI form) before the total.
        #[arg(long)]
        divide: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft {
            variant,
            depth,
            fen,
            divide: by_move,
        } => {
            let pos = match fen {
                Some(f) => match parse_fen(variant, &f) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("postal: {e}");
                        return ExitCode::from(2);
                    }
                },
                None => Position::start(variant),
            };
            let started = Instant::now();
            let total = if by_move {
                let split = divide(&pos, depth);
                for (uci, n) in &split {
                    println!("{uci}: {n}");
                }
                println!();
                split.iter().map(|(_, n)| n).sum()
            } else {
                perft(&pos, depth)
            };
            let secs = started.elapsed().as_secs_f64();
            println!("{total}");
            eprintln!(
                "{total} nodes in {:.3} s ({:.1} Mnodes/s)",
                secs,
                total as f64 / secs.max(1e-9) / 1e6
            );
            ExitCode::SUCCESS
        }
    }
}
