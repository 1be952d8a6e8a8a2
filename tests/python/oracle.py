"""The outside oracle of tests/engine/python_oracle.rs: for games Postal played, what
python-chess says at every position, with Lichess's own rules (scalachess) ported where
python-chess differs from them.

Reads one game a line, `VARIANT<TAB>START FEN<TAB>UCI MOVES` (VARIANT is python-chess's
`uci_variant`, or `chess960`), and writes one line a position, from the start to the
position after the last move: `GAME<TAB>PLY<TAB>LEGAL MOVES<TAB>STATUS`, the legal moves
in UCI, sorted (drops `P@h4`; Chess960 castling king-takes-rook), the status `*` or the
result and Postal's reason name (`1-0 checkmate`, `1/2-1/2 fifty-move-rule`). A move
python-chess refuses ends its game with `GAME<TAB>PLY<TAB>!illegal UCI`.

Where python-chess differs from Lichess, this script follows Lichess (scalachess), since
Postal plays these variants by Lichess's rules; each port says why:
- the fifty-move rule draws by itself at 100 plies in every Lichess variant but
  Crazyhouse (scalachess's `Variant.fiftyMoves`; python-chess only offers a claim and
  draws at 150), and standard chess keeps FIDE's 150 (Postal's decision);
- Atomic's and Antichess's insufficient material are scalachess's
  (`Atomic.isInsufficientMaterial`, `Antichess.isInsufficientMaterial`), not
  python-chess's finer tables;
- Horde's automatic draw is scalachess's fortress rule (`Horde.isInsufficientMaterial`),
  which python-chess does not have (its Horde never draws by material).

Usage: python3 oracle.py INPUT OUTPUT
"""

import sys

import chess
import chess.variant

BOARDS = {
    "chess": chess.Board,
    "chess960": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "3check": chess.variant.ThreeCheckBoard,
    "antichess": chess.variant.AntichessBoard,
    "atomic": chess.variant.AtomicBoard,
    "horde": chess.variant.HordeBoard,
    "racingkings": chess.variant.RacingKingsBoard,
}

# The variant wins and draws python-chess reports, by Postal's reason names.
GOAL_WINS = {
    "kingofthehill": "king-in-goal",
    "3check": "three-checks",
    "atomic": "king-exploded",
    "horde": "all-pieces-captured",
    "racingkings": "king-in-goal",
}

# Lichess draws by itself at fifty moves in these (scalachess's `fiftyMoves`).
LICHESS_FIFTY = {"chess960", "kingofthehill", "3check", "antichess", "atomic", "horde", "racingkings"}


def with_turn(board, color):
    """The board with `color` to move; the en-passant square goes when the turn changes."""
    flipped = board.copy(stack=False)
    if flipped.turn != color:
        flipped.turn = color
        flipped.ep_square = None
    return flipped


def pawn_blocked_by_pawn(board, square):
    """scalachess's `pawnBlockedByPawn`: a pawn with no legal move, a pawn in front of it."""
    piece = board.piece_at(square)
    if piece is None or piece.piece_type != chess.PAWN:
        return False
    mover = with_turn(board, piece.color)
    if any(mover.generate_legal_moves(from_mask=chess.BB_SQUARES[square])):
        return False
    ahead = square + (8 if piece.color == chess.WHITE else -8)
    return 0 <= ahead < 64 and board.piece_type_at(ahead) == chess.PAWN


def is_light(square):
    return bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[square])


def bishops_on_both_colours(board):
    return bool(board.bishops & chess.BB_LIGHT_SQUARES) and bool(board.bishops & chess.BB_DARK_SQUARES)


def atomic_insufficient(board):
    """scalachess's `Atomic.isInsufficientMaterial`."""
    occupied = board.occupied
    count = chess.popcount(occupied)
    only = lambda mask: not (occupied & ~mask)
    opposite = bishops_on_both_colours(board)
    if chess.popcount(board.occupied_co[chess.WHITE]) >= 2 and chess.popcount(board.occupied_co[chess.BLACK]) >= 2:
        winning_short = only(board.kings | board.bishops) and count <= 4 and opposite
    elif only(board.kings | board.knights):
        winning_short = count <= 4
    else:
        winning_short = (
            only(board.kings | board.rooks | board.knights | board.bishops) and not opposite and count <= 3
        )
    return winning_short or atomic_closed(board)


