//! GTP both ways: `tessera gtp othello` driven through a scripted session; tessera playing
//! itself through the protocol (a `GtpEngine` running the tessera binary); full games
//! against the real `gtp-rhino` (Debian package grhino) in both colours; and the failures
//! of external engines (a missing program, a hang, garbage, a crash, an illegal move).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use tessera::engine::external::GtpEngine;
use tessera::engine::othello as oth;
use tessera::engine::{EngineSpec, Player, PlayerFactory};
use tessera::game::{Game, Seat};
use tessera::games::othello::{Move, Position};
use tessera::search::Limits;
use tessera::tournament::openings::{Opening, OpeningSource};
use tessera::tournament::record::{GameRecord, Reason};
use tessera::tournament::runner::{Settings, play_game};
use tessera::tournament::schedule::{Format, Slot};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");
const RHINO: &str = "/usr/games/gtp-rhino";

/// The nine-move wipe-out `f5 f6 f7 g5 h4 c5 b5 f4 e3`: Black has 13 discs, White none.
const WIPEOUT: [(&str, &str); 9] = [
    ("black", "f5"),
    ("white", "f6"),
    ("black", "f7"),
    ("white", "g5"),
    ("black", "h4"),
    ("white", "c5"),
    ("black", "b5"),
    ("white", "f4"),
    ("black", "e3"),
];

/// After these eight moves Black has no move and White has (Black must pass).
const BLACK_PASSES: &str = "f5f6f7g7d3f8h8h6";

// ---------------------------------------------------------------------------------------
// Helpers

/// A `tessera gtp othello` process with a reader thread, so no answer can hang the test.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start(extra: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .args(["gtp", "othello"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tessera gtp");
        let stdin = child.stdin.take();
        let out = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Self {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send_raw(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The next response: its lines up to (not including) the empty line that ends it.
    fn response(&mut self) -> String {
        let mut lines: Vec<String> = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|e| {
                panic!("no complete response within 20 s ({e}); got {lines:?}")
            });
            if line.is_empty() {
                assert!(!lines.is_empty(), "an empty line before any response");
                return lines.join("\n");
            }
            lines.push(line);
        }
    }

    fn ask(&mut self, cmd: &str) -> String {
        self.send_raw(&format!("{cmd}\n"));
        self.response()
    }

    /// Asserts `cmd` answers exactly `expected` (the response's lines joined with `\n`).
    fn expect(&mut self, cmd: &str, expected: &str) {
        assert_eq!(self.ask(cmd), expected, "answer to {cmd:?}");
    }

    /// Waits for the process to exit; its status.
    fn wait_exit(&mut self, within: Duration) -> std::process::ExitStatus {
        self.stdin = None;
        let deadline = Instant::now() + within;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "tessera gtp did not exit within {within:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The successful answer's text (`= TEXT`), or a panic showing the answer.
fn ok_text(answer: &str) -> &str {
    answer
        .strip_prefix('=')
        .map(str::trim)
        .unwrap_or_else(|| panic!("expected a success, got {answer:?}"))
}

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-gtp-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A fake GTP engine: a shell script that answers every command with `=` except
/// `genmove`, where it runs `on_genmove` (shell code).
fn fake_engine(dir: &Path, name: &str, on_genmove: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    genmove*) {on_genmove} ;;\n    \
         quit*) printf '=\\n\\n'; exit 0 ;;\n    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

fn gtp_spec(name: &str, command: &str, time_ms: Option<u64>) -> EngineSpec {
    let mut text = format!("name={name},protocol=gtp,command={command}");
    if let Some(t) = time_ms {
        text.push_str(&format!(",time-ms={t}"));
    }
    EngineSpec::from_inline(&text, "othello").unwrap()
}

fn builtin_spec(name: &str, depth: u32) -> EngineSpec {
    EngineSpec::from_inline(&format!("name={name},depth={depth},tt-mb=4"), "othello").unwrap()
}

