//! Othello benchmarks (criterion; `cargo bench -p tessera-benches --bench othello`):
//!
//! - `perft/start_depth9`: perft 9 from the start (3 005 288 leaves, checked every
//!   iteration); throughput in leaves/s.
//! - `movegen/*`: legal-move generation and flips over a fixed set of positions from
//!   seeded random games; throughput in positions/s or moves/s.
//! - `solver/ffo40..42`: the exact solver on FFO #40, #41 and #42 (exact score checked each
//!   iteration, fresh table each time); nodes and nodes/s are printed after each.
//! - `midgame/start_depth8`: the midgame alpha-beta search to depth 8 from the start
//!   (fresh table each time); the node count is printed as a "bench signature" that
//!   changes whenever the search's tree changes.
//!
//! - `eval/baseline`, `eval/patterns`, `eval/patterns2`: one static evaluation of each of a
//!   fixed set of positions from seeded random games, with the baseline evaluation and with
//!   the shipped pattern weights (`tuning/othello-patterns.bin`, format 1, and
//!   `tuning/othello-patterns2.bin`, format 2); throughput in positions/s.
//! - `midgame_eval/{baseline,patterns,patterns2}_depth7`: the midgame search to depth 7 over
//!   four fixed positions with each evaluation; nodes and nodes/s are printed.
//! - `mcts/start_uniform_5000`: MCTS (UCT, uniform playouts, one thread, seed 0) from the
//!   start, 5000 iterations; throughput in simulations/s.
//!
//! `cargo test` does not build benches; `cargo test -p tessera-benches --benches` runs each routine once
//! (criterion's test mode).

use std::cell::Cell;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use tessera::game::Game;
use tessera::games::othello::endgame::Solver;
use tessera::games::othello::movegen::{flips, legal_moves};
use tessera::games::othello::perft::perft;
use tessera::games::othello::{Position, eval};
use tessera::search::{Limits, TranspositionTable, search};

/// Perft 9 from the start (`tests/data/othello/perft.txt`).
const PERFT9: u64 = 3_005_288;

/// Table size for the solver benches (MiB).
const SOLVER_TT_MIB: usize = 64;

/// Table size for the midgame bench (MiB).
const MIDGAME_TT_MIB: usize = 16;

fn bench_perft(c: &mut Criterion) {
    let start = Position::start();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(PERFT9));
    g.bench_function("start_depth9", |b| {
        b.iter(|| {
            let n = perft(black_box(&start), black_box(9));
            assert_eq!(n, PERFT9);
            n
        });
    });
    g.finish();
}

/// Positions from seeded random games (xorshift64), every ply of every game.
fn sample_positions(games: usize) -> Vec<Position> {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start();
        loop {
            let mut moves = <Position as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(pos);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos = pos.play(moves[(seed % moves.len() as u64) as usize]);
        }
    }
    out
}

fn bench_movegen(c: &mut Criterion) {
    let positions = sample_positions(64);
    let n_moves: u64 = positions
        .iter()
        .map(|p| u64::from(p.legal_placements().count_ones()))
        .sum();
    let mut g = c.benchmark_group("movegen");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));

    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for p in black_box(&positions) {
                acc ^= legal_moves(p.player(), p.opponent());
            }
            acc
        });
    });

    g.throughput(Throughput::Elements(n_moves));
    g.bench_function("legal_moves_and_flips", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for p in black_box(&positions) {
                let (pl, op) = (p.player(), p.opponent());
                let mut m = legal_moves(pl, op);
                while m != 0 {
                    let sq = m.trailing_zeros() as usize;
                    m &= m - 1;
                    acc ^= flips(pl, op, sq);
                }
            }
            acc
        });
    });

    // The Game-trait path the generic search uses: move list, copy-make, key upkeep.
    g.bench_function("generate_and_play", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            let mut moves = <Position as Game>::Moves::default();
            for p in black_box(&positions) {
                p.generate_moves(&mut moves);
                for &m in moves.iter() {
                    acc ^= p.play(m).key();
                }
            }
            acc
        });
    });
    g.finish();
}

/// FFO #40-#42 from `tests/data/othello/ffo-40-59.txt`: (id, position, exact score).
fn ffo_problems() -> Vec<(u32, Position, i32)> {
    include_str!("../tests/data/othello/ffo-40-59.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let pos: Position = format!("{} {}", f[1], f[2]).parse().expect("FFO position");
            (f[0].parse().unwrap(), pos, f[3].parse().unwrap())
        })
        .filter(|&(id, _, _)| (40..=42).contains(&id))
        .collect()
}

fn bench_solver(c: &mut Criterion) {
    let problems = ffo_problems();
    assert_eq!(problems.len(), 3);
    let mut g = c.benchmark_group("solver");
    // Each solve takes seconds: one solve per sample, the minimum of 10 samples.
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(10));
    for (id, pos, score) in problems {
        let nodes = Cell::new(0u64);
        let secs = Cell::new(0f64);
        let runs = Cell::new(0u32);
        g.bench_function(format!("ffo{id}"), |b| {
            b.iter_batched(
                || TranspositionTable::new(SOLVER_TT_MIB),
                |tt| {
                    let sol = Solver::new(&tt, &Limits::default()).solve(black_box(&pos));
                    assert_eq!(sol.score, Some(score), "FFO #{id}");
                    nodes.set(sol.nodes);
                    secs.set(secs.get() + sol.seconds);
                    runs.set(runs.get() + 1);
                    sol.nodes
                },
                BatchSize::PerIteration,
            );
        });
        let per_run = secs.get() / f64::from(runs.get().max(1));
        println!(
            "solver/ffo{id}: score {score:+}, {} nodes per solve, {:.2} s per solve, {:.1} Mnodes/s ({} solves)",
            nodes.get(),
            per_run,
            nodes.get() as f64 / per_run.max(1e-9) / 1e6,
            runs.get()
        );
    }
    g.finish();
}

