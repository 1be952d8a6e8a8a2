//! Random draws. Public draws (colours, teams, the Chesswords letter grid) are seeded and
//! stable forever: a game's seed, stored with the game, must give the same draws every
//! time the game is rebuilt, on every version of the program. So their generator is
//! written here (SplitMix64, a published algorithm) rather than taken from a crate whose
//! stream may change. Hidden draws (deals, draw piles) come from the operating system's
//! entropy ([`OsEntropy`]) and are stored as drawn; only a configured seed (the console's
//! `--seed`, tests) makes them reproducible ([`Hidden`]).

/// SplitMix64's increment (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a well-mixed 64-bit value from `x`.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A source of random 64-bit values, and the draws made from them.
pub trait Random {
    /// The next 64 random bits.
    fn next_u64(&mut self) -> u64;

    /// A number in `0..n`, every value equally likely (draws that would favour the low
    /// values are rejected and drawn again). `n = 0` gives 0.
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // The largest multiple of n that fits in 2^64 values: draws at or above it
        // would make the low remainders more likely.
        let zone = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let x = self.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// A fair coin toss.
    fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// Shuffles `items` in place (Fisher-Yates), every order equally likely.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The SplitMix64 generator: a counter advanced by [`GAMMA`], each value mixed by
/// [`splitmix64`]. Small, fast and good enough for shuffles and coin tosses; not for
/// secrets an attacker could compute (a seed derived from anything public, or from a
/// time, can be searched for): hidden draws use [`OsEntropy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeededRng {
    state: u64,
}

impl SeededRng {
    /// A generator whose stream is fixed by `seed`.
    pub fn new(seed: u64) -> SeededRng {
        SeededRng { state: seed }
    }
}

impl Random for SeededRng {
    fn next_u64(&mut self) -> u64 {
        let out = splitmix64(self.state);
        self.state = self.state.wrapping_add(GAMMA);
        out
    }
}

/// The operating system's random numbers (`getrandom`): nobody can predict them or
/// compute them again, so they are for hidden draws, which are then stored as drawn.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsEntropy;

impl Random for OsEntropy {
    /// # Panics
    ///
    /// When the operating system cannot give random numbers at all (as `rand`'s `OsRng`
    /// does): dealing predictable cards instead would be worse than refusing to deal.
    fn next_u64(&mut self) -> u64 {
        let mut bytes = [0u8; 8];
        if let Err(e) = getrandom::getrandom(&mut bytes) {
            panic!(
                "the operating system gives no random numbers ({e}): hidden draws cannot be made"
            );
        }
        u64::from_le_bytes(bytes)
    }
}

/// Where a game's hidden draws come from: the operating system's entropy, or, only where
/// a seed is configured for reproducible games (the console's `--seed`, tests), a seeded
/// stream.
#[derive(Clone, Debug)]
pub enum Hidden {
    /// [`OsEntropy`]: what the bot always uses.
    Os,
    /// A seeded stream: the same seed, the same draws.
    Seeded(SeededRng),
}

impl Hidden {
    /// The operating system's entropy without a seed; a seeded stream with one.
    pub fn new(seed: Option<u64>) -> Hidden {
        match seed {
            None => Hidden::Os,
            Some(s) => Hidden::Seeded(SeededRng::new(s)),
        }
    }
}

impl Random for Hidden {
    fn next_u64(&mut self) -> u64 {
        match self {
            Hidden::Os => OsEntropy.next_u64(),
            Hidden::Seeded(rng) => rng.next_u64(),
        }
    }
}

