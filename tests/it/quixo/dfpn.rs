//! The df-pn proving search (`games::quixo::dfpn`) is sound and exact: every answer of
//! its depth-bounded question "does the attacker force a line within `d` plies?" agrees
//! with the retrograde 3x3 table (every board, every bound, one shared table of proof
//! numbers), `prove_dfpn` gives the table's value, exact distance and a best move, and on
//! 5x5 positions along random games it agrees with the iterative-deepening prover.

use tessera::game::Game;
use tessera::games::quixo::dfpn::Dfpn;
use tessera::games::quixo::prove::{ProveLimits, Verdict, prove};
use tessera::games::quixo::retro::{SmallBoardTable, Value, decode};
use tessera::games::quixo::{Quixo, prove_dfpn};

use crate::quixo::speedups::{check_proof, play_random};

/// Every unfinished 3x3 board with either side to move.
fn all_3x3() -> Vec<Quixo> {
    let mut out = Vec::new();
    for code in 0..3u32.pow(9) {
        let (mut x, mut o, mut c) = (0u32, 0u32, code);
        for cell in 0..9 {
            match c % 3 {
                1 => x |= 1 << cell,
                2 => o |= 1 << cell,
                _ => {}
            }
            c /= 3;
        }
        for seat in 0..2 {
            let pos = Quixo::from_masks(3, x, o, 0, seat).unwrap();
            if pos.outcome().is_none() {
                out.push(pos);
            }
        }
    }
    out
}

/// Asks the shared prover `s`, for each bound in `bounds` and both attackers, whether the
/// attacker forces a line within the bound from `pos`, and checks the answer against the
/// retrograde table's value and distance; counts proofs and disproofs in `counts`.
fn check_bounds(
    s: &mut Dfpn,
    table: &SmallBoardTable,
    pos: &Quixo,
    bounds: &[u32],
    counts: (&mut u32, &mut u32),
) {
    let (me, opp) = pos.own_other();
    let (v, dist) = decode(table.code(me, opp));
    for &d in bounds {
        for or in [true, false] {
            let want =
                v == if or { Value::Win } else { Value::Loss } && dist.is_some_and(|x| x <= d);
            let got = s.attacker_wins(me, opp, d, or).unwrap();
            assert_eq!(got, want, "{pos}: d {d}, attacker to move {or}");
            if got {
                *counts.0 += 1;
            } else {
                *counts.1 += 1;
            }
        }
    }
}

#[test]
fn every_3x3_bounded_question_matches_the_table() {
    // One prover (one table of proof numbers) answers every board at bounds 1..=9, for
    // both attackers: an entry proven for one root must stay true for any other.
    let table = SmallBoardTable::solve(3, 2).unwrap();
    let mut s = Dfpn::new(3, None, 16, None);
    let (mut yes, mut no) = (0u32, 0u32);
    for pos in all_3x3() {
        check_bounds(&mut s, &table, &pos, &[1, 2, 3, 5, 9], (&mut yes, &mut no));
    }
    // Both answers occur often: the check is not vacuous.
    assert!(yes > 10_000 && no > 10_000, "{yes} proofs, {no} disproofs");
}

#[test]
fn prove_dfpn_gives_the_3x3_tables_value_distance_and_move() {
    let table = SmallBoardTable::solve(3, 2).unwrap();
    let limits = ProveLimits {
        max_plies: 9,
        time_ms: None,
        tt_mb: 1,
    };
    let (mut proven, mut total) = (0u32, 0u32);
    // Every 7th board: each call allocates its own table.
    for pos in all_3x3().into_iter().step_by(7) {
        total += 1;
        let p = prove_dfpn(&pos, &limits, None);
        // Value, exact distance and best move as the table has them.
        if check_proof(&table, &pos, limits.max_plies, &p) != Verdict::Unproven {
            proven += 1;
            assert!(p.plies_exact, "{pos}: {p:?}");
        }
    }
    assert!(proven > total / 2, "{proven} of {total}");
}

/// Positions along random 5x5 games (xorshift, fixed seed), from `from_ply` on.
fn random_5x5(games: usize, plies: usize, from_ply: usize, seed: u64) -> Vec<Quixo> {
    let mut rng = seed;
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Quixo::empty(5).unwrap();
        for ply in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            if ply >= from_ply {
                out.push(pos);
            }
            pos = play_random(&pos, &mut rng);
        }
    }
    out
}

#[test]
fn dfpn_agrees_with_iterative_deepening_on_random_5x5_positions() {
    // Late positions of random games, where forced results within 5 plies are common:
    // df-pn and the iterative-deepening prover (independent code) give the same value
    // and exact distance.
    let limits = ProveLimits {
        max_plies: 5,
        time_ms: None,
        tt_mb: 1,
    };
    let (mut decided, mut total) = (0u32, 0u32);
    for pos in random_5x5(12, 60, 30, 0x9E37_79B9_7F4A_7C15) {
        total += 1;
        let a = prove(&pos, &limits, None);
        let b = prove_dfpn(&pos, &limits, None);
        assert_eq!((b.value, b.plies), (a.value, a.plies), "{pos}");
        if a.value != Verdict::Unproven {
            decided += 1;
            assert!(b.plies_exact && b.best_move.is_some(), "{pos}: {b:?}");
        }
    }
    assert!(
        decided >= 10 && decided < total,
        "{decided} of {total} decided"
    );
}

#[test]
#[ignore = "slow: solves every 4x4 board first (about 3 CPU-s); run with cargo test --release -- --ignored"]
fn sampled_4x4_bounded_questions_match_the_table() {
    // Positions along random 4x4 games; one prover answers bounds 1, 5 and 9 for both
    // attackers, each compared with the retrograde table's value and distance.
    let table = SmallBoardTable::solve(4, 2).unwrap();
    let mut s = Dfpn::new(4, None, 64, None);
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let (mut yes, mut no) = (0u32, 0u32);
    for _ in 0..30 {
        let mut pos = Quixo::empty(4).unwrap();
        for _ in 0..30 {
            if pos.outcome().is_some() {
                break;
            }
            check_bounds(&mut s, &table, &pos, &[1, 5, 9], (&mut yes, &mut no));
            pos = play_random(&pos, &mut rng);
        }
    }
    eprintln!("{yes} proofs, {no} disproofs on sampled 4x4 positions");
    assert!(yes > 50 && no > 50, "{yes} proofs, {no} disproofs");
}
