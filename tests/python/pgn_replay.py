"""Replays the games of the PGN files named on the command line with python-chess, in the
variant their Variant tag names (chess.pgn.read_game picks the board: Chess960, Crazyhouse,
King of the Hill, Three-check, Antichess, Atomic, Horde, Racing Kings), and prints one line
per game: the file, the variant python-chess chose, the final position's FEN as
python-chess writes it, and the result python-chess's board gives for that position ("*"
when the position itself does not end the game). Exits 1, saying why, at the first game
python-chess cannot read or replay (an illegal move, a wrong variant).
"""

import sys

import chess.pgn


def fail(path, why):
    print(f"{path}: {why}", file=sys.stderr)
    sys.exit(1)


def replay(path):
    with open(path, encoding="utf-8") as stream:
        game = chess.pgn.read_game(stream)
    if game is None:
        fail(path, "python-chess found no game")
    if game.errors:
        fail(path, f"python-chess could not replay it: {game.errors[0]}")
    board = game.end().board()
    outcome = board.outcome(claim_draw=False)
    result = outcome.result() if outcome else "*"
    print(f"{path}\t{board.uci_variant}\t{board.fen()}\t{result}")


for path in sys.argv[1:]:
    replay(path)