fn bench_midgame(c: &mut Criterion) {
    let start = Position::start();
    let ev = eval::Eval::default();
    let nodes = Cell::new(0u64);
    let mut g = c.benchmark_group("midgame");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    g.bench_function("start_depth8", |b| {
        b.iter_batched(
            || TranspositionTable::new(MIDGAME_TT_MIB),
            |tt| {
                let r = search(black_box(&start), &ev, &tt, &Limits::depth(8), |_| {});
                let m = r.best_move.expect("a move from the start");
                assert!(start.is_legal(m), "illegal {m}");
                assert_eq!(r.depth, 8);
                // Single-threaded with a fresh table: the tree is the same every run.
                let prev = nodes.replace(r.nodes);
                assert!(
                    prev == 0 || prev == r.nodes,
                    "node count {prev} then {}",
                    r.nodes
                );
                r.nodes
            },
            BatchSize::PerIteration,
        );
    });
    g.finish();
    println!(
        "midgame/start_depth8: bench signature {} nodes",
        nodes.get()
    );
}

/// The shipped pattern evaluation.
fn pattern_eval() -> eval::Eval {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tuning/othello-patterns.bin");
    let e = eval::Eval::load(&path).expect("tuning/othello-patterns.bin");
    assert!(e.patterns().is_some());
    e
}

/// The shipped format-2 pattern evaluation.
fn pattern2_eval() -> eval::Eval {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tuning/othello-patterns2.bin");
    let e = eval::Eval::load(&path).expect("tuning/othello-patterns2.bin");
    assert!(e.patterns2().is_some());
    e
}

fn bench_eval(c: &mut Criterion) {
    let positions = sample_positions(64);
    let base = eval::Eval::default();
    let pat = pattern_eval();
    let pat2 = pattern2_eval();
    let mut g = c.benchmark_group("eval");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(positions.len() as u64));
    for (name, e) in [
        ("baseline", &base),
        ("patterns", &pat),
        ("patterns2", &pat2),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut acc = 0i32;
                for p in black_box(&positions) {
                    acc = acc.wrapping_add(e.score(p.player(), p.opponent()));
                }
                acc
            });
        });
    }
    g.finish();
}

fn bench_midgame_eval(c: &mut Criterion) {
    // Four positions of 0, 12, 24 and 36 plies from seeded random games.
    let all = sample_positions(4);
    let positions: Vec<Position> = [0usize, 12, 24, 36].iter().map(|&i| all[i]).collect();
    let mut g = c.benchmark_group("midgame_eval");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(5));
    for (name, e) in [
        ("baseline", eval::Eval::default()),
        ("patterns", pattern_eval()),
        ("patterns2", pattern2_eval()),
    ] {
        let nodes = Cell::new(0u64);
        let secs = Cell::new(0f64);
        g.bench_function(format!("{name}_depth7"), |b| {
            b.iter_batched(
                || {
                    (0..positions.len())
                        .map(|_| TranspositionTable::new(MIDGAME_TT_MIB))
                        .collect::<Vec<_>>()
                },
                |tables| {
                    let t = std::time::Instant::now();
                    let mut n = 0;
                    for (pos, tt) in positions.iter().zip(&tables) {
                        let r = search(black_box(pos), &e, tt, &Limits::depth(7), |_| {});
                        assert!(pos.is_legal(r.best_move.expect("a move")));
                        n += r.nodes;
                    }
                    nodes.set(n);
                    secs.set(t.elapsed().as_secs_f64());
                    n
                },
                BatchSize::PerIteration,
            );
        });
        println!(
            "midgame_eval/{name}_depth7: {} nodes, {:.2} Mnodes/s",
            nodes.get(),
            nodes.get() as f64 / secs.get().max(1e-9) / 1e6
        );
    }
    g.finish();
}

fn bench_mcts(c: &mut Criterion) {
    use tessera::search::mcts::{MctsConfig, UniformPlayout, mcts};
    const ITERATIONS: u64 = 5000;
    let start = Position::start();
    let cfg = MctsConfig {
        iterations: Some(ITERATIONS),
        ..MctsConfig::default()
    };
    let mut g = c.benchmark_group("mcts");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(ITERATIONS));
    g.bench_function("start_uniform_5000", |b| {
        b.iter(|| {
            let r = mcts(black_box(&start), &cfg, &UniformPlayout, &Limits::default());
            assert_eq!(r.iterations, ITERATIONS);
            r.best_move
        });
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_mcts,
    bench_perft,
    bench_movegen,
    bench_solver,
    bench_midgame,
    bench_eval,
    bench_midgame_eval
);
criterion_main!(benches);
