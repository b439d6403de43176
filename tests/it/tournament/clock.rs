//! Game clocks (time forfeits, clocks in records, GTP time commands),
//! adjudication (exact results from the solvers, resign and draw rules) and balanced
//! opening suites with `--openings-order`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use tessera::engine::{EngineSpec, Player, PlayerFactory, Thought};
use tessera::game::Game;
use tessera::games::othello::{self as oth, Position, patterns::transform};
use tessera::protocol::server::GtpServer;
use tessera::search::{GameClock, Limits};
use tessera::tournament::adjudicate::Adjudication;
use tessera::tournament::openings::{Opening, OpeningSource};
use tessera::tournament::record::{GameRecord, Reason};
use tessera::tournament::runner::{Settings, play_game};
use tessera::tournament::schedule::{Format, Slot};

/// FFO #40 (Black to move, 20 empties): exact +38 for Black (the FFO suite's answer).
const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

fn tessera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .output()
        .expect("the tessera binary runs")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-clock-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn records(dir: &Path) -> Vec<GameRecord> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A test engine: sleeps `delay` and plays the first legal move, reporting `score` and
/// the clock it was given (in `depth`, milliseconds left, for the test to read back).
struct Scripted {
    name: String,
    delay: Duration,
    score: i32,
    seen: std::sync::Arc<std::sync::Mutex<Vec<Option<GameClock>>>>,
}

impl Player<Position> for Scripted {
    fn name(&self) -> &str {
        &self.name
    }
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Thought<oth::Move>, String> {
        self.seen.lock().unwrap().push(limits.clock);
        std::thread::sleep(self.delay);
        let mut moves = <Position as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        Ok(Thought {
            best_move: moves.first().copied(),
            score: self.score,
            exact: false,
            depth: 1,
            nodes: 1,
            elapsed: self.delay,
            pv: Vec::new(),
            unit: "centi-discs",
        })
    }
}

fn settings(engines: Vec<EngineSpec>, adjudicate: Adjudication) -> Settings {
    Settings {
        game: "othello".into(),
        engines,
        format: Format::RoundRobin,
        rounds: 1,
        openings: OpeningSource::Start,
        seed: 1,
        max_plies: 200,
        sprt: None,
        anchor: None,
        adjudicate,
        openings_order: Default::default(),
    }
}

/// Plays one game from the start: seat 0 = `engines[0]`. Engines named `slow-*` are
/// [`Scripted`] with a 30 ms delay and score -600; `fast-*` Scripted without delay and
/// score +600; others built in.
fn game(engines: Vec<EngineSpec>, adjudicate: Adjudication) -> GameRecord {
    let s = settings(engines, adjudicate);
    let slot = Slot {
        index: 0,
        block: 0,
        round: 0,
        rotation: 0,
        seats: vec![0, 1],
    };
    let opening = Opening::new(String::new(), Position::start(), Vec::new());
    let factory: &PlayerFactory<Position> = &|spec: &EngineSpec| {
        let scripted = |delay: u64, score: i32| -> Box<dyn Player<Position>> {
            Box::new(Scripted {
                name: spec.name.clone(),
                delay: Duration::from_millis(delay),
                score,
                seen: Default::default(),
            })
        };
        if spec.name.starts_with("slow") {
            Ok(scripted(30, -600))
        } else if spec.name.starts_with("fast") {
            Ok(scripted(0, 600))
        } else {
            tessera::engine::othello::make_player(spec)
        }
    };
    play_game(&s, &slot, &opening, factory).expect("no built-in engine fails")
}

fn spec(text: &str) -> EngineSpec {
    EngineSpec::from_inline(text, "othello").unwrap()
}

