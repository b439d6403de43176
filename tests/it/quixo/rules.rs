//! Quixo rules worked by hand from `docs/rules/quixo.md`: pushes, what may be taken,
//! the both-lines rule, unchanged boards, the four-player dots, passes and team outcomes;
//! notation round trips and one-line errors; incremental Zobrist keys equal to keys from
//! scratch after random games.

use crate::common;

use common::Rng;
use tessera::game::{Game, MoveCode, Seat};
use tessera::games::quixo::{Move, Quixo, Quixo4p};

fn q(text: &str) -> Quixo {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}
fn q4(text: &str) -> Quixo4p {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}
fn play(pos: &Quixo, mv: &str) -> Quixo {
    pos.play(pos.parse_move(mv).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn pushes_from_the_rules_examples() {
    let start = Quixo::start();
    assert_eq!(
        play(&start, "c1-a1").to_string(),
        "X..../...../...../...../..... O"
    );
    assert_eq!(
        play(&start, "c1-c5").to_string(),
        "...../...../...../...../..X.. O"
    );
    // Row 1 pushed left from a1 to e1: b1..e1 slide one step toward a1.
    let p = q("XOXO./...../...../...../..... X");
    assert_eq!(
        play(&p, "e1-a1").to_string(),
        "XXOXO/...../...../...../..... O"
    );
    assert_eq!(
        play(&p, "a1-e1").to_string(),
        "OXO.X/...../...../...../..... O"
    );
    // Column push: a1 taken (own X), put back at a5; a2..a5 slide up.
    let p = q("X..../O..../X..../O..../O.... X");
    assert_eq!(
        play(&p, "a1-a5").to_string(),
        "O..../X..../O..../O..../X.... O"
    );
    // Middle edge cube to the far end of its perpendicular line: c1 -> c5.
    let p = q("..X../..O../..X../..O../..... X");
    assert_eq!(
        play(&p, "c1-c5").to_string(),
        "..O../..X../..O../...../..X.. O"
    );
    // 3x3: the blank a2 taken and put back at c2 completes row 2 and wins.
    let p = q(".../.XX/... X");
    let c = play(&p, "a2-c2");
    assert_eq!(c.to_string(), ".../XXX/... O");
    assert_eq!(c.outcome().unwrap().scores.as_slice(), &[1, 0]);
    // ...but O's cube may not be taken.
    assert!(q(".../OXX/... X").parse_move("a2-c2").is_err());
}

#[test]
fn what_may_be_taken_and_where_it_may_go() {
    let p = q("OX.../...../..X../...../..... X");
    let err = |m: &str| p.parse_move(m).unwrap_err().to_string();
    assert!(err("a1-e1").contains("opponent"), "{}", err("a1-e1"));
    assert!(err("c3-c1").contains("border"), "{}", err("c3-c1"));
    assert!(
        err("b1-b1").contains("back where it came from"),
        "{}",
        err("b1-b1")
    );
    assert!(err("b1-c5").contains("not an end"), "{}", err("b1-c5"));
    // A corner has 2 destinations, a middle edge cell 3.
    let mut moves = <Quixo as Game>::Moves::default();
    Quixo::start().generate_moves(&mut moves);
    let from = |c: u8| moves.iter().filter(|m| m.from() == c).count();
    assert_eq!(
        (from(0), from(1), from(2), from(5), from(12)),
        (2, 3, 3, 3, 0)
    );
    assert_eq!(moves.len(), 44);
}

#[test]
fn completing_the_opponents_line_loses_even_with_ones_own() {
    // cases.txt both-lines-is-a-loss: b1-a1 makes X's column a and O's column b.
    let p = q("O..../XO.../XO.../XO.../XO... X");
    let c = play(&p, "b1-a1");
    assert_eq!(c.to_string(), "XO.../XO.../XO.../XO.../XO... O");
    let o = c.outcome().expect("finished");
    assert_eq!(
        (o.score(Seat(0)), o.score(Seat(1))),
        (0, 1),
        "X made both lines and loses"
    );
    let mut moves = <Quixo as Game>::Moves::default();
    c.generate_moves(&mut moves);
    assert!(moves.is_empty(), "a finished game has no moves");
}

#[test]
fn a_move_may_leave_the_board_unchanged() {
    let p = q("XXX../O..../...../....O/..... X");
    let c = play(&p, "b1-a1");
    assert_eq!((c.x(), c.o()), (p.x(), p.o()));
    assert_ne!(c.key(), p.key(), "the side to move is in the key");
    assert_eq!(c.to_move(), Seat(1));
}

#[test]
fn four_player_dots_seats_and_passes() {
    let start = Quixo4p::start();
    assert_eq!(start.seats(), 4);
    assert_eq!(
        (0..4).map(|s| start.team(Seat(s))).collect::<Vec<_>>(),
        [0, 1, 0, 1]
    );
    // A1 takes a blank and points the dot at A2 (member 2): written 'x'.
    let p = start.play(start.parse_move("c1-a1>2").unwrap());
    assert_eq!(p.to_string(), "x..../...../...../...../..... B1");
    // B1 may not take the X cube; after B1 and B2... A2 may take it, A1 may not.
    let p = q4("xX.../...../...../...../..... A1");
    assert!(
        p.parse_move("a1-e1>1").is_err(),
        "dot points at the partner"
    );
    assert!(p.parse_move("b1-b5>1").is_ok(), "dot points at A1");
    let p = q4("xX.../...../...../...../..... A2");
    assert!(p.parse_move("a1-e1>2").is_ok());
    assert!(p.parse_move("b1-b5>1").is_err());
    let p = q4("xX.../...../...../...../..... B1");
    assert!(p.parse_move("a1-e1>1").is_err(), "the other team's cube");
    assert!(
        p.parse_move("c1-a1")
            .unwrap_err()
            .to_string()
            .contains(">1 or >2")
    );
    // A seat with no cube to take passes; the board stays, the next seat moves.
    let p = q4("OOOOO/O...O/O...O/O...o/ooooO A1");
    assert!(p.outcome().is_some(), "O's top row is a line");
    let p = q4("OxOoo/o...O/x...O/O...x/OoOo. A1");
    assert!(p.outcome().is_none());
    let mut moves = <Quixo4p as Game>::Moves::default();
    p.generate_moves(&mut moves);
    assert_eq!(moves.len(), 4, "e5 blank: corner, 2 pushes x 2 dots");
    let p = q4("OxOoo/o...O/x...O/O...x/OoOox A1");
    p.generate_moves(&mut moves);
    assert_eq!(&moves[..], &[Move::PASS]);
    let c = p.play(Move::PASS);
    assert_eq!(c.to_string(), "OxOoo/o...O/x...O/O...x/OoOox B1");
    assert_eq!(c.key(), c.key_from_scratch());
    // The informal variant: every dot points at the partner (A1, B1 -> 2; A2, B2 -> 1), one move
    // per push; it round-trips through the text form.
    let v = Quixo4p::start().with_partner_dots(true);
    v.generate_moves(&mut moves);
    assert_eq!(moves.len(), 44);
    assert!(moves.iter().all(|m| m.dot() == 2));
    assert!(
        v.parse_move("c1-a1>1")
            .unwrap_err()
            .to_string()
            .contains("partner")
    );
    let c = v.play(v.parse_move("c1-a1>2").unwrap());
    assert_eq!(
        c.to_string(),
        "x..../...../...../...../..... B1 partner-dots"
    );
    assert_eq!(c.to_string().parse::<Quixo4p>().unwrap(), c);
    c.generate_moves(&mut moves);
    assert!(
        moves.iter().all(|m| m.dot() == 2),
        "B1's partner is B2, member 2"
    );
    let c = c.play(moves[0]);
    let c = c.play(c.parse_move("c1-a1>1").unwrap());
    assert_eq!(c.seat(), 3);
    c.generate_moves(&mut moves);
    assert!(
        moves.iter().all(|m| m.dot() == 1),
        "B2's partner is B1, member 1"
    );
    // Team outcome: X's line with B1 to move: A1 and A2 both win.
    let o = q4("XxXXx/...../...../...../..... B1").outcome().unwrap();
    assert_eq!(o.scores.as_slice(), &[1, 0, 1, 0]);
}

#[test]
fn notation_round_trips_and_errors() {
    for text in [
        "XX.../...../...../...../..... O",
        "XO../.X../..O./...X X",
        "X.O/.../..X O",
    ] {
        assert_eq!(q(text).to_string(), text);
    }
    for text in ["Xx.../..o../...../...../O.... B1", "..../..../..../xXoO B2"] {
        assert_eq!(q4(text).to_string(), text);
    }
    for m in ["c1-a1", "a3-e3", "e5-e1"] {
        assert_eq!(m.parse::<Move>().unwrap().to_string(), m);
    }
    assert_eq!("a3e3".parse::<Move>().unwrap().to_string(), "a3-e3");
    assert_eq!("a3-e3>2".parse::<Move>().unwrap().to_string(), "a3-e3>2");
    // Malformed text: a one-line error naming the problem, never a panic.
    for bad in [
        "",
        "X",
        "XX.../...../...../..... O",
        "XX.../...../...../...../...... O",
        "XZ.../...../...../...../..... O",
        "xX.../...../...../...../..... X",
        "XX.../...../...../...../..... Z",
        "XX.../...../...../...../.....",
        "\u{1b}[2J/...../...../...../..... O",
        // An empty row (a stray '/'): refused, not read as if the '/' were not there.
        "XXXX./...../...../...../...../ X",
        "XXXX.//...../...../...../..... X",
        "/XXXX./...../...../...../..... X",
    ] {
        let e = bad.parse::<Quixo>().unwrap_err().to_string();
        assert!(!e.contains('\n') && !e.is_empty(), "{bad:?}: {e}");
    }
    assert!("..... A1".parse::<Quixo4p>().is_err());
    // The message names the real problem: a missing side, or an extra word at the end.
    let e = "XX.../...../...../...../....."
        .parse::<Quixo>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("no side to move"), "{e}");
    let e = "XXXX./...../...../...../..... X extra"
        .parse::<Quixo>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("unexpected text 'extra' after the side to move 'X'"),
        "{e}"
    );
    for (bad, extra) in [
        (
            "XXXX./...../...../...../..... X X",
            "'X' after the side to move 'X'",
        ),
        (
            ".../.../... O two words",
            "'two words' after the side to move 'O'",
        ),
    ] {
        let e = bad.parse::<Quixo>().unwrap_err().to_string();
        assert!(e.contains(extra), "{bad:?}: {e}");
    }
    assert!(
        "XX.../...../...../...../..... X"
            .parse::<Quixo4p>()
            .is_err()
    );
    for bad in [
        "", "a1", "a1-a", "f1-a1", "a0-a1", "a1-e1>3", "a1--e1", "a1-e1>",
    ] {
        let e = bad.parse::<Move>().unwrap_err().to_string();
        assert!(!e.contains('\n'), "{bad:?}: {e}");
    }
    // Illegal on the board: off a 3x3 board.
    let e = q(".../.../... X")
        .parse_move("e1-a1")
        .unwrap_err()
        .to_string();
    assert!(e.contains("off the board"), "{e}");
}

