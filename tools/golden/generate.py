#!/usr/bin/env python3
"""Generate golden perft data with Fairy-Stockfish (an independent engine).

Positions come from *random play inside the engine only*: at every ply the
legal move list is taken from Fairy-Stockfish's `go perft 1` output, a move is
picked with a seeded `random.Random`, the game is replayed with
`position fen START moves m1 m2 ...`, and the FEN is read back with `d`.
Sampled positions are then counted with `go perft DEPTH`, choosing the largest
depth whose count stays <= MAX_NODES (most land at 1e3..2e5 nodes).

Output: tests/data/perft_<name>.txt, one `FEN;DEPTH;NODES` per line, `#` lines
are comments (the header records engine, command, seed and settings).

Usage (from the repository root):
    python3 tools/golden/generate.py                 # all three files
    python3 tools/golden/generate.py standard        # just one
    python3 tools/golden/generate.py --fsf /path/to/fairy-stockfish --seed 7 los_alamos

Variants:
    standard     UCI_Variant chess
    los_alamos   UCI_Variant losalamos (6x6)
    chess_sharp  custom variant from tools/golden/chess_sharp.ini; the random
                 player additionally obeys the two Chess# rules FSF cannot
                 express (queen dropped last; no board moves before the own
                 king is dropped) and only positions where those rules cannot
                 change any perft count are recorded (see README.md).

The run is deterministic for a given engine build and seed.
"""

import argparse
import collections
import os
import random
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_FSF = "/usr/games/fairy-stockfish"
CHESS_SHARP_INI = os.path.join(HERE, "chess_sharp.ini")

MIN_NODES = 1_000
MAX_NODES = 200_000
MAX_DEPTH = 7
# Positions whose halfmove clock is above this are not sampled, so that no
# 50-move-rule convention can matter within the perft horizon (FSF's perft
# ignores the 50-move rule and repetitions).
MAX_HALFMOVE = 90


class Engine:
    def __init__(self, path):
        self.path = path
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.name = None
        self.send("uci")
        while True:
            line = self._readline()
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
            if line.strip() == "uciok":
                break

    def _readline(self):
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("fairy-stockfish exited unexpectedly")
        return line

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def sync(self):
        """Send isready and return all output lines before readyok."""
        self.send("isready")
        out = []
        while True:
            line = self._readline().rstrip("\n")
            if line == "readyok":
                return out
            out.append(line)

    def setoption(self, name, value):
        self.send("setoption name %s value %s" % (name, value))
        return self.sync()

    def position(self, start_fen, moves):
        cmd = "position fen " + start_fen
        if moves:
            cmd += " moves " + " ".join(moves)
        self.send(cmd)

    def perft(self, depth):
        """Return (total nodes, {move: nodes}) for `go perft depth`."""
        self.send("go perft %d" % depth)
        divide = {}
        while True:
            line = self._readline().strip()
            if line.startswith("Nodes searched:"):
                total = int(line.split(":", 1)[1])
                if sum(divide.values()) != total:
                    raise RuntimeError("divide does not add up: %r" % line)
                return total, divide
            if ": " in line:
                mv, n = line.split(": ", 1)
                if n.isdigit():
                    divide[mv] = int(n)

    def display(self):
        """Return (fen, checkers) from the `d` command."""
        self.send("d")
        out = self.sync()
        fen = checkers = None
        for line in out:
            if line.startswith("Fen: "):
                fen = line[5:].strip()
            elif line.startswith("Checkers:"):
                checkers = line[len("Checkers:"):].strip()
        if fen is None:
            raise RuntimeError("no Fen: line in `d` output: %r" % out)
        return fen, checkers

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