/// Plays one game `black` vs `white` through the tournament's game loop with the real
/// Othello factory (`make_player`), and checks the record: no forfeit, every move legal,
/// the scores those of the final position.
fn tournament_game(black: &EngineSpec, white: &EngineSpec) -> GameRecord {
    let settings = Settings {
        game: "othello".into(),
        engines: vec![black.clone(), white.clone()],
        format: Format::RoundRobin,
        rounds: 1,
        openings: OpeningSource::Start,
        seed: 1,
        max_plies: 200,
        sprt: None,
        anchor: None,
        adjudicate: Default::default(),
        openings_order: Default::default(),
    };
    let slot = Slot {
        index: 0,
        block: 0,
        round: 0,
        rotation: 0,
        seats: vec![0, 1],
    };
    let opening = Opening::new(String::new(), Position::start(), Vec::new());
    let factory: &PlayerFactory<Position> = &|spec: &EngineSpec| oth::make_player(spec);
    let rec = play_game(&settings, &slot, &opening, factory).expect("no built-in engine fails");
    assert_eq!(
        rec.reason,
        Reason::Normal,
        "{} vs {}: {:?}",
        black.name,
        white.name,
        rec.detail
    );
    let mut pos = Position::start();
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = pos
            .parse_move(m)
            .unwrap_or_else(|e| panic!("ply {}: {e} ({:?})", i + 1, rec.moves));
        pos = pos.play(mv);
    }
    let outcome = pos
        .outcome()
        .unwrap_or_else(|| panic!("game not finished: {:?}", rec.moves));
    assert_eq!(
        rec.scores,
        vec![outcome.score(Seat(0)), outcome.score(Seat(1))]
    );
    assert_eq!(rec.scores.iter().sum::<i32>(), 64);
    rec
}

/// The rhino binary, or `None` (with a loud message) when it is missing outside CI; under
/// CI a missing binary fails the test.
fn rhino() -> Option<&'static str> {
    if Path::new(RHINO).exists() {
        return Some(RHINO);
    }
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    assert!(
        !ci,
        "{RHINO} is missing under CI: install it with `apt-get install -y grhino` (.ci/run does)"
    );
    eprintln!(
        "\n\n!!!!!!!! SKIPPED: {RHINO} is missing, the games against gtp-rhino did not run. \
         Install it with `apt-get install grhino` (under CI=true this test fails instead). !!!!!!!!\n"
    );
    None
}

// ---------------------------------------------------------------------------------------
// tessera as a GTP engine

