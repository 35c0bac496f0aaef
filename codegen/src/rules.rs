//! A small, slow, obviously-correct chess position: mailbox board, legal
//! moves by "generate, play, is my king attacked?", a SAN parser, and a
//! from-scratch Zobrist key. It compiles the opening book and serves as a
//! test oracle; it never runs inside the engine. Standard chess only.

use crate::geometry::{self, file_rank, square_at};
use crate::zobrist::ZobristKeys;

pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const BISHOP: usize = 2;
pub const ROOK: usize = 3;
pub const QUEEN: usize = 4;
pub const KING: usize = 5;

/// A move in the engine's 16-bit encoding: from | to << 6 | kind << 12, with
/// kind 0 normal, 1 castling (king takes own rook), 2 en passant,
/// 4..=7 promotion to knight, bishop, rook, queen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefMove(pub u16);

impl RefMove {
    pub fn new(from: usize, to: usize, kind: u16) -> Self {
        RefMove(from as u16 | (to as u16) << 6 | kind << 12)
    }
    pub fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    pub fn to(self) -> usize {
        (self.0 >> 6 & 63) as usize
    }
    pub fn kind(self) -> u16 {
        self.0 >> 12
    }
    pub fn promotion(self) -> Option<usize> {
        (self.kind() >= 4).then(|| (self.kind() - 4) as usize + KNIGHT)
    }
}

/// Why a SAN token was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SanError {
    Malformed,
    Illegal,
    Ambiguous,
}

/// Mailbox position: `board[sq] = Some((colour, kind))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPosition {
    pub board: [Option<(usize, usize)>; 64],
    pub side: usize,
    /// Bit 0 white short, 1 white long, 2 black short, 3 black long.
    pub castling: u8,
    /// Set only when a pawn of the side to move stands ready to capture.
    pub en_passant: Option<usize>,
}

impl RefPosition {
    pub fn startpos() -> Self {
        let mut board = [None; 64];
        let back = [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK];
        for f in 0..8 {
            board[f] = Some((0, back[f]));
            board[8 + f] = Some((0, PAWN));
            board[48 + f] = Some((1, PAWN));
            board[56 + f] = Some((1, back[f]));
        }
        RefPosition {
            board,
            side: 0,
            castling: 0b1111,
            en_passant: None,
        }
    }

    fn king_square(&self, color: usize) -> usize {
        (0..64)
            .find(|&s| self.board[s] == Some((color, KING)))
            .expect("a king")
    }

    /// Is `sq` attacked by any piece of `by`?
    pub fn attacked(&self, sq: usize, by: usize) -> bool {
        let occ = (0..64)
            .filter(|&s| self.board[s].is_some())
            .fold(0u64, |b, s| b | 1 << s);
        (0..64).any(|s| match self.board[s] {
            Some((c, kind)) if c == by => {
                let att = match kind {
                    PAWN => geometry::pawn_attacks(c, s),
                    KNIGHT => geometry::knight_attacks(s),
                    BISHOP => geometry::bishop_attacks(s, occ),
                    ROOK => geometry::rook_attacks(s, occ),
                    QUEEN => geometry::rook_attacks(s, occ) | geometry::bishop_attacks(s, occ),
                    _ => geometry::king_attacks(s),
                };
                att & 1 << sq != 0
            }
            _ => false,
        })
    }

    pub fn in_check(&self) -> bool {
        self.attacked(self.king_square(self.side), 1 - self.side)
    }

