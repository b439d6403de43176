//! Othello rule cases from `docs/rules/othello.md`, each expected value worked out by
//! hand from the rules (the reasoning is in the comments; the boards were also replayed
//! with a separate throw-away implementation of the rules to catch slips in the hand work).
//!
//! Boards are written as 8 rows of 8 characters, rank 1 (the top row) first, files a..h
//! left to right; `X` Black, `O` White, `-` empty. Joined, they are the 64-character
//! position text in bit order a1..h8.

use tessera::game::{Game, Seat};
use tessera::games::othello::{Color, Move, Position};

/// The position text of `rows` (rank 1 first) with `side` to move.
fn text(rows: [&str; 8], side: char) -> String {
    for r in rows {
        assert_eq!(r.len(), 8, "row {r:?}");
    }
    format!("{} {side}", rows.concat())
}

/// The position of `rows` with `side` to move.
fn board(rows: [&str; 8], side: char) -> Position {
    text(rows, side)
        .parse()
        .unwrap_or_else(|e| panic!("{rows:?}: {e}"))
}

fn moves_of(pos: &Position) -> Vec<Move> {
    let mut list = <Position as Game>::Moves::default();
    pos.generate_moves(&mut list);
    list.to_vec()
}

/// Plays the move named `mv` (checked by `parse_move`).
fn play(pos: &Position, mv: &str) -> Position {
    let m = pos
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} in {pos}: {e}"));
    pos.play(m)
}