class Pos:
    """Minimal FEN parser (enough for tags and Chess# filters)."""

    def __init__(self, fen):
        self.fen = fen
        fields = fen.split()
        board = fields[0]
        self.reserve = None
        if "[" in board:
            board, rest = board.split("[", 1)
            self.reserve = rest.rstrip("]")
        self.rows = []
        for row in board.split("/"):
            cells, num = [], ""
            for ch in row:
                if ch.isdigit():
                    num += ch
                    continue
                if num:
                    cells.extend([None] * int(num))
                    num = ""
                if ch == "~":  # promoted-piece marker (not used here)
                    continue
                cells.append(ch)
            if num:
                cells.extend([None] * int(num))
            self.rows.append(cells)
        self.ranks = len(self.rows)
        self.files = len(self.rows[0])
        self.stm = fields[1]
        self.castling = fields[2] if len(fields) > 2 else "-"
        self.ep = fields[3] if len(fields) > 3 else "-"
        self.halfmove = int(fields[4]) if len(fields) > 4 else 0

    def squares_of(self, piece):
        res = []
        for r, row in enumerate(self.rows):
            for f, ch in enumerate(row):
                if ch == piece:
                    res.append("%s%d" % (chr(ord("a") + f), self.ranks - r))
        return res

    def hand(self, color):
        if not self.reserve:
            return ""
        return "".join(c for c in self.reserve if (c.isupper() if color == "w" else c.islower()))

    def key(self):
        return " ".join(self.fen.split()[:4])


def is_promotion(mv):
    return "@" not in mv and mv[-1].isalpha() and mv[-1].lower() != mv[-1].upper()


def target(mv):
    """Destination square of a UCI move (normal, promotion or drop)."""
    if "@" in mv:
        return mv.split("@", 1)[1]
    body = mv[:-1] if is_promotion(mv) else mv
    # body = from + to, squares are letter + digits
    i = 1
    while i < len(body) and body[i].isdigit():
        i += 1
    return body[i:]


# ---------------------------------------------------------------- variants

def chess_sharp_filter(pos, moves):
    """Moves our Chess# rules allow among FSF's moves (two extra rules)."""
    own_hand = pos.hand(pos.stm)
    king_dropped = ("k" if pos.stm == "b" else "K") not in own_hand
    queen_droppable = own_hand != "" and set(own_hand.upper()) == {"Q"}
    out = []
    for mv in moves:
        if "@" in mv:
            if mv[0].upper() == "Q" and not queen_droppable:
                continue
            out.append(mv)
        elif king_dropped:
            out.append(mv)
    return out


def chess_sharp_qualifies(pos):
    """True if our two extra rules cannot change any perft count below pos:
    both kings on the board, and each side's reserve is empty or queens only."""
    if not pos.squares_of("K") or not pos.squares_of("k"):
        return False
    for c in "wb":
        h = pos.hand(c)
        if h and set(h.upper()) != {"Q"}:
            return False
    return True


VARIANTS = {
    "standard": dict(
        uci_variant="chess", ini=None, seed=20240601, games=100, max_plies=120,
        target=150, per_game=3,
        quota=[("castling", 25), ("ep", 15), ("promo", 20), ("check", 20)],
        move_filter=None, qualifies=None),
    "los_alamos": dict(
        uci_variant="losalamos", ini=None, seed=20240602, games=100, max_plies=120,
        target=150, per_game=3,
        quota=[("promo", 25), ("check", 25), ("capture", 10)],
        move_filter=None, qualifies=None),
    "chess_sharp": dict(
        uci_variant="chesssharp", ini=CHESS_SHARP_INI, seed=20240603, games=160, max_plies=160,
        target=150, per_game=3,
        quota=[("queen_in_hand", 35), ("king_capture", 30), ("promo", 20)],
        move_filter=chess_sharp_filter, qualifies=chess_sharp_qualifies),
}


