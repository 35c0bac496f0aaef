//! `go` arguments: never a panic; the limits stay in range, searchmoves are
//! legal, complaints have messages. The first byte picks the position.
#![no_main]

use kiln::chess::{legal_moves, Position};
use kiln::uci::parse::parse_go;
use libfuzzer_sys::fuzz_target;

const FENS: [&str; 4] = [
    Position::STARTPOS_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let pos = Position::from_fen(FENS[usize::from(pick) % FENS.len()]).unwrap();
    let chess960 = pick & 0x80 != 0;
    let text = String::from_utf8_lossy(rest);
    let args: Vec<&str> = text.split_whitespace().collect();
    let (go, errors) = parse_go(&args, &pos, chess960);
    let l = &go.limits;
    for v in [l.depth, l.mate].into_iter().flatten() {
        assert!((1..=1000).contains(&v));
    }
    assert!(l.nodes.is_none_or(|n| n >= 1));
    assert!(l.movestogo.is_none_or(|n| n >= 1));
    let legal = legal_moves(&pos);
    assert!(go.searchmoves.iter().all(|&m| legal.contains(m)));
    assert!(errors.iter().all(|e| !e.to_string().is_empty()));
});