def atomic_closed(board):
    """scalachess's `atomicClosedPosition`: blocked pawns, kings and pawn-like bishops."""
    pieces = board.piece_map()
    closed = all(
        p.piece_type in (chess.KING, chess.BISHOP) or pawn_blocked_by_pawn(board, sq) for sq, p in pieces.items()
    )
    if not closed:
        return False
    bishop = next(((sq, p) for sq, p in pieces.items() if p.piece_type == chess.BISHOP), None)
    if bishop is None:
        return True
    side, light = bishop[1].color, is_light(bishop[0])
    return all(
        p.piece_type == chess.KING
        or (p.piece_type == chess.PAWN and p.color == side)
        or (p.piece_type == chess.PAWN and p.color != side and is_light(sq) != light)
        or (p.piece_type == chess.BISHOP and p.color == side and is_light(sq) == light)
        for sq, p in pieces.items()
    )


def antichess_insufficient(board):
    """scalachess's `Antichess.isInsufficientMaterial`: bishops of opposite colours that
    can never meet, with pawns blocked where they cannot be offered to them."""
    if (board.bishops | board.pawns) != board.occupied:
        return False
    colours = {}
    for color in chess.COLORS:
        squares = chess.SquareSet(board.bishops & board.occupied_co[color])
        lights = {is_light(sq) for sq in squares}
        if len(lights) != 1:
            return False
        colours[color] = lights.pop()
    if colours[chess.WHITE] == colours[chess.BLACK]:
        return False
    for color in chess.COLORS:
        enemy_light = colours[not color]
        for sq in chess.SquareSet(board.pawns & board.occupied_co[color]):
            if not (pawn_blocked_by_pawn(board, sq) and is_light(sq) != enemy_light):
                return False
    return True


def horde_stuck(board):
    """scalachess's `Horde.hordeClosedPosition` with the board's side to move."""
    horde = board.occupied_co[chess.WHITE]
    if chess.popcount(horde) == 1 and board.is_attacked_by(chess.BLACK, chess.lsb(horde)):
        return False
    if board.turn == chess.WHITE:
        return not any(board.generate_legal_moves())
    for move in board.generate_legal_moves():
        if board.piece_type_at(move.from_square) != chess.KING:
            return False
        board.push(move)
        freed = any(board.generate_legal_moves())
        board.pop()
        if freed:
            return False
    return True


def insufficient(board, variant):
    """Lichess's automatic draw by material, per variant."""
    if variant == "atomic":
        return atomic_insufficient(board)
    if variant == "antichess":
        return antichess_insufficient(board)
    if variant == "horde":
        return all(horde_stuck(with_turn(board, color)) for color in chess.COLORS)
    return board.is_insufficient_material()


def winner_text(color):
    return "1-0" if color == chess.WHITE else "0-1"


def status(board, variant):
    """The game's status in Postal's words, by the rules described above."""
    if variant == "antichess" and board.is_variant_win():
        reason = "stalemated" if board.occupied_co[board.turn] else "all-pieces-lost"
        return f"{winner_text(board.turn)} {reason}"
    if board.is_variant_loss():
        return f"{winner_text(not board.turn)} {GOAL_WINS[variant]}"
    if board.is_variant_win():
        return f"{winner_text(board.turn)} {GOAL_WINS[variant]}"
    if board.is_variant_draw():
        return "1/2-1/2 both-kings-in-goal"
    if not any(board.generate_legal_moves()):
        if board.is_check():
            return f"{winner_text(not board.turn)} checkmate"
        return "1/2-1/2 stalemate"
    if insufficient(board, variant):
        return "1/2-1/2 insufficient-material"
    if board.is_fivefold_repetition():
        return "1/2-1/2 fivefold-repetition"
    if variant in LICHESS_FIFTY and board.halfmove_clock >= 100:
        return "1/2-1/2 fifty-move-rule"
    if variant == "chess" and board.halfmove_clock >= 150:
        return "1/2-1/2 seventy-five-move-rule"
    return "*"


def answer(board, variant):
    legal = sorted(board.uci(m) for m in board.generate_legal_moves())
    return " ".join(legal) + "\t" + status(board, variant)


def main(source, target):
    with open(source) as games, open(target, "w") as out:
        for index, line in enumerate(games):
            variant, fen, moves = line.rstrip("\n").split("\t")
            board = BOARDS[variant](fen, chess960=(variant == "chess960"))
            out.write(f"{index}\t0\t{answer(board, variant)}\n")
            for ply, uci in enumerate(moves.split(), start=1):
                try:
                    board.push(board.parse_uci(uci))
                except ValueError:
                    out.write(f"{index}\t{ply}\t!illegal {uci}\n")
                    break
                out.write(f"{index}\t{ply}\t{answer(board, variant)}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