def tags_for(pos, moves, checkers):
    t = set()
    if pos.castling != "-":
        t.add("castling")
    if pos.ep != "-":
        t.add("ep")
    if checkers:
        t.add("check")
    if any(is_promotion(m) for m in moves):
        t.add("promo")
    if any("@" in m for m in moves):
        t.add("drop")
    opp_king = "k" if pos.stm == "w" else "K"
    ksq = set(pos.squares_of(opp_king))
    if ksq and any(target(m) in ksq for m in moves if "@" not in m):
        t.add("king_capture")
    occupied = set()
    for r, row in enumerate(pos.rows):
        for f, ch in enumerate(row):
            if ch is not None:
                occupied.add("%s%d" % (chr(ord("a") + f), pos.ranks - r))
    if any(target(m) in occupied for m in moves if "@" not in m):
        t.add("capture")
    if pos.reserve is not None and any(c in "Qq" for c in pos.reserve):
        t.add("queen_in_hand")
    return t


def choose_depth(eng, n1):
    """Largest depth with nodes <= MAX_NODES (never computing a depth that is
    predicted to exceed 3*MAX_NODES).  Returns (depth, nodes)."""
    best = (1, n1)
    prev, cur, d = 1, n1, 1
    while d < MAX_DEPTH:
        if cur >= MIN_NODES:
            predicted = cur * max(cur / max(prev, 1), 1.0)
            if predicted > 3 * MAX_NODES:
                break
        nodes, _ = eng.perft(d + 1)
        if nodes > MAX_NODES or nodes == 0:
            break
        d += 1
        prev, cur = cur, nodes
        best = (d, nodes)
    return best


def play_games(eng, cfg, seed, log):
    start_fen = None
    eng.send("position startpos")
    start_fen, _ = eng.display()
    pool = []
    stats = collections.Counter()
    for g in range(cfg["games"]):
        rng = random.Random(seed * 1_000_003 + g)
        moves = []
        for ply in range(cfg["max_plies"] + 1):
            eng.position(start_fen, moves)
            n1, divide = eng.perft(1)
            fen, checkers = eng.display()
            pos = Pos(fen)
            legal = sorted(divide)
            if cfg["uci_variant"] == "chesssharp":
                kings_gone = ((not pos.squares_of("K") and "K" not in pos.hand("w")) or
                              (not pos.squares_of("k") and "k" not in pos.hand("b")))
                if kings_gone:
                    # our semantics: king captured => terminal; FSF must agree
                    if n1 != 0:
                        raise RuntimeError("FSF continues after king capture: " + fen)
                    stats["ended_king_captured"] += 1
                    break
            if n1 == 0:
                stats["ended_no_moves"] += 1
                break
            ok = (pos.halfmove <= MAX_HALFMOVE and
                  (cfg["qualifies"] is None or cfg["qualifies"](pos)))
            if ok:
                pool.append(dict(game=g, ply=ply, fen=fen, pos=pos, n1=n1,
                                 tags=tags_for(pos, legal, checkers)))
            if ply == cfg["max_plies"]:
                stats["ended_max_plies"] += 1
                break
            cand = cfg["move_filter"](pos, legal) if cfg["move_filter"] else legal
            if not cand:
                stats["ended_no_rule_moves"] += 1
                break
            moves.append(rng.choice(cand))
        if log and (g + 1) % 20 == 0:
            print("  %d games, pool %d" % (g + 1, len(pool)), file=sys.stderr)
    return start_fen, pool, stats


