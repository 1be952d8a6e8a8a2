//! Reading and writing chess: FEN, move notations (SAN, UCI, descriptive, ICCF numeric,
//! figurine, "MOVE E2 TO E4") and PGN.

pub mod fen;
