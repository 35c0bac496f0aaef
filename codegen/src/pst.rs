//! The human-edited material and piece-square values (the weights of the
//! other evaluation terms are in `eval_params.rs`). Each table is written
//! from White's point of view as a board is drawn, rank 8 on top, file a on
//! the left; the generator flips it for Black and adds the material value,
//! so the engine does one lookup per piece and gets a packed (middlegame,
//! endgame) pair.

/// Piece kinds in table order.
pub const KINDS: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// Material (middlegame, endgame) per kind, in centipawns.
pub const MATERIAL: [(i32, i32); 6] = [
    (91, 143),
    (322, 350),
    (332, 386),
    (474, 636),
    (1031, 1123),
    (0, 0),
];

/// Game-phase weight of each kind: 24 with all minor and major pieces on.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
    171, 118, -15,   1,   9, -57,  73, 100,
      0,  16, -15,   7,   2, -12, -17,   2,
     -6,  -6, -13,   2,  -2,  -5,  -8, -23,
     -8, -17,  -4,  -4,  -3,  -5, -21, -26,
     -7, -26, -17, -14, -16, -10,  -9, -25,
    -12, -11, -15, -16, -27,   6,   7, -26,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     12,  76, 116, 139,  96, 133,  72,  58,
     16,  -5,  22,  -3,  -5,   1,   1,  15,
     -9, -23, -11, -22, -17, -39, -14,  -4,
    -14, -25, -28, -30, -27, -33, -20, -19,
    -32, -27, -16, -31, -18, -31, -35, -24,
    -28, -17, -11,   2, -30, -21, -26, -22,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
   -151, -40,-162, -15,  94, -30, -40, -80,
    -85, -64,  22, -23, -28,  31, -60, -48,
    -11, -16,   1,  34,  34,  46,  15, -45,
     -4,   9,  34,  32,  22,  45,  14,  42,
     10,  21,  21,  23,  30,  32,  49,  18,
    -23,  -1,   3,  14,   4,  15,  23, -14,
     -9,  10,  -1,   5,  10,   2,  11,  -6,
    -60, -15,  -3, -23,   5, -10, -14, -60,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
     -5, -35,  43,   6, -34, -25, -35, -50,
     16,  27,   2,  15,  17, -23,  36, -12,
     19, -12,  30,  20,  12,  13,  -1,   0,
    -18,  -1,  25,  27,  28,  14,   0, -37,
     -4, -18,  15,  23,  22,   9,   7,  -2,
    -38,  10,   1,  22,  -2,  -2, -22,  14,
    -33, -56, -24,  -3, -11, -11,   8,  31,
    -50, -31, -23,  -3,  -5, -22, -24, -50,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -58,-121, -74, -48,-120,-140, -49,  -9,
    -61, -32,  -3, -17, -49, -40, -26, -17,
      5,   4,  40,  10,   3,   1,   6,   3,
     17,  20,  20,  35,  24,  36,  26,  -3,
    -10,  17,  27,  42,  43,  26,  44,  37,
      7,  32,  19,  20,  15,  32,  22,  23,
     -4,  18,  22,  17,  17,  16,  36,  17,
      9,  25,  -1,  13,  31,  -1,  -6,  -6,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
     28,  44, -15,  -1,  25,  35,  16,  17,
     18,  12, -14,  36,   6,  24,  11,   4,
     -9,   6,   9,  18,  22,   7,  19,  -5,
    -21,   1,  17,  20,  19,  -8,   4,  -7,
     -9, -11,   6,   6,   9,  11, -23, -11,
    -15,  -5,   2,  -9,  11,  11, -14, -19,
    -12, -17,  -5,  -9,  -9, -11, -23, -12,
    -62, -31,   3, -19, -19,  -7,  12, -38,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
     14,  14,   9,  93, -34, -27,  46,  90,
     18,  36,   6,  43,  35,  20,  23,  14,
     -9,  34,   6,  32,  33,  27,  15,  -6,
     -7,  -5,  -3, -14, -10,  31,  -6, -17,
    -17, -16, -40, -39,  -2,   6,   2, -21,
    -36,  -3, -37, -10, -27,  -5, -16, -11,
    -39, -30, -17, -18, -10,  -4, -10, -49,
    -16,  -8,   0,   3,   8,  12, -14, -15,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
     10,  18,  10,  -2,  43,  39,   6, -15,
      2,  -8,  10, -13, -10,  -8, -13,  -7,
     22,   3,  17,  16,  11,  31,  16,  15,
      9,  14,  17,  19,  17,   2,  15,  18,
      1,  17,  32,  23,  -2,   0,  16,  -2,
      8,  -5,  -3,  -3,   7, -14,  13, -10,
    -20,  -6,  -4, -17, -26, -33, -31, -22,
    -25, -14, -24, -25, -22, -27, -15, -38,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -56,   2, -57,  45,  10,  56, -12,  32,
     -7, -26, -31,  -3, -30,  47,   6,  20,
      0,  -5, -12,   1,   6,  21,  15,  14,
    -20,  -9,  -2,  10, -13,  -3,   9,  14,
    -12,   3,   6,  17,  -5,  -2,  -2, -11,
    -13,  -4,   2,  -1,  -6,   8,   6,  10,
      6,  -6,   4,   4,   6,   9,  25,  12,
     -2,  -4, -11,  -5,   1, -15, -42,  13,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
     72,  32,  52,  -3,  43,  35,  65,   8,
    -15,  18,  55,  31,  77,  28,  76,  34,
    -14, -23,  19,  40,  50,  53,  61,  49,
     10,   3,   6,  25, 111,  66,  55,  16,
    -18, -15,  -5,  -3,  28,  24,  51,  42,
    -26, -30, -22, -17,  -4,  18,  11, -26,
    -99, -31, -46, -21, -26, -54,-107,-110,
    -89, -76, -96, -43, -59, -29, -90,-155,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -60, -60, -60, -70, -70, -60, -60, -60,
    -50, -59, -20, -45, -25, -19, -29,  24,
    -78, -10,   9,  14,-113, -60, -83,  -3,
    -72,  -1, -70, -88, -34, -50, -22, -17,
   -114,-100, -48, -51, -57, -10, -61,  -9,
     34,  46, -55, -34, -15, -21, -20, -71,
     16, -20,   3, -32, -35,  -7,   5, -12,
    -11,  21,   3, -42,   1, -23,  17,   4,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30,  16, -12,  33,  39,  28,  19,-131,
    -19,  10,  28,  10,  57,  42,  34, -48,
    -32,   9,  47,  22,  30,  36,  18, -16,
    -16,  26,  12,  14,  22,   7,  12, -35,
    -57, -32,   3,  10,   4,   4,  -8, -24,
    -45, -10, -20,  -3,  -6,  -9, -18, -36,
    -74, -52, -29, -38, -49, -37, -36, -54,
];

