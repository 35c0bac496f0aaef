//! Standard Algebraic Notation: reading (for book files loaded at run time)
//! and writing (for `kiln book` and the `d` command).

use super::movegen::legal_moves;
use super::mv::Move;
use super::piece::Kind;
use super::position::Position;
use super::square::Square;
use std::fmt;

/// Why a SAN token was not accepted here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not SAN at all (`1.`, `e9`, `Zf3`).
    Malformed,
    /// Well formed, but no legal move matches.
    Illegal,
    /// Several legal moves match.
    Ambiguous,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SanError::Malformed => "malformed move",
            SanError::Illegal => "illegal move",
            SanError::Ambiguous => "ambiguous move",
        })
    }
}

/// What a SAN token says about its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SanPattern {
    Castle {
        long: bool,
    },
    Piece {
        kind: Kind,
        file: Option<u8>,
        rank: Option<u8>,
        capture: bool,
        to: Square,
        promotion: Option<Kind>,
    },
}

fn kind_from_letter(c: u8) -> Option<Kind> {
    match c {
        b'N' => Some(Kind::Knight),
        b'B' => Some(Kind::Bishop),
        b'R' => Some(Kind::Rook),
        b'Q' => Some(Kind::Queen),
        b'K' => Some(Kind::King),
        _ => None,
    }
}

fn parse_pattern(token: &str) -> Option<SanPattern> {
    let body = token.strip_suffix(['+', '#']).unwrap_or(token).as_bytes();
    match body {
        b"O-O" | b"0-0" => return Some(SanPattern::Castle { long: false }),
        b"O-O-O" | b"0-0-0" => return Some(SanPattern::Castle { long: true }),
        _ => {}
    }
    let (kind, mut rest) = match body.first().copied().and_then(kind_from_letter) {
        Some(kind) => (kind, &body[1..]),
        None => (Kind::Pawn, body),
    };
    let mut promotion = None;
    if let [head @ .., b'=', p] = rest {
        promotion = Some(kind_from_letter(*p).filter(|k| *k != Kind::King)?);
        rest = head;
    }
    let [head @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] = rest else {
        return None;
    };
    let to = Square::from_file_rank(f - b'a', r - b'1');
    let (head, capture) = match head {
        [h @ .., b'x'] => (h, true),
        h => (h, false),
    };
    let (file, rank) = match head {
        [] => (None, None),
        [c @ b'a'..=b'h'] => (Some(c - b'a'), None),
        [c @ b'1'..=b'8'] => (None, Some(c - b'1')),
        [c @ b'a'..=b'h', d @ b'1'..=b'8'] => (Some(c - b'a'), Some(d - b'1')),
        _ => return None,
    };
    let last_rank = to.rank() == 0 || to.rank() == 7;
    if kind == Kind::Pawn
        && (rank.is_some() || capture != file.is_some() || last_rank != promotion.is_some())
    {
        return None;
    }
    if kind != Kind::Pawn && promotion.is_some() {
        return None;
    }
    Some(SanPattern::Piece {
        kind,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

impl SanPattern {
    fn matches(self, pos: &Position, mv: Move) -> bool {
        match self {
            SanPattern::Castle { long } => mv.is_castling() && (mv.to() < mv.from()) == long,
            SanPattern::Piece {
                kind,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                !mv.is_castling()
                    && mv.to() == to
                    && pos.piece_at(mv.from()).map(|p| p.kind()) == Some(kind)
                    && mv.promotion() == promotion
                    && file.is_none_or(|f| mv.from().file() == f)
                    && rank.is_none_or(|r| mv.from().rank() == r)
                    && pos.is_capture(mv) == capture
            }
        }
    }
}

impl Position {
    /// The legal move a SAN token names; check marks are optional.
    pub fn parse_san(&self, token: &str) -> Result<Move, SanError> {
        let pattern = parse_pattern(token).ok_or(SanError::Malformed)?;
        let moves = legal_moves(self);
        let mut found = moves.iter().filter(|&mv| pattern.matches(self, mv));
        match (found.next(), found.next()) {
            (Some(mv), None) => Ok(mv),
            (None, _) => Err(SanError::Illegal),
            (Some(_), Some(_)) => Err(SanError::Ambiguous),
        }
    }

    /// SAN for a legal move, with `+` or `#`.
    pub fn to_san(&self, mv: Move) -> String {
        let mut san = if mv.is_castling() {
            if mv.to() < mv.from() {
                "O-O-O".to_string()
            } else {
                "O-O".to_string()
            }
        } else {
            let kind = self.piece_at(mv.from()).map_or(Kind::Pawn, |p| p.kind());
            let mut s = String::new();
            if kind == Kind::Pawn {
                if self.is_capture(mv) {
                    s.push((b'a' + mv.from().file()) as char);
                }
            } else {
                s.push(kind.letter().to_ascii_uppercase());
                let rivals: Vec<Move> = legal_moves(self)
                    .iter()
                    .filter(|m| {
                        *m != mv
                            && m.to() == mv.to()
                            && !m.is_castling()
                            && self.piece_at(m.from()).map(|p| p.kind()) == Some(kind)
                    })
                    .collect();
                if !rivals.is_empty() {
                    let file_unique = rivals.iter().all(|m| m.from().file() != mv.from().file());
                    let rank_unique = rivals.iter().all(|m| m.from().rank() != mv.from().rank());
                    let from = mv.from().to_string();
                    if file_unique {
                        s.push_str(&from[..1]);
                    } else if rank_unique {
                        s.push_str(&from[1..]);
                    } else {
                        s.push_str(&from);
                    }
                }
            }
            if self.is_capture(mv) {
                s.push('x');
            }
            s.push_str(&mv.to().to_string());
            if let Some(p) = mv.promotion() {
                s.push('=');
                s.push(p.letter().to_ascii_uppercase());
            }
            s
        };
        let mut next = *self;
        next.make_move(mv);
        if next.in_check() {
            san.push(if legal_moves(&next).is_empty() {
                '#'
            } else {
                '+'
            });
        }
        san
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_move_reads_back_from_its_san() {
        for fen in [
            Position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "4k3/8/8/8/8/8/1Q3Q2/4K2Q w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for mv in legal_moves(&pos).iter() {
                let san = pos.to_san(mv);
                assert_eq!(pos.parse_san(&san), Ok(mv), "{fen}: {san}");
            }
        }
    }

    #[test]
    fn errors() {
        let pos = Position::startpos();
        assert_eq!(pos.parse_san("e5"), Err(SanError::Illegal));
        assert_eq!(pos.parse_san("1."), Err(SanError::Malformed));
        assert_eq!(pos.parse_san("e4!"), Err(SanError::Malformed));
        assert_eq!(
            pos.parse_san("Nf3"),
            Ok(Move::new(
                "g1".parse().unwrap(),
                "f3".parse().unwrap(),
                super::super::MoveKind::Normal
            ))
        );
        let two_knights = Position::from_fen("4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1").unwrap();
        assert_eq!(two_knights.parse_san("Ne2"), Err(SanError::Ambiguous));
        assert!(two_knights.parse_san("Nge2").is_ok());
        assert!(two_knights.parse_san("Ncd3").is_ok());
    }
}