#[test]
fn server_answers_a_scripted_session() {
    let mut s = Session::start(&["--depth", "2"]);
    s.expect("1 protocol_version", "=1 2");
    s.expect("name", "= tessera");
    s.expect("version", &format!("= {}", env!("CARGO_PKG_VERSION")));
    s.expect("known_command genmove", "= true");
    s.expect("known_command final_score", "= true");
    s.expect("known_command frobnicate", "= false");
    let list = s.ask("list_commands");
    let listed: Vec<&str> = ok_text(&list).lines().map(str::trim).collect();
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "time_settings",
        "time_left",
        "quit",
    ] {
        assert!(listed.contains(&c), "list_commands lacks {c}: {listed:?}");
    }
    s.expect("boardsize 9", "? unacceptable size");
    s.expect("boardsize x", "? syntax error");
    s.expect("2 boardsize 8", "=2");
    s.expect("clear_board", "=");
    s.expect("komi 0", "=");
    s.expect("time_settings 0 5 1", "=");
    s.expect("time_left black 5 1", "=");
    // Empty lines and comments get no answer; ids are echoed, also on errors.
    s.send_raw("\n   \n# a comment\n\t\n");
    s.expect("3 name # trailing comment", "=3 tessera");
    s.expect("frobnicate", "? unknown command");
    s.expect("7 frobnicate", "?7 unknown command");
    s.expect("undo", "? cannot undo");
    s.expect("final_score", "? cannot score");

    // Moves: syntax errors, illegal moves, the wrong colour, case-insensitivity.
    s.expect("play black", "? syntax error");
    s.expect("play purple f5", "? syntax error");
    s.expect("play black z9", "? syntax error");
    s.expect("play black a1", "? illegal move");
    s.expect("play black pass", "? illegal move");
    s.expect("play white f5", "? illegal move");
    s.expect("play B F5", "=");
    let after_f5 = Position::from_transcript("f5").unwrap();
    let board = s.ask("showboard");
    assert!(board.starts_with('='), "{board}");
    assert!(
        board.contains(&after_f5.diagram()),
        "showboard:\n{board}\nexpected:\n{}",
        after_f5.diagram()
    );
    s.expect("play black d6", "? illegal move");

    // genmove: a legal White reply, the board follows; undo takes it back.
    let reply = s.ask("12 genmove white");
    let vertex = reply
        .strip_prefix("=12 ")
        .unwrap_or_else(|| panic!("{reply:?}"));
    assert_eq!(
        vertex,
        vertex.to_ascii_uppercase(),
        "vertices are written in upper case"
    );
    let mv = after_f5
        .parse_move(vertex)
        .unwrap_or_else(|e| panic!("genmove white: {e}"));
    assert!(board_of(&mut s).contains(&after_f5.play(mv).diagram()));
    s.expect("undo", "=");
    assert!(board_of(&mut s).contains(&after_f5.diagram()));
    s.expect("undo", "=");
    s.expect("undo", "? cannot undo");
    assert!(board_of(&mut s).contains(&Position::start().diagram()));

    // A finished game: the nine-move wipe-out, scored with the empties to the winner.
    s.expect("clear_board", "=");
    for (colour, v) in WIPEOUT {
        s.expect(&format!("play {colour} {v}"), "=");
    }
    let end = Position::from_transcript("f5f6f7g5h4c5b5f4e3").unwrap();
    assert!(end.is_game_over());
    assert!(board_of(&mut s).contains(&end.diagram()));
    s.expect("final_score", "= B+64");
    s.expect("genmove white", "= pass");
    s.expect("genmove black", "= pass");
    s.expect("play white a1", "? illegal move");
    s.expect("play white pass", "? illegal move");
    s.expect("undo", "=");
    s.expect("final_score", "? cannot score");
    s.expect("play b e3", "=");
    s.expect("5 final_score", "=5 B+64");

    // Passes: Black has no move after these eight; both pass styles work.
    s.expect("clear_board", "=");
    let passes = Position::from_transcript(BLACK_PASSES).unwrap();
    for (i, m) in ["f5", "f6", "f7", "g7", "d3", "f8", "h8", "h6"]
        .iter()
        .enumerate()
    {
        let colour = if i % 2 == 0 { "b" } else { "w" };
        s.expect(&format!("play {colour} {m}"), "=");
    }
    assert!(passes.legal_placements() == 0 && !passes.is_game_over());
    s.expect("genmove black", "= pass");
    s.expect("undo", "=");
    let reply = s.ask("genmove white"); // passes for Black first
    let white_move = passes.play(Move::PASS).parse_move(ok_text(&reply)).unwrap();
    s.expect("undo", "=");
    s.expect(&format!("play white {white_move}"), "="); // gtp-rhino style: no pass sent
    s.expect("undo", "=");
    s.expect("play black pass", "="); // explicit pass
    s.expect(&format!("play white {white_move}"), "=");
    assert!(board_of(&mut s).contains(&passes.play(Move::PASS).play(white_move).diagram()));

    // Garbage never kills the server. Control characters are removed (GTP), so a line of
    // them is empty and gets no answer, and `na\x01me` is `name`.
    s.send_raw("\u{0}\u{1}\u{7f}\nna\u{1}me\n");
    assert_eq!(s.response(), "= tessera");
    s.send_raw(
        "\u{fffd}\u{e9}t\u{e9}\nplay \u{e9} \u{e9}\ngenmove\ngenmove purple\nplay\nknown_command\n",
    );
    assert_eq!(s.response(), "? unknown command");
    for _ in 0..5 {
        assert_eq!(s.response(), "? syntax error");
    }
    s.send_raw(&format!("{}\n", "x".repeat(100_000)));
    assert_eq!(s.response(), "? unknown command");
    // Invalid UTF-8.
    let stdin = s.stdin.as_mut().unwrap();
    stdin.write_all(&[0xff, 0xfe, b' ', 0xc3, b'\n']).unwrap();
    stdin.flush().unwrap();
    assert_eq!(s.response(), "? unknown command");
    s.expect(
        "99999999999999999999999 name",
        "=99999999999999999999999 tessera",
    );

    s.expect("8 quit", "=8");
    assert!(s.wait_exit(Duration::from_secs(5)).success());
}