#[test]
fn move_codes_round_trip() {
    let mut moves = <Quixo4p as Game>::Moves::default();
    Quixo4p::start().generate_moves(&mut moves);
    assert_eq!(moves.len(), 88);
    for &m in moves.iter().chain([Move::PASS].iter()) {
        assert_eq!(Move::from_code(m.code()), m);
        assert!((m.code() as usize) < Quixo4p::MOVE_CODES);
    }
}

fn random_games<G: Game>(start: G, seed: u64, games: usize, check: impl Fn(&G)) {
    let mut rng = Rng::new(seed);
    let mut moves = G::Moves::default();
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..120 {
            check(&pos);
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        check(&pos);
    }
}

#[test]
fn incremental_keys_equal_keys_from_scratch() {
    for size in [3, 4, 5] {
        random_games(Quixo::empty(size).unwrap(), u64::from(size), 50, |p| {
            assert_eq!(p.key(), p.key_from_scratch(), "{p}");
            assert_eq!(p.to_string().parse::<Quixo>().unwrap(), *p);
        });
        random_games(
            Quixo4p::empty(size).unwrap(),
            10 + u64::from(size),
            50,
            |p| {
                assert_eq!(p.key(), p.key_from_scratch(), "{p}");
                assert_eq!(p.to_string().parse::<Quixo4p>().unwrap(), *p);
            },
        );
    }
}

