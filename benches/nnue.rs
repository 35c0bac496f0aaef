//! The network's costs, each beside its alternative: one incremental
//! update + evaluation per move (AVX2 and portable kernels), a refresh
//! from scratch, and the hand-written evaluation of the same positions.

use criterion::{criterion_group, criterion_main, Criterion};
use kiln::chess::{legal_moves, Move, Position};
use kiln::commands::bench::BENCH_POSITIONS;
use kiln::eval::evaluate;
use kiln::nnue::{AccumulatorStack, Kernels, EMBEDDED};
use std::hint::black_box;

/// Each bench position with its first legal move: a one-ply update each.
fn positions_and_moves() -> Vec<(Position, Move)> {
    BENCH_POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .filter_map(|p| Some((p, legal_moves(&p).iter().next()?)))
        .collect()
}

fn update_and_evaluate(c: &mut Criterion) {
    let cases = positions_and_moves();
    let mut group = c.benchmark_group("nnue");
    let mut kernels = vec![("portable", Kernels::PORTABLE)];
    kernels.extend(Kernels::avx2().map(|k| ("avx2", k)));
    kernels.extend(Kernels::avx512().map(|k| ("avx512", k)));
    for (name, kernels) in kernels {
        // One stack per position, its root computed once: the loop pays
        // for one update (both perspectives) and one output layer a move.
        let mut cases: Vec<_> = cases
            .iter()
            .map(|&(pos, mv)| {
                let mut stack = AccumulatorStack::with_kernels(2, kernels);
                stack.set_root(&EMBEDDED, &pos);
                let mut next = pos;
                next.make_move(mv);
                (pos, mv, next, stack)
            })
            .collect();
        group.bench_function(format!("update+evaluate per move, {name}"), |b| {
            b.iter(|| {
                let mut sum = 0;
                for (pos, mv, next, stack) in &mut cases {
                    stack.push_move(0, pos, *mv);
                    sum += stack.evaluate(&EMBEDDED, black_box(next), 1);
                }
                sum
            })
        });
    }
    group.bench_function("refresh+evaluate (root), detected kernels", |b| {
        let mut stack = AccumulatorStack::new(1);
        b.iter(|| {
            cases
                .iter()
                .map(|(pos, _)| {
                    stack.set_root(&EMBEDDED, black_box(pos));
                    stack.evaluate(&EMBEDDED, pos, 0)
                })
                .sum::<i32>()
        })
    });
    group.bench_function("hand-written evaluate", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|(pos, _)| evaluate(black_box(pos)))
                .sum::<i32>()
        })
    });
    group.finish();
}

criterion_group!(benches, update_and_evaluate);
criterion_main!(benches);
