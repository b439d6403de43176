//! WTHOR game databases (`.wtb`, the French federation's archive): the byte layout read from
//! a file written by hand, games replayed with the rules, the positions labelled as
//! self-play data (`selfplay othello --wthor`), and files that are cut short, not WTHOR or
//! hold an illegal move refused with one line naming the file.

use std::path::PathBuf;
use std::process::{Command, Output};

use tessera::formats::wthor::{self, WthorFile, WthorGame};
use tessera::game::Game;
use tessera::games::othello::{Move, Position};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

fn tessera(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("tessera runs")
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tessera-wthor-{}-{name}", std::process::id()))
}

/// A header (made 2026-12-04, 1 game of 2026, theoretical depth 22) and one game record:
/// tournament 1, Black player 2, White player 3, Black 40 discs, theoretical 36, and the
/// moves f5 d6 c3 d3 c4 (bytes 10 * rank + file), then the end marker. Written byte by
/// byte from the format's description, not by `wthor::write`.
fn hand_written() -> Vec<u8> {
    let mut b = vec![20, 26, 12, 4, 1, 0, 0, 0, 0, 0, 0xEA, 0x07, 8, 0, 22, 0];
    b.extend_from_slice(&[1, 0, 2, 0, 3, 0, 40, 36]);
    let mut moves = [0u8; 60];
    moves[..5].copy_from_slice(&[56, 64, 33, 34, 43]);
    b.extend_from_slice(&moves);
    b
}

/// A whole game played by always taking the first legal placement (passes left out, as
/// WTHOR records them), and the final position.
fn first_move_game() -> (Vec<Move>, Position) {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        let mut list = <Position as Game>::Moves::default();
        pos.generate_moves(&mut list);
        let mv = list[0];
        if !mv.is_pass() {
            moves.push(mv);
        }
        pos = pos.play(mv);
    }
    (moves, pos)
}

#[test]
fn a_hand_written_file_reads_as_its_bytes_say() {
    let f = wthor::parse(&hand_written(), "hand.wtb").unwrap();
    assert_eq!((f.created, f.year, f.depth), ((2026, 12, 4), 2026, 22));
    assert_eq!(f.games.len(), 1);
    let g = &f.games[0];
    assert_eq!((g.tournament, g.black, g.white), (1, 2, 3));
    assert_eq!((g.black_discs, g.theoretical), (40, 36));
    let names: Vec<String> = g.moves.iter().map(ToString::to_string).collect();
    assert_eq!(names, ["f5", "d6", "c3", "d3", "c4"]);
    // Stopped after 5 moves: the label is the recorded result, 40 - 24 = +16 for Black.
    assert_eq!(g.black_margin(), Ok(16));
    let (positions, last) = g.replay().unwrap();
    assert_eq!(positions.len(), 5);
    assert_eq!(last, Position::from_transcript("f5d6c3d3c4").unwrap());
    // write() gives the same bytes back.
    assert_eq!(wthor::write(&f), hand_written());
}

/// A file of `copies` copies of [`first_move_game`], recorded with a wrong Black disc count
/// of 0 (a finished game is scored from its board), and Black's final margin.
fn first_move_file(copies: usize) -> (WthorFile, Position, i32) {
    let (moves, end) = first_move_game();
    let game = WthorGame {
        tournament: 0,
        black: 0,
        white: 0,
        black_discs: 0,
        theoretical: 0,
        moves,
    };
    let file = WthorFile {
        created: (2026, 12, 4),
        year: 2026,
        depth: 22,
        games: vec![game; copies],
    };
    let black = if end.side() == tessera::games::othello::Color::Black {
        end.final_disc_difference()
    } else {
        -end.final_disc_difference()
    };
    (file, end, black)
}

#[test]
fn whole_games_replay_with_their_passes_and_score_from_the_board() {
    let (file, end, black_view) = first_move_file(2);
    let back = wthor::parse(&wthor::write(&file), "two.wtb").unwrap();
    assert_eq!(back, file);
    let g = &back.games[0];
    assert_eq!(g.black_margin(), Ok(black_view));
    let (positions, last) = g.replay().unwrap();
    assert_eq!(last, end);
    assert!(last.is_game_over());
    // One position per move, implied passes included: at least one per placement.
    assert!(positions.len() >= g.moves.len());
}