#[test]
fn a_slow_engine_loses_on_time_with_its_overrun_and_the_clocks_recorded() {
    // 100 ms for the game, 30 ms a move: the fourth move of the slow engine (Black) at
    // the latest is over.
    let rec = game(
        vec![spec("name=slow,tc=0.1"), spec("name=fast,tc=0.1")],
        Adjudication::default(),
    );
    assert_eq!(rec.reason, Reason::TimeForfeit, "{rec:?}");
    assert_eq!(rec.points, vec![0.0, 1.0]);
    // At most three moves each (four 30 ms moves are over 100 ms; a loaded machine may
    // stretch a sleep, ending it sooner), and the forfeit falls on Black's turn.
    assert!(
        rec.moves.len().is_multiple_of(2) && (2..=6).contains(&rec.moves.len()),
        "{rec:?}"
    );
    let over = rec.overrun_ms.expect("the overrun is recorded");
    assert!((1..=100).contains(&over), "overrun {over} ms");
    let detail = rec.detail.as_deref().unwrap();
    assert!(
        detail.starts_with("slow: used ") && detail.contains("ms over"),
        "{detail}"
    );
    // Every move has its time and the mover's clock after it: the slow clock runs down by
    // each move's time (within the millisecond rounding), the fast one hardly at all.
    assert_eq!(rec.move_ms.len(), rec.moves.len());
    assert_eq!(rec.clock_ms.len(), rec.moves.len());
    let mut left = 100i64;
    for i in (0..rec.moves.len()).step_by(2) {
        assert!(rec.move_ms[i] >= 30, "{:?}", rec.move_ms);
        left -= rec.move_ms[i] as i64;
        // Each recorded time and clock is rounded down: 1 ms per move either way.
        let moves_so_far = (i / 2 + 1) as i64;
        assert!(
            (rec.clock_ms[i] as i64 - left).abs() <= moves_so_far,
            "{rec:?}"
        );
        assert!(rec.clock_ms[i + 1] >= 90, "{:?}", rec.clock_ms);
    }
    // The same game untimed goes to the end.
    let rec = game(
        vec![spec("name=slow"), spec("name=fast")],
        Adjudication::default(),
    );
    assert_eq!(rec.reason, Reason::Normal);
    assert!(rec.clock_ms.is_empty() && rec.overrun_ms.is_none());
}

#[test]
fn st_is_per_move_and_timemargin_forgives_an_overrun() {
    let rec = game(
        vec![spec("name=slow,st=0.02"), spec("name=fast,st=0.02")],
        Adjudication::default(),
    );
    assert_eq!(rec.reason, Reason::TimeForfeit, "{rec:?}");
    assert!(rec.moves.is_empty());
    assert!(rec.overrun_ms.unwrap() >= 10);
    // A 200 ms margin forgives 30 ms moves against a 20 ms limit, and st does not carry
    // over: the clock shows 20 ms after every move.
    let rec = game(
        vec![
            spec("name=slow,st=0.02,timemargin=200"),
            spec("name=fast,st=0.02"),
        ],
        Adjudication::default(),
    );
    assert_eq!(rec.reason, Reason::Normal, "{rec:?}");
    assert!(rec.clock_ms.iter().all(|&c| c == 20), "{:?}", rec.clock_ms);
}

#[test]
fn builtin_engines_plan_within_their_clock() {
    // No depth: the clock alone limits the search. Each engine must keep to 0.5 s + 50 ms
    // a move and never forfeit.
    let rec = game(
        vec![
            spec("name=a,tc=0.5+0.05,tt-mb=4"),
            spec("name=b,tc=0.5+0.05,tt-mb=4"),
        ],
        Adjudication::default(),
    );
    assert_eq!(rec.reason, Reason::Normal, "{rec:?}");
    assert!(rec.clock_ms.iter().all(|&c| c > 0), "{:?}", rec.clock_ms);
    for seat in 0..2 {
        let used: u64 = rec.move_ms.iter().skip(seat).step_by(2).sum();
        let moves = rec.moves.len().div_ceil(2) as u64;
        assert!(used <= 500 + 50 * moves, "seat {seat} used {used} ms");
    }
}