/// The (middlegame, endgame) positional tables per kind, as drawn above.
const TABLES: [(&[i32; 64], &[i32; 64]); 6] = [
    (&PAWN_MG, &PAWN_EG),
    (&KNIGHT_MG, &KNIGHT_EG),
    (&BISHOP_MG, &BISHOP_EG),
    (&ROOK_MG, &ROOK_EG),
    (&QUEEN_MG, &QUEEN_EG),
    (&KING_MG, &KING_EG),
];

/// Packs a (middlegame, endgame) pair into one i32: mg in the high half.
pub fn pack(mg: i32, eg: i32) -> i32 {
    (mg << 16).wrapping_add(eg)
}

/// `[piece][square]` with piece = colour * 6 + kind, a1 = 0: packed
/// material + position from that piece's owner's point of view, signed so
/// that White's pieces count positive and Black's negative.
// `sq` indexes two output rows and, mirrored, two source tables: a range
// loop says that more plainly than iterators would.
#[allow(clippy::needless_range_loop)]
pub fn packed_tables() -> [[i32; 64]; 12] {
    let mut out = [[0i32; 64]; 12];
    for kind in 0..6 {
        let (mg, eg) = TABLES[kind];
        let (mat_mg, mat_eg) = MATERIAL[kind];
        for sq in 0..64 {
            // Drawn with rank 8 on top: a white piece on `sq` reads row 7 - rank.
            let (file, rank) = (sq % 8, sq / 8);
            let white_idx = (7 - rank) * 8 + file;
            let black_idx = rank * 8 + file; // the mirror image
            out[kind][sq] = pack(mat_mg + mg[white_idx], mat_eg + eg[white_idx]);
            out[6 + kind][sq] = -pack(mat_mg + mg[black_idx], mat_eg + eg[black_idx]);
        }
    }
    out
}
