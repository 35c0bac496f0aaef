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
pub const PASSED_PAWN: [(i32, i32); 8] = [(0, 0), (0, 5), (0, 10), (5, 20), (15, 40), (30, 70), (50, 110), (0, 0)];

/// A passed pawn defended by an own pawn.
pub const PASSED_PAWN_PROTECTED: (i32, i32) = (5, 15);

/// A pawn with no friendly pawn on either neighbouring file.
pub const ISOLATED_PAWN: (i32, i32) = (-10, -12);

/// A pawn with a friendly pawn ahead of it on the same file.
pub const DOUBLED_PAWN: (i32, i32) = (-8, -20);

/// A backward pawn: no own pawn beside or behind it on a neighbouring file
/// can ever defend it, and an enemy pawn attacks the square in front of it.
pub const BACKWARD_PAWN: (i32, i32) = (-8, -10);

/// A pawn with an own pawn beside it (phalanx), by its rank from its own
/// side (index 0 = 1st rank).
pub const PHALANX_PAWN: [(i32, i32); 8] = [(0, 0), (3, 2), (5, 4), (8, 6), (15, 12), (30, 25), (50, 45), (0, 0)];

/// Per own pawn defending this pawn, by this pawn's rank from its own side.
pub const SUPPORTED_PAWN: [(i32, i32); 8] = [(0, 0), (0, 0), (5, 3), (6, 5), (10, 8), (20, 18), (35, 35), (0, 0)];

// ---- Passed pawns and pieces (not cached: they depend on pieces and kings) ----

/// A passed pawn with a piece (either colour) on the square in front of it,
/// by the pawn's rank from its own side (added to `PASSED_PAWN`).
pub const PASSED_BLOCKED: [(i32, i32); 8] = [(0, 0), (0, 0), (0, -2), (-2, -5), (-5, -10), (-10, -20), (-15, -30), (0, 0)];

/// A passed pawn with no piece at all on the squares ahead of it up to
/// promotion, by its rank from its own side.
pub const PASSED_FREE_PATH: [(i32, i32); 8] = [(0, 0), (0, 0), (0, 2), (0, 5), (2, 10), (5, 20), (10, 35), (0, 0)];

/// By the king steps (0..=7) from the passer's own king to the square in
/// front of the passer; added `r - 2` times for a pawn on rank index
/// `r` >= 3 from its own side (4th rank once, 7th rank four times).
pub const PASSER_OWN_KING_DISTANCE: [(i32, i32); 8] = [(0, 8), (0, 6), (0, 3), (0, 0), (0, -3), (0, -6), (0, -9), (0, -12)];

/// Like `PASSER_OWN_KING_DISTANCE`, for the enemy king.
pub const PASSER_ENEMY_KING_DISTANCE: [(i32, i32); 8] = [(0, -15), (0, -10), (0, -4), (0, 0), (0, 4), (0, 8), (0, 12), (0, 15)];

// ---- Piece activity ----

/// Mobility: a piece's value by the number of squares it reaches that are
/// not occupied by its own pieces nor attacked by enemy pawns, 0 upward.
pub const KNIGHT_MOBILITY: [(i32, i32); 9] = [(-16, -16), (-12, -12), (-8, -8), (-4, -4), (0, 0), (4, 4), (8, 8), (12, 12), (16, 16)];

/// See `KNIGHT_MOBILITY`.
pub const BISHOP_MOBILITY: [(i32, i32); 14] = [(-30, -30), (-25, -25), (-20, -20), (-15, -15), (-10, -10), (-5, -5), (0, 0), (5, 5), (10, 10), (15, 15), (20, 20), (25, 25), (30, 30), (35, 35)];

/// See `KNIGHT_MOBILITY`.
pub const ROOK_MOBILITY: [(i32, i32); 15] = [(-21, -42), (-18, -36), (-15, -30), (-12, -24), (-9, -18), (-6, -12), (-3, -6), (0, 0), (3, 6), (6, 12), (9, 18), (12, 24), (15, 30), (18, 36), (21, 42)];

/// See `KNIGHT_MOBILITY`.
pub const QUEEN_MOBILITY: [(i32, i32); 28] = [(-13, -39), (-12, -36), (-11, -33), (-10, -30), (-9, -27), (-8, -24), (-7, -21), (-6, -18), (-5, -15), (-4, -12), (-3, -9), (-2, -6), (-1, -3), (0, 0), (1, 3), (2, 6), (3, 9), (4, 12), (5, 15), (6, 18), (7, 21), (8, 24), (9, 27), (10, 30), (11, 33), (12, 36), (13, 39), (14, 42)];

