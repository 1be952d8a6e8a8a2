//! Booster Chess move counts computed two independent ways: the engine's generator
//! (`Pos::perft`, bitboards, pruned booster reach) and a slow reference written here from
//! the rulebook (square geometry, booster reach by enumerating every king-step sequence
//! of every piece, no pruning). A turn is a legal normal move followed by any legal
//! sequence of king steps, every prefix counted; cards are not part of the count.

use postal::rules::{Color, Role, Square};
use postal::variants::booster::{fen, Pos};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct P {
    white: bool,
    role: Role,
}

/// The reference's own position: a mailbox, signed stacks, rights as four flags.
#[derive(Clone)]
struct R {
    board: [Option<P>; 64],
    stack: [i8; 64],
    white: bool,
    /// K, Q, k, q.
    rights: [bool; 4],
    ep: Option<usize>,
}

#[derive(Clone, Copy, Debug)]
struct M {
    from: usize,
    to: usize,
    promo: Option<Role>,
    ep: bool,
    castle: bool,
}

fn idx(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn fr(i: usize) -> (i32, i32) {
    ((i % 8) as i32, (i / 8) as i32)
}

fn from_pos(p: &Pos) -> R {
    let mut r = R {
        board: [None; 64],
        stack: [0; 64],
        white: p.turn == Color::White,
        rights: [false; 4],
        ep: p.ep.map(|s| s.index()),
    };
    for i in 0..64u8 {
        let s = Square::from_index(i);
        r.board[i as usize] = p.piece(s).map(|x| P {
            white: x.color == Color::White,
            role: x.role,
        });
        r.stack[i as usize] = p.stack(s);
    }
    for (k, s) in ["h1", "a1", "h8", "a8"].iter().enumerate() {
        r.rights[k] = p.castling.contains(Square::parse(s).unwrap());
    }
    r
}

const KING: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

impl R {
    fn own_sign(&self, i: usize) -> i8 {
        match self.board[i] {
            Some(p) if p.white => 1,
            Some(_) => -1,
            None => 0,
        }
    }
    fn boosted(&self, i: usize) -> i8 {
        (self.stack[i] * self.own_sign(i)).max(0)
    }
    fn hobbled(&self, i: usize) -> bool {
        self.stack[i] * self.own_sign(i) < 0
    }
    fn far(white: bool) -> i32 {
        if white {
            7
        } else {
            0
        }
    }

    /// Normal moves of the piece on `from` by geometry; castling only if `castle`.
    fn moves(&self, from: usize, castle: bool) -> Vec<M> {
        let Some(p) = self.board[from] else {
            return vec![];
        };
        let (f, r) = fr(from);
        let dir = if p.white { 1 } else { -1 };
        let enemy = |i: usize| self.board[i].is_some_and(|q| q.white != p.white);
        let empty = |i: usize| self.board[i].is_none();
        let mut out = Vec::new();
        let plain = |to: usize| M {
            from,
            to,
            promo: None,
            ep: false,
            castle: false,
        };
        if self.hobbled(from) {
            if p.role == Role::Pawn {
                return out;
            }
            if let Some(t) = idx(f, r + dir) {
                if empty(t) {
                    out.push(plain(t));
                }
            }
            for df in [-1, 1] {
                if let Some(t) = idx(f + df, r + dir) {
                    if enemy(t) {
                        out.push(plain(t));
                    }
                }
            }
            return out;
        }
        match p.role {
            Role::Pawn => {
                let mut targets = Vec::new();
                if let Some(t) = idx(f, r + dir) {
                    if empty(t) {
                        targets.push((t, false));
                        let start = if p.white { 1 } else { 6 };
                        if r == start {
                            if let Some(t2) = idx(f, r + 2 * dir) {
                                if empty(t2) {
                                    targets.push((t2, false));
                                }
                            }
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(t) = idx(f + df, r + dir) {
                        if enemy(t) {
                            targets.push((t, false));
                        } else if self.ep == Some(t) {
                            targets.push((t, true));
                        }
                    }
                }
                for (t, ep) in targets {
                    if fr(t).1 == R::far(p.white) {
                        for q in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                            out.push(M {
                                from,
                                to: t,
                                promo: Some(q),
                                ep,
                                castle: false,
                            });
                        }
                    } else {
                        out.push(M {
                            from,
                            to: t,
                            promo: None,
                            ep,
                            castle: false,
                        });
                    }
                }
            }
            Role::Knight | Role::King => {
                let offs = if p.role == Role::Knight { KNIGHT } else { KING };
                for (df, dr) in offs {
                    if let Some(t) = idx(f + df, r + dr) {
                        if empty(t) || enemy(t) {
                            out.push(plain(t));
                        }
                    }
                }
                if p.role == Role::King && castle {
                    out.extend(self.castles(from, p.white));
                }
            }
            role => {
                let dirs: &[(i32, i32)] = match role {
                    Role::Rook => &KING[..4],
                    Role::Bishop => &KING[4..],
                    _ => &KING,
                };
                for (df, dr) in dirs {
                    let (mut x, mut y) = (f + df, r + dr);
                    while let Some(t) = idx(x, y) {
                        if empty(t) {
                            out.push(plain(t));
                        } else {
                            if enemy(t) {
                                out.push(plain(t));
                            }
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
        }
        out
    }

    fn castles(&self, from: usize, white: bool) -> Vec<M> {
        let rank = if white { 0 } else { 7 };
        let mut out = Vec::new();
        if from != idx(4, rank).unwrap() || self.stack[from] != 0 {
            return out;
        }
        for (k, rook_f, path, cross) in [
            (if white { 0 } else { 2 }, 7, vec![5, 6], vec![4, 5, 6]),
            (if white { 1 } else { 3 }, 0, vec![1, 2, 3], vec![4, 3, 2]),
        ] {
            let rook = idx(rook_f, rank).unwrap();
            if !self.rights[k]
                || self.board[rook]
                    != Some(P {
                        white,
                        role: Role::Rook,
                    })
                || self.stack[rook] != 0
                || path
                    .iter()
                    .any(|f| self.board[idx(*f, rank).unwrap()].is_some())
                || cross
                    .iter()
                    .any(|f| self.attacked(idx(*f, rank).unwrap(), !white))
            {
                continue;
            }
            out.push(M {
                from,
                to: idx(cross[2], rank).unwrap(),
                promo: None,
                ep: false,
                castle: true,
            });
        }
        out
    }

    /// Lands the piece now on `at` after a capture of `taken` (a stack): merge, then
    /// the far-rank rule.
    fn land(&mut self, at: usize, carried: i8, taken: i8) {
        self.stack[at] = carried + taken;
        let p = self.board[at].unwrap();
        if fr(at).1 == R::far(p.white) && self.hobbled(at) {
            self.stack[at] = 0;
        }
    }

    fn clear_rights(&mut self, from: usize, to: usize) {
        for (k, s) in [7usize, 0, 63, 56].iter().enumerate() {
            if from == *s || to == *s {
                self.rights[k] = false;
            }
        }
        if let Some(p) = self.board[to] {
            if p.role == Role::King {
                let ks = if p.white { [0, 1] } else { [2, 3] };
                for k in ks {
                    self.rights[k] = false;
                }
            }
        }
    }

    fn play(&self, m: M) -> R {
        let mut n = self.clone();
        let p = n.board[m.from].unwrap();
        let carried = n.stack[m.from];
        n.board[m.from] = None;
        n.stack[m.from] = 0;
        let mut taken = 0;
        if m.ep {
            let (f, _) = fr(m.to);
            let (_, r) = fr(m.from);
            let v = idx(f, r).unwrap();
            taken = n.stack[v];
            n.board[v] = None;
            n.stack[v] = 0;
        } else if m.castle {
            let (f, r) = fr(m.to);
            let (rf, rt) = if f == 6 { (7, 5) } else { (0, 3) };
            let (a, b) = (idx(rf, r).unwrap(), idx(rt, r).unwrap());
            n.board[b] = n.board[a].take();
        } else {
            taken = n.stack[m.to];
        }
        n.board[m.to] = Some(P {
            white: p.white,
            role: m.promo.unwrap_or(p.role),
        });
        n.land(m.to, carried, taken);
        n.clear_rights(m.from, m.to);
        let (_, r0) = fr(m.from);
        let (_, r1) = fr(m.to);
        n.ep = (p.role == Role::Pawn && (r0 - r1).abs() == 2).then(|| (m.from + m.to) / 2);
        n
    }

    fn step(&self, from: usize, to: usize, promo: Option<Role>) -> R {
        let mut n = self.clone();
        let p = n.board[from].unwrap();
        let carried = n.stack[from] - if p.white { 1 } else { -1 };
        n.board[from] = None;
        n.stack[from] = 0;
        let taken = n.stack[to];
        let role = if p.role == Role::Pawn && fr(to).1 == R::far(p.white) {
            promo.unwrap_or(Role::Queen)
        } else {
            p.role
        };
        n.board[to] = Some(P {
            white: p.white,
            role,
        });
        n.land(to, carried, taken);
        n.clear_rights(from, to);
        n.ep = None;
        n
    }

    /// Whether a piece of side `white` could land on `target`: a capture by its normal
    /// geometry, or any sequence of king steps after any of its normal moves.
    fn attacked(&self, target: usize, white: bool) -> bool {
        for from in 0..64 {
            let Some(p) = self.board[from] else { continue };
            if p.white != white {
                continue;
            }
            let (f, r) = fr(from);
            let (tf, tr) = fr(target);
            let dir = if white { 1 } else { -1 };
            let diag = (tf - f).abs() == 1 && tr - r == dir;
            if self.hobbled(from) {
                if p.role != Role::Pawn && diag {
                    return true;
                }
                continue;
            }
            let hit = match p.role {
                Role::Pawn => diag,
                _ => {
                    // As if an enemy piece stood on the target.
                    let mut probe = self.clone();
                    probe.board[target] = Some(P {
                        white: !white,
                        role: Role::Pawn,
                    });
                    probe.ep = None;
                    probe.moves(from, false).iter().any(|m| m.to == target)
                }
            };
            if hit {
                return true;
            }
            if self.boosted(from) > 0 {
                for m in self.moves(from, false) {
                    let n = self.play(m);
                    if n.steps_reach(m.to, target) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn steps_reach(&self, at: usize, target: usize) -> bool {
        if self.boosted(at) == 0 {
            return false;
        }
        let p = self.board[at].unwrap();
        let (f, r) = fr(at);
        for (df, dr) in KING {
            let Some(t) = idx(f + df, r + dr) else {
                continue;
            };
            if self.board[t].is_some_and(|q| q.white == p.white) {
                continue;
            }
            if t == target {
                return true;
            }
            if self.step(at, t, None).steps_reach(t, target) {
                return true;
            }
        }
        false
    }

    fn king(&self, white: bool) -> usize {
        (0..64)
            .find(|i| {
                self.board[*i]
                    == Some(P {
                        white,
                        role: Role::King,
                    })
            })
            .unwrap()
    }

    fn safe(&self, white: bool) -> bool {
        !self.attacked(self.king(white), !white)
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for from in 0..64 {
            if !self.board[from].is_some_and(|p| p.white == self.white) {
                continue;
            }
            for m in self.moves(from, true) {
                if self.board[m.to].is_some_and(|q| q.role == Role::King) {
                    continue;
                }
                let after = self.play(m);
                if !after.safe(self.white) {
                    continue;
                }
                let boosted = !m.castle && self.boosted(from) > 0;
                n += after.turns_from(m.to, boosted, depth);
            }
        }
        n
    }

    fn turns_from(&self, at: usize, may_step: bool, depth: u32) -> u64 {
        let mut next = self.clone();
        next.white = !self.white;
        let mut n = next.perft(depth - 1);
        if !may_step || self.boosted(at) == 0 {
            return n;
        }
        let p = self.board[at].unwrap();
        let (f, r) = fr(at);
        for (df, dr) in KING {
            let Some(t) = idx(f + df, r + dr) else {
                continue;
            };
            if self.board[t].is_some_and(|q| q.white == p.white || q.role == Role::King) {
                continue;
            }
            let promos: Vec<Option<Role>> = if p.role == Role::Pawn && fr(t).1 == R::far(p.white) {
                [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                    .map(Some)
                    .to_vec()
            } else {
                vec![None]
            };
            for q in promos {
                let s = self.step(at, t, q);
                if s.safe(self.white) {
                    n += s.turns_from(t, true, depth);
                }
            }
        }
        n
    }
}

/// Positions with stacks: boosted and hobbled pieces of both sides, promotions with
/// steps, en passant beside a boosted pawn, castling past a boosted knight.
const POSITIONS: [(&str, u32); 8] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 g1:w1,b8:b1,e2:b1", 3),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 d2:w2,f6:b1,c3:b1,a6:w1", 2),
    ("8/2P5/8/8/5k2/8/4K3/8 w - - 0 1 c7:w2,f4:w1", 3),
    ("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 d7:b1,e5:w1", 3),
    ("r3k2r/8/8/8/7n/8/8/R3K2R w KQkq - 0 1 h4:b1,a1:w1", 3),
    ("k7/8/8/8/8/8/3N4/4K3 w - - 0 1 d2:w2,a8:w1", 3),
    ("k7/8/8/8/8/8/3N4/4K3 b - - 0 1 d2:w2", 3),
    ("4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1 e2:w1,h8:b2", 2),
];

#[test]
fn the_engine_and_a_slow_reference_count_the_same_booster_turns() {
    for (text, depth) in POSITIONS {
        let pos = fen::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let r = from_pos(&pos);
        for d in 1..=depth {
            let engine = pos.perft(d);
            let reference = r.perft(d);
            eprintln!("{text} depth {d}: {engine}");
            assert_eq!(engine, reference, "{text} at depth {d}");
        }
    }
}

#[test]
fn with_no_checker_on_the_board_booster_counts_as_standard_chess() {
    // Perft of the standard engine's known positions (no stacks): the same numbers.
    for (text, counts) in [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            [48u64, 2039],
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191]),
    ] {
        let pos = fen::parse(text).unwrap();
        assert_eq!([pos.perft(1), pos.perft(2)], counts, "{text}");
        assert_eq!(from_pos(&pos).perft(2), counts[1], "{text}");
    }
}