fn board_of(s: &mut Session) -> String {
    let b = s.ask("showboard");
    assert!(b.starts_with('='), "{b}");
    b
}

#[test]
fn server_plays_a_whole_game_by_genmove_and_scores_it() {
    let mut s = Session::start(&["--engine", "othello-ab-d1"]);
    let mut pos = Position::start();
    let mut colour = "black";
    let mut passes_in_a_row = 0;
    while passes_in_a_row < 2 {
        let answer = s.ask(&format!("genmove {colour}"));
        let text = ok_text(&answer);
        if text == "pass" {
            passes_in_a_row += 1;
            if pos.is_legal(Move::PASS) {
                pos = pos.play(Move::PASS);
            }
        } else {
            passes_in_a_row = 0;
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("genmove {colour}: {e} in {pos}"));
            pos = pos.play(mv);
        }
        colour = if colour == "black" { "white" } else { "black" };
    }
    assert!(
        pos.is_game_over(),
        "both passed but the game is not over: {pos}"
    );
    let outcome = pos.outcome().unwrap();
    let margin = outcome.score(Seat(0)) - outcome.score(Seat(1));
    let expected = match margin {
        0 => "= 0".to_string(),
        m if m > 0 => format!("= B+{m}"),
        m => format!("= W+{}", -m),
    };
    s.expect("final_score", &expected);
    // End of input without quit also ends the session cleanly.
    assert!(s.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn the_default_engine_plays_a_clock_not_its_own_move_time() {
    // Untimed, the default engine (othello-best-t100) moves in about 100 ms. With 20 s of
    // sudden death, its first move's budget is (20000 - 1030) / 20 = 948 ms, and the clock's
    // share is not cut by the preset's 100 ms: the search runs at least until half of it
    // has gone (it starts no iteration past half), whatever the load.
    let mut s = Session::start(&["--book", "none"]);
    s.expect("time_settings 20 0 0", "=");
    let t0 = std::time::Instant::now();
    let reply = s.ask("genmove black");
    let took = t0.elapsed();
    assert!(reply.starts_with("= "), "{reply}");
    assert!(
        took >= Duration::from_millis(400),
        "{took:?}: the preset's 100 ms capped the clock"
    );
    // A move time asked for stays a limit under the clock.
    let mut s = Session::start(&["--book", "none", "--time-ms", "30"]);
    s.expect("time_settings 20 0 0", "=");
    let reply = s.ask("genmove black");
    assert!(reply.starts_with("= "), "{reply}");
}

#[test]
fn server_rejects_a_bad_engine_on_the_command_line() {
    let out = Command::new(BIN)
        .args(["gtp", "othello", "--engine", "no-such-preset"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("no-such-preset"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

/// `tessera gtp othello ARGS` fed `input`: (exit code, stdout, stderr).
fn gtp_session(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let all: Vec<&str> = ["gtp", "othello"]
        .into_iter()
        .chain(args.iter().copied())
        .collect();
    let out = crate::common::tessera_with_input(&all, input);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_book_wraps_built_in_engines_only_and_book_errors_name_the_engine() {
    let moves = "genmove black\ngenmove white\ngenmove black\nquit\n";
    // An external engine is not wrapped in the built-in book: through `gtp` it answers as
    // the program it runs does on its own (the spec's `book` is refused for it too).
    // (The engine is named: the default, othello-best-t100, has another evaluation than an
    // inline spec's.)
    let inner = format!("{BIN} gtp othello --engine othello-ab-d6 --depth 1 --book none");
    let (code, direct, err) = gtp_session(
        &[
            "--engine",
            "othello-ab-d6",
            "--depth",
            "1",
            "--book",
            "none",
        ],
        moves,
    );
    assert_eq!(code, Some(0), "{err}");
    // (Depth 1 leaves the book's line at once, so a book in front would show.)
    let (_, booked, _) = gtp_session(&["--engine", "othello-ab-d6", "--depth", "1"], moves);
    assert_ne!(
        booked, direct,
        "the book and a depth-1 search agree: pick another depth"
    );
    // Without --book a spec's own `book` decides (`none` included); --book overrides it.
    for args in [
        ["--engine", "name=x,depth=1,book=none", "--book", "builtin"],
        ["--engine", "name=x,depth=1,book=builtin", "--book", "none"],
    ] {
        let (code, out, err) = gtp_session(&args[..2], moves);
        assert_eq!(code, Some(0), "{err}");
        let spec_book = if args[1].ends_with("none") {
            &direct
        } else {
            &booked
        };
        assert_eq!(&out, spec_book, "{args:?}");
        let (code, out, err) = gtp_session(&args, moves);
        assert_eq!(code, Some(0), "{err}");
        let flag_book = if args[3] == "none" { &direct } else { &booked };
        assert_eq!(&out, flag_book, "{args:?}");
    }
    let external = format!("name=ext,protocol=gtp,command={inner}");
    let (code, wrapped, err) = gtp_session(&["--engine", &external], moves);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(wrapped, direct);
    // Told to put a book in front of it, gtp refuses in one line.
    for (args, needles) in [
        (
            vec!["--engine", external.as_str(), "--book", "builtin"],
            vec!["--book is for the built-in engines"],
        ),
        (vec!["--book", ""], vec!["--book is empty"]),
        (
            vec!["--engine", "name=x,depth=2,book=/nonexistent/b.book"],
            vec!["engine 'x': cannot read book", "/nonexistent/b.book"],
        ),
        // An external engine names itself: once.
        (
            vec!["--engine", "name=y,protocol=gtp,command=/nonexistent/prog"],
            vec!["error: engine 'y': cannot start '/nonexistent/prog'"],
        ),
    ] {
        let (code, out, err) = gtp_session(&args, moves);
        assert_eq!(code, Some(2), "{args:?}: {out} {err}");
        assert!(err.starts_with("error: "), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        for n in needles {
            assert!(err.contains(n), "{args:?}: '{n}' not in {err}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// tessera through the protocol path

fn tessera_gtp(depth: u32) -> EngineSpec {
    gtp_spec(
        &format!("tessera-gtp-d{depth}"),
        // The search over the protocol, without the opening book, as built in (the
        // evaluation of an inline spec, as `builtin_spec`'s).
        &format!("{BIN} gtp othello --engine othello-ab-d6 --depth {depth} --book none"),
        None,
    )
}

#[test]
fn tessera_plays_itself_through_gtp() {
    let gtp = tessera_gtp(1);
    let builtin = builtin_spec("builtin-d2", 2);
    let a = tournament_game(&gtp, &builtin);
    let b = tournament_game(&builtin, &gtp);
    assert!(a.moves.len() >= 20 && b.moves.len() >= 20);
    // The same engine over the protocol plays the same moves as built in.
    let d1 = builtin_spec("builtin-d1", 1);
    let c = tournament_game(&d1, &builtin);
    assert_eq!(a.moves, c.moves, "depth 1 over GTP and built in differ");
}

#[test]
fn client_keeps_the_engine_board_in_step() {
    let spec = tessera_gtp(1);
    let mut engine = GtpEngine::<Position>::new(&spec).unwrap();
    let limits = Limits::depth(1);
    let start = Position::start();

    // At the start, `choose` works without history; elsewhere it needs the moves.
    let first = engine.choose(&start, &limits).unwrap();
    let m0 = first.best_move.unwrap();
    assert!(start.is_legal(m0));
    assert_eq!(
        (first.score, first.unit, first.exact, first.nodes),
        (0, "none", false, 0)
    );
    let after = start.play(m0);
    let e = engine.choose(&after, &limits).unwrap_err();
    assert!(e.contains("moves from the start"), "{e}");
    let e = engine
        .choose_in_game(&after, &[], &after, &limits)
        .unwrap_err();
    assert!(e.contains("move sequences from the start"), "{e}");

    // A game where Black must pass: the engine passes, then White moves.
    let seq = transcript_moves(BLACK_PASSES);
    let pos = replay(&seq);
    let t = engine.choose_in_game(&start, &seq, &pos, &limits).unwrap();
    assert_eq!(t.best_move, Some(Move::PASS));
    let mut seq2 = seq.clone();
    seq2.push(Move::PASS);
    let pos2 = replay(&seq2);
    let t = engine
        .choose_in_game(&start, &seq2, &pos2, &limits)
        .unwrap();
    assert!(pos2.is_legal(t.best_move.unwrap()));

    // The same game replayed into a fresh board sends Black's pass (`play black pass`,
    // which tessera accepts).
    engine.new_game();
    let t = engine
        .choose_in_game(&start, &seq2, &pos2, &limits)
        .unwrap();
    assert!(pos2.is_legal(t.best_move.unwrap()));

    // A different game (not a continuation): the engine's board is cleared and replayed.
    let other = transcript_moves("d3c3");
    let pos3 = replay(&other);
    let t = engine
        .choose_in_game(&start, &other, &pos3, &limits)
        .unwrap();
    assert!(
        pos3.is_legal(t.best_move.unwrap()),
        "{:?} in {pos3}",
        t.best_move
    );
    // Continuing it sends only the new moves.
    let mut more = other.clone();
    more.push(t.best_move.unwrap());
    let pos4 = replay(&more);
    let t = engine
        .choose_in_game(&start, &more, &pos4, &limits)
        .unwrap();
    assert!(pos4.is_legal(t.best_move.unwrap()));
    // new_game resets.
    engine.new_game();
    let t = engine.choose(&start, &limits).unwrap();
    assert_eq!(t.best_move, Some(m0));
    // History that does not lead to the position is refused.
    let e = engine
        .choose_in_game(&start, &other, &pos4, &limits)
        .unwrap_err();
    assert!(e.contains("lead to"), "{e}");
}

fn transcript_moves(t: &str) -> Vec<Move> {
    let mut pos = Position::start();
    let mut out = Vec::new();
    for i in (0..t.len()).step_by(2) {
        if pos.legal_placements() == 0 {
            out.push(Move::PASS);
            pos = pos.play(Move::PASS);
        }
        let mv = pos.parse_move(&t[i..i + 2]).unwrap();
        out.push(mv);
        pos = pos.play(mv);
    }
    out
}

fn replay(moves: &[Move]) -> Position {
    moves.iter().fold(Position::start(), |p, &m| p.play(m))
}

// ---------------------------------------------------------------------------------------
// The real gtp-rhino

#[test]
fn rhino_plays_full_games_against_tessera_in_both_colours() {
    let Some(rhino) = rhino() else { return };
    let rhino_spec = gtp_spec("gtp-rhino-l1", &format!("{rhino} --level 1"), Some(2000));
    let tessera = builtin_spec("tessera-d2", 2);
    let a = tournament_game(&tessera, &rhino_spec);
    let b = tournament_game(&rhino_spec, &tessera);
    eprintln!(
        "tessera d2 (black) vs rhino l1: {:?} in {} plies; rhino l1 (black) vs tessera d2: {:?} in {} plies",
        a.scores,
        a.moves.len(),
        b.scores,
        b.moves.len()
    );
}

#[test]
fn rhino_is_fed_passes_it_does_not_accept() {
    let Some(rhino) = rhino() else { return };
    let spec = gtp_spec("gtp-rhino-l1", &format!("{rhino} --level 1"), Some(2000));
    let mut engine = oth::make_player(&spec).unwrap();
    let limits = spec.limits();
    let start = Position::start();
    // Black to move with no move: rhino answers pass.
    let seq = transcript_moves(BLACK_PASSES);
    let pos = replay(&seq);
    let t = engine.choose_in_game(&start, &seq, &pos, &limits).unwrap();
    assert_eq!(t.best_move, Some(Move::PASS));
    // White to move after Black's pass, in a fresh engine whose first pass is `play
    // black pass` (refused by rhino, which passes by itself): a legal White move.
    let mut engine = oth::make_player(&spec).unwrap();
    let mut seq2 = seq.clone();
    seq2.push(Move::PASS);
    let pos2 = replay(&seq2);
    let t = engine
        .choose_in_game(&start, &seq2, &pos2, &limits)
        .unwrap();
    assert!(pos2.is_legal(t.best_move.unwrap()), "{:?}", t.best_move);
    // And the game goes on.
    let mut seq3 = seq2.clone();
    seq3.push(t.best_move.unwrap());
    let pos3 = replay(&seq3);
    let t = engine
        .choose_in_game(&start, &seq3, &pos3, &limits)
        .unwrap();
    assert!(pos3.is_legal(t.best_move.unwrap()), "{:?}", t.best_move);
}

// ---------------------------------------------------------------------------------------
// Failures of external engines

fn first_move_error(spec: &EngineSpec) -> (String, Duration) {
    let started = Instant::now();
    let result = oth::make_player(spec).and_then(|mut p| {
        let start = Position::start();
        p.choose_in_game(&start, &[], &start, &spec.limits())
            .map(|t| format!("{:?}", t.best_move))
    });
    let e = result.expect_err("the engine should have failed");
    (e, started.elapsed())
}

#[test]
fn a_missing_program_is_named() {
    let spec = gtp_spec("ghost", "/nonexistent/ghost-engine --level 3", Some(100));
    let (e, _) = first_move_error(&spec);
    assert!(
        e.contains("/nonexistent/ghost-engine") && e.contains("cannot start"),
        "{e}"
    );
}

#[test]
fn a_hung_program_times_out_and_is_killed() {
    // Silent from the start: the setup's boardsize times out.
    let spec = gtp_spec("sleeper", "sleep 30", Some(200));
    let (e, took) = first_move_error(&spec);
    assert!(
        e.contains("did not answer boardsize within 2200 ms") && e.contains("sleep 30"),
        "{e}"
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");

    // Answers the setup, hangs on genmove.
    let dir = tmp_dir("hang");
    let cmd = fake_engine(&dir, "hang", "exec sleep 30");
    let spec = gtp_spec("hang", &cmd, Some(200));
    let (e, took) = first_move_error(&spec);
    assert!(e.contains("did not answer genmove within 2200 ms"), "{e}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn garbage_answers_fail_or_lose_but_never_hang() {
    let dir = tmp_dir("garbage");
    let start = Position::start();

    // `yes` writes "y" forever: not a GTP response.
    let (e, took) = first_move_error(&gtp_spec("yes", "yes", Some(200)));
    assert!(e.contains("'y'") && e.contains("not a GTP response"), "{e}");
    assert!(took < Duration::from_secs(5), "took {took:?}");

    for (name, action, expect) in [
        ("banana", "printf '= banana\\n\\n'", "not a move"),
        ("resigner", "printf '= resign\\n\\n'", "resigned"),
        (
            "refuser",
            "printf '? I give up\\n\\n'",
            "'? I give up' to 'genmove black'",
        ),
        ("chatter", "printf 'thinking hard\\n'", "not a GTP response"),
        (
            "crasher",
            "echo 'segmentation fault' >&2; exit 3",
            "exited with status 3",
        ),
    ] {
        let cmd = fake_engine(&dir, name, action);
        let (e, took) = first_move_error(&gtp_spec(name, &cmd, Some(200)));
        assert!(e.contains(expect) && e.contains(name), "{name}: {e}");
        assert!(took < Duration::from_secs(5), "{name} took {took:?}");
        if name == "crasher" {
            assert!(e.contains("segmentation fault"), "stderr is quoted: {e}");
        }
    }

    // A parsable but illegal move is returned as it is; the tournament scores the loss.
    let cmd = fake_engine(&dir, "cornerer", "printf '= A1\\n\\n'");
    let cornerer = gtp_spec("cornerer", &cmd, Some(200));
    let mut p = oth::make_player(&cornerer).unwrap();
    let t = p
        .choose_in_game(&start, &[], &start, &cornerer.limits())
        .unwrap();
    assert_eq!(t.best_move, Some(Move::parse("a1").unwrap()));
    assert!(!start.is_legal(t.best_move.unwrap()));
    let settings = Settings {
        game: "othello".into(),
        engines: vec![cornerer, builtin_spec("builtin-d1", 1)],
        format: Format::RoundRobin,
        rounds: 1,
        openings: OpeningSource::Start,
        seed: 1,
        max_plies: 200,
        sprt: None,
        anchor: None,
        adjudicate: Default::default(),
        openings_order: Default::default(),
    };
    let slot = Slot {
        index: 0,
        block: 0,
        round: 0,
        rotation: 0,
        seats: vec![0, 1],
    };
    let opening = Opening::new(String::new(), start, Vec::new());
    let factory: &PlayerFactory<Position> = &|spec: &EngineSpec| oth::make_player(spec);
    let rec = play_game(&settings, &slot, &opening, factory).expect("no built-in engine fails");
    assert_eq!(rec.reason, Reason::IllegalMove, "{rec:?}");
    assert_eq!(rec.points, vec![0.0, 1.0]);
}

/// We were asked how a GTP engine learns of its own forced pass. The choice (docs/gtp.md,
/// "Passes"), pinned here from what the engine receives: its own forced pass is asked for
/// with `genmove` like any move and its answer `pass` is that move (GTP's genmove plays the
/// move it returns: Edax plays the pass, gtp-rhino has already skipped the side), so it is
/// never sent back with `play`; the opponent's pass is sent as `play COLOUR pass` (until an
/// engine refuses one, as gtp-rhino does: it passes by itself). A wrapper that tracks the
/// game must count its own `genmove` answers, passes included.
#[test]
fn an_engine_plays_its_own_forced_pass_by_genmove() {
    let dir = tmp_dir("own-pass");
    let log = dir.join("sent.txt");
    let script = dir.join("wrap.sh");
    std::fs::write(
        &script,
        format!(
            "tee -a {} | {} gtp othello --depth 1\n",
            log.display(),
            env!("CARGO_BIN_EXE_tessera")
        ),
    )
    .unwrap();
    let spec = gtp_spec("wrapped", &format!("sh {}", script.display()), None);
    let mut engine = GtpEngine::<Position>::new(&spec).unwrap();
    let limits = Limits::depth(1);
    let start = Position::start();
    // Black (the engine) must pass: it is asked, and answers pass.
    let seq = transcript_moves(BLACK_PASSES);
    let t = engine
        .choose_in_game(&start, &seq, &replay(&seq), &limits)
        .unwrap();
    assert_eq!(t.best_move, Some(Move::PASS));
    // White replies; Black is asked again and gets only White's move.
    let mut seq2 = seq.clone();
    seq2.push(Move::PASS);
    let white = {
        let p = replay(&seq2);
        crate::common::moves_of(&p)[0]
    };
    seq2.push(white);
    let t = engine
        .choose_in_game(&start, &seq2, &replay(&seq2), &limits)
        .unwrap();
    assert!(replay(&seq2).is_legal(t.best_move.unwrap()));
    drop(engine);
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    let genmoves: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i] == "genmove black")
        .collect();
    assert_eq!(genmoves.len(), 2, "{sent}");
    assert_eq!(
        &lines[genmoves[0] + 1..genmoves[1]],
        [format!("play white {}", white.to_string().to_uppercase()).as_str()],
        "{sent}"
    );
    assert!(!sent.contains("play black pass"), "{sent}");
    // The engine as White, after Black's forced pass: the pass is sent.
    std::fs::write(&log, "").unwrap();
    let mut engine = GtpEngine::<Position>::new(&spec).unwrap();
    let mut seq3 = seq.clone();
    seq3.push(Move::PASS);
    let t = engine
        .choose_in_game(&start, &seq3, &replay(&seq3), &limits)
        .unwrap();
    assert!(replay(&seq3).is_legal(t.best_move.unwrap()));
    drop(engine);
    let sent = std::fs::read_to_string(&log).unwrap();
    let pass = sent
        .lines()
        .position(|l| l == "play black pass")
        .expect(&sent);
    assert_eq!(sent.lines().nth(pass + 1), Some("genmove white"), "{sent}");
    let _ = std::fs::remove_dir_all(&dir);
}