/// Two or more bishops.
pub const BISHOP_PAIR: (i32, i32) = (25, 45);

/// A rook on a file with no pawns.
pub const ROOK_OPEN_FILE: (i32, i32) = (25, 10);

/// A rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: (i32, i32) = (10, 5);

/// A knight on an outpost: on the 4th to 6th rank from its side, defended
/// by an own pawn, and on a square no enemy pawn can ever attack.
pub const KNIGHT_OUTPOST: (i32, i32) = (25, 15);

/// A bishop on an outpost (see `KNIGHT_OUTPOST`).
pub const BISHOP_OUTPOST: (i32, i32) = (15, 8);

/// A rook on the 7th rank from its side.
pub const ROOK_ON_SEVENTH: (i32, i32) = (10, 20);

/// Per own pawn on the squares of a bishop's colour, per bishop.
pub const BISHOP_PAWN_SAME_COLOUR: (i32, i32) = (-2, -4);

// ---- Threats (from the attacker's side) ----

/// An enemy knight, bishop, rook, queen attacked by one of our pawns.
pub const THREAT_BY_PAWN: [(i32, i32); 4] = [(45, 30), (45, 30), (60, 35), (55, 30)];

/// An enemy rook attacked by one of our knights or bishops.
pub const THREAT_MINOR_ON_ROOK: (i32, i32) = (35, 25);

/// An enemy queen attacked by one of our knights or bishops.
pub const THREAT_MINOR_ON_QUEEN: (i32, i32) = (35, 25);

/// An enemy queen attacked by one of our rooks.
pub const THREAT_ROOK_ON_QUEEN: (i32, i32) = (30, 20);

/// An enemy knight, bishop, rook or queen we attack that nothing defends.
pub const HANGING_PIECE: (i32, i32) = (30, 20);

/// An enemy pawn we attack that nothing defends.
pub const HANGING_PAWN: (i32, i32) = (5, 10);

/// Per enemy knight, bishop, rook or queen a pawn of ours would attack
/// after a safe push (one step, or two from its first square, to a square
/// no enemy pawn attacks and that is defended or not attacked).
pub const SAFE_PAWN_PUSH_THREAT: (i32, i32) = (15, 10);

// ---- King safety ----

/// An own pawn in front of the king on its file or a neighbouring one:
/// index 0 = king's file, one rank ahead; 1 = king's file, two ranks ahead;
/// 2 = neighbouring file, one rank ahead; 3 = neighbouring file, two ahead.
pub const KING_SHIELD: [(i32, i32); 4] = [(15, 0), (8, 0), (12, 0), (6, 0)];

/// An enemy pawn on the king's file or a neighbouring one, in front of the
/// king, by ranks apart (index 1..=7; 0 unused).
pub const PAWN_STORM: [(i32, i32); 8] = [(0, 0), (-5, 0), (-20, -5), (-12, 0), (-6, 0), (-2, 0), (0, 0), (0, 0)];

/// A file without pawns on the king's file or a neighbouring one (per file).
pub const KING_OPEN_FILE: (i32, i32) = (-20, 0);

/// A file with enemy pawns only on the king's file or a neighbouring one.
pub const KING_SEMI_OPEN_FILE: (i32, i32) = (-10, 0);

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
pub const KING_DANGER: [(i32, i32); 32] = [(0, 0), (0, 0), (-3, 0), (-6, 0), (-12, 0), (-18, 0), (-27, 0), (-36, 0), (-48, 0), (-60, 0), (-75, 0), (-90, 0), (-108, 0), (-126, 0), (-147, 0), (-168, 0), (-192, 0), (-216, 0), (-243, 0), (-270, 0), (-300, 0), (-330, 0), (-363, 0), (-396, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0)];

// ---- Space (middlegame only) ----

/// Space counts only while the game phase is at least this (of 24).
pub const SPACE_MIN_PHASE: i32 = 16;

/// Per safe square on files c to f, ranks 2 to 4 from our side (no own
/// pawn on it, no enemy pawn attacking it), once more if it is also behind
/// an own pawn (up to three ranks) and not attacked by the enemy at all.
pub const SPACE_SQUARE: (i32, i32) = (2, 0);

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
