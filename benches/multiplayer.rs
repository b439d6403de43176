//! Multi-player search benchmarks (criterion; `cargo bench -p tessera-benches --bench multiplayer`): paranoid,
//! max-n (shallow pruning on), BRS and BRS+ to a fixed depth on two toy 3-seat games from
//! `tests/it/search/multi_toys.rs` (scored Nim from a 24-token heap, with passes and double
//! moves, and the hash-defined random tree of seed 7, games up to 30 plies, constant-sum
//! utilities), each with a fresh 2 MiB table per run (small, so zeroing it costs little of the
//! time).
//!
//! Every run checks its node count against the signature below, so a bench never times
//! changed behaviour silently: a change to the searches' trees must update [`SIGNATURE`]
//! (the node counts are printed). Throughput is in nodes/s.
//!
//! `cargo test -p tessera-benches --benches` runs each routine once (criterion's test mode).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tessera::game::Game;
use tessera::search::{
    Limits, MultiAlgo, SearchResult, SeatEvaluator, TranspositionTable, brs, brs_plus, maxn,
    paranoid,
};

#[path = "../tests/it/search/multi_toys.rs"]
mod multi_toys;
use multi_toys::{Heap, HeapEval, Tree, TreeEval};

/// Longest game of the benchmark tree, plies.
const TREE_LEN: u8 = 30;

/// Table size per run, MiB.
const TT_MIB: usize = 2;

/// (algorithm, heap depth, tree depth, expected nodes on the heap, expected nodes on the
/// tree). Total (printed as the bench signature): 833 837 nodes.
const SIGNATURE: [(MultiAlgo, u32, u32, u64, u64); 4] = [
    (MultiAlgo::Paranoid, 30, 18, 38_131, 61_164),
    (MultiAlgo::MaxN, 12, 15, 199_676, 71_350),
    (MultiAlgo::Brs, 18, 16, 213_209, 195_299),
    (MultiAlgo::BrsPlus, 30, 18, 5_006, 50_002),
];

fn run<G: Game, E: SeatEvaluator<G>>(
    algo: MultiAlgo,
    pos: &G,
    eval: &E,
    depth: u32,
) -> SearchResult<G::Move> {
    let tt = TranspositionTable::new(TT_MIB);
    let limits = Limits::depth(depth);
    match algo {
        MultiAlgo::Paranoid => paranoid(pos, eval, &tt, &limits, |_| {}),
        MultiAlgo::MaxN => maxn(pos, eval, &tt, &limits, |_| {}).search,
        MultiAlgo::Brs => brs(pos, eval, &tt, &limits, |_| {}).expect("the toys support BRS"),
        MultiAlgo::BrsPlus => brs_plus(pos, eval, &tt, &limits, |_| {}),
    }
}

fn bench_multiplayer(c: &mut Criterion) {
    let heap = Heap::new(24, 3);
    let heap_eval = HeapEval { prune: true };
    let tree = Tree::with_len(7, 3, true, TREE_LEN);
    let tree_eval = TreeEval::plain(true);
    let mut total = 0;
    let mut counts = Vec::new();
    for (algo, hd, td, _, _) in SIGNATURE {
        let h = run(algo, &heap, &heap_eval, hd).nodes;
        let t = run(algo, &tree, &tree_eval, td).nodes;
        println!("{algo}: heap depth {hd} {h} nodes, tree depth {td} {t} nodes");
        counts.push((h, t));
        total += h + t;
    }
    println!("multiplayer bench signature: {total} nodes");
    for ((algo, _, _, heap_nodes, tree_nodes), got) in SIGNATURE.iter().zip(counts) {
        assert_eq!(
            got,
            (*heap_nodes, *tree_nodes),
            "{algo}: bench signature changed"
        );
    }

    let mut g = c.benchmark_group("multiplayer");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (algo, hd, td, heap_nodes, tree_nodes) in SIGNATURE {
        g.throughput(Throughput::Elements(heap_nodes));
        g.bench_function(format!("{algo}/heap24_depth{hd}"), |b| {
            b.iter(|| {
                let r = run(algo, black_box(&heap), &heap_eval, hd);
                assert_eq!(r.nodes, heap_nodes);
                r.score
            });
        });
        g.throughput(Throughput::Elements(tree_nodes));
        g.bench_function(format!("{algo}/tree7_depth{td}"), |b| {
            b.iter(|| {
                let r = run(algo, black_box(&tree), &tree_eval, td);
                assert_eq!(r.nodes, tree_nodes);
                r.score
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench_multiplayer);
criterion_main!(benches);
