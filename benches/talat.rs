//! Talat benchmarks (criterion; `cargo bench -p tessera-benches --bench talat`):
//!
//! - `perft/random_setup9_depth4`: generic perft 4 from the random full setup of seed 9
//!   (296 424 leaves, checked every iteration); throughput in leaves/s.
//! - `movegen/generate`: move generation over positions of seeded random games.
//! - `movegen/generate_and_play`: generation plus copy-make of every move, which runs the
//!   frozen-board test on the board moved on; throughput in moves/s.
//! - `freeze/is_frozen`: the frozen-board test alone on the boards those moves produce
//!   (cheap test, then exact search when needed); throughput in calls/s. Its cost per call
//!   against `generate_and_play`'s cost per move is the test's share of a move.
//! - `freeze/exact_search`: the exact search alone (without the one-mover shortcut) on the
//!   boards the cheap test calls live and where no capture is legal yet.
//! - `eval/*`: the baseline evaluation (seat utilities, and the two-player score).
//! - `mcts/talat_setup9_uniform_2000`, `mcts/talat2p_setup9_uniform_2000`: MCTS (UCT,
//!   uniform playouts, one thread, seed 0) from the random setup of seed 9, 2000
//!   iterations; throughput in simulations/s.
//!
//! `cargo test` does not build benches; `cargo test -p tessera-benches --benches` runs each routine once.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tessera::game::Game;
use tessera::game::perft::perft;
use tessera::games::talat::eval::Eval;
use tessera::games::talat::freeze::{cheap_live, is_frozen, reachable_capture};
use tessera::games::talat::{
    Board, DjinnSetup, Position, SetupOptions, Talat, Talat2p, TowerSetup,
};
use tessera::search::{Evaluator, SeatEvaluator};

/// Perft 4 from the random setup of seed 9 (`tests/it/talat/perft.rs`).
const PERFT4: u64 = 296_424;

fn setup(seed: u64) -> SetupOptions {
    SetupOptions {
        djinn: DjinnSetup::Random(seed),
        towers: TowerSetup::Random(seed),
    }
}

/// Every play-phase position of `games` seeded random games from random setups.
fn sample<const TWO: bool>(games: u64) -> Vec<Position<TWO>> {
    let mut out = Vec::new();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for g in 0..games {
        let mut pos = Position::<TWO>::new(&setup(g));
        let mut moves = <Position<TWO> as Game>::Moves::default();
        loop {
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

fn bench_perft(c: &mut Criterion) {
    let start = Talat::new(&setup(9));
    let mut g = c.benchmark_group("perft");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(PERFT4));
    g.bench_function("random_setup9_depth4", |b| {
        b.iter(|| {
            let n = perft(black_box(&start), 4);
            assert_eq!(n, PERFT4);
            n
        });
    });
    g.finish();
}

fn bench_movegen_and_freeze(c: &mut Criterion) {
    let positions = sample::<false>(40);
    let mut moves = <Talat as Game>::Moves::default();
    let mut boards: Vec<Board> = Vec::new();
    let mut n_moves = 0u64;
    for p in &positions {
        p.generate_moves(&mut moves);
        n_moves += moves.len() as u64;
        for &m in moves.iter() {
            if let Some(b) = m.board() {
                boards.push(*p.play(m).board(b));
            }
        }
    }
    let hard: Vec<Board> = boards
        .iter()
        .copied()
        .filter(|b| cheap_live(b) && !b.any_capture())
        .collect();
    println!(
        "{} positions, {n_moves} moves, {} boards after a move, {} pass the cheap test with no capture yet",
        positions.len(),
        boards.len(),
        hard.len()
    );
    let mut g = c.benchmark_group("movegen");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("generate", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            let mut moves = <Talat as Game>::Moves::default();
            for p in black_box(&positions) {
                p.generate_moves(&mut moves);
                acc += moves.len();
            }
            acc
        });
    });
    g.throughput(Throughput::Elements(n_moves));
    g.bench_function("generate_and_play", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            let mut moves = <Talat as Game>::Moves::default();
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

    let mut g = c.benchmark_group("freeze");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("is_frozen", |b| {
        b.iter(|| black_box(&boards).iter().filter(|b| is_frozen(b)).count());
    });
    g.throughput(Throughput::Elements(hard.len() as u64));
    g.bench_function("exact_search", |b| {
        b.iter(|| {
            black_box(&hard)
                .iter()
                .filter(|b| reachable_capture(b))
                .count()
        });
    });
    g.finish();
}

fn bench_eval(c: &mut Criterion) {
    let three = sample::<false>(20);
    let two = sample::<true>(20);
    let e = Eval::default();
    let mut g = c.benchmark_group("eval");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(three.len() as u64));
    g.bench_function("seat_utilities_talat", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for p in black_box(&three) {
                acc = acc.wrapping_add(e.evaluate_seats(p)[tessera::game::Seat(0)]);
            }
            acc
        });
    });
    g.throughput(Throughput::Elements(two.len() as u64));
    g.bench_function("evaluate_talat2p", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for p in black_box(&two) {
                acc = acc.wrapping_add(Evaluator::<Talat2p>::evaluate(&e, p));
            }
            acc
        });
    });
    g.finish();
}

fn bench_mcts(c: &mut Criterion) {
    use tessera::search::Limits;
    use tessera::search::mcts::{MctsConfig, UniformPlayout, mcts};
    const ITERATIONS: u64 = 2000;
    let cfg = MctsConfig {
        iterations: Some(ITERATIONS),
        ..MctsConfig::default()
    };
    let three = Position::<false>::new(&setup(9));
    let two = Position::<true>::new(&setup(9));
    let mut g = c.benchmark_group("mcts");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(ITERATIONS));
    g.bench_function("talat_setup9_uniform_2000", |b| {
        b.iter(|| {
            let r = mcts(black_box(&three), &cfg, &UniformPlayout, &Limits::default());
            assert_eq!(r.iterations, ITERATIONS);
            r.best_move
        });
    });
    g.bench_function("talat2p_setup9_uniform_2000", |b| {
        b.iter(|| {
            let r = mcts(black_box(&two), &cfg, &UniformPlayout, &Limits::default());
            assert_eq!(r.iterations, ITERATIONS);
            r.best_move
        });
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_movegen_and_freeze,
    bench_eval,
    bench_mcts
);
criterion_main!(benches);
