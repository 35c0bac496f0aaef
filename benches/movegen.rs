//! Move generation and perft benchmarks.

use criterion::{criterion_group, criterion_main, Criterion};
use kiln::chess::movegen::{count_legal_moves, legal_moves};
use kiln::chess::perft::perft;
use kiln::chess::Position;
use std::hint::black_box;

const POSITIONS: [&str; 3] = [
    Position::STARTPOS_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    c.bench_function("legal_moves x3", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| legal_moves(black_box(p)).len())
                .sum::<usize>()
        })
    });
    c.bench_function("count_legal_moves x3", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| count_legal_moves(black_box(p)))
                .sum::<u64>()
        })
    });
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = Position::startpos();
    group.bench_function("startpos 5", |b| b.iter(|| perft(black_box(&start), 5)));
    let kiwipete = Position::from_fen(POSITIONS[1]).unwrap();
    group.bench_function("kiwipete 4", |b| b.iter(|| perft(black_box(&kiwipete), 4)));
    group.finish();
}

criterion_group!(benches, movegen, perft_bench);
criterion_main!(benches);