#[test]
fn built_in_engines_turn_a_clock_into_a_move_budget() {
    // A 200 ms game clock and no other limit (a search to depth 60 would take forever).
    let mut p = tessera::engine::othello::make_player(&spec("name=x,tt-mb=4")).unwrap();
    let limits = Limits {
        clock: Some(GameClock {
            remaining_ms: 200,
            increment_ms: 0,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let started = std::time::Instant::now();
    let t = p.choose(&Position::start(), &limits).unwrap();
    assert!(t.best_move.is_some());
    // Budget (200 - 40) / 20 = 8 ms; allow for a loaded machine.
    assert!(
        started.elapsed() < Duration::from_millis(150),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn resign_and_draw_rules_read_both_engines_scores() {
    // slow reports -600, fast +600 on every move: with resign=500,3 the slow engine (Black)
    // loses after its third move and fast's third.
    let rules = Adjudication::parse(&["resign=500,3".into()]).unwrap();
    let rec = game(
        vec![spec("name=slow-r"), spec("name=fast-r")],
        rules.clone(),
    );
    assert_eq!(rec.reason, Reason::AdjudicatedResign, "{rec:?}");
    assert_eq!(rec.points, vec![0.0, 1.0]);
    assert_eq!(rec.moves.len(), 6);
    // With the threshold above what they report, nothing happens.
    let rules = Adjudication::parse(&["resign=700,3".into()]).unwrap();
    let rec = game(vec![spec("name=slow-r"), spec("name=fast-r")], rules);
    assert_eq!(rec.reason, Reason::Normal);
    // Both within 600 of zero for 2 moves each, from full move 4 (ply 8) on.
    let rules = Adjudication::parse(&["draw=600,2,4".into()]).unwrap();
    let rec = game(vec![spec("name=slow-d"), spec("name=fast-d")], rules);
    assert_eq!(rec.reason, Reason::AdjudicatedDraw, "{rec:?}");
    assert_eq!(rec.points, vec![0.5, 0.5]);
    assert_eq!(rec.moves.len(), 8);
}

#[test]
fn exact_adjudication_gives_the_ffo_result_and_quixo_a_proven_win() {
    let dir = tmp("exact");
    let file = dir.join("ffo40.txt");
    std::fs::write(&file, format!("{FFO40}\n")).unwrap();
    let out = dir.join("t");
    let o = tessera(&[
        "tournament",
        "othello",
        "--engines",
        "othello-ab-d1,othello-ab-d2",
        "--openings",
        file.to_str().unwrap(),
        "--rounds",
        "1",
        "--adjudicate",
        "exact=20",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
        "--concurrency",
        "1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(&out);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        // +38 for Black, empties to the winner: 51-13, before any move.
        assert_eq!(r.reason, Reason::AdjudicatedExact);
        assert_eq!(r.scores, vec![51, 13]);
        assert!(r.moves.is_empty());
    }
    assert_eq!(recs[0].points, vec![1.0, 0.0]);
    // Quixo: X completes the top row by pushing a blank into e1 (a win in one ply).
    let file = dir.join("quixo.txt");
    std::fs::write(&file, "XXXX./...../...../...../..... X\n").unwrap();
    let out = dir.join("q");
    let o = tessera(&[
        "tournament",
        "quixo",
        "--engines",
        "quixo-ab-d2,quixo-ab-d4",
        "--openings",
        file.to_str().unwrap(),
        "--rounds",
        "1",
        "--adjudicate",
        "exact=1",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for r in records(&out) {
        assert_eq!(r.reason, Reason::AdjudicatedExact);
        assert_eq!(
            (r.scores.clone(), r.ranks.clone()),
            (vec![1, 0], vec![1, 2])
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gtp_time_settings_and_time_left_reach_the_engine() {
    let seen: std::sync::Arc<std::sync::Mutex<Vec<Option<GameClock>>>> = Default::default();
    let player = Scripted {
        name: "s".into(),
        delay: Duration::ZERO,
        score: 0,
        seen: seen.clone(),
    };
    let mut server = GtpServer::<Position>::new(Box::new(player), Limits::default());
    let mut ask = |cmd: &str| server.handle_line(cmd).unwrap().0;
    assert!(ask("genmove b").starts_with("= "));
    // Canadian byo-yomi: 10 s for 5 stones, no main time; then the controller's clock.
    assert!(ask("time_settings 0 10 5").starts_with('='));
    ask("genmove w");
    assert!(ask("time_left b 7.5 3").starts_with('='));
    ask("genmove b");
    assert!(ask("time_settings x 1 1").starts_with('?'));
    assert!(ask("time_left b 7").starts_with('?'));
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen[0], None, "untimed before time_settings");
    assert_eq!(
        seen[1],
        Some(GameClock {
            remaining_ms: 10_000,
            increment_ms: 0,
            moves_to_go: Some(5)
        })
    );
    assert_eq!(
        seen[2],
        Some(GameClock {
            remaining_ms: 7_500,
            increment_ms: 0,
            moves_to_go: Some(3)
        })
    );
}

#[test]
fn external_engines_are_sent_the_clock() {
    let dir = tmp("gtp-clock");
    let log = dir.join("log.txt");
    let script = dir.join("e.sh");
    std::fs::write(
        &script,
        format!(
            "while IFS= read -r line; do\n  echo \"$line\" >> {}\n  case \"$line\" in\n    \
             genmove*) printf '= F5\\n\\n' ;;\n    quit*) printf '=\\n\\n'; exit 0 ;;\n    \
             *) printf '=\\n\\n' ;;\n  esac\ndone\n",
            log.display()
        ),
    )
    .unwrap();
    let s = spec(&format!(
        "name=e,protocol=gtp,command=sh {},tc=40/90+0.5",
        script.display()
    ));
    let mut p = tessera::engine::othello::make_player(&s).unwrap();
    let start = Position::start();
    let limits = Limits {
        clock: Some(GameClock {
            remaining_ms: 61_900,
            increment_ms: 500,
            moves_to_go: Some(12),
        }),
        ..s.limits()
    };
    let t = p.choose_in_game(&start, &[], &start, &limits).unwrap();
    assert_eq!(t.best_move.unwrap().to_string(), "f5");
    drop(p);
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    let at = |cmd: &str| lines.iter().position(|l| l.starts_with(cmd));
    assert!(lines.contains(&"time_settings 0 90 40"), "{sent}");
    assert!(lines.contains(&"time_left black 61 12"), "{sent}");
    assert!(
        at("time_settings") < at("time_left") && at("time_left") < at("genmove"),
        "{sent}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The symmetry class of an Othello position from its bitboards (independent of the text
/// form used by `openings`).
fn othello_class(p: &Position) -> (u64, u64) {
    (0..8)
        .map(|s| (transform(p.player(), s), transform(p.opponent(), s)))
        .min()
        .unwrap()
}

#[test]
fn openings_writes_balanced_distinct_suites_for_every_game() {
    let dir = tmp("openings");
    let file = dir.join("o.txt");
    let f = file.to_str().unwrap();
    let o = tessera(&[
        "openings",
        "othello",
        "--plies",
        "6",
        "--count",
        "12",
        "--max-abs-score",
        "150",
        "--depth",
        "4",
        "--seed",
        "3",
        "--out",
        f,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("# game: othello"), "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 12);
    let mut classes = std::collections::HashSet::new();
    let mut engine =
        tessera::engine::othello::make_player(&spec("name=d4,depth=4,tt-mb=16")).unwrap();
    for l in &lines {
        let (root, moves) = Position::parse_opening(l).unwrap();
        assert_eq!(moves.len(), 6, "{l}");
        let p = moves.iter().fold(root, |p, &m| p.play(m));
        assert!(classes.insert(othello_class(&p)), "symmetric duplicate {l}");
        engine.new_game();
        let score = engine.choose(&p, &Limits::depth(4)).unwrap().score;
        assert!(score.abs() <= 150, "{l}: {score}");
    }
    // The same arguments write the same file.
    let again = dir.join("o2.txt");
    let o = tessera(&[
        "openings",
        "othello",
        "--plies",
        "6",
        "--count",
        "12",
        "--max-abs-score",
        "150",
        "--depth",
        "4",
        "--seed",
        "3",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    // Every game id, and each suite plays in a tournament of its game.
    for game in ["quixo", "quixo-4p", "talat", "talat-2p"] {
        let file = dir.join(format!("{game}.txt"));
        let o = tessera(&[
            "openings",
            game,
            "--plies",
            "4",
            "--count",
            "3",
            "--max-abs-score",
            "30000",
            "--depth",
            "1",
            "--out",
            file.to_str().unwrap(),
        ]);
        assert!(
            o.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 3, "{game}: {text}");
        let distinct: std::collections::HashSet<_> = lines.iter().collect();
        assert_eq!(distinct.len(), 3, "{game}: {text}");
        // A file of another game is refused by name, exit 2, nothing written.
        let out = dir.join(format!("t-{game}"));
        let other = if game == "quixo" { "othello" } else { "quixo" };
        let o = tessera(&[
            "tournament",
            other,
            "--engines",
            &format!("{other}-ab-d2,{other}-ab-d4"),
            "--openings",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{game}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("the file is for {game}, not {other}")),
            "{err}"
        );
        assert!(!out.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_order_random_is_a_seeded_shuffle() {
    let dir = tmp("order");
    let file = dir.join("o.txt");
    let lines = [
        "f5 d6", "f5 f6", "f5 f4", "d3 c3", "d3 e3", "c4 e3", "c4 c3", "e6 f4",
    ];
    std::fs::write(&file, lines.join("\n")).unwrap();
    let used = |order: &str, seed: &str, name: &str| -> Vec<String> {
        let out = dir.join(name);
        let o = tessera(&[
            "tournament",
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--openings",
            file.to_str().unwrap(),
            "--openings-order",
            order,
            "--rounds",
            "8",
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
            "--no-progress",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut r = records(&out);
        r.sort_by_key(|r| r.id);
        r.iter().step_by(2).map(|r| r.opening.clone()).collect()
    };
    let seq = used("sequential", "1", "s");
    assert_eq!(seq, lines.map(String::from).to_vec());
    let a = used("random", "1", "a");
    let b = used("random", "1", "b");
    let c = used("random", "2", "c");
    assert_eq!(a, b, "same seed, same order");
    assert_ne!(a, seq);
    assert_ne!(a, c);
    let mut sorted = a.clone();
    sorted.sort();
    let mut want = seq.clone();
    want.sort();
    assert_eq!(sorted, want, "every line once per cycle");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_clock_and_adjudication_input_is_one_line_exit_2_nothing_written() {
    let dir = tmp("bad");
    let out = dir.join("t");
    let o_ = out.to_str().unwrap();
    let e = "othello-ab-d1,othello-ab-d2";
    for (args, want) in [
        (vec!["--tc", "abc"], "time control 'abc'"),
        (vec!["--engine", "name=x,tc=abc"], "time control 'abc'"),
        (vec!["--tc", "2+-0.05"], "increment must be 0 or more"),
        (vec!["--st=-1"], "--st must be more than 0"),
        (
            vec!["--engine", "name=x,tc=1/0"],
            "base time must be more than 0",
        ),
        (
            vec!["--adjudicate", "exact=99"],
            "othello takes at most 30 empty squares",
        ),
        (
            vec!["--adjudicate", "resign=100"],
            "expected resign=SCORE,MOVES",
        ),
        (vec!["--timemargin", "10"], "--timemargin needs a clock"),
    ] {
        let mut a = vec!["tournament", "othello", "--engines", e, "--out", o_];
        a.extend(args.iter().copied());
        let o = tessera(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err}"
        );
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    let o = tessera(&[
        "tournament",
        "talat",
        "--engines",
        "talat-brs-t25,talat-maxn-t25,talat-paranoid-t25",
        "--adjudicate",
        "draw=0,3",
        "--out",
        o_,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("score rules are for two"));
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clocked_tournament_records_clocks() {
    let dir = tmp("cli-clock");
    let out = dir.join("t");
    let o = tessera(&[
        "tournament",
        "othello",
        "--engine",
        "name=a,tt-mb=4",
        "--engine",
        "name=b,tt-mb=4",
        "--tc",
        "0.3+0.02",
        "--timemargin",
        "100",
        "--rounds",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
        "--concurrency",
        "1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let settings = std::fs::read_to_string(out.join("tournament.json")).unwrap();
    assert!(
        settings.contains("\"tc\": \"0.3+0.02\"") && settings.contains("\"timemargin\": 100"),
        "{settings}"
    );
    for r in records(&out) {
        assert_eq!(r.reason, Reason::Normal, "{r:?}");
        assert_eq!(r.clock_ms.len(), r.moves.len());
        assert_eq!(r.move_ms.len(), r.moves.len());
        assert!(
            r.clock_ms[0] > 250 && r.clock_ms[0] <= 320,
            "{:?}",
            r.clock_ms
        );
    }
    // Seat clocks are per game: the engine names stay as given.
    assert!(
        records(&out)
            .iter()
            .all(|r| r.engines.iter().all(|e| e == "a" || e == "b"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Records of clocked and adjudicated games are checked like any other on `tournament
/// report`: a time forfeit needs its overrun, an exact adjudication's places must follow
/// from its solved scores, an adjudicated draw needs equal places.
#[test]
fn edited_clock_and_adjudication_records_are_refused() {
    let dir = tmp("edited");
    let out = dir.join("t");
    let o = tessera(&[
        "tournament",
        "othello",
        "--engines",
        "othello-ab-d1,othello-ab-d2",
        "--adjudicate",
        "exact=12",
        "--rounds",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = out.join("games.jsonl");
    let original = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    let report = || tessera(&["tournament", "report", out.to_str().unwrap()]);
    assert!(report().status.success());
    let exact = lines
        .iter()
        .position(|l| l.contains("\"adjudicated-exact\""))
        .expect("d1 against d2 reaches 12 empties");
    let v: serde_json::Value = serde_json::from_str(lines[exact]).unwrap();
    assert_eq!(v["scores"].as_array().unwrap().len(), 2, "{v}");
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|v| {
                // Places and points swapped: no longer what the solved scores say.
                let r = v["ranks"].clone();
                v["ranks"] = serde_json::json!([r[1], r[0]]);
                let p = v["points"].clone();
                v["points"] = serde_json::json!([p[1], p[0]]);
            }),
            "solved scores",
        ),
        (
            Box::new(|v| v["reason"] = "time-forfeit".into()),
            "overrun_ms",
        ),
        (
            Box::new(|v| {
                v["reason"] = "adjudicated-draw".into();
            }),
            "equal places",
        ),
    ];
    for (f, what) in &cases {
        let mut v: serde_json::Value = serde_json::from_str(lines[exact]).unwrap();
        if v["ranks"] == serde_json::json!([1, 1]) && *what == "equal places" {
            continue; // a solved draw is an equal-places record already
        }
        f(&mut v);
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        edited[exact] = serde_json::to_string(&v).unwrap();
        std::fs::write(&path, edited.join("\n") + "\n").unwrap();
        let o = report();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains(&format!("games.jsonl:{}:", exact + 1)) && err.contains(what),
            "{what}: {err}"
        );
    }
    std::fs::write(&path, &original).unwrap();
    assert!(report().status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An exact solve that runs out of its node budget (30 empties are far beyond it) gives
/// up adjudication for that game: the game is played out by the engines, and the solver
/// is not asked again at 29, 28, ... empties (it would finish near 20 and adjudicate).
#[test]
fn an_exact_solve_over_budget_gives_up_once_and_the_game_is_played_out() {
    let dir = tmp("giveup");
    let out = dir.join("t");
    let o = tessera(&[
        "tournament",
        "othello",
        "--engines",
        "othello-ab-d1,othello-ab-d2",
        "--rounds",
        "1",
        "--adjudicate",
        "exact=30",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(&out);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.reason, Reason::Normal, "{r:?}");
        assert_eq!(r.scores.iter().sum::<i32>(), 64, "{r:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