    fn pseudo_moves(&self) -> Vec<RefMove> {
        let us = self.side;
        let occ = (0..64)
            .filter(|&s| self.board[s].is_some())
            .fold(0u64, |b, s| b | 1 << s);
        let ours = (0..64)
            .filter(|&s| matches!(self.board[s], Some((c, _)) if c == us))
            .fold(0u64, |b, s| b | 1 << s);
        let mut out = Vec::new();
        for from in 0..64 {
            let Some((c, kind)) = self.board[from] else {
                continue;
            };
            if c != us {
                continue;
            }
            let (f, r) = file_rank(from);
            if kind == PAWN {
                let dir = if us == 0 { 1 } else { -1 };
                let last = if us == 0 { 7 } else { 0 };
                let push = |to: usize, out: &mut Vec<RefMove>| {
                    if file_rank(to).1 == last {
                        out.extend((4..8).map(|k| RefMove::new(from, to, k)));
                    } else {
                        out.push(RefMove::new(from, to, 0));
                    }
                };
                if let Some(one) = square_at(f, r + dir) {
                    if self.board[one].is_none() {
                        push(one, &mut out);
                        let start = if us == 0 { 1 } else { 6 };
                        if let Some(two) = square_at(f, r + 2 * dir) {
                            if r == start && self.board[two].is_none() {
                                out.push(RefMove::new(from, two, 0));
                            }
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(to) = square_at(f + df, r + dir) {
                        if matches!(self.board[to], Some((c2, _)) if c2 != us) {
                            push(to, &mut out);
                        } else if self.en_passant == Some(to) {
                            out.push(RefMove::new(from, to, 2));
                        }
                    }
                }
                continue;
            }
            let targets = match kind {
                KNIGHT => geometry::knight_attacks(from),
                BISHOP => geometry::bishop_attacks(from, occ),
                ROOK => geometry::rook_attacks(from, occ),
                QUEEN => geometry::rook_attacks(from, occ) | geometry::bishop_attacks(from, occ),
                _ => geometry::king_attacks(from),
            } & !ours;
            for to in (0..64).filter(|&s| targets & 1 << s != 0) {
                out.push(RefMove::new(from, to, 0));
            }
        }
        // Castling, standard squares only: king e1/e8 takes its own rook.
        let base = if us == 0 { 0 } else { 56 };
        for (bit, rook_file, path) in [(0u8, 7usize, [5usize, 6, 6]), (1, 0, [3, 2, 1])] {
            if self.castling & 1 << (bit + 2 * us as u8) == 0 {
                continue;
            }
            let between_empty = path.iter().all(|&f| self.board[base + f].is_none());
            let safe = [4usize, path[0], path[1]]
                .iter()
                .all(|&f| !self.attacked(base + f, 1 - us));
            if between_empty && safe {
                out.push(RefMove::new(base + 4, base + rook_file, 1));
            }
        }
        out
    }

    pub fn legal_moves(&self) -> Vec<RefMove> {
        self.pseudo_moves()
            .into_iter()
            .filter(|&m| {
                let mut next = self.clone();
                next.play_unchecked(m);
                !next.attacked(next.king_square(self.side), next.side)
            })
            .collect()
    }

    /// Plays a move from `legal_moves`.
    pub fn play_unchecked(&mut self, m: RefMove) {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from].expect("a piece on from");
        self.en_passant = None;
        match m.kind() {
            1 => {
                let base = if us == 0 { 0 } else { 56 };
                let short = to > from;
                self.board[from] = None;
                self.board[to] = None;
                self.board[base + if short { 6 } else { 2 }] = Some((us, KING));
                self.board[base + if short { 5 } else { 3 }] = Some((us, ROOK));
            }
            2 => {
                self.board[from] = None;
                self.board[to] = Some(piece);
                self.board[if us == 0 { to - 8 } else { to + 8 }] = None;
            }
            _ => {
                self.board[from] = None;
                self.board[to] = Some(match m.promotion() {
                    Some(kind) => (us, kind),
                    None => piece,
                });
                if piece.1 == PAWN && from.abs_diff(to) == 16 {
                    let ep = (from + to) / 2;
                    let (f, r) = file_rank(to);
                    let ready = [f - 1, f + 1].iter().any(|&af| {
                        square_at(af, r).is_some_and(|s| self.board[s] == Some((1 - us, PAWN)))
                    });
                    if ready {
                        self.en_passant = Some(ep);
                    }
                }
            }
        }
        // A right is lost when its king or rook square is vacated or captured.
        for (bit, sq) in [
            (0, 4),
            (0, 7),
            (1, 4),
            (1, 0),
            (2, 60),
            (2, 63),
            (3, 60),
            (3, 56),
        ] {
            if from == sq || to == sq {
                self.castling &= !(1 << bit);
            }
        }
        self.side = 1 - us;
    }

    /// The Zobrist key, computed from scratch.
    pub fn key(&self, keys: &ZobristKeys) -> u64 {
        let mut key = 0;
        for sq in 0..64 {
            if let Some((c, kind)) = self.board[sq] {
                key ^= keys.piece_square[c * 6 + kind][sq];
            }
        }
        key ^= keys.castling[self.castling as usize];
        if let Some(ep) = self.en_passant {
            key ^= keys.en_passant[ep % 8];
        }
        if self.side == 1 {
            key ^= keys.side;
        }
        key
    }

    /// Finds the legal move a SAN token names (check marks optional).
    pub fn parse_san(&self, token: &str) -> Result<RefMove, SanError> {
        let body = token.trim_end_matches(['+', '#']);
        let legal = self.legal_moves();
        if matches!(body, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let short = body.len() == 3;
            let found: Vec<_> = legal
                .into_iter()
                .filter(|m| m.kind() == 1 && (m.to() > m.from()) == short)
                .collect();
            return found.first().copied().ok_or(SanError::Illegal);
        }
        let chars: Vec<char> = body.chars().collect();
        let mut i = 0;
        let kind = match chars.first() {
            Some('N') => KNIGHT,
            Some('B') => BISHOP,
            Some('R') => ROOK,
            Some('Q') => QUEEN,
            Some('K') => KING,
            Some('a'..='h') => PAWN,
            _ => return Err(SanError::Malformed),
        };
        if kind != PAWN {
            i = 1;
        }
        let mut promotion = None;
        let mut rest = &chars[i..];
        if let Some(eq) = rest.iter().position(|&c| c == '=') {
            if eq + 2 != rest.len() || kind != PAWN {
                return Err(SanError::Malformed);
            }
            promotion = Some(match rest[eq + 1] {
                'N' => KNIGHT,
                'B' => BISHOP,
                'R' => ROOK,
                'Q' => QUEEN,
                _ => return Err(SanError::Malformed),
            });
            rest = &rest[..eq];
        }
        if rest.len() < 2 {
            return Err(SanError::Malformed);
        }
        let (head, dest) = rest.split_at(rest.len() - 2);
        let to = match (dest[0], dest[1]) {
            (f @ 'a'..='h', r @ '1'..='8') => {
                (r as usize - '1' as usize) * 8 + (f as usize - 'a' as usize)
            }
            _ => return Err(SanError::Malformed),
        };
        let (mut from_file, mut from_rank, mut capture) = (None, None, false);
        for (n, &c) in head.iter().enumerate() {
            match c {
                'a'..='h' if from_file.is_none() && from_rank.is_none() && !capture => {
                    from_file = Some(c as usize - 'a' as usize)
                }
                '1'..='8' if from_rank.is_none() && !capture => {
                    from_rank = Some(c as usize - '1' as usize)
                }
                'x' if n + 1 == head.len() => capture = true,
                _ => return Err(SanError::Malformed),
            }
        }
        if kind == PAWN && (from_rank.is_some() || capture != from_file.is_some()) {
            return Err(SanError::Malformed);
        }
        let is_last_rank = to / 8 == 0 || to / 8 == 7;
        if kind == PAWN && is_last_rank != promotion.is_some() {
            return Err(SanError::Malformed);
        }
        let found: Vec<RefMove> = legal
            .into_iter()
            .filter(|m| {
                m.kind() != 1
                    && m.to() == to
                    && self.board[m.from()].map(|p| p.1) == Some(kind)
                    && m.promotion() == promotion
                    && from_file.is_none_or(|f| m.from() % 8 == f)
                    && from_rank.is_none_or(|r| m.from() / 8 == r)
                    && (self.board[to].is_some() || m.kind() == 2) == capture
            })
            .collect();
        match found.len() {
            0 => Err(SanError::Illegal),
            1 => Ok(found[0]),
            _ => Err(SanError::Ambiguous),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perft(pos: &RefPosition, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        pos.legal_moves()
            .into_iter()
            .map(|m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                perft(&next, depth - 1)
            })
            .sum()
    }

    #[test]
    fn startpos_perft_3() {
        assert_eq!(perft(&RefPosition::startpos(), 3), 8902);
    }

    #[test]
    fn san_parsing() {
        let mut pos = RefPosition::startpos();
        for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"] {
            let m = pos
                .parse_san(san)
                .unwrap_or_else(|e| panic!("{san}: {e:?}"));
            pos.play_unchecked(m);
        }
        assert_eq!(pos.parse_san("Nf6"), Err(SanError::Illegal));
        assert_eq!(pos.parse_san("1."), Err(SanError::Malformed));
        assert_eq!(pos.parse_san("Bxe4"), Err(SanError::Illegal));
        assert!(pos.parse_san("Nxe4").is_ok());
        assert!(pos.parse_san("Nxe4+").is_ok());
    }
}
