//! Evaluation weights: every number of every evaluation term except material
//! and piece-square values (those are in `pst.rs`). Generated into
//! `src/tables/eval.rs`, which `src/eval/` reads; after editing run
//! `cargo build --features regen` and commit both files.
//!
//! Tuner-written; keep one item per constant. Each weight is exactly one
//! line `pub const NAME: TYPE = VALUE;` (a tuner rewrites VALUE in place),
//! optionally preceded by `///` doc lines and `// ----` group headings, which
//! the generator copies into `src/tables/eval.rs`. Types:
//! - `(i32, i32)` / `[(i32, i32); N]`: a (middlegame, endgame) pair in
//!   centipawns, which the engine packs with `s(mg, eg)` and tapers by game
//!   phase; each half must be within ±32767.
//! - `i32` / `[i32; N]`: a plain number, used as the doc comment says.
//!
//! This module is `#[rustfmt::skip]` (see `lib.rs`), so rewritten values
//! never need reformatting. Names, order and comments are free to change;
//! `emit::eval_param_values` lists the constants the generator emits.

// ---- General ----

/// Added to the final score for the side to move: having the move is, on
/// average, worth something.
pub const TEMPO: i32 = 15;

// ---- Pawn structure (cached by pawn key: pawns alone decide these) ----

/// Passed pawn by rank from the pawn's own side, index 0 = 1st rank (never
/// used: no pawn stands there) to 7 = 8th rank (ditto).
pub const PASSED_PAWN: [(i32, i32); 8] = [(0, 0), (-5, 22), (6, 8), (3, 30), (13, 69), (35, 93), (75, 78), (0, 0)];

/// A passed pawn defended by an own pawn.
pub const PASSED_PAWN_PROTECTED: (i32, i32) = (5, 5);

/// A pawn with no friendly pawn on either neighbouring file.
pub const ISOLATED_PAWN: (i32, i32) = (-5, -16);

/// A pawn with a friendly pawn ahead of it on the same file.
pub const DOUBLED_PAWN: (i32, i32) = (-4, -21);

/// A backward pawn: no own pawn beside or behind it on a neighbouring file
/// can ever defend it, and an enemy pawn attacks the square in front of it.
pub const BACKWARD_PAWN: (i32, i32) = (-2, -12);

/// A pawn with an own pawn beside it (phalanx), by its rank from its own
/// side (index 0 = 1st rank).
pub const PHALANX_PAWN: [(i32, i32); 8] = [(0, 0), (2, -6), (8, 3), (7, 10), (12, 27), (102, 52), (50, 45), (0, 0)];

/// Per own pawn defending this pawn, by this pawn's rank from its own side.
pub const SUPPORTED_PAWN: [(i32, i32); 8] = [(0, 0), (0, 0), (10, 3), (10, 3), (11, 6), (35, 15), (192, 104), (0, 0)];

// ---- Passed pawns and pieces (not cached: they depend on pieces and kings) ----

/// A passed pawn with a piece (either colour) on the square in front of it,
/// by the pawn's rank from its own side (added to `PASSED_PAWN`).
pub const PASSED_BLOCKED: [(i32, i32); 8] = [(0, 0), (20, -16), (-4, 1), (-8, -3), (-13, -14), (-3, -28), (-5, -75), (0, 0)];

/// A passed pawn with no piece at all on the squares ahead of it up to
/// promotion, by its rank from its own side.
pub const PASSED_FREE_PATH: [(i32, i32); 8] = [(0, 0), (-20, 4), (-22, 11), (-9, 14), (-15, 15), (15, 30), (48, 18), (0, 0)];

/// By the king steps (0..=7) from the passer's own king to the square in
/// front of the passer; added `r - 2` times for a pawn on rank index
/// `r` >= 3 from its own side (4th rank once, 7th rank four times).
pub const PASSER_OWN_KING_DISTANCE: [(i32, i32); 8] = [(8, 42), (14, 23), (32, 1), (1, -2), (2, -10), (3, -13), (-3, -11), (-16, -1)];

/// Like `PASSER_OWN_KING_DISTANCE`, for the enemy king.
pub const PASSER_ENEMY_KING_DISTANCE: [(i32, i32); 8] = [(14, -20), (14, -22), (4, -5), (-2, 11), (0, 23), (-11, 31), (3, 26), (-5, 21)];

// ---- Piece activity ----

/// Mobility: a piece's value by the number of squares it reaches that are
/// not occupied by its own pieces nor attacked by enemy pawns, 0 upward.
pub const KNIGHT_MOBILITY: [(i32, i32); 9] = [(-35, -49), (-16, -17), (-1, 8), (5, 30), (10, 34), (15, 45), (16, 51), (19, 43), (15, 37)];

