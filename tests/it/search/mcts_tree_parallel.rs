//! Tree-parallel MCTS (`parallel = tree`: one shared tree, virtual loss): visit counts add
//! up, forced wins are found and proven (the exact Othello solver as the truth), time and
//! stop limits end every thread, one thread is deterministic, the engine key and the CLI
//! option.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tessera::engine::EngineSpec;
use tessera::game::{Game, Seat};
use tessera::games::othello::Position;
use tessera::games::quixo::{Quixo, Quixo4p};
use tessera::search::Limits;
use tessera::search::mcts::{MctsConfig, MctsResult, Parallelism, Proven, UniformPlayout, mcts};

use crate::search::mcts::{random_positions, winning_moves};

fn tree(iterations: u64, threads: usize, seed: u64) -> MctsConfig {
    MctsConfig {
        iterations: Some(iterations),
        threads,
        seed,
        parallel: Parallelism::Tree,
        ..MctsConfig::default()
    }
}

/// Every simulation visits the root once and one root child once (the root is expanded
/// before the threads start), and the arena stays within its budget.
fn assert_counts_add_up<M>(r: &MctsResult<M>, simulations: u64, what: &str) {
    assert_eq!(r.iterations, simulations, "{what}: iterations");
    assert_eq!(r.root_visits, simulations, "{what}: root visits");
    let children: u64 = r.root.iter().map(|c| c.visits).sum();
    assert_eq!(children, simulations, "{what}: root children's visits");
    assert!(r.nodes_used <= r.node_capacity, "{what}: arena overflow");
}

#[test]
fn visit_counts_add_up_on_1_2_and_4_threads() {
    let quixo = Quixo::start();
    let othello = Position::start();
    for threads in [1, 2, 4] {
        for max_nodes in [MctsConfig::default().max_nodes, 300] {
            let c = MctsConfig {
                max_nodes,
                ..tree(3000, threads, 5)
            };
            let what = format!("{threads} threads, {max_nodes} nodes");
            let r = mcts(&quixo, &c, &UniformPlayout, &Limits::default());
            assert!(quixo.is_legal(r.best_move.unwrap()), "quixo {what}");
            assert_counts_add_up(&r, 3000, &format!("quixo {what}"));
            let r = mcts(&othello, &c, &UniformPlayout, &Limits::default());
            assert!(othello.is_legal(r.best_move.unwrap()), "othello {what}");
            assert_counts_add_up(&r, 3000, &format!("othello {what}"));
        }
    }
    // Four seats (max-n backups through the shared tree).
    let pos = Quixo4p::start();
    let r = mcts(&pos, &tree(2000, 2, 1), &UniformPlayout, &Limits::default());
    assert!(pos.is_legal(r.best_move.unwrap()));
    assert_counts_add_up(&r, 2000, "quixo-4p");
}

#[test]
fn finds_and_proves_a_quixo_win_in_one() {
    // X has four cubes in column a; the test asks the rules whether the chosen push wins.
    let pos = Quixo::from_str("..O../X.O../X..../X..../X..O. X").unwrap();
    for threads in [1, 2, 4] {
        let r = mcts(
            &pos,
            &tree(20_000, threads, 3),
            &UniformPlayout,
            &Limits::default(),
        );
        let m = r.best_move.unwrap();
        let after = pos.play(m);
        assert_eq!(
            after.outcome().map(|o| o.score(Seat(0))),
            Some(1),
            "{threads} threads: {m} does not win"
        );
        assert_eq!(r.proven, Some(Proven::Win), "{threads} threads");
        assert_eq!(r.value, 1.0);
    }
}

#[test]
fn finds_the_single_winning_othello_move_on_two_threads() {
    let mut found = 0;
    for pos in random_positions(0x0001_0005, 400, 6, 9) {
        let wins = winning_moves(&pos);
        if crate::common::moves_of(&pos).len() < 3 || wins.len() != 1 {
            continue;
        }
        let c = MctsConfig {
            max_nodes: MctsConfig::nodes_for_mib(64, Parallelism::Tree),
            ..tree(300_000, 2, 3)
        };
        let r = mcts(&pos, &c, &UniformPlayout, &Limits::default());
        assert_eq!(r.best_move, Some(wins[0]), "{pos}");
        assert_eq!(r.proven, Some(Proven::Win), "{pos}");
        assert_eq!(r.root_visits, r.iterations, "{pos}");
        found += 1;
        if found == 6 {
            break;
        }
    }
    assert!(
        found >= 3,
        "too few single-winning-move positions ({found})"
    );
}