/// Arbitrary text never panics the parsers: it parses or gives a one-line error. Random
/// strings (seeded, so a failure repeats) of 0 to 40 characters over the notation's
/// alphabet and its neighbours: `XOxo./ `, capitals, digits, `a`-`e`, `>`, `-` and newline.
#[test]
fn parsers_never_panic() {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let alphabet: Vec<char> = "XOxo./ ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcde>-\n"
        .chars()
        .collect();
    let mut rng = StdRng::seed_from_u64(291);
    for case in 0..4000 {
        let len = rng.random_range(0..=40);
        let text: String = (0..len)
            .map(|_| alphabet[rng.random_range(0..alphabet.len())])
            .collect();
        for r in [
            text.parse::<Quixo>().map(|_| ()).map_err(|e| e.to_string()),
            text.parse::<Quixo4p>()
                .map(|_| ())
                .map_err(|e| e.to_string()),
            text.parse::<Move>().map(|_| ()).map_err(|e| e.to_string()),
            Quixo::start()
                .parse_move(&text)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Quixo4p::start()
                .parse_move(&text)
                .map(|_| ())
                .map_err(|e| e.to_string()),
        ] {
            if let Err(e) = r {
                assert!(
                    !e.contains('\n') && !e.is_empty(),
                    "case {case}: {text:?}: {e:?}"
                );
            }
        }
    }
}