/// See `KNIGHT_MOBILITY`.
pub const BISHOP_MOBILITY: [(i32, i32); 14] = [(-32, -30), (-22, -4), (-14, 6), (-9, 20), (-3, 27), (-1, 35), (2, 38), (4, 38), (3, 39), (3, 44), (17, 26), (9, 37), (25, 2), (-24, 36)];

/// See `KNIGHT_MOBILITY`.
pub const ROOK_MOBILITY: [(i32, i32); 15] = [(-27, -35), (-9, -18), (-9, -5), (-3, 5), (-4, 16), (-1, 23), (0, 32), (4, 31), (4, 43), (6, 50), (3, 58), (9, 58), (-4, 69), (-9, 66), (25, 58)];

/// See `KNIGHT_MOBILITY`.
pub const QUEEN_MOBILITY: [(i32, i32); 28] = [(-7, -28), (-1, -157), (-2, -92), (-7, -5), (-3, -26), (-3, 17), (-4, 35), (0, 36), (5, 39), (2, 60), (5, 61), (7, 62), (11, 59), (5, 93), (11, 83), (11, 88), (12, 89), (28, 92), (26, 85), (26, 76), (55, 53), (20, 83), (-13, 108), (113, -4), (23, 79), (80, -11), (13, 39), (14, 42)];

/// Two or more bishops.
pub const BISHOP_PAIR: (i32, i32) = (37, 51);

/// A rook on a file with no pawns.
pub const ROOK_OPEN_FILE: (i32, i32) = (40, -6);

/// A rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: (i32, i32) = (17, 10);

/// A knight on an outpost: on the 4th to 6th rank from its side, defended
/// by an own pawn, and on a square no enemy pawn can ever attack.
pub const KNIGHT_OUTPOST: (i32, i32) = (14, 6);

/// A bishop on an outpost (see `KNIGHT_OUTPOST`).
pub const BISHOP_OUTPOST: (i32, i32) = (21, -13);

/// A rook on the 7th rank from its side.
pub const ROOK_ON_SEVENTH: (i32, i32) = (7, 18);

/// Per own pawn on the squares of a bishop's colour, per bishop.
pub const BISHOP_PAWN_SAME_COLOUR: (i32, i32) = (-1, -4);

// ---- Threats (from the attacker's side) ----

/// An enemy knight, bishop, rook, queen attacked by one of our pawns.
pub const THREAT_BY_PAWN: [(i32, i32); 4] = [(58, 39), (52, 52), (63, 20), (42, 9)];

/// An enemy rook attacked by one of our knights or bishops.
pub const THREAT_MINOR_ON_ROOK: (i32, i32) = (57, 11);

/// An enemy queen attacked by one of our knights or bishops.
pub const THREAT_MINOR_ON_QUEEN: (i32, i32) = (37, 10);

/// An enemy queen attacked by one of our rooks.
pub const THREAT_ROOK_ON_QUEEN: (i32, i32) = (55, 27);

/// An enemy knight, bishop, rook or queen we attack that nothing defends.
pub const HANGING_PIECE: (i32, i32) = (18, 27);

/// An enemy pawn we attack that nothing defends.
pub const HANGING_PAWN: (i32, i32) = (13, 38);

/// Per enemy knight, bishop, rook or queen a pawn of ours would attack
/// after a safe push (one step, or two from its first square, to a square
/// no enemy pawn attacks and that is defended or not attacked).
pub const SAFE_PAWN_PUSH_THREAT: (i32, i32) = (16, 11);

// ---- King safety ----

/// An own pawn in front of the king on its file or a neighbouring one:
/// index 0 = king's file, one rank ahead; 1 = king's file, two ranks ahead;
/// 2 = neighbouring file, one rank ahead; 3 = neighbouring file, two ahead.
pub const KING_SHIELD: [(i32, i32); 4] = [(22, -5), (16, -8), (9, -7), (5, -3)];

/// An enemy pawn on the king's file or a neighbouring one, in front of the
/// king, by ranks apart (index 1..=7; 0 unused).
pub const PAWN_STORM: [(i32, i32); 8] = [(0, 0), (36, -3), (-3, -14), (1, -13), (7, -15), (12, -17), (7, -17), (0, 0)];

/// A file without pawns on the king's file or a neighbouring one (per file).
pub const KING_OPEN_FILE: (i32, i32) = (-13, -18);

/// A file with enemy pawns only on the king's file or a neighbouring one.
pub const KING_SEMI_OPEN_FILE: (i32, i32) = (-10, 3);

