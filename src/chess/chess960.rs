//! Chess960 start positions: the back rank of start number `n` in
//! Scharnagl's numbering (518 is the standard arrangement) and its FEN.

/// How many Chess960 start positions there are (numbered 0..960).
pub const STARTS: usize = 960;

/// The back rank of Chess960 start number `n` (taken modulo `STARTS`),
/// as lower-case piece letters from the a-file to the h-file.
pub fn back_rank(n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    let mut n = n % STARTS;
    rank[(n % 4) * 2 + 1] = 'b';
    n /= 4;
    rank[(n % 4) * 2] = 'b';
    n /= 4;
    let place = |rank: &mut [char; 8], nth_empty: usize, piece: char| {
        let sq = (0..8)
            .filter(|&i| rank[i] == ' ')
            .nth(nth_empty)
            .expect("a free square");
        rank[sq] = piece;
    };
    place(&mut rank, n % 6, 'q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[n];
    // Place the later knight first so the earlier index still counts the same squares.
    place(&mut rank, second, 'n');
    place(&mut rank, first, 'n');
    for piece in ['r', 'k', 'r'] {
        place(&mut rank, 0, piece);
    }
    rank
}

/// The FEN of Chess960 start `n`, castling rights as Shredder-FEN files.
pub fn start_fen(n: usize) -> String {
    let rank = back_rank(n);
    let black: String = rank.iter().collect();
    let white = black.to_ascii_uppercase();
    let rooks: Vec<char> = (0..8)
        .filter(|&i| rank[i] == 'r')
        .map(|i| (b'a' + i as u8) as char)
        .collect();
    let castling = format!(
        "{}{}{}{}",
        rooks[1].to_ascii_uppercase(),
        rooks[0].to_ascii_uppercase(),
        rooks[1],
        rooks[0]
    );
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{legal_moves, Position};

    #[test]
    fn chess960_starts_are_legal_and_all_different() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..STARTS {
            let fen = start_fen(n);
            let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{n}: {fen}: {e}"));
            assert!(seen.insert(back_rank(n)), "{n} repeats");
            assert!(legal_moves(&pos).len() >= 18, "{fen}");
        }
        // Number 518 is the standard arrangement.
        assert_eq!(back_rank(518).iter().collect::<String>(), "rnbqkbnr");
    }
}
