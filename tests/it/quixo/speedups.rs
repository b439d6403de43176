//! Quixo's speed-ups change no answer: the proving search with its transposition table
//! and proof-number move ordering stays exact (every verdict, distance and best move agrees
//! with the retrograde tables on every 3x3 board and sampled 4x4 boards, and with the
//! search without a table), and the rejection-sampling playouts MCTS uses are uniform over
//! the legal moves like the move-list playouts they replace.

use tessera::game::{Game, Seat, random_playout_by_lists};
use tessera::games::quixo::Quixo;
use tessera::games::quixo::prove::{Proof, ProveLimits, Verdict, prove};
use tessera::games::quixo::retro::{SmallBoardTable, Value, decode};

/// Checks `prove(pos)` against the table: a forced result within `max_plies` must come out
/// with its exact distance and a move achieving it (a child of the table's matching code);
/// anything else must stay unproven.
fn check(table: &SmallBoardTable, pos: &Quixo, limits: &ProveLimits) -> Verdict {
    check_proof(table, pos, limits.max_plies, &prove(pos, limits, None))
}

/// One xorshift64 step of `rng`, then the move it picks among `pos`'s moves, played
/// (`pos` must not be over): the random walk the sampled-position tests share.
pub(crate) fn play_random(pos: &Quixo, rng: &mut u64) -> Quixo {
    let mut moves = <Quixo as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    pos.play(moves[(*rng % moves.len() as u64) as usize])
}

/// Checks a prover's answer `p` for `pos` against the retrograde table: a forced result
/// within `max_plies` must come out with its exact distance and a best move whose child has
/// the opposite value one ply shorter (or ends the game); anything else must be unproven.
/// Returns the verdict. Shared by the df-pn tests (`quixo::dfpn`).
pub(crate) fn check_proof(
    table: &SmallBoardTable,
    pos: &Quixo,
    max_plies: u32,
    p: &Proof,
) -> Verdict {
    let (me, opp) = pos.own_other();
    let (value, dist) = decode(table.code(me, opp));
    match (value, dist) {
        (Value::Win | Value::Loss, Some(d)) if d <= max_plies => {
            let want = if value == Value::Win {
                Verdict::Win
            } else {
                Verdict::Loss
            };
            assert_eq!((p.value, p.plies), (want, Some(d)), "{pos}");
            let m = p.best_move.unwrap_or_else(|| panic!("{pos}: no best move"));
            let c = pos.play(m);
            let (cv, cd) = match c.outcome() {
                Some(o) if o.score(c.to_move()) == 1 => (Value::Win, Some(0)),
                Some(_) => (Value::Loss, Some(0)),
                None => {
                    let (cm, co) = c.own_other();
                    decode(table.code(cm, co))
                }
            };
            let flipped = if value == Value::Win {
                Value::Loss
            } else {
                Value::Win
            };
            assert_eq!(
                (cv, cd.map(|x| x + 1)),
                (flipped, Some(d)),
                "{pos}: best move {m}"
            );
        }
        _ => assert_eq!(p.value, Verdict::Unproven, "{pos}: {p:?}"),
    }
    p.value
}

#[test]
fn every_3x3_board_is_proven_exactly_with_the_table() {
    let table = SmallBoardTable::solve(3, 2).unwrap();
    let limits = ProveLimits {
        max_plies: 9,
        time_ms: None,
        tt_mb: 1,
    };
    let (mut proven, mut total) = (0, 0);
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
            if pos.outcome().is_some() {
                continue;
            }
            total += 1;
            if check(&table, &pos, &limits) != Verdict::Unproven {
                proven += 1;
            }
        }
    }
    // Most boards are decided within 9 plies; the check is not vacuous.
    assert!(proven > total / 2, "{proven} of {total}");
}

#[test]
fn the_table_changes_nodes_not_answers() {
    // Positions along a few random 4x4 games, proved to 5 plies with and without the
    // transposition table: same verdicts and distances, fewer nodes with it.
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let (mut with, mut without) = (0u64, 0u64);
    for _ in 0..6 {
        let mut pos = Quixo::empty(4).unwrap();
        for _ in 0..14 {
            if pos.outcome().is_some() {
                break;
            }
            let a = prove(
                &pos,
                &ProveLimits {
                    max_plies: 5,
                    time_ms: None,
                    tt_mb: 4,
                },
                None,
            );
            let b = prove(
                &pos,
                &ProveLimits {
                    max_plies: 5,
                    time_ms: None,
                    tt_mb: 0,
                },
                None,
            );
            assert_eq!((a.value, a.plies), (b.value, b.plies), "{pos}");
            with += a.nodes;
            without += b.nodes;
            pos = play_random(&pos, &mut rng);
        }
    }
    assert!(
        with < without,
        "nodes with a table {with}, without {without}"
    );
}

#[test]
#[ignore = "solves every 4x4 board first: about 15 CPU seconds"]
fn sampled_4x4_boards_are_proven_exactly_with_the_table() {
    let table = SmallBoardTable::solve(4, 2).unwrap();
    let limits = ProveLimits {
        max_plies: 9,
        time_ms: None,
        tt_mb: 16,
    };
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let (mut proven, mut total) = (0, 0);
    for _ in 0..40 {
        let mut pos = Quixo::empty(4).unwrap();
        for _ in 0..30 {
            if pos.outcome().is_some() {
                break;
            }
            total += 1;
            if check(&table, &pos, &limits) != Verdict::Unproven {
                proven += 1;
            }
            pos = play_random(&pos, &mut rng);
        }
    }
    eprintln!("{proven} of {total} sampled 4x4 positions proven within 9 plies");
    assert!(proven * 10 > total, "{proven} of {total}");
}

/// X's wins over `n` playouts from `pos` with each sampler, from one xorshift stream each.
fn x_wins(pos: &Quixo, n: u32, by_lists: bool, seed: u64) -> u32 {
    let mut s = seed;
    let mut below = |k: u32| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (((s >> 32) * u64::from(k)) >> 32) as u32
    };
    let mut wins = 0;
    for _ in 0..n {
        let o = if by_lists {
            random_playout_by_lists(*pos, &mut below, 10_000)
        } else {
            pos.random_playout(&mut below, 10_000)
        };
        let o = o.expect("a random Quixo game ends");
        wins += u32::from(o.score(Seat(0)) == 1);
    }
    wins
}

#[test]
fn rejection_sampled_playouts_match_move_list_playouts() {
    // Two positions: X's border-heavy one (O has few legal pushes: most draws are
    // rejected) and a middle-game one, with O and X to move. The X win rates of the two
    // samplers must agree within 4.5 standard errors of their difference.
    let positions = [
        "XXXXO/X...X/X...X/X...X/OXXX. O",
        "XXXXO/X...X/X...X/X...X/OXXX. X",
        "XO.OX/OO..O/XO..X/O.X.X/OXOOX O",
        "...../.X.O./..X../.O.../..... X",
    ];
    const N: u32 = 40_000;
    for text in positions {
        let pos: Quixo = text.parse().unwrap();
        let a = f64::from(x_wins(&pos, N, false, 0x1234_5678_9abc_def1));
        let b = f64::from(x_wins(&pos, N, true, 0x0fed_cba9_8765_4321));
        let (pa, pb) = (a / f64::from(N), b / f64::from(N));
        let se = ((pa * (1.0 - pa) + pb * (1.0 - pb)) / f64::from(N)).sqrt();
        assert!(
            (pa - pb).abs() <= 4.5 * se.max(1e-4),
            "{text}: X wins {pa:.4} (rejection) vs {pb:.4} (lists), se {se:.4}"
        );
    }
}
