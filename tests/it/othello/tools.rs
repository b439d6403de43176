//! The Othello user tools end to end: `analyze` (every move's score, all five game ids),
//! GGF (`--ggf`, `tournament export --format ggf` read back identically), the opening book
//! (`book build`, `book show`, `--book none`) and `--level`.

use std::process::{Command, Output};

use serde_json::Value;
use tessera::formats::ggf;
use tessera::game::Game;
use tessera::games::othello::Position;

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

fn tessera(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("tessera runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn json_of(args: &[&str]) -> Value {
    let out = tessera(args);
    assert!(
        out.status.success(),
        "tessera {args:?}: {}",
        text(&out.stderr)
    );
    serde_json::from_str(text(&out.stdout).trim()).expect("one JSON object")
}

/// Exit code 2 and one `error:` line naming each needle.
fn input_error(args: &[&str], needles: &[&str]) {
    let out = tessera(args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "tessera {args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    for n in needles {
        assert!(
            stderr.contains(n),
            "tessera {args:?}: '{n}' not in {stderr}"
        );
    }
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn analyze_scores_every_move_exactly_in_the_endgame() {
    // FFO #40, 20 empties: a2 is the only best move, exact +38 (the FFO reference).
    // --level 10 solves from 20 empties: every move's position (19 empties) is solved.
    let v = json_of(&[
        "analyze", "othello", "--ffo", "40", "--level", "10", "--json",
    ]);
    let moves = v["moves"].as_array().unwrap();
    let pos: Position = v["position"].as_str().unwrap().parse().unwrap();
    let mut legal = <Position as Game>::Moves::default();
    pos.generate_moves(&mut legal);
    assert_eq!(moves.len(), legal.len());
    assert_eq!(v["legal_moves"], legal.len());
    assert_eq!(moves[0]["move"], "a2");
    assert_eq!(moves[0]["score"], 3800);
    assert!(moves.iter().all(|m| m["exact"] == true));
    assert!(
        moves[1..]
            .iter()
            .all(|m| m["score"].as_i64().unwrap() < 3800)
    );
    assert_eq!(v["ffo"]["score"], 38);
    // --multipv keeps the best N.
    let v = json_of(&[
        "analyze",
        "othello",
        "--ffo",
        "40",
        "--level",
        "10",
        "--multipv",
        "2",
        "--json",
    ]);
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    assert_eq!(v["moves"][0]["move"], "a2");
}

/// `analyze --ffo 40 --multipv 3` under load ranked "c1 +38.87" from a 3-ply
/// search above a2's exact +38 (the budget split over the moves solved a2 and left c1 with
/// its quick search). A proven score never ranks below a heuristic guess, and heuristic
/// scores rank among themselves; forced wins first, forced losses last.
#[test]
fn analyze_ranks_an_exact_score_above_a_shallower_guess() {
    use tessera::engine::Thought;
    use tessera::engine::analyze::{Reach, rank};
    use tessera::search::WIN;
    let thought = |mv: &str, score: i32, exact: bool, depth: u32| Thought {
        best_move: Some(tessera::games::othello::Move::parse(mv).unwrap()),
        score,
        exact,
        depth,
        nodes: 0,
        elapsed: std::time::Duration::ZERO,
        pv: Vec::new(),
        unit: "centi-discs",
    };
    // In the order a score-only sort gives: c1's 3-ply guess first.
    let mut moves = vec![
        thought("c1", 3887, false, 3),
        thought("a2", 3800, true, 20),
        thought("g7", 3082, false, 10),
        thought("b1", 2160, true, 20),
        thought("d8", 2958, false, 9),
    ];
    rank(&mut moves);
    let order: Vec<String> = moves
        .iter()
        .map(|t| t.best_move.unwrap().to_string())
        .collect();
    assert_eq!(order, ["a2", "b1", "g7", "d8", "c1"]);
    assert_eq!(Reach::of(&moves[0]), Reach::Exact);
    assert_eq!(Reach::of(&moves[4]), Reach::Depth(3));
    // Win/loss games: a proven win first, a proven loss after every unproven move.
    let mut moves = vec![
        thought("a1", -(WIN - 2), true, 2),
        thought("b1", 50, false, 3),
        thought("c1", WIN - 5, true, 5),
        thought("d1", 0, true, 4),
    ];
    rank(&mut moves);
    let order: Vec<String> = moves
        .iter()
        .map(|t| t.best_move.unwrap().to_string())
        .collect();
    assert_eq!(order, ["c1", "d1", "b1", "a1"]);
}

/// Under a node (or time) budget split over the moves, each move's iterative
/// deepening stopped at its own depth (FFO #40 with 1,000,000 nodes: g7 +30.82 at 10 plies
/// listed beside c1 +34.18 at 9). The analysis now brings every heuristic score to one
/// depth, so the list is ordered by scores of the same depth.
#[test]
fn analyze_under_a_budget_ranks_scores_of_one_depth() {
    let v = json_of(&[
        "analyze", "othello", "--ffo", "40", "--nodes", "1000000", "--json",
    ]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 10);
    let heuristic: Vec<&Value> = moves.iter().filter(|m| m["exact"] == false).collect();
    assert!(!heuristic.is_empty());
    let depth = heuristic[0]["depth"].as_u64().unwrap();
    assert!(
        heuristic.iter().all(|m| m["depth"].as_u64() == Some(depth)),
        "{moves:?}"
    );
    let scores: Vec<i64> = heuristic
        .iter()
        .map(|m| m["score"].as_i64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // Exact scores (here none at this budget, or any) come before every heuristic one.
    let first_heuristic = moves.iter().position(|m| m["exact"] == false).unwrap();
    assert!(moves[first_heuristic..].iter().all(|m| m["exact"] == false));
    // With a budget that solves a2 (518,346 nodes) but not its siblings, a2 comes first
    // (a fixed exact-empties: the default `auto` plans its solves from measured costs).
    let v = json_of(&[
        "analyze",
        "othello",
        "--ffo",
        "40",
        "--nodes",
        "6000000",
        "--exact-empties",
        "20",
        "--json",
    ]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves[0]["move"], "a2");
    assert_eq!(moves[0]["exact"], true);
    assert_eq!(moves[0]["score"], 3800);
    assert!(moves[1..].iter().any(|m| m["exact"] == false));
}

#[test]
fn analyze_works_for_every_two_sided_game_and_refuses_the_rest() {
    for (game, extra) in [
        ("othello", vec!["--moves", "f5d6"]),
        ("quixo", vec![]),
        ("quixo-4p", vec![]),
        ("talat-2p", vec!["--seed", "3"]),
    ] {
        let mut args = vec!["analyze", game, "--depth", "2", "--json"];
        args.extend(extra);
        let v = json_of(&args);
        let moves = v["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{game}");
        assert_eq!(moves.len() as u64, v["legal_moves"].as_u64().unwrap());
        let scores: Vec<i64> = moves.iter().map(|m| m["score"].as_i64().unwrap()).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "{game}: {scores:?}"
        );
        assert!(moves.iter().all(|m| m["pv"][0] == m["move"]), "{game}");
    }
    let out = tessera(&["analyze", "othello", "--moves", "f5d6", "--depth", "3"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("legal moves, scores for Black (X)"),
        "{stdout}"
    );
    input_error(&["analyze", "talat", "--depth", "1"], &["two-sided"]);
    input_error(&["analyze", "othello", "--algo", "mcts"], &["alpha-beta"]);
}

/// A finished game is not bad input: `analyze` prints the result with the final disc
/// difference and exits 0 as `bestmove` does, in text and JSON.
#[test]
fn analyze_of_a_finished_game_reports_the_result_like_bestmove() {
    // 40 Black discs, 24 White: Black wins by 16; White to move (the side does not matter).
    let full = format!("{}{} O", "X".repeat(40), "O".repeat(24));
    for command in ["analyze", "bestmove"] {
        let out = tessera(&[command, "othello", "--position", &full]);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{command}: {}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains(
                "game over: Black (X) 40 discs, White (O) 24 discs: Black (X) wins by 16"
            ),
            "{command}: {stdout}"
        );
        let v = json_of(&[command, "othello", "--position", &full, "--json"]);
        assert_eq!(v["game_over"], true, "{command}: {v}");
        assert_eq!(v["result"]["black_margin"], 16, "{command}: {v}");
        assert_eq!(v["result"]["winner"], "black", "{command}: {v}");
        // The score is the final disc difference for the side to move (White), centi-discs.
        assert_eq!(v["score"], -1600, "{command}: {v}");
    }
    let v = json_of(&["analyze", "othello", "--position", &full, "--json"]);
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["legal_moves"], 0);
}

#[test]
fn ggf_positions_and_tournament_export_round_trip() {
    let dir = scratch("ggf");
    let example = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
    let file = dir.join("games.ggf");
    std::fs::write(&file, format!("{example}\n(;GM[Othello]TY[8]B[d3];)\n")).unwrap();
    let f = file.to_str().unwrap();
    let by_ggf = json_of(&[
        "perft",
        "othello",
        "--ggf",
        &format!("{f}:1"),
        "--depth",
        "2",
        "--json",
    ]);
    let by_moves = json_of(&[
        "perft",
        "othello",
        "--moves",
        "f5f6d3c5e6f7e7f4",
        "--depth",
        "2",
        "--json",
    ]);
    assert_eq!(by_ggf["position"], by_moves["position"]);
    assert_eq!(
        by_ggf["depths"][1]["leaves"],
        by_moves["depths"][1]["leaves"]
    );
    let second = json_of(&[
        "bestmove",
        "othello",
        "--ggf",
        &format!("{f}:2"),
        "--depth",
        "1",
        "--book",
        "none",
        "--json",
    ]);
    assert_eq!(
        second["position"],
        Position::from_transcript("d3").unwrap().to_string()
    );
    input_error(
        &["perft", "othello", "--ggf", f, "--depth", "1"],
        &["2 games", ":N"],
    );
    input_error(
        &[
            "perft",
            "othello",
            "--ggf",
            &format!("{f}:3"),
            "--depth",
            "1",
        ],
        &["no game 3"],
    );
    let bad = dir.join("bad.ggf");
    for (content, needle) in [
        ("(;GM[Othello]B[a1];)", "illegal"),
        ("(;GM[Chess]B[e4];)", "not Othello"),
        ("(;GM[Othello]B[f5]", "never closed"),
    ] {
        std::fs::write(&bad, content).unwrap();
        input_error(
            &["bestmove", "othello", "--ggf", bad.to_str().unwrap()],
            &[needle],
        );
    }
    input_error(&["bestmove", "quixo", "--ggf", f], &["Othello"]);

    // A short tournament, exported and read back: the same games, moves, players, results.
    let out_dir = dir.join("t");
    let t = tessera(&[
        "tournament",
        "othello",
        "--engines",
        "othello-ab-d1,othello-ab-d2",
        "--rounds",
        "2",
        "--concurrency",
        "1",
        "--no-progress",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(t.status.success(), "{}", text(&t.stderr));
    let ggf_file = dir.join("t.ggf");
    let e = tessera(&[
        "tournament",
        "export",
        out_dir.to_str().unwrap(),
        "--format",
        "ggf",
        "--out",
        ggf_file.to_str().unwrap(),
    ]);
    assert!(e.status.success(), "{}", text(&e.stderr));
    let written = std::fs::read_to_string(&ggf_file).unwrap();
    let games = ggf::parse_games(&written).unwrap();
    let records = tessera::tournament::record::load(&out_dir.join("games.jsonl")).unwrap();
    assert_eq!(games.len(), records.len());
    for (g, r) in games.iter().zip(&records) {
        assert_eq!(g.property("PB"), Some(r.engines[0].as_str()));
        assert_eq!(g.property("PW"), Some(r.engines[1].as_str()));
        let moves: Vec<String> = g.move_list().iter().map(ToString::to_string).collect();
        assert_eq!(moves, r.moves);
        assert!(g.moves.iter().all(|m| m.eval.is_some() && m.time.is_some()));
        // scores are disc counts per seat (Black first): RE is their difference.
        let black = r.scores[0] - r.scores[1];
        assert_eq!(g.property("RE"), Some(format!("{black:+}.00").as_str()));
        // Read back identically: written again, the same text.
        assert_eq!(ggf::parse_game(&g.to_ggf()).unwrap(), *g);
    }
    let again: String = games.iter().map(|g| g.to_ggf() + "\n").collect();
    assert_eq!(again, written);
    input_error(
        &[
            "tournament",
            "export",
            dir.join("nothing").to_str().unwrap(),
            "--format",
            "ggf",
        ],
        &["games.jsonl"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_book_is_built_shown_and_used_unless_none() {
    let dir = scratch("book");
    let file = dir.join("small.book");
    let f = file.to_str().unwrap();
    let out = tessera(&[
        "book",
        "build",
        "othello",
        "--depth",
        "3",
        "--positions",
        "5",
        "--out",
        f,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("book: 5 positions"),
        "{}",
        text(&out.stdout)
    );
    // Extended on a second run.
    let out = tessera(&[
        "book",
        "build",
        "othello",
        "--depth",
        "3",
        "--positions",
        "2",
        "--out",
        f,
    ]);
    assert!(
        text(&out.stdout).contains("book: 7 positions"),
        "{}",
        text(&out.stdout)
    );
    let v = json_of(&["book", "show", "othello", "--book", f, "--json"]);
    assert_eq!(v["in_book"], true);
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    let best = v["moves"][0]["move"].as_str().unwrap().to_string();
    // bestmove plays the book's best move without searching; --book none searches.
    let b = json_of(&["bestmove", "othello", "--book", f, "--depth", "2", "--json"]);
    assert_eq!(b["move"], best.as_str());
    assert_eq!(b["nodes"], 0);
    let n = json_of(&[
        "bestmove", "othello", "--book", "none", "--depth", "2", "--json",
    ]);
    assert!(n["nodes"].as_u64().unwrap() > 0);
    // The built-in book has the start position; it is used with --book builtin only: by
    // default bestmove, play and gtp search (the book did not gain in self-play).
    let v = json_of(&["book", "show", "othello", "--json"]);
    assert_eq!(v["in_book"], true);
    let builtin_best = v["moves"][0]["move"].as_str().unwrap().to_string();
    let b = json_of(&[
        "bestmove", "othello", "--book", "builtin", "--depth", "2", "--json",
    ]);
    assert_eq!(b["nodes"], 0);
    assert_eq!(b["move"], builtin_best.as_str());
    let d = json_of(&["bestmove", "othello", "--depth", "2", "--json"]);
    assert!(
        d["nodes"].as_u64().unwrap() > 0,
        "the default searches: {d}"
    );
    let empty_board = format!("{} X", "-".repeat(64));
    let v = json_of(&[
        "book",
        "show",
        "othello",
        "--position",
        &empty_board,
        "--json",
    ]);
    assert_eq!(v["in_book"], false);
    std::fs::write(&file, b"not a book").unwrap();
    input_error(
        &["book", "show", "othello", "--book", f],
        &["not a tessera book"],
    );
    input_error(
        &["bestmove", "othello", "--book", f],
        &["not a tessera book"],
    );
    input_error(&["bestmove", "quixo", "--book", f], &["othello"]);
    input_error(&["book", "build", "quixo"], &["othello"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_spec_plays_from_its_book_field() {
    use tessera::engine::book::Book;
    use tessera::engine::{EngineSpec, Players};
    use tessera::search::Limits;
    let start = Position::start();
    let book_move = Book::builtin().probe(&start)[0].mv;
    // book = "builtin": the start position is answered from the book, no node searched.
    let spec = EngineSpec::from_inline("name=b,depth=4,book=builtin", "othello").unwrap();
    let mut p = Position::make_player(&spec).unwrap();
    let t = p.choose(&start, &spec.limits()).unwrap();
    assert_eq!((t.best_move, t.nodes), (Some(book_move), 0));
    // Out of the book the engine searches: FFO #40 (20 empties) is far past the book.
    let ffo40: Position = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
        .parse()
        .unwrap();
    assert!(Book::builtin().probe(&ffo40).is_empty());
    let t = p.choose(&ffo40, &Limits::depth(2)).unwrap();
    assert!(t.nodes > 0, "searched out of book: {t:?}");
    // No book field (and book = "none"): the engine searches the start position.
    for inline in ["name=n,depth=4", "name=n,depth=4,book=none"] {
        let spec = EngineSpec::from_inline(inline, "othello").unwrap();
        let t = Position::make_player(&spec)
            .unwrap()
            .choose(&start, &spec.limits())
            .unwrap();
        assert!(t.nodes > 0, "{inline}: {t:?}");
    }
    // A book file: the one `book build` wrote is read; a file that is not a book is named.
    let dir = scratch("spec-book");
    let bad = dir.join("bad.book");
    std::fs::write(&bad, b"not a book").unwrap();
    let spec =
        EngineSpec::from_inline(&format!("name=f,depth=2,book={}", bad.display()), "othello")
            .unwrap();
    let e = Position::make_player(&spec)
        .err()
        .expect("a bad book is refused");
    assert!(
        e.contains("bad.book") && e.contains("not a tessera book"),
        "{e}"
    );
    // Refused where no book exists: other games, external programs, an empty value; and
    // through the CLI in one line with exit 2.
    for (inline, game, needle) in [
        ("name=q,book=builtin", "quixo", "book is for othello"),
        (
            "name=g,protocol=gtp,command=x,book=builtin",
            "othello",
            "built-in engines",
        ),
        ("name=e,book=", "othello", "book is empty"),
    ] {
        let e = EngineSpec::from_inline(inline, game).unwrap_err();
        assert!(e.contains(needle), "{inline}: {e}");
    }
    let f = bad.display().to_string();
    let eng = format!("name=a,depth=1,book={f}");
    input_error(
        &[
            "tournament",
            "othello",
            "--engine",
            &eng,
            "--engine",
            "name=b,depth=1",
            "--rounds",
            "1",
            "--out",
        ]
        .into_iter()
        .chain([dir.join("t").to_str().unwrap()])
        .collect::<Vec<_>>(),
        &["bad.book", "not a tessera book"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn level_sets_depth_and_exact_empties() {
    // Level 10 solves at 20 empties: FFO #40 comes out exact.
    let v = json_of(&[
        "bestmove", "othello", "--ffo", "40", "--level", "10", "--json",
    ]);
    assert_eq!(v["exact"], true);
    assert_eq!(v["score"], 3800);
    // Level 3 searches 3 plies and does not solve 20 empties.
    let v = json_of(&[
        "bestmove", "othello", "--ffo", "40", "--level", "3", "--json",
    ]);
    assert_eq!(v["exact"], false);
    assert_eq!(v["depth"], 3);
    input_error(
        &["bestmove", "othello", "--level", "3", "--depth", "4"],
        &["--depth"],
    );
    input_error(&["bestmove", "othello", "--level", "0"], &["--level"]);
}
