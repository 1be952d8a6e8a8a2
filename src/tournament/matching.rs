//! Maximum matching in a general graph (Edmonds' blossom algorithm), the oracle that
//! keeps Swiss pairing complete: before a pair is fixed, the players left must still be
//! pairable among themselves without a rematch.
//!
//! Written here rather than taken from a crate: what the pairing needs is a matching
//! that is *repaired* after two players leave the field (one augmenting search from each
//! freed player, O(edges)) rather than recomputed, and the algorithm is ninety lines.

/// A graph on players `0..n` (the pairs that may meet) and its matchings.
pub(crate) struct Graph {
    adj: Vec<Vec<usize>>,
}

/// No mate.
const NONE: usize = usize::MAX;

impl Graph {
    /// The graph whose edges are the pairs `edge(a, b)` accepts among `0..n`.
    pub fn new(n: usize, edge: impl Fn(usize, usize) -> bool) -> Graph {
        let mut adj = vec![Vec::new(); n];
        for a in 0..n {
            for b in a + 1..n {
                if edge(a, b) {
                    adj[a].push(b);
                    adj[b].push(a);
                }
            }
        }
        Graph { adj }
    }

    /// Whether `a` and `b` are joined.
    pub fn joined(&self, a: usize, b: usize) -> bool {
        self.adj[a].contains(&b)
    }

    /// A perfect matching of the vertices marked `alive`, grown from `start` (a matching
    /// among alive vertices, `NONE`-free entries pointing at each other), or `None` if the
    /// alive vertices have none.
    pub fn perfect(&self, alive: &[bool], start: Vec<usize>) -> Option<Vec<usize>> {
        let mut m = Search::new(self, alive, start);
        for (v, &live) in alive.iter().enumerate() {
            if live && m.mate[v] == NONE && !m.augment(v) {
                return None;
            }
        }
        Some(m.mate)
    }

    /// A perfect matching of the alive vertices, from nothing.
    pub fn perfect_from_scratch(&self, alive: &[bool]) -> Option<Vec<usize>> {
        self.perfect(alive, vec![NONE; alive.len()])
    }

    /// After the pair `a`-`b` leaves a perfectly matched field (`mate`), a perfect
    /// matching of the rest, repaired from `mate`, or `None` if the rest has none.
    pub fn without_pair(
        &self,
        alive: &[bool],
        mate: &[usize],
        a: usize,
        b: usize,
    ) -> Option<(Vec<bool>, Vec<usize>)> {
        let mut alive = alive.to_vec();
        alive[a] = false;
        alive[b] = false;
        let mut start = mate.to_vec();
        for v in [a, b] {
            let w = start[v];
            if w != NONE {
                start[w] = NONE;
            }
            start[v] = NONE;
        }
        let m = self.perfect(&alive, start)?;
        Some((alive, m))
    }
}

/// The state of Edmonds' search.
struct Search<'a> {
    g: &'a Graph,
    alive: &'a [bool],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
}

impl<'a> Search<'a> {
    fn new(g: &'a Graph, alive: &'a [bool], mate: Vec<usize>) -> Search<'a> {
        let n = alive.len();
        Search {
            g,
            alive,
            mate,
            parent: vec![NONE; n],
            base: (0..n).collect(),
            used: vec![false; n],
            blossom: vec![false; n],
        }
    }

    /// Looks for an augmenting path from the free vertex `root` and flips it; whether
    /// one was found.
    fn augment(&mut self, root: usize) -> bool {
        let Some(mut v) = self.find_path(root) else {
            return false;
        };
        while v != NONE {
            let pv = self.parent[v];
            let ppv = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = ppv;
        }
        true
    }

    fn lca(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.alive.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    fn find_path(&mut self, root: usize) -> Option<usize> {
        let n = self.alive.len();
        self.used.fill(false);
        self.parent.fill(NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(v) = queue.pop_front() {
            let g = self.g;
            for &to in &g.adj[v] {
                if !self.alive[to] || self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let cur = self.lca(v, to);
                    self.blossom.fill(false);
                    self.mark_path(v, cur, to);
                    self.mark_path(to, cur, v);
                    for i in 0..n {
                        if self.alive[i] && self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let next = self.mate[to];
                    self.used[next] = true;
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the alive vertices can be perfectly matched, by trying every matching.
    fn brute(n: usize, edge: &dyn Fn(usize, usize) -> bool, alive: &[bool]) -> bool {
        let Some(first) = (0..n).find(|&v| alive[v]) else {
            return true;
        };
        let mut rest = alive.to_vec();
        rest[first] = false;
        (0..n).any(|w| {
            rest[w] && edge(first, w) && {
                let mut r = rest.clone();
                r[w] = false;
                brute(n, edge, &r)
            }
        })
    }

    #[test]
    fn an_odd_cycle_is_matched_through_its_blossom() {
        // A triangle 0-1-2 with a tail 2-3 and 0-4, 4-5: perfect only through the blossom.
        let edges = [(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (4, 5)];
        let edge = |a: usize, b: usize| edges.contains(&(a, b)) || edges.contains(&(b, a));
        let g = Graph::new(6, edge);
        let alive = vec![true; 6];
        // Start from a matching that needs the blossom to grow: 1-2 and 4-5... plus 0, 3 free.
        let mut start = vec![NONE; 6];
        (start[1], start[2], start[4], start[5]) = (2, 1, 5, 4);
        let m = g.perfect(&alive, start).expect("a perfect matching");
        for v in 0..6 {
            assert!(edge(v, m[v]) && m[m[v]] == v, "{m:?}");
        }
    }

    #[test]
    fn the_oracle_agrees_with_trying_every_matching() {
        // Pseudo-random graphs on up to 10 vertices.
        let mut seed = 12345u64;
        for _ in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = (seed >> 60) as usize % 9 + 2;
            let bits = seed >> 8;
            let edge = move |a: usize, b: usize| {
                let (a, b) = (a.min(b), a.max(b));
                (bits >> ((a * 7 + b * 3) % 52)) & 1 == 1
            };
            let g = Graph::new(n, edge);
            let alive: Vec<bool> = (0..n).map(|v| (bits >> (v + 40)) & 3 != 0).collect();
            let got = g.perfect_from_scratch(&alive);
            assert_eq!(got.is_some(), brute(n, &edge, &alive), "{n} {bits:x}");
            if let Some(m) = got {
                for v in (0..n).filter(|&v| alive[v]) {
                    assert!(alive[m[v]] && m[m[v]] == v && g.joined(v, m[v]));
                }
                // Taking out a matched pair keeps the rest perfect, repaired.
                if let Some(v) = (0..n).find(|&v| alive[v]) {
                    let w = (0..n).rev().find(|&w| w != v && alive[w] && g.joined(v, w));
                    if let Some(w) = w {
                        let mut rest = alive.clone();
                        (rest[v], rest[w]) = (false, false);
                        let repaired = g.without_pair(&alive, &m, v, w);
                        assert_eq!(repaired.is_some(), brute(n, &edge, &rest));
                    }
                }
            }
        }
    }
}