/// Shuffles `items` with numbers drawn from `seed` (Fisher-Yates over iterated
/// [`splitmix64`]), so a draw is the same every time for the same seed. This is the
/// referee's original team draw, kept exactly as it was so that stored games keep their
/// teams; new draws use [`Random::shuffle`].
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    for i in (1..items.len()).rev() {
        state = splitmix64(state);
        items.swap(i, (state % (i as u64 + 1)) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_published_reference_values() {
        // The reference generator seeded with 1234567 (Vigna's splitmix64.c) outputs
        // these first; our stream is the same algorithm.
        let mut rng = SeededRng::new(1234567);
        let got: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            got,
            vec![
                6457827717110365317,
                3203168211198807973,
                9817491932198370423
            ]
        );
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn the_same_seed_gives_the_same_stream_and_others_differ() {
        let a: Vec<u64> = {
            let mut r = SeededRng::new(42);
            (0..8).map(|_| r.next_u64()).collect()
        };
        let b: Vec<u64> = {
            let mut r = SeededRng::new(42);
            (0..8).map(|_| r.next_u64()).collect()
        };
        let c: Vec<u64> = {
            let mut r = SeededRng::new(43);
            (0..8).map(|_| r.next_u64()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = SeededRng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            let x = rng.below(6);
            assert!(x < 6);
            seen[x as usize] += 1;
        }
        // Each value about 1000 times; a biased or broken draw falls far outside.
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.below(0), 0);
        assert!(rng.below(u64::MAX) < u64::MAX);
    }

    #[test]
    fn below_rejects_the_biased_zone() {
        // n = 2^63 + 1: almost half of all 64-bit values are above the zone, so a
        // plain modulo would give small values twice as often. Rejection keeps every
        // result below n, and the high half shows up.
        let n = (1u64 << 63) + 1;
        let mut rng = SeededRng::new(99);
        let draws: Vec<u64> = (0..200).map(|_| rng.below(n)).collect();
        assert!(draws.iter().all(|&x| x < n));
        let high = draws.iter().filter(|&&x| x >= 1 << 62).count();
        assert!((60..140).contains(&high), "{high} of 200 in the upper half");
    }

    #[test]
    fn coin_lands_both_ways_about_evenly() {
        let mut rng = SeededRng::new(3);
        let heads = (0..2000).filter(|_| rng.coin()).count();
        assert!((900..1100).contains(&heads), "{heads}");
    }

    #[test]
    fn the_referee_shuffle_is_unchanged() {
        // The orders stored games were drawn with, as the referee's shuffle gave them
        // before it moved here.
        for (len, seed, want) in [
            (4, 1, vec![0, 3, 2, 1]),
            (4, 12345, vec![3, 1, 2, 0]),
            (8, 0x5eed, vec![3, 1, 2, 7, 0, 6, 5, 4]),
        ] {
            let mut v: Vec<u32> = (0..len).collect();
            shuffle(&mut v, seed);
            assert_eq!(v, want, "seed {seed}");
        }
        let mut empty: [u8; 0] = [];
        shuffle(&mut empty, 9);
    }

    #[test]
    fn rng_shuffle_is_a_reproducible_permutation() {
        let mut a: Vec<u32> = (0..24).collect();
        let mut b = a.clone();
        SeededRng::new(5).shuffle(&mut a);
        SeededRng::new(5).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..24).collect::<Vec<_>>());
        a.sort();
        assert_eq!(a, (0..24).collect::<Vec<_>>());
    }

    #[test]
    fn the_operating_systems_draws_differ_and_a_seeded_hidden_source_repeats() {
        // 64 random bits twice alike would mean no entropy at all (chance 2^-64).
        let draws: Vec<u64> = (0..4).map(|_| OsEntropy.next_u64()).collect();
        assert!(draws.windows(2).all(|w| w[0] != w[1]), "{draws:?}");
        let shuffled = |mut h: Hidden| {
            let mut v: Vec<u32> = (0..24).collect();
            h.shuffle(&mut v);
            v
        };
        assert_ne!(shuffled(Hidden::new(None)), shuffled(Hidden::new(None)));
        assert_eq!(
            shuffled(Hidden::new(Some(9))),
            shuffled(Hidden::new(Some(9)))
        );
        // A seeded hidden source is the seeded stream itself.
        let mut plain: Vec<u32> = (0..24).collect();
        SeededRng::new(9).shuffle(&mut plain);
        assert_eq!(shuffled(Hidden::new(Some(9))), plain);
    }
}