#[test]
fn selfplay_labels_the_positions_of_wthor_games() {
    let (file, _, black) = first_move_file(1);
    let db = tmp("games.wtb");
    std::fs::write(&db, wthor::write(&file)).unwrap();
    let hand = tmp("hand.wtb");
    std::fs::write(&hand, hand_written()).unwrap();
    let data = tmp("data.txt");
    let list = format!("{},{}", db.display(), hand.display());
    let out = tessera(&[
        "selfplay",
        "othello",
        "--wthor",
        &list,
        "--exact-empties",
        "10",
        "--out",
        data.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["unfinished"], 1);
    let samples = tessera::tuning::selfplay::read(&data).unwrap();
    assert_eq!(v["unique"].as_u64(), Some(samples.len() as u64));
    // The start position is the first sample, labelled from Black's view by the first game.
    assert_eq!(samples[0].position, Position::start().to_string());
    assert_eq!(samples[0].result, black);
    // Positions at <= 10 empties carry the solver's value; their results follow the game.
    let mut exact = 0;
    for s in &samples {
        let p: Position = s.position.parse().unwrap();
        assert_eq!(
            s.exact.is_some(),
            p.empties() <= 10 && !p.is_game_over(),
            "{}",
            s.position
        );
        exact += usize::from(s.exact.is_some());
        let own = if p.side() == tessera::games::othello::Color::Black {
            black
        } else {
            -black
        };
        // The hand-written game's positions (56 empties and more) carry its +16 for Black.
        assert!(s.result == own || p.empties() >= 56, "{}", s.position);
    }
    assert_eq!(v["exact"].as_u64(), Some(exact as u64));
    assert!(exact >= 9);
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(text.contains("# wthor: "), "{text}");
    for p in [&db, &hand, &data] {
        let _ = std::fs::remove_file(p);
    }
}

/// Exit code 2 and one `error:` line holding each needle.
fn refused(args: &[&str], needles: &[&str]) {
    let out = tessera(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.trim_end().lines().count() == 1,
        "{stderr}"
    );
    for n in needles {
        assert!(stderr.contains(n), "{args:?}: no '{n}' in {stderr}");
    }
}

#[test]
fn bad_wthor_files_are_refused_naming_the_file() {
    let path = tmp("bad.wtb");
    let p = path.to_str().unwrap();
    let data = tmp("bad-data.txt");
    let d = data.to_str().unwrap();
    let run = |bytes: &[u8], needles: &[&str]| {
        std::fs::write(&path, bytes).unwrap();
        refused(&["selfplay", "othello", "--wthor", p, "--out", d], needles);
    };
    let good = hand_written();
    run(
        &good[..good.len() - 1],
        &[p, "cut short", "1 games (84 bytes)", "83 bytes"],
    );
    run(&good[..10], &[p, "shorter than the 16-byte header"]);
    run(
        b"this is a text file, not a database of Othello games at all\n",
        &[p],
    );
    let mut extra = good.clone();
    extra.push(0);
    run(&extra, &[p, "goes on after the 1 games"]);
    // 1000 bytes too many: no wrong count of them (the reader stops one byte past).
    let mut long = good.clone();
    long.extend(std::iter::repeat_n(7u8, 1000));
    run(
        &long,
        &[
            p,
            "goes on after the 1 games the header announces (84 bytes)",
        ],
    );
    let mut ten = good.clone();
    ten[12] = 10;
    run(&ten, &[p, "board size 10"]);
    let mut illegal = good.clone();
    illegal[16 + 8 + 1] = 11; // d6 -> a1, not legal for White after f5
    run(&illegal, &[p, "game 1", "move 2 (a1) is illegal"]);
    let mut off = good.clone();
    off[16 + 8 + 2] = 99;
    run(&off, &[p, "game 1", "move byte 99 at ply 3"]);
    let mut huge = good.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    run(&huge, &[p, "4294967295 games in the header"]);
    // A device is read no further than its header allows.
    refused(
        &["selfplay", "othello", "--wthor", "/dev/zero", "--out", d],
        &["/dev/zero", "goes on after the 0 games"],
    );
    refused(
        &[
            "selfplay",
            "othello",
            "--wthor",
            "/nonexistent/x.wtb",
            "--out",
            d,
        ],
        &["cannot read WTHOR file /nonexistent/x.wtb"],
    );
    std::fs::write(&path, &good).unwrap();
    refused(
        &["selfplay", "quixo", "--wthor", p, "--out", d],
        &["othello"],
    );
    assert!(!data.exists(), "nothing written");
    let _ = std::fs::remove_file(&path);
}
