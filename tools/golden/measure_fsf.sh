#!/usr/bin/env bash
# Measure Fairy-Stockfish perft speed (single thread; FSF perft is single-threaded).
# Usage: tools/golden/measure_fsf.sh [path-to-fairy-stockfish]
# Timing is taken around each `go perft N` command only (engine start-up excluded);
# it runs each case REPEAT times (default 3) and reports the best.
set -euo pipefail
FSF="${1:-${FSF:-/usr/games/fairy-stockfish}}"
REPEAT="${REPEAT:-3}"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)  cores: $(nproc)"
python3 - "$FSF" "$REPEAT" <<'PY'
import subprocess, sys, time
fsf, repeat = sys.argv[1], int(sys.argv[2])
cases = [
    ("standard startpos", "chess", "position startpos", 6),
    # Kiwipete (note the white knight on e5: "3PN3"; expected perft 5 = 193690690)
    ("kiwipete", "chess",
     "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("losalamos startpos", "losalamos", "position startpos", 6),
    ("losalamos startpos", "losalamos", "position startpos", 7),
]
p = subprocess.Popen([fsf], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s):
    p.stdin.write(s + "\n"); p.stdin.flush()
def wait_for(prefix):
    while True:
        l = p.stdout.readline()
        if not l:
            sys.exit("engine died")
        if l.startswith(prefix):
            return l.strip()
name = None
send("uci")
while True:
    l = p.stdout.readline()
    if l.startswith("id name"): name = l[8:].strip()
    if l.startswith("uciok"): break
print("# engine:", name)
for label, variant, pos, depth in cases:
    send("setoption name UCI_Variant value " + variant)
    send(pos); send("isready"); wait_for("readyok")
    best = None; nodes = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        send("go perft %d" % depth)
        line = wait_for("Nodes searched")
        dt = time.perf_counter() - t0
        nodes = int(line.split(":")[1])
        best = dt if best is None else min(best, dt)
    print("%-20s perft %d  nodes %12d  time %8.3f s  %6.2f Mnodes/s"
          % (label, depth, nodes, best, nodes / best / 1e6))
send("quit")
PY
echo "# load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
