//! Test support: a chess-like variant's move tree checked against an independent
//! implementation, shakmaty's (a dev-dependency with its `variant` feature), position by
//! position, from FEN as python-chess writes it.

use crate::notation::fen::parse_fen;
use crate::rules::{perft, Variant};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, FromSetup, Position};

/// Asserts that perft of each `(fen, depth)` is the same for `variant` here and for
/// shakmaty's position type `P`.
pub fn assert_perft_agrees<P>(variant: Variant, cases: &[(&str, u32)])
where
    P: FromSetup + Position + Clone,
{
    for &(fen, depth) in cases {
        let setup: Fen = fen
            .parse()
            .unwrap_or_else(|e| panic!("shakmaty: {fen}: {e}"));
        let theirs: P = setup
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("shakmaty: {fen}: {e}"));
        let ours = parse_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(
            perft(&ours, depth),
            shakmaty::perft(&theirs, depth),
            "{variant}: {fen} depth {depth}"
        );
    }
}
