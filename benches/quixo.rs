//! Quixo benchmarks (criterion; `cargo bench -p tessera-benches --bench quixo`):
//!
//! - `quixo_perft/empty_5x5_depth5`: perft 5 from the empty 5x5 board (118 928 388 move
//!   sequences, `tests/data/quixo/solved.md`, checked every iteration); throughput in
//!   leaves/s. The fastest public Quixo generator does about 77 M sequences/s.
//! - `quixo_movegen/random_positions`: `Game::generate_moves` + `play` of every move over
//!   positions from seeded random games; throughput in moves/s.
//! - `quixo_eval/random_positions_*`: the evaluation (defaults and the shipped Texel weights)
//!   over the same positions; throughput in evaluations/s.
//! - `quixo_solve/3x3`: the retrograde solve of all 19 683 3x3 boards (counts checked).
//! - `quixo_midgame/empty_depth5`: alpha-beta to depth 5 from the empty board with the
//!   baseline evaluation (fresh table each time); prints the node count (a signature
//!   that changes when the search's tree changes) and nodes/s.
//!
//! - `quixo_mcts/empty_uniform_5000`: MCTS (UCT, uniform playouts, one thread, seed 0)
//!   from the empty board, 5000 iterations; throughput in simulations/s (compare with
//!   `tessera bench quixo --algo mcts` and the Thanduriel/quixo anchor).
//! - `quixo_mcts/empty_tree1_5000`, `empty_tree2_5000`: the same on one shared tree
//!   (tree-parallel, virtual loss) with one and two threads; their ratio is the
//!   tree-parallel speed-up (on an idle machine).
//!
//! The 4x4 solve and the 5x5 full-board table take tens of seconds each: they are timed
//! by the ignored tests of `tests/it/quixo/solve.rs` (`--ignored --nocapture` prints them).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tessera::game::Game;
use tessera::games::quixo::eval::Eval;
use tessera::games::quixo::retro::{Counts, solve_size};
use tessera::games::quixo::{Quixo, perft};
use tessera::search::{Limits, TranspositionTable, search};

/// Perft 5 from the empty 5x5 board (`tests/data/quixo/solved.md`).
const PERFT5: u64 = 118_928_388;

fn bench_perft(c: &mut Criterion) {
    let start = Quixo::start();
    let mut g = c.benchmark_group("quixo_perft");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(PERFT5));
    g.bench_function("empty_5x5_depth5", |b| {
        b.iter(|| {
            let n = perft::perft(black_box(&start), black_box(5));
            assert_eq!(n, PERFT5);
            n
        });
    });
    g.finish();
}

/// Positions from seeded random games (xorshift64), every ply of every game.
fn sample_positions(games: usize) -> Vec<Quixo> {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::new();
    let mut moves = <Quixo as Game>::Moves::default();
    for _ in 0..games {
        let mut pos = Quixo::start();
        for _ in 0..60 {
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
    let positions = sample_positions(100);
    let mut moves = <Quixo as Game>::Moves::default();
    let total: usize = positions
        .iter()
        .map(|p| {
            p.generate_moves(&mut moves);
            moves.len()
        })
        .sum();
    let mut g = c.benchmark_group("quixo_movegen");
    g.throughput(Throughput::Elements(total as u64));
    g.bench_function("random_positions", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            let mut moves = <Quixo as Game>::Moves::default();
            for p in &positions {
                p.generate_moves(&mut moves);
                for &m in moves.iter() {
                    keys ^= p.play(m).key();
                }
            }
            black_box(keys)
        });
    });
    g.finish();
}

fn bench_solve(c: &mut Criterion) {
    let mut g = c.benchmark_group("quixo_solve");
    g.sample_size(10);
    g.bench_function("3x3", |b| {
        b.iter(|| {
            let s = solve_size(3, 1).unwrap();
            assert_eq!(
                s.counts,
                Counts {
                    wins: 12_748,
                    losses: 6_935,
                    draws: 0
                }
            );
            s.plies
        });
    });
    g.finish();
}

fn bench_midgame(c: &mut Criterion) {
    let start = Quixo::start();
    let eval = Eval::default();
    let mut g = c.benchmark_group("quixo_midgame");
    g.sample_size(10);
    let mut printed = false;
    g.bench_function("empty_depth5", |b| {
        b.iter(|| {
            let tt = TranspositionTable::new(16);
            let r = search(&start, &eval, &tt, &Limits::depth(5), |_| {});
            if !printed {
                eprintln!(
                    "\nquixo midgame depth 5: {} nodes, {:.0} nodes/s",
                    r.nodes,
                    r.nps()
                );
                printed = true;
            }
            r.nodes
        });
    });
    g.finish();
}

fn bench_eval(c: &mut Criterion) {
    use tessera::games::quixo::eval::Weights;
    use tessera::search::Evaluator;
    let positions = sample_positions(200);
    let texel = Eval::new(Weights::load(std::path::Path::new("builtin:texel")).unwrap());
    let mut g = c.benchmark_group("quixo_eval");
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(positions.len() as u64));
    for (name, e) in [("defaults", Eval::default()), ("texel", texel)] {
        g.bench_function(format!("random_positions_{name}"), |b| {
            b.iter(|| {
                let mut acc = 0i32;
                for p in black_box(&positions) {
                    acc = acc.wrapping_add(e.evaluate(p));
                }
                acc
            });
        });
    }
    g.finish();
}

fn bench_mcts(c: &mut Criterion) {
    use tessera::search::mcts::{MctsConfig, UniformPlayout, mcts};
    const ITERATIONS: u64 = 5000;
    let start = Quixo::start();
    let cfg = MctsConfig {
        iterations: Some(ITERATIONS),
        ..MctsConfig::default()
    };
    let mut g = c.benchmark_group("quixo_mcts");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(ITERATIONS));
    g.bench_function("empty_uniform_5000", |b| {
        b.iter(|| {
            let r = mcts(black_box(&start), &cfg, &UniformPlayout, &Limits::default());
            assert_eq!(r.iterations, ITERATIONS);
            r.best_move
        });
    });
    for threads in [1, 2] {
        let cfg = MctsConfig {
            threads,
            parallel: tessera::search::mcts::Parallelism::Tree,
            ..cfg.clone()
        };
        g.bench_function(format!("empty_tree{threads}_5000"), |b| {
            b.iter(|| {
                let r = mcts(black_box(&start), &cfg, &UniformPlayout, &Limits::default());
                assert_eq!(r.root_visits, ITERATIONS);
                r.best_move
            });
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_mcts,
    bench_perft,
    bench_movegen,
    bench_eval,
    bench_solve,
    bench_midgame
);
criterion_main!(benches);
