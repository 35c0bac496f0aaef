//! Evaluation and fixed-depth search benchmarks.

use criterion::{criterion_group, criterion_main, Criterion};
use kiln::chess::Position;
use kiln::commands::bench::BENCH_POSITIONS;
use kiln::eval::evaluate;
use kiln::search::time::Limits;
use kiln::search::tt::TranspositionTable;
use kiln::search::{SearchRequest, Signals, ThreadPool};
use std::hint::black_box;
use std::sync::Arc;

fn eval_bench(c: &mut Criterion) {
    let positions: Vec<Position> = BENCH_POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    c.bench_function("evaluate bench positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
}

fn search_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let pos = Position::from_fen(BENCH_POSITIONS[1]).unwrap();
    group.bench_function("kiwipete depth 8", |b| {
        b.iter(|| {
            let tt = Arc::new(TranspositionTable::new(16));
            let signals = Arc::new(Signals::default());
            let mut pool = ThreadPool::new(1);
            let req = SearchRequest::new(
                pos,
                Limits {
                    depth: Some(8),
                    ..Limits::default()
                },
            );
            pool.search(&req, &tt, &signals, &|_| {}).nodes
        })
    });
    group.finish();
}

criterion_group!(benches, eval_bench, search_bench);
criterion_main!(benches);
