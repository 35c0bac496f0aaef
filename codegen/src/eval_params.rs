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

/// Pawnless minor-piece endings that are rarely won (the side ahead leads by
/// less than a rook or cannot force mate) have their score divided by this.
pub const DRAWISH_SCALE_DIVISOR: i32 = 8;

// ---- Pawn structure ----

/// Passed pawn by rank from the pawn's own side, index 0 = 1st rank (never
/// used: no pawn stands there) to 7 = 8th rank (ditto).
pub const PASSED_PAWN: [(i32, i32); 8] = [(0, 0), (0, 5), (0, 10), (5, 20), (15, 40), (30, 70), (50, 110), (0, 0)];

/// A pawn with no friendly pawn on either neighbouring file.
pub const ISOLATED_PAWN: (i32, i32) = (-10, -12);

/// A pawn with a friendly pawn ahead of it on the same file.
pub const DOUBLED_PAWN: (i32, i32) = (-8, -20);

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

// ---- King safety ----

/// Each own pawn one or two ranks in front of the king, on its file or a
/// neighbouring one (counted up to `KING_SHIELD_MAX_PAWNS`).
pub const KING_SHIELD_PAWN: (i32, i32) = (12, 0);

/// At most this many shield pawns count.
pub const KING_SHIELD_MAX_PAWNS: i32 = 3;

/// Attack units per king-zone square (king and its neighbours) hit by an
/// enemy knight, bishop, rook, queen.
pub const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];

/// The danger penalty applies only with at least this many enemy pieces
/// hitting the king zone.
pub const KING_DANGER_MIN_ATTACKERS: i32 = 2;

/// The danger penalty by attack units (the last entry for that many or more).
pub const KING_DANGER: [(i32, i32); 32] = [(0, 0), (0, 0), (-3, 0), (-6, 0), (-12, 0), (-18, 0), (-27, 0), (-36, 0), (-48, 0), (-60, 0), (-75, 0), (-90, 0), (-108, 0), (-126, 0), (-147, 0), (-168, 0), (-192, 0), (-216, 0), (-243, 0), (-270, 0), (-300, 0), (-330, 0), (-363, 0), (-396, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0), (-400, 0)];

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