fn names(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

#[test]
fn start_position_and_its_moves() {
    // d4, e5 White; d5, e4 Black; Black to move.
    let start = Position::start();
    let expected = board(
        [
            "--------", "--------", "--------", "---OX---", "---XO---", "--------", "--------",
            "--------",
        ],
        'X',
    );
    assert_eq!(start, expected);
    assert_eq!(start.side(), Color::Black);
    // Black brackets a White disc with: d3 (d4 between d3 and d5), c4 (d4 between c4 and
    // e4), f5 (e5 between f5 and d5), e6 (e5 between e6 and e4). Nothing else: e.g. f4
    // sees only e4 (own) to the west and e5 then the empty d6 to the south-west; c3 sees
    // d4, e5 (both White) then the empty f6.
    assert_eq!(names(&moves_of(&start)), ["c4", "d3", "e6", "f5"]);
    assert!(start.parse_move("f4").is_err());
    assert!(start.parse_move("c3").is_err());
}

#[test]
fn opening_f5_d6_c3_gives_the_expected_boards() {
    // 1. Black f5: west of f5 are e5 (White) then d5 (Black): e5 flips. North-west is e4,
    //    Black's own, so nothing there. Black e4 d5 e5 f5, White d4.
    let p1 = play(&Position::start(), "f5");
    let e1 = board(
        [
            "--------", "--------", "--------", "---OX---", "---XXX--", "--------", "--------",
            "--------",
        ],
        'O',
    );
    assert_eq!(p1, e1);
    assert_eq!(
        p1.to_string(),
        text(
            [
                "--------", "--------", "--------", "---OX---", "---XXX--", "--------", "--------",
                "--------",
            ],
            'O',
        )
    );
    // 2. White d6: north of d6 are d5 (Black) then d4 (White): d5 flips. North-east is e5
    //    (Black) then the empty f4: no flip. White d4 d5 d6, Black e4 e5 f5.
    let p2 = play(&p1, "d6");
    assert_eq!(
        p2,
        board(
            [
                "--------", "--------", "--------", "---OX---", "---OXX--", "---O----", "--------",
                "--------",
            ],
            'X',
        )
    );
    // 3. Black c3: south-east of c3 are d4 (White) then e5 (Black): d4 flips. East (d3) and
    //    south (c4) are empty. Black c3 d4 e4 e5 f5, White d5 d6.
    let p3 = play(&p2, "c3");
    assert_eq!(
        p3,
        board(
            [
                "--------", "--------", "--X-----", "---XX---", "---OXX--", "---O----", "--------",
                "--------",
            ],
            'O',
        )
    );
    assert_eq!(Position::from_transcript("f5d6c3").unwrap(), p3);
    assert_eq!(Position::from_transcript("F5 D6 c3").unwrap(), p3);
    // Disc counts: 5 Black, 2 White, 57 empty.
    assert_eq!((p3.black().count_ones(), p3.white().count_ones()), (5, 2));
    assert_eq!(p3.empties(), 57);
}

#[test]
fn a_placement_flips_every_bracketed_line_and_nothing_else() {
    // Black plays d4, which brackets White in all eight directions:
    //   N  d3 (O), then d2 X          -> d3
    //   NE e3 (O), then f2 X          -> e3
    //   E  e4 f4 (O), then g4 X       -> e4 f4
    //   SE e5 (O), then f6 X          -> e5
    //   S  d5 d6 (O), then d7 X       -> d5 d6
    //   SW c5 (O), then b6 X          -> c5
    //   W  c4 (O), then b4 X          -> c4
    //   NW c3 (O), then b2 X          -> c3
    // Ten discs flip. Not flipped, though a chain reaction would take them:
    //   e6: after the move e5 is Black and e7 is Black, so e6 sits between two Black discs
    //       on the e-file, but it is not on a line from d4: it stays White;
    //   f5: next to the new Black discs e5 and e4, on no line from d4: stays White.
    let before = board(
        [
            "--------", "-X-X-X--", "--OOO---", "-XO-OOX-", "--OOOO--", "-X-OOX--", "---XX---",
            "--------",
        ],
        'X',
    );
    let after = play(&before, "d4");
    let expected = board(
        [
            "--------", "-X-X-X--", "--XXX---", "-XXXXXX-", "--XXXO--", "-X-XOX--", "---XX---",
            "--------",
        ],
        'O',
    );
    assert_eq!(after, expected, "\n{}", after.diagram());
    // 9 Black + 1 placed + 10 flipped = 20; 12 White - 10 = 2.
    assert_eq!(after.black().count_ones(), 20);
    assert_eq!(after.white().count_ones(), 2);
}

#[test]
fn only_discs_up_to_the_first_own_disc_flip() {
    // Black a1. East: b1 c1 (O), d1 X -> b1 c1 flip; e1 (O, beyond d1) stays, even though
    // f1 is Black. South: a2 a3 (O) then the empty a4: no flip. South-east: b2 .. h8 all
    // White up to the edge: no own disc closes the line, no flip.
    let before = board(
        [
            "-OOXOX--", "OO------", "O-O-----", "---O----", "----O---", "-----O--", "------O-",
            "-------O",
        ],
        'X',
    );
    let after = play(&before, "a1");
    let expected = board(
        [
            "XXXXOX--", "OO------", "O-O-----", "---O----", "----O---", "-----O--", "------O-",
            "-------O",
        ],
        'O',
    );
    assert_eq!(after, expected, "\n{}", after.diagram());
}

#[test]
fn lines_do_not_wrap_around_the_board_edge() {
    // In bit order h2 is followed by a3 (and a3 preceded by h2), and h2 + 9 is a4: a
    // move generator that wraps would see lines there. None of these boards gives Black a
    // real placement, while White has one, so Black's only move is the pass.
    //
    // White a3, Black b3: "h2 east" would be a3 then b3. Really, a3 can only be bracketed
    // from the west of a3, which is off the board. White plays c3 (b3 between c3 and a3).
    let p = board(
        [
            "--------", "--------", "OX------", "--------", "--------", "--------", "--------",
            "--------",
        ],
        'X',
    );
    assert_eq!(moves_of(&p), vec![Move::PASS], "\n{}", p.diagram());
    assert_eq!(names(&moves_of(&p.pass())), ["c3"]);
    // White h2, Black g2: "a3 west" would be h2 then g2. White plays f2.
    let p = board(
        [
            "--------", "------XO", "--------", "--------", "--------", "--------", "--------",
            "--------",
        ],
        'X',
    );
    assert_eq!(moves_of(&p), vec![Move::PASS], "\n{}", p.diagram());
    assert_eq!(names(&moves_of(&p.pass())), ["f2"]);
    // White a4, Black b5: "h2 south-east" would be a4 then b5. White plays c6.
    let p = board(
        [
            "--------", "--------", "--------", "O-------", "-X------", "--------", "--------",
            "--------",
        ],
        'X',
    );
    assert_eq!(moves_of(&p), vec![Move::PASS], "\n{}", p.diagram());
    assert_eq!(names(&moves_of(&p.pass())), ["c6"]);
}

#[test]
fn a_placement_must_bracket_and_be_on_an_empty_square() {
    let start = Position::start();
    // f4 brackets nothing (see start_position_and_its_moves); d4 is occupied; a1 touches
    // nothing.
    for bad in ["f4", "d4", "e4", "a1", "h8"] {
        let m = Move::parse(bad).unwrap();
        assert!(!start.is_legal(m), "{bad}");
        assert!(start.parse_move(bad).is_err(), "{bad}");
    }
    // After f5 (Black e4 d5 e5 f5, White d4), White's e6 brackets nothing: north e5 e4
    // (Black) then the empty e3, north-west d5 then the empty c4, north-east f5 then the
    // empty g4. And f5 is occupied.
    assert!(Position::from_transcript("f5e6").is_err());
    assert!(Position::from_transcript("f5f5").is_err());
}

#[test]
fn forced_pass_is_the_only_move_and_accepts_every_spelling() {
    // Black a1, White b1, White to move. White must bracket a Black line ending in White:
    // a1 is in the corner, so the only line through it that could end in White runs
    // b1-a1 and beyond a1 is off the board. White has no placement. Black has c1 (b1
    // between c1 and a1). So White must pass, and the game is not over.
    let p = board(
        [
            "XO------", "--------", "--------", "--------", "--------", "--------", "--------",
            "--------",
        ],
        'O',
    );
    assert!(p.outcome().is_none());
    assert!(!p.is_game_over());
    assert_eq!(moves_of(&p), vec![Move::PASS]);
    assert!(p.is_legal(Move::PASS));
    for spelling in [
        "pass", "PASS", "Pass", "PA", "pa", "ps", "PS", "--", " pass ",
    ] {
        assert_eq!(p.parse_move(spelling), Ok(Move::PASS), "{spelling:?}");
    }
    assert!(
        p.parse_move("c1").is_err(),
        "c1 is Black's move, not White's"
    );
    assert_eq!(Move::PASS.to_string(), "pass");
    // After the pass: the same discs, Black to move, another key; Black's move is c1.
    let q = p.play(Move::PASS);
    assert_eq!((q.black(), q.white()), (p.black(), p.white()));
    assert_eq!(q.side(), Color::Black);
    assert_ne!(q.key(), p.key());
    assert_eq!(q, p.pass());
    assert_eq!(names(&moves_of(&q)), ["c1"]);
    // Black c1 flips b1: White has no disc left, the game is over, 3-0 with 61 empties:
    // +64 for Black.
    let r = play(&q, "c1");
    assert_eq!(
        r,
        board(
            [
                "XXX-----", "--------", "--------", "--------", "--------", "--------", "--------",
                "--------",
            ],
            'O',
        )
    );
    assert!(r.is_game_over());
    assert_eq!(r.final_disc_difference(), -64);
}

#[test]
fn pass_is_refused_while_a_placement_exists() {
    let start = Position::start();
    for spelling in ["pass", "PA", "ps", "--"] {
        let e = start.parse_move(spelling).unwrap_err();
        assert!(e.0.contains("not allowed"), "{spelling}: {e}");
    }
    assert!(!start.is_legal(Move::PASS));
    assert!(!moves_of(&start).contains(&Move::PASS));
    assert!(Position::from_transcript("pass").is_err());
    assert!(Position::from_transcript("f5--").is_err());
}

#[test]
fn full_board_ends_the_game() {
    // 40 Black then 24 White, no empty: neither side can place, no pass either.
    let rows = [
        "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "OOOOOOOO", "OOOOOOOO",
        "OOOOOOOO",
    ];
    for side in ['X', 'O'] {
        let p = board(rows, side);
        assert!(p.is_game_over());
        assert!(moves_of(&p).is_empty());
        assert!(p.parse_move("pass").is_err());
        assert!(p.parse_move("a1").is_err());
        // 40 - 24 = 16, no empties to award.
        let want = if side == 'X' { 16 } else { -16 };
        assert_eq!(p.final_disc_difference(), want);
        let out = p.outcome().expect("finished");
        assert_eq!(out.score(Seat(0)), 40);
        assert_eq!(out.score(Seat(1)), 24);
        assert_eq!(out.margin(Seat(0)), 16);
        assert_eq!(out.margin(Seat(1)), -16);
        assert_eq!((out.rank(Seat(0)), out.rank(Seat(1))), (1, 2));
    }
    // 32-32: a draw.
    let draw = board(
        [
            "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "OOOOOOOO", "OOOOOOOO", "OOOOOOOO",
            "OOOOOOOO",
        ],
        'X',
    );
    assert_eq!(draw.final_disc_difference(), 0);
    assert_eq!(draw.outcome().unwrap().margin(Seat(0)), 0);
}

#[test]
fn mid_game_wipe_out_ends_the_game() {
    // Black c4, White d4, Black to move plays e4: west of e4 are d4 (White) then c4
    // (Black), so d4 flips and White has no disc left. Neither side can place (a placement
    // needs an opponent disc to bracket): the game is over with 61 empties, which go to
    // the winner: 3 + 61 = 64 to 0.
    let p = board(
        [
            "--------", "--------", "--------", "--XO----", "--------", "--------", "--------",
            "--------",
        ],
        'X',
    );
    assert!(p.outcome().is_none());
    let q = play(&p, "e4");
    assert_eq!(q.white(), 0);
    assert_eq!(q.black().count_ones(), 3);
    assert!(q.is_game_over());
    assert!(moves_of(&q).is_empty());
    assert!(q.parse_move("pass").is_err());
    assert_eq!(q.side(), Color::White);
    assert_eq!(
        q.final_disc_difference(),
        -64,
        "White to move has lost 0-64"
    );
    assert_eq!(q.pass().final_disc_difference(), 64);
    let out = q.outcome().unwrap();
    assert_eq!((out.score(Seat(0)), out.score(Seat(1))), (64, 0));
    assert_eq!(out.margin(Seat(0)), 64);
}

#[test]
fn blocked_game_gives_the_empties_to_the_winner() {
    // 40 Black, 20 White and the four empties a1 b1 a2 b2, Black to move.
    //
    // Black cannot move: every neighbour of the empties (c1 c2 c3 a3 b3) is Black, so no
    // White disc is adjacent to an empty.
    // White cannot move: from each empty, every ray runs over Black discs only, up to the
    // edge or another empty. White was placed only off those rays: the rays cover ranks
    // 1-2, files a-b, and the diagonals c3-h8 (from b2), c2-h7 (from b1) and b3-g8
    // (from a2); the 20 squares of c3..h8 off those three diagonals are White.
    //
    // So the game is over; the winner (Black, 40-20) takes the 4 empties: +24 (the
    // rules' own example: "40-20 with 4 empties is +24 for the winner").
    let rows = [
        "--XXXXXX", "--XXXXXX", "XXXXOOOO", "XXXXXOOO", "XXOXXXOO", "XXOOXXXO", "XXOOOXXX",
        "XXOOOOXX",
    ];
    let p = board(rows, 'X');
    assert_eq!(
        (p.black().count_ones(), p.white().count_ones(), p.empties()),
        (40, 20, 4)
    );
    assert!(p.is_game_over(), "\n{}", p.diagram());
    assert!(moves_of(&p).is_empty());
    assert_eq!(p.final_disc_difference(), 24);
    assert_eq!(board(rows, 'O').final_disc_difference(), -24);
    let out = p.outcome().unwrap();
    assert_eq!((out.score(Seat(0)), out.score(Seat(1))), (44, 20));
    assert_eq!(out.margin(Seat(0)), 24);
    assert_eq!(out.margin(Seat(1)), -24);

    // A drawn blocked game: one disc each, far apart, 62 empties: no winner, so the
    // empties go to nobody and the score is 0.
    let p = board(
        [
            "X-------", "--------", "--------", "--------", "--------", "--------", "--------",
            "-------O",
        ],
        'O',
    );
    assert!(p.is_game_over());
    assert_eq!(p.final_disc_difference(), 0);
    assert_eq!(p.outcome().unwrap().margin(Seat(0)), 0);
    // Two Black discs against one: Black wins 2-1 and takes the 61 empties: 63-1, +62.
    let p = board(
        [
            "XX------", "--------", "--------", "--------", "--------", "--------", "--------",
            "-------O",
        ],
        'O',
    );
    assert!(p.is_game_over());
    assert_eq!(p.final_disc_difference(), -62);
    assert_eq!(p.outcome().unwrap().margin(Seat(0)), 62);
}

#[test]
fn transcript_with_an_implied_pass_replays() {
    // From the start (Black e4 d5, White d4 e5):
    //  1. X d3: south d4 (O), d5 X            -> d4.  X d3 d4 e4 d5; O e5
    //  2. O c3: south-east d4 (X), e5 O       -> d4.  O c3 d4 e5; X d3 e4 d5
    //  3. X b3: east c3 (O), d3 X             -> c3.  X b3 c3 d3 e4 d5; O d4 e5
    //  4. O b2: south-east c3 (X), d4 O       -> c3.  (south: b3 X then empty b4: none)
    //                                                 O b2 c3 d4 e5; X b3 d3 e4 d5
    //  5. X f5: west e5 (O), d5 X             -> e5.  X b3 d3 e4 d5 e5 f5; O b2 c3 d4
    //  6. O a3: east b3 (X), c3 O             -> b3.  O a3 b3 b2 c3 d4; X d3 e4 d5 e5 f5
    //  7. X a1: south-east b2 c3 d4 (O), e5 X -> b2 c3 d4.  O a3 b3
    //  8. O c1: south-west b2 (X), a3 O       -> b2.  O c1 b2 a3 b3; X a1 c3 d3 d4 e4 d5 e5 f5
    // Black to move has no placement: the White discs are c1 (its lines b1-d1, c1-c2 and
    // d2 lead nowhere; c1-b2-a3 is all White to the edge), b2 (a1-b2-c3 is full; a2-c2
    // and b1 / b4 ends are empty with White or nothing beyond), a3 and b3 (row 3 starts at
    // the edge, their other lines end in empties). White has e3 (d3 c3 between e3 and
    // b3), so Black passes.
    let after8 = Position::from_transcript("d3c3b3b2f5a3a1c1").unwrap();
    let rows8 = [
        "X-O-----", "-O------", "OOXX----", "---XX---", "---XXX--", "--------", "--------",
        "--------",
    ];
    assert_eq!(after8, board(rows8, 'X'), "\n{}", after8.diagram());
    assert_eq!(moves_of(&after8), vec![Move::PASS]);
    //  9. (Black passes)
    // 10. O e3: west d3 c3 (X), b3 O -> d3 c3. South e4 e5 (X) then empty e6, south-west
    //     d4 (X) then empty c5: nothing more. O c1 b2 a3 b3 c3 d3 e3; X a1 d4 e4 d5 e5 f5.
    let expected = board(
        [
            "X-O-----", "-O------", "OOOOO---", "---XX---", "---XXX--", "--------", "--------",
            "--------",
        ],
        'X',
    );
    for transcript in [
        "d3c3b3b2f5a3a1c1e3",
        "d3c3b3b2f5a3a1c1passe3",
        "d3c3b3b2f5a3a1c1PAe3",
        "d3c3b3b2f5a3a1c1pse3",
        "d3c3b3b2f5a3a1c1--e3",
        "d3 c3 b3 b2 f5 a3 a1 c1 pass e3",
        "D3C3B3B2F5A3A1C1E3",
    ] {
        let p =
            Position::from_transcript(transcript).unwrap_or_else(|e| panic!("{transcript}: {e}"));
        assert_eq!(p, expected, "{transcript}\n{}", p.diagram());
    }
    // After Black's pass White has e3 (and f6), so a second pass is refused.
    assert!(Position::from_transcript("d3c3b3b2f5a3a1c1passpass").is_err());
    // Replaying from another position: White must pass (see
    // forced_pass_is_the_only_move_and_accepts_every_spelling), then Black c1 flips b1.
    let p = board(
        [
            "XO------", "--------", "--------", "--------", "--------", "--------", "--------",
            "--------",
        ],
        'O',
    );
    let q = p.replay("c1").unwrap();
    assert_eq!(q, p.replay("pass c1").unwrap());
    assert_eq!(
        q.to_string(),
        text(
            [
                "XXX-----", "--------", "--------", "--------", "--------", "--------", "--------",
                "--------",
            ],
            'O',
        )
    );
}

#[test]
fn move_notation_is_case_insensitive_in_and_lower_case_out() {
    let start = Position::start();
    let m = start.parse_move("F5").unwrap();
    assert_eq!(m, start.parse_move("f5").unwrap());
    assert_eq!(m.to_string(), "f5");
    // a1 = bit 0, h1 = bit 7, h8 = bit 63 (the rules' square numbering).
    for (name, bit) in [("a1", 0), ("h1", 7), ("a2", 8), ("h8", 63), ("d5", 35)] {
        let sq = Move::parse(name).unwrap().square().unwrap();
        assert_eq!(sq.index(), bit, "{name}");
        assert_eq!(Move::parse(&name.to_uppercase()).unwrap().to_string(), name);
    }
    for bad in ["i1", "a9", "a0", "f", "f55", "", "xx"] {
        assert!(Move::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn position_text_accepts_the_alternative_spellings() {
    // `*` for Black, `.` for empty, lower case, a trailing `;` comment: the start position.
    let start = Position::start();
    let t = start.to_string();
    assert_eq!(
        t,
        "---------------------------OX------XO--------------------------- X"
    );
    for alt in [
        format!("{} X", t[..64].replace('X', "*")),
        format!("{} X", t[..64].replace('-', ".")),
        format!("{} x", t[..64].to_lowercase()),
        format!("{}   X ; the start position", &t[..64]),
    ] {
        assert_eq!(alt.parse::<Position>().unwrap(), start, "{alt}");
    }
    // Not 64 board characters, or no side: refused.
    assert!(format!("{} X", &t[..63]).parse::<Position>().is_err());
    assert!(t[..64].parse::<Position>().is_err());
}