#[test]
fn time_and_stop_limits_end_every_thread() {
    let pos = Quixo::start();
    for threads in [1, 2, 4] {
        let c = MctsConfig {
            iterations: None,
            ..tree(1, threads, 0)
        };
        let started = Instant::now();
        let r = mcts(&pos, &c, &UniformPlayout, &Limits::time_ms(60));
        let took = started.elapsed().as_millis();
        assert!(
            took < 3000,
            "{threads} threads: 60 ms search took {took} ms"
        );
        assert!(r.iterations >= 1);
        assert_eq!(r.root_visits, r.iterations);
        // A stop flag raised before the search: every thread stops after its first checks.
        let stop = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            stop: Some(stop),
            ..Limits::default()
        };
        let started = Instant::now();
        let r = mcts(&pos, &c, &UniformPlayout, &limits);
        assert!(started.elapsed().as_millis() < 3000, "{threads} threads");
        assert!(pos.is_legal(r.best_move.unwrap()));
        assert!(r.iterations <= 64 * threads as u64, "{}", r.iterations);
    }
}

#[test]
fn one_thread_is_deterministic_for_a_seed() {
    for pos in random_positions(0xDE7_0002, 4, 30, 50) {
        let a = mcts(
            &pos,
            &tree(2000, 1, 42),
            &UniformPlayout,
            &Limits::default(),
        );
        let b = mcts(
            &pos,
            &tree(2000, 1, 42),
            &UniformPlayout,
            &Limits::default(),
        );
        assert_eq!((a.best_move, &a.pv), (b.best_move, &b.pv));
        assert_eq!(a.value.to_bits(), b.value.to_bits());
        let va: Vec<u64> = a.root.iter().map(|c| c.visits).collect();
        let vb: Vec<u64> = b.root.iter().map(|c| c.visits).collect();
        assert_eq!(va, vb);
    }
}

#[test]
fn an_arena_reused_from_an_earlier_search_searches_as_a_fresh_one() {
    // Finished searches leave their arenas for the next search of the same size, with
    // the old nodes in them. A full small arena (2,000 nodes) dirtied by a search of
    // another game must give the same one-thread search, visit for visit, as before it.
    let c = MctsConfig {
        max_nodes: 2000,
        ..tree(3000, 1, 9)
    };
    let pos = Position::start();
    let first = mcts(&pos, &c, &UniformPlayout, &Limits::default());
    assert!(
        first.nodes_used > 1900,
        "the arena fills ({})",
        first.nodes_used
    );
    for _ in 0..3 {
        // Other searches on arenas of the same size (with two threads and another game).
        let other = MctsConfig {
            threads: 2,
            ..c.clone()
        };
        let _ = mcts(&Quixo::start(), &other, &UniformPlayout, &Limits::default());
        let again = mcts(&pos, &c, &UniformPlayout, &Limits::default());
        assert_eq!((again.best_move, &again.pv), (first.best_move, &first.pv));
        assert_eq!(again.value.to_bits(), first.value.to_bits());
        assert_eq!(again.nodes_used, first.nodes_used);
        let visits = |r: &MctsResult<_>| r.root.iter().map(|c| c.visits).collect::<Vec<u64>>();
        assert_eq!(visits(&again), visits(&first));
    }
}

#[test]
fn engine_key_parallel() {
    let s = EngineSpec::from_inline("name=m,algo=mcts,threads=2,parallel=tree", "quixo").unwrap();
    let c = s.mcts_config();
    assert_eq!((c.parallel, c.threads), (Parallelism::Tree, 2));
    let s = EngineSpec::from_inline("name=m,algo=mcts", "quixo").unwrap();
    assert_eq!(s.mcts_config().parallel, Parallelism::Root);
    let e = EngineSpec::from_inline("name=m,algo=mcts,parallel=leaf", "quixo").unwrap_err();
    assert!(e.contains("'leaf'") && e.contains("root, tree"), "{e}");
    let e = EngineSpec::from_inline("name=m,depth=3,parallel=tree", "quixo").unwrap_err();
    assert!(e.contains("parallel is only for algo = \"mcts\""), "{e}");
}

/// `tt-mb` is the arena's memory: 1 MiB holds 32,768 tree-parallel nodes (32 bytes) and
/// 16,384 root-parallel ones (budgeted at 64 bytes); it once bought only 16,384 of either.
#[test]
fn tt_mb_buys_the_memory_of_the_scheme_asked_for() {
    let pos = Quixo::start();
    for (parallel, nodes) in [("tree", 32_768), ("root", 16_384)] {
        let spec = format!("name=m,algo=mcts,parallel={parallel},tt-mb=1,iterations=200");
        let c = EngineSpec::from_inline(&spec, "quixo")
            .unwrap()
            .mcts_config();
        assert_eq!(c.max_nodes, nodes, "{parallel}");
        let r = mcts(&pos, &c, &UniformPlayout, &Limits::default());
        assert_eq!(r.node_capacity, nodes, "{parallel}: arena capacity");
    }
}