def select(pool, cfg, rng, start_fen):
    chosen, used = [], set()
    per_game = collections.Counter()

    def take(rec):
        k = rec["pos"].key()
        if k in used or per_game[rec["game"]] >= cfg["per_game"]:
            return False
        used.add(k)
        per_game[rec["game"]] += 1
        chosen.append(rec)
        return True

    # the start position itself (ply 0 of game 0) if it qualifies
    for rec in pool:
        if rec["game"] == 0 and rec["ply"] == 0 and rec["fen"] == start_fen:
            take(rec)
    for tag, quota in cfg["quota"]:
        cands = [r for r in pool if tag in r["tags"]]
        rng.shuffle(cands)
        n = 0
        for rec in cands:
            if n >= quota:
                break
            if take(rec):
                n += 1
    buckets = collections.defaultdict(list)
    for rec in pool:
        buckets[rec["ply"] // 10].append(rec)
    for b in buckets.values():
        rng.shuffle(b)
    order = sorted(buckets)
    progress = True
    while len(chosen) < cfg["target"] and progress:
        progress = False
        for b in order:
            while buckets[b]:
                if take(buckets[b].pop()):
                    progress = True
                    break
            if len(chosen) >= cfg["target"]:
                break
    chosen.sort(key=lambda r: (r["game"], r["ply"]))
    return chosen


def generate(name, args):
    cfg = VARIANTS[name]
    seed = args.seed if args.seed is not None else cfg["seed"]
    out_path = os.path.join(args.out_dir, "perft_%s.txt" % name)
    print("[%s] seed %d -> %s" % (name, seed, out_path), file=sys.stderr)
    eng = Engine(args.fsf)
    try:
        if cfg["ini"]:
            eng.setoption("VariantPath", cfg["ini"])
        out = eng.setoption("UCI_Variant", cfg["uci_variant"])
        info = [l for l in out if l.startswith("info string variant")]
        if cfg["uci_variant"] != "chess" and not info:
            raise RuntimeError("variant %s not accepted: %r" % (cfg["uci_variant"], out))
        if cfg["uci_variant"] == "chesssharp":
            chess_sharp_selftest(eng)
        start_fen, pool, stats = play_games(eng, cfg, seed, log=True)
        rng = random.Random(seed ^ 0x5EED)
        chosen = select(pool, cfg, rng, start_fen)
        lines, tagcount, depths = [], collections.Counter(), collections.Counter()
        for rec in chosen:
            eng.position(rec["fen"], [])
            depth, nodes = choose_depth(eng, rec["n1"])
            # re-check the final count once more from a fresh `position` command
            eng.position(rec["fen"], [])
            again, _ = eng.perft(depth)
            if again != nodes:
                raise RuntimeError("unstable perft for " + rec["fen"])
            lines.append("%s;%d;%d" % (rec["fen"], depth, nodes))
            tagcount.update(rec["tags"])
            depths[depth] += 1
        engine_name = eng.name
    finally:
        eng.quit()

    pkg = ""
    try:
        pkg = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Version}", "fairy-stockfish"],
                             capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    cmd = "python3 tools/golden/generate.py --seed %d %s" % (seed, name)
    if args.fsf != DEFAULT_FSF:
        cmd += " --fsf " + shlex.quote(args.fsf)
    hdr = [
        "# Golden perft data: %s" % name,
        "# Generated by tools/golden/generate.py with %s%s (%s)"
        % (engine_name, " [Debian package %s]" % pkg if pkg else "", args.fsf),
        "# Command: %s" % cmd,
        "# Seed: %d (game g uses random.Random(seed*1000003+g); selection uses random.Random(seed^0x5EED))" % seed,
        "# Engine commands: setoption name UCI_Variant value %s; position fen FEN; go perft DEPTH"
        % cfg["uci_variant"],
    ]
    if cfg["ini"]:
        hdr.append("# Variant definition (setoption name VariantPath value tools/golden/chess_sharp.ini):")
        with open(cfg["ini"]) as fh:
            for l in fh:
                l = l.rstrip("\n")
                if l and not l.startswith("#"):
                    hdr.append("#   " + l)
        hdr += [
            "# Positions come from random games whose player obeyed the two rules FSF cannot",
            "# express (queen dropped only when it is the last piece in hand; no board move",
            "# before the own king is dropped). Only positions with both kings on the board and",
            "# each reserve empty or queens only are recorded, so those rules cannot change any",
            "# count below them. Counts are pseudo-legal (no check rules), king captures are",
            "# counted as moves, and a position whose king was captured has no moves (0 below).",
        ]
    hdr += [
        "# Random games: %d, up to %d plies each; positions sampled at plies 0..%d,"
        % (cfg["games"], cfg["max_plies"], cfg["max_plies"]),
        "# never with 0 legal moves, never with halfmove clock > %d." % MAX_HALFMOVE,
        "# Depth: the largest depth with NODES <= %d (most counts are %d..%d)." % (MAX_NODES, MIN_NODES, MAX_NODES),
        "# FEN: exactly as printed by FSF `d`%s." % (
            " (en-passant square only when an enemy pawn attacks it, even if that capture"
            " is illegal)" if cfg["uci_variant"] == "chess" else ""),
        "# Positions: %d; depths: %s" % (len(lines), ", ".join("d%d=%d" % kv for kv in sorted(depths.items()))),
        "# Tags (a position can have several): %s"
        % ", ".join("%s=%d" % kv for kv in sorted(tagcount.items())),
        "# Game endings: %s" % ", ".join("%s=%d" % kv for kv in sorted(stats.items())),
        "# Format: FEN;DEPTH;NODES",
    ]
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w") as fh:
        fh.write("\n".join(hdr + lines) + "\n")
    print("[%s] wrote %d positions (pool %d)" % (name, len(lines), len(pool)), file=sys.stderr)


