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
    (90, 115),
    (320, 300),
    (335, 320),
    (480, 540),
    (960, 990),
    (0, 0),
];

/// Game-phase weight of each kind: 24 with all minor and major pieces on.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     60,  70,  60,  70,  70,  60,  70,  60,
     15,  20,  30,  35,  35,  30,  20,  15,
      0,   5,  10,  25,  25,  10,   5,   0,
     -5,   0,   5,  20,  20,   5,   0,  -5,
     -5,   0,  -5,   5,   5,  -5,   5,  -5,
    -10,  -5,  -5, -20, -20,  10,  10,  -5,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
    120, 115, 105,  95,  95, 105, 115, 120,
     70,  65,  55,  45,  45,  55,  65,  70,
     30,  25,  20,  15,  15,  20,  25,  30,
     10,  10,   5,   0,   0,   5,  10,  10,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   5,   5,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -80, -40, -30, -25, -25, -30, -40, -80,
    -35, -15,  10,   5,   5,  10, -15, -35,
    -20,  10,  25,  30,  30,  25,  10, -20,
    -15,   5,  20,  30,  30,  20,   5, -15,
    -15,   0,  15,  20,  20,  15,   0, -15,
    -20,   0,  10,  10,  10,  15,   0, -20,
    -30, -20,  -5,   5,   5,  -5, -20, -30,
    -60, -25, -30, -20, -20, -30, -25, -60,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -20,  -5,  10,  15,  15,  10,  -5, -20,
    -15,   0,  15,  20,  20,  15,   0, -15,
    -15,   0,  15,  20,  20,  15,   0, -15,
    -20,  -5,   5,  10,  10,   5,  -5, -20,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -50, -35, -25, -20, -20, -25, -35, -50,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -20, -10, -15, -15, -15, -15, -10, -20,
    -15,   0,   0,  -5,  -5,   0,   0, -15,
     -5,  10,  15,  10,  10,  15,  10,  -5,
     -5,   5,  10,  20,  20,  10,   5,  -5,
     -5,  10,  10,  20,  20,  10,  10,  -5,
      0,  10,  10,  10,  10,  10,  10,   0,
      0,  15,  10,   5,   5,  10,  15,   0,
    -20,  -5, -10, -10, -10, -10,  -5, -20,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -5,  -5,  -5,  -5, -10, -15,
    -10,   0,   0,   0,   0,   0,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   5,  10,  10,  10,  10,   5,  -5,
     -5,   5,  10,  10,  10,  10,   5,  -5,
     -5,   0,   5,   5,   5,   5,   0,  -5,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
    -15, -10,  -5,  -5,  -5,  -5, -10, -15,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
     15,  15,  15,  20,  20,  15,  15,  15,
     25,  30,  30,  35,  35,  30,  30,  25,
      0,   5,   5,  10,  10,   5,   5,   0,
    -10,  -5,   0,   5,   5,   0,  -5, -10,
    -15, -10,  -5,   0,   0,  -5, -10, -15,
    -20, -10,  -5,  -5,  -5,  -5, -10, -20,
    -25, -10,  -5,   0,   0,  -5, -10, -25,
     -5,  -5,   5,  10,  10,   5, -10,  -5,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
     10,  10,  10,  10,  10,  10,  10,  10,
     15,  15,  15,  15,  15,  15,  15,  15,
      5,   5,   5,   5,   5,   5,   5,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
     -5,  -5,  -5,  -5,  -5,  -5,  -5,  -5,
     -5,  -5,  -5,  -5,  -5,  -5,  -5,  -5,
    -10, -10,  -5,  -5,  -5,  -5, -10, -10,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10, -15,   0,   0,   0,   0, -15, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   0,   5,   5,   5,   5,   0,  -5,
    -10,   5,   5,   5,   5,   5,   0, -10,
    -10,   0,   5,   5,   5,   0,   0, -10,
    -20, -10, -10,   0,  -5, -10, -10, -20,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   5,   5,   5,   5,   0, -10,
    -10,   5,  10,  10,  10,  10,   5, -10,
     -5,   5,  10,  15,  15,  10,   5,  -5,
     -5,   5,  10,  15,  15,  10,   5,  -5,
    -10,   5,  10,  10,  10,  10,   5, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
    -20, -10, -10,  -5,  -5, -10, -10, -20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -60, -60, -60, -70, -70, -60, -60, -60,
    -50, -50, -60, -70, -70, -60, -50, -50,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -40, -50, -60, -60, -50, -40, -40,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
     10,  10, -10, -25, -25, -15,  10,  10,
     20,  35,  15, -15,   0, -10,  35,  20,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -20,   5,  20,  25,  25,  20,   5, -20,
    -20,   5,  25,  35,  35,  25,   5, -20,
    -20,   0,  20,  30,  30,  20,   0, -20,
    -25,  -5,  10,  15,  15,  10,  -5, -25,
    -35, -15,  -5,   0,   0,  -5, -15, -35,
    -55, -40, -30, -25, -25, -30, -40, -55,
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
