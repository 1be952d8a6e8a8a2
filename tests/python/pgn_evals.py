"""Reads the PGN files named on the command line with python-chess and prints, for each
move of each game, one line: its SAN, its NAGs as numbers (python-chess reads Lichess's
`?!`, `?` and `??` as 6, 2 and 4), and the evaluation of its `[%eval ...]` comment from
White's side (`cp 35`, `mate -1`, or `-` where the move has none). Exits 1, saying why, at
a game python-chess cannot read or replay.
"""

import sys

import chess.pgn


def main():
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as stream:
            game = chess.pgn.read_game(stream)
        if game is None or game.errors:
            print(f"{path}: python-chess could not read it", file=sys.stderr)
            sys.exit(1)
        for node in game.mainline():
            nags = ",".join(str(n) for n in sorted(node.nags)) or "-"
            score = node.eval()
            if score is None:
                text = "-"
            else:
                white = score.white()
                text = f"mate {white.mate()}" if white.is_mate() else f"cp {white.score()}"
            print(f"{node.san()}\t{nags}\t{text}")


main()