/// Attack units per king-zone square (king and its neighbours) hit by an
/// enemy knight, bishop, rook, queen.
pub const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];

/// Attack units per safe check square of an enemy knight, bishop, rook,
/// queen: a square from which that piece would check the king, attacked by
/// such an enemy piece, not occupied by the enemy and not attacked by us.
pub const SAFE_CHECK_UNITS: [i32; 4] = [4, 3, 4, 3];

/// The danger penalty applies only with at least this many enemy pieces
/// hitting the king zone.
pub const KING_DANGER_MIN_ATTACKERS: i32 = 2;

/// The danger penalty by attack units (the last entry for that many or more).
pub const KING_DANGER: [(i32, i32); 32] = [(0, 0), (0, 0), (-3, 0), (-6, 0), (-6, -11), (7, -22), (-16, 7), (-13, -6), (-19, 13), (-30, -14), (-62, 10), (-52, 14), (-39, 1), (-53, 18), (-55, 3), (-95, 26), (-99, 26), (-91, 29), (-103, 21), (-123, 14), (-166, -5), (-183, 40), (-208, 69), (-233, 79), (-228, 121), (-257, 90), (-246, 79), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-280, 11)];

// ---- Space (middlegame only) ----

/// Space counts only while the game phase is at least this (of 24).
pub const SPACE_MIN_PHASE: i32 = 16;

/// Per safe square on files c to f, ranks 2 to 4 from our side (no own
/// pawn on it, no enemy pawn attacking it), once more if it is also behind
/// an own pawn (up to three ranks) and not attacked by the enemy at all.
pub const SPACE_SQUARE: (i32, i32) = (2, -10);

// ---- Endgame scaling: the endgame half is multiplied by factor / 128 ----

/// Pawnless minor-piece endings that are rarely won (the side ahead leads by
/// less than a rook or cannot force mate).
pub const DRAWISH_SCALE: i32 = 16;

/// The side ahead has no pawns and leads by no more than a bishop in pieces
/// (rook against minor piece, rook and minor against rook, ...).
pub const PAWNLESS_SMALL_LEAD_SCALE: i32 = 32;

/// Opposite-coloured bishops, no other pieces.
pub const OPPOSITE_BISHOPS_SCALE: i32 = 64;

/// Opposite-coloured bishops with other pieces.
pub const OPPOSITE_BISHOPS_PIECES_SCALE: i32 = 100;

/// One rook each, no other pieces, the side ahead has at most one pawn
/// more and at most three pawns.
pub const ROOK_ENDING_SCALE: i32 = 96;

// ---- Mating knowledge: bare king v mating material (plain cp, not tapered) ----

/// Added for the side that holds a bare king against mating material: large
/// enough that the search keeps the material rather than trade it into a
/// draw, and clearly above any ordinary material edge.
pub const KNOWN_WIN: i32 = 2000;

/// A bound, not a weight: evaluations with the mating term stay within
/// this, a clear win but far below the search's mate scores (about 31,760).
pub const MAX_WIN_SCORE: i32 = 9000;

/// Per step (files plus ranks, 0..=6) the lone king stands away from the
/// four centre squares (used unless the mating material is bishop + knight).
pub const EDGE_STEP: i32 = 25;

/// K+B+N v K: per step (files plus ranks, 0..=7) the lone king stands closer
/// to a corner of the bishop's colour, where bishop and knight can mate.
pub const BISHOP_CORNER_STEP: i32 = 40;

/// K+B+N v K: times the square of those steps. The last steps into the
/// corner are the hardest to force, so they are worth the most (with the
/// linear part alone, self-play games drifted around the corner too long).
pub const BISHOP_CORNER_STEP_SQUARED: i32 = 10;

/// K+B+N v K: per king step (Chebyshev distance, 0..=7) the lone king stands
/// closer to such a corner. Files plus ranks rate the wrong corner no worse
/// than the long diagonal to the centre; king steps do, so the attacker is
/// also paid for prising the lone king out of a wrong corner.
pub const BISHOP_CORNER_KING_STEP: i32 = 80;

/// K+B+N v K: per king step a knight stands closer to the lone king: the
/// knight covers the squares the bishop cannot.
pub const KNIGHT_PROXIMITY_STEP: i32 = 10;

/// Per king step the attacking king stands closer to the lone king: it is
/// needed to take the last squares away.
pub const KING_PROXIMITY_STEP: i32 = 25;

/// Per square the lone king could step to (subtracted): a king with fewer
/// squares is closer to being mated, and the search sees the net tighten.
pub const LONE_KING_SQUARE: i32 = 10;