def chess_sharp_selftest(eng):
    """Check that the ini really gives our Chess# semantics in FSF."""
    def moves_of(fen):
        eng.position(fen, [])
        return eng.perft(1)[1]
    start = "8/pppppppp/8/8/8/8/PPPPPPPP/8[RNBQKBNRrnbqkbnr] w - - 0 1"
    m = moves_of(start)
    assert len(m) == 48, m                                   # 8 single steps + 5 kinds x 8 squares
    assert all(mv.endswith("1") for mv in m if "@" in mv)    # white drops on rank 1 only
    assert not any(mv.endswith("4") for mv in m)             # no double step
    m = moves_of(start.replace(" w ", " b "))
    assert all(mv.endswith("8") for mv in m if "@" in mv)    # black drops on rank 8 only
    m = moves_of("8/pppppppp/8/8/8/8/PPPPPPPP/4R3[NBQKBNRrnbqkbnr] w - - 0 1")
    assert not any(mv.endswith("@e1") for mv in m)           # no drops on occupied squares
    # pseudo-legal: the king may step next to / onto squares attacked by the rook
    m = moves_of("4k3/8/8/8/8/8/r7/4K3[] w - - 0 1")
    assert sorted(m) == ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"], m
    # king capture is a move and ends the game (nothing below it)
    eng.position("R3k3/8/8/8/8/8/8/4K3[] w - - 0 1", [])
    total, div = eng.perft(2)
    assert div["a8e8"] == 0 and all(v == 5 for k, v in div.items() if k != "a8e8"), div
    # a side without king (board and hand) has no moves; a king in hand keeps it alive
    assert moves_of("4k3/8/8/8/8/8/8/R7[] w - - 0 1") == {}
    assert len(moves_of("4k3/8/8/8/8/8/8/8[K] w - - 0 1")) == 8
    # promotion to queen only, both colours
    assert sorted(moves_of("4k3/P7/8/8/8/8/8/4K3[] w - - 0 1"))[0] == "a7a8q"
    assert [mv for mv in moves_of("4k3/8/8/8/8/8/p7/4K3[] b - - 0 1") if mv[0] == "a"] == ["a2a1q"]
    # no castling even with a king and rook on their squares
    assert not any(mv in ("e1g1", "e1h1") for mv in moves_of("4k3/8/8/8/8/8/8/4K2R[] w K - 0 1"))
    print("[chess_sharp] ini self-test passed", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="*",
                    help="subset of: %s (default: all)" % ", ".join(VARIANTS))
    ap.add_argument("--fsf", default=os.environ.get("FSF", DEFAULT_FSF), help="fairy-stockfish binary")
    ap.add_argument("--seed", type=int, default=None, help="override the per-variant seed")
    ap.add_argument("--out-dir", default=os.path.join(REPO, "tests", "data"))
    args = ap.parse_args()
    names = args.variants or list(VARIANTS)
    for n in names:
        if n not in VARIANTS:
            ap.error("unknown variant %r (choose from %s)" % (n, ", ".join(VARIANTS)))
    for n in names:
        generate(n, args)


if __name__ == "__main__":
    main()
