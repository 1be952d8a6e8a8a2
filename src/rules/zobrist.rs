//! Fixed random keys for hashing positions (repetition detection), generated at compile time.

use super::types::{Color, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

const RESERVE_DEPTH: usize = 17;
static PIECES: [u64; 2 * 6 * 64] = keys(0x5057_4c41_0001);
static RESERVES: [u64; 2 * 6 * RESERVE_DEPTH] = keys(0x5057_4c41_0002);
static CASTLING: [u64; 64] = keys(0x5057_4c41_0003);
static EN_PASSANT: [u64; 8] = keys(0x5057_4c41_0004);

static TOKENS: [u64; 2 * 16] = keys(0x5057_4c41_0006);
static FIRST_HALF: [u64; 64] = keys(0x5057_4c41_0007);
static TWICE_MOVED: [u64; 64] = keys(0x5057_4c41_0008);
static CHECKS: [u64; 2 * 16] = keys(0x5057_4c41_000a);

/// Three-check: key of `color` having given `count` checks.
#[inline]
pub fn checks(color: Color, count: u8) -> u64 {
    CHECKS[color.index() * 16 + (count as usize).min(15)]
}
static PROMOTED: [u64; 64] = keys(0x5057_4c41_000b);

/// Double Move Chess: key toggled once the side to move has reached the move from which
/// double moves are allowed.
pub const DOUBLE_MOVES_OPEN: u64 = splitmix(0x5057_4c41_0009).1;

/// Double Move Chess: key of `color` holding `count` tokens.
#[inline]
pub fn tokens(color: Color, count: u8) -> u64 {
    TOKENS[color.index() * 16 + (count as usize).min(15)]
}

/// Double Move Chess: key of being between the halves of a double move whose first half
/// stopped on `sq`.
#[inline]
pub fn first_half(sq: Square) -> u64 {
    FIRST_HALF[sq.index()]
}

/// Double Move Chess: key of a legal capture of a twice-moved piece that stopped on `sq`.
#[inline]
pub fn twice_moved(sq: Square) -> u64 {
    TWICE_MOVED[sq.index()]
}

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x5057_4c41_0005).1;

/// Key of one piece on one square.
#[inline]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECES[(color.index() * 6 + role.index()) * 64 + sq.index()]
}

/// Key of holding `count` pieces of one role in hand (0 hashes to nothing).
#[inline]
pub fn reserve(color: Color, role: Role, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        RESERVES[(color.index() * 6 + role.index()) * RESERVE_DEPTH
            + (count as usize).min(RESERVE_DEPTH - 1)]
    }
}

/// Key of a castling right held by the rook on `sq`.
#[inline]
pub fn castling(sq: Square) -> u64 {
    CASTLING[sq.index()]
}

/// Key of a legal en-passant capture on `file`.
#[inline]
pub fn en_passant(file: u8) -> u64 {
    EN_PASSANT[file as usize]
}

/// Crazyhouse: key of a promoted piece (one that returns to a pocket as a pawn) on `sq`.
#[inline]
pub fn promoted(sq: Square) -> u64 {
    PROMOTED[sq.index()]
}
