"""Reads every game of the PGN files named on the command line with python-chess
(chess.pgn.read_headers) and checks what a PGN reader relies on: the Seven Tag Roster
first and in order, a Result that the standard allows, and the same result at the end of
the movetext. Prints one line per game: the file, the Variant tag (or "Standard") and the
Result. Exits 1, saying why, at the first game that fails a check.
"""

import re
import sys

import chess.pgn

ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def fail(path, why):
    print(f"{path}: {why}", file=sys.stderr)
    sys.exit(1)


def check(path):
    text = open(path, encoding="utf-8").read()
    with open(path, encoding="utf-8") as stream:
        headers = chess.pgn.read_headers(stream)
        if headers is None:
            fail(path, "python-chess found no game")
        if chess.pgn.read_headers(stream) is not None:
            fail(path, "more than one game")
    missing = [tag for tag in ROSTER if tag not in headers]
    if missing:
        fail(path, f"python-chess read no {', '.join(missing)} tag")
    # python-chess gives the roster first whatever the file's order: read the order here.
    order = re.findall(r"^\[(\w+) ", text, flags=re.MULTILINE)
    if order[:7] != ROSTER:
        fail(path, f"the Seven Tag Roster is not first and in order: {order[:7]}")
    result = headers["Result"]
    if result not in RESULTS:
        fail(path, f"Result {result!r} is not one of {sorted(RESULTS)}")
    movetext = re.sub(r"\{[^}]*\}", " ", text.split("\n\n", 1)[-1]).split()
    if not movetext or movetext[-1] != result:
        fail(path, f"the movetext does not end with the Result {result}")
    print(f"{path}\t{headers.get('Variant', 'Standard')}\t{result}")


for path in sys.argv[1:]:
    check(path)
