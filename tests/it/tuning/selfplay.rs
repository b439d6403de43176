//! Self-play data: reproducible at any thread count, labels consistent with the rules and
//! the exact solver, and the `selfplay` command's output and errors.

use std::process::Command;

use tessera::engine::EngineSpec;
use tessera::games::othello::{self, Position};
use tessera::search::{Limits, TranspositionTable};
use tessera::tuning::selfplay::{self, Config};

fn config(threads: usize) -> Config {
    Config {
        games: 12,
        seed: 7,
        random_plies: (2, 10),
        max_plies: 200,
        threads,
        progress: false,
        shard: None,
    }
}

fn run(threads: usize) -> (Vec<selfplay::Sample>, selfplay::Summary) {
    let spec = EngineSpec::from_inline("name=d1,depth=1,tt-mb=1", "othello").unwrap();
    let make = || tessera::engine::othello::make_player(&spec);
    let solve = |p: &Position| tessera::tuning::othello::solve_label(p, 10);
    selfplay::generate::<Position>(&make, &spec.limits(), Some(&solve), &config(threads)).unwrap()
}

#[test]
fn selfplay_is_reproducible_deduplicated_and_labelled_exactly() {
    let (a, sa) = run(1);
    let (b, _) = run(2);
    assert_eq!(a, b, "thread count changed the data");
    assert_eq!(sa.unique, a.len());
    assert!(sa.positions >= sa.unique && sa.unique > 12 * 30, "{sa:?}");
    let mut keys = std::collections::HashSet::new();
    let tt = TranspositionTable::new(8);
    for s in &a {
        let pos: Position = s.position.parse().unwrap();
        assert!(keys.insert(pos.to_string()), "duplicate {pos}");
        assert!(!pos.is_game_over());
        assert!(s.result.abs() <= 64 && s.result % 2 == 0, "{s:?}");
        // Exact labels exactly where the solver reaches, and they are right.
        assert_eq!(s.exact.is_some(), pos.empties() <= 10, "{pos}");
        if let Some(e) = s.exact {
            let sol = othello::endgame::Solver::new(&tt, &Limits::default()).solve(&pos);
            assert_eq!(sol.score, Some(e), "{pos}");
            // From there on both sides play perfectly: the result is the exact value.
            assert_eq!(s.result, e, "{pos}");
        }
    }
    // Different seeds give different games.
    let spec = EngineSpec::from_inline("name=d1,depth=1,tt-mb=1", "othello").unwrap();
    let make = || tessera::engine::othello::make_player(&spec);
    let mut cfg = config(1);
    cfg.seed = 8;
    let (c, _) = selfplay::generate::<Position>(&make, &spec.limits(), None, &cfg).unwrap();
    assert_ne!(a[0].position, c[0].position);
    assert!(c.iter().all(|s| s.exact.is_none()));
}

fn tessera() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

#[test]
fn selfplay_command_writes_a_file_with_a_header_and_rejects_bad_input() {
    let dir = std::env::temp_dir().join(format!("tessera-sp-cli-{}", std::process::id()));
    let out = dir.join("d.txt");
    let o = tessera()
        .args(["selfplay", "othello", "--engine", "name=x,depth=1,tt-mb=1"])
        .args([
            "--games",
            "3",
            "--exact-empties",
            "8",
            "--no-progress",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# tessera selfplay data"), "{text}");
    assert!(text.contains("# command: tessera selfplay othello"));
    let samples = selfplay::read(&out).unwrap();
    assert!(samples.len() > 3 * 30);
    for (args, what) in [
        (vec!["--engine", "nope"], "unknown engine 'nope'"),
        (
            vec!["--engine", "othello-ab-d1", "--random-plies", "5-2"],
            "--random-plies",
        ),
        (vec!["--engine", "name=m,depth=0"], "depth must be"),
    ] {
        let o = tessera()
            .args(["selfplay", "othello", "--games", "1", "--out"])
            .arg(dir.join("bad.txt"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(what), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tune_commands_fit_write_and_resume_from_their_checkpoints() {
    let dir = std::env::temp_dir().join(format!("tessera-tune-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.txt");
    let o = tessera()
        .args(["selfplay", "othello", "--engine", "name=x,depth=1,tt-mb=1"])
        .args([
            "--games",
            "6",
            "--exact-empties",
            "8",
            "--no-progress",
            "--out",
        ])
        .arg(&data)
        .output()
        .unwrap();
    assert!(o.status.success());
    let run = |args: &[&str], out: &std::path::Path| {
        let o = tessera()
            .args(["tune", "othello", "--no-progress", "--data"])
            .arg(&data)
            .args(args)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        text
    };
    // Patterns: 2 epochs, then resumed to 3 (only the third runs).
    let bin = dir.join("p.bin");
    let first = run(&["--method", "patterns", "--epochs", "2"], &bin);
    assert!(first.contains("epoch    2: train rmse"), "{first}");
    let second = run(&["--method", "patterns", "--epochs", "3"], &bin);
    assert!(
        second.contains("resuming from") && second.contains("at epoch 2"),
        "{second}"
    );
    assert!(
        second.contains("epoch    3:") && !second.contains("epoch    2:"),
        "{second}"
    );
    let e = tessera::games::othello::eval::Eval::load(&bin).unwrap();
    assert!(
        e.patterns()
            .unwrap()
            .header()
            .iter()
            .any(|h| h.contains("epochs 3"))
    );
    // Texel: a text weights file of the registry.
    let txt = dir.join("t.txt");
    let out = run(&["--method", "texel", "--epochs", "3"], &txt);
    assert!(
        out.contains("K = ") && out.contains("epoch    3: loss"),
        "{out}"
    );
    tessera::games::othello::eval::Weights::load(&txt).unwrap();
    // SPSA: one iteration of a small MCTS engine.
    let sp = dir.join("s.txt");
    let spsa = |epochs: &str| {
        tessera()
            .args(["tune", "othello", "--method", "spsa", "--no-progress"])
            .args(["--epochs", epochs])
            .args(["--engine", "name=m,algo=mcts,iterations=30", "--out"])
            .arg(&sp)
            .output()
            .unwrap()
    };
    let o = spsa("1");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&sp).unwrap();
    assert!(
        text.contains("SPSA") && text.contains("mcts_c_centi"),
        "{text}"
    );
    // A resume asking for fewer epochs than the checkpoint has run is refused (not a
    // silent rewrite of the output with the checkpoint's epochs), the output untouched.
    let before = std::fs::read(&bin).unwrap();
    for (method, out, done) in [("patterns", &bin, 3), ("texel", &txt, 3)] {
        let o = tessera()
            .args(["tune", "othello", "--no-progress", "--data"])
            .arg(&data)
            .args(["--method", method, "--epochs", "1", "--out"])
            .arg(out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{method}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "has already run {done} epochs; --epochs 1 is fewer"
            )),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&bin).unwrap(), before);
    let o = spsa("0");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("has already run 1 iterations; --epochs 0 is fewer"),
        "{err}"
    );
    // A checkpoint of any method given as an engine's weights is named as a checkpoint.
    for ckpt in ["p.ckpt", "t.ckpt", "s.ckpt"] {
        let ckpt = dir.join(ckpt);
        assert!(ckpt.exists(), "{}", ckpt.display());
        let o = tessera()
            .args(["bestmove", "othello", "--depth", "1", "--weights"])
            .arg(&ckpt)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "{} is a tuning checkpoint, not a weights file",
                ckpt.display()
            )) && err.contains("--checkpoint"),
            "{err}"
        );
    }
    // Bad input: one error line, exit code 2.
    for args in [
        vec!["--method", "patterns", "--out", "x.bin"],
        vec![
            "--method",
            "spsa",
            "--engine",
            "othello-gtp-rhino",
            "--out",
            "x.txt",
        ],
    ] {
        let o = tessera()
            .args(["tune", "othello"])
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Self-play, Texel and SPSA for Quixo and both Talat variants from the command line:
/// data files with the game's labels, weights files the engines load, resume, and one-line
/// errors for what a game cannot do.
#[test]
fn quixo_and_talat_selfplay_and_tuning_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("tessera-tune-qt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ok = |args: &[&str]| -> String {
        let o = tessera().args(args).output().unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let path = |name: &str| dir.join(name).display().to_string();
    for (game, engine, plies) in [
        ("quixo", "name=q,depth=2,tt-mb=1", "2-10"),
        ("talat", "name=t,algo=brs-plus,depth=1,tt-mb=1", "20-30"),
        ("talat-2p", "name=t2,depth=2,tt-mb=1", "20-30"),
    ] {
        let data = path(&format!("{game}.txt"));
        let said = ok(&[
            "selfplay",
            game,
            "--engine",
            engine,
            "--games",
            "12",
            "--random-plies",
            plies,
            "--threads",
            "2",
            "--no-progress",
            "--out",
            &data,
        ]);
        assert!(said.contains("12 games"), "{said}");
        let samples = selfplay::read(std::path::Path::new(&data)).unwrap();
        assert!(samples.len() > 12 * 5, "{game}: {}", samples.len());
        for s in &samples {
            assert!(s.position.starts_with(game) || game == "quixo");
            assert!(s.exact.is_none());
            match game {
                // Win, draw (repetition) or loss of the side to move's team.
                "quixo" => assert!((-1..=1).contains(&s.result), "{s:?}"),
                // Three seats: every seat's score, and the result is the side to move's
                // score minus the best other seat's.
                "talat" => {
                    assert_eq!(s.scores.len(), 3, "{s:?}");
                    let me = s
                        .position
                        .split(" to:")
                        .nth(1)
                        .unwrap()
                        .chars()
                        .next()
                        .unwrap();
                    let seat = "WGB".find(me).unwrap();
                    let best_other = (0..3)
                        .filter(|&o| o != seat)
                        .map(|o| s.scores[o])
                        .max()
                        .unwrap();
                    assert_eq!(s.result, s.scores[seat] - best_other, "{s:?}");
                }
                _ => assert!(s.scores.is_empty() && s.result % 10 == 0 || s.result.abs() < 200),
            }
        }
        // Texel: 3 epochs, then resumed to 4; the weights file loads for the game.
        let out = path(&format!("{game}-texel.txt"));
        let first = ok(&[
            "tune",
            game,
            "--method",
            "texel",
            "--epochs",
            "3",
            "--no-progress",
            "--data",
            &data,
            "--out",
            &out,
        ]);
        assert!(
            first.contains("K = ") && first.contains("epoch    3: loss"),
            "{first}"
        );
        let second = ok(&[
            "tune",
            game,
            "--method",
            "texel",
            "--epochs",
            "4",
            "--no-progress",
            "--data",
            &data,
            "--out",
            &out,
        ]);
        assert!(
            second.contains("at epoch 3") && second.contains("epoch    4:"),
            "{second}"
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains(&format!("# command: tessera tune {game} --method texel")));
        let weights = std::path::PathBuf::from(&out);
        if game == "quixo" {
            tessera::games::quixo::eval::Weights::load(&weights).unwrap();
        } else {
            tessera::games::talat::eval::Weights::load(&weights).unwrap();
        }
        // The tuned file plays: a best move with it.
        ok(&["bestmove", game, "--depth", "2", "--weights", &out]);
    }
    // SPSA of the Talat evaluation weights: 2 iterations (six games each), then resumed.
    let sp = path("talat-spsa.txt");
    let args = |n: &str| {
        vec![
            "tune".to_string(),
            "talat".into(),
            "--method".into(),
            "spsa".into(),
            "--engine".into(),
            "name=s,algo=brs-plus,depth=1,tt-mb=1".into(),
            "--epochs".into(),
            n.into(),
            "--no-progress".into(),
            "--out".into(),
            sp.clone(),
        ]
    };
    let a: Vec<String> = args("2");
    let first = ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(first.contains("iteration    2: result"), "{first}");
    let b: Vec<String> = args("3");
    let second = ok(&b.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        second.contains("at iteration 2") && second.contains("iteration    3:"),
        "{second}"
    );
    let text = std::fs::read_to_string(&sp).unwrap();
    assert!(
        text.contains("tuned by SPSA") && text.contains("goal_live"),
        "{text}"
    );
    tessera::games::talat::eval::Weights::load(std::path::Path::new(&sp)).unwrap();
    // Bad input: one line, exit 2.
    let talat_data = path("talat.txt");
    for (args, what) in [
        (
            vec![
                "tune",
                "quixo",
                "--method",
                "patterns",
                "--data",
                &talat_data,
                "--out",
                "x",
            ],
            "Othello pattern",
        ),
        (
            vec![
                "tune",
                "talat-2p",
                "--method",
                "texel",
                "--data",
                &talat_data,
                "--out",
                "x",
            ],
            "line 7: position text starts with 'talat'",
        ),
        (
            vec![
                "tune",
                "quixo-4p",
                "--method",
                "spsa",
                "--engine",
                "quixo-4p-ab-d3",
                "--out",
                "x",
            ],
            "quixo-4p",
        ),
        (
            vec![
                "selfplay",
                "quixo",
                "--engine",
                "quixo-ab-d2",
                "--games",
                "1",
                "--exact-empties",
                "4",
                "--out",
                "x",
            ],
            "--exact-empties",
        ),
        (
            vec![
                "selfplay",
                "talat",
                "--engine",
                "quixo-ab-d2",
                "--games",
                "1",
                "--out",
                "x",
            ],
            "plays quixo",
        ),
    ] {
        let o = tessera().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(what),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A checkpoint resumes only the run that wrote it; outputs never overwrite inputs; an
/// unwritable output and unused weights are refused before any work.
#[test]
fn checkpoints_belong_to_their_run_and_outputs_are_checked_first() {
    let dir = std::env::temp_dir().join(format!("tessera-tune-ck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name).display().to_string();
    let run = |args: &[&str]| tessera().args(args).output().unwrap();
    let must_fail = |args: &[&str], what: &str| {
        let o = run(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(what),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    };
    let (a, b) = (p("a.txt"), p("b.txt"));
    for (data, seed) in [(&a, "1"), (&b, "2")] {
        let o = run(&[
            "selfplay",
            "quixo",
            "--engine",
            "quixo-ab-d2",
            "--games",
            "10",
            "--seed",
            seed,
            "--no-progress",
            "--out",
            data,
        ]);
        assert!(o.status.success());
    }
    let out = p("w.txt");
    let texel = |data: &str, extra: &[&str]| {
        let mut v = vec![
            "tune",
            "quixo",
            "--method",
            "texel",
            "--epochs",
            "2",
            "--no-progress",
            "--data",
            data,
            "--out",
            &out,
        ];
        v.extend_from_slice(extra);
        v.into_iter().map(String::from).collect::<Vec<_>>()
    };
    assert!(run(&strs(&texel(&a, &[]))).status.success());
    // Other data, another --lr, or another game: refused, with the way out named.
    must_fail(&strs(&texel(&b, &[])), "--fresh");
    must_fail(&strs(&texel(&a, &["--lr", "3"])), "another fit");
    let mut other_game = texel(&a, &[]);
    other_game[1] = "quixo-4p".into();
    must_fail(&strs(&other_game), "");
    // --fresh starts over on the other data.
    assert!(run(&strs(&texel(&b, &["--fresh"]))).status.success());
    // Outputs that would overwrite the data or the checkpoint.
    must_fail(
        &[
            "tune", "quixo", "--method", "texel", "--data", &a, "--out", &a,
        ],
        "overwrite the data file",
    );
    // A data file named like the checkpoint's temporary file is refused; one that only
    // shares the output's stem (`w2.tmp` beside `w2.txt`) is left as it was.
    let tmp_named = p("w3.ckpt.tmp");
    std::fs::copy(&a, &tmp_named).unwrap();
    must_fail(
        &[
            "tune",
            "quixo",
            "--method",
            "texel",
            "--data",
            &tmp_named,
            "--out",
            &p("w3.txt"),
        ],
        "overwrite the data file",
    );
    let stem_named = p("w2.tmp");
    std::fs::copy(&a, &stem_named).unwrap();
    let before = std::fs::read(&stem_named).unwrap();
    let o = run(&[
        "tune",
        "quixo",
        "--method",
        "texel",
        "--epochs",
        "2",
        "--no-progress",
        "--data",
        &stem_named,
        "--out",
        &p("w2.txt"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&stem_named).unwrap(),
        before,
        "the data file was changed"
    );
    let ck = p("w.ckpt");
    must_fail(
        &[
            "tune", "quixo", "--method", "texel", "--data", &a, "--out", &ck,
        ],
        "is the output file",
    );
    // A folder as the output: refused before any game or epoch.
    must_fail(
        &[
            "selfplay",
            "quixo",
            "--engine",
            "quixo-ab-d2",
            "--games",
            "1000000",
            "--out",
            &dir.display().to_string(),
        ],
        "it is a folder",
    );
    // SPSA: a checkpoint of another engine is refused.
    let sp = p("s.txt");
    let spsa = |engine: &str| {
        run(&[
            "tune",
            "quixo",
            "--method",
            "spsa",
            "--engine",
            engine,
            "--epochs",
            "1",
            "--no-progress",
            "--out",
            &sp,
        ])
    };
    assert!(spsa("quixo-ab-d2").status.success());
    let o = spsa("name=q,depth=1,tt-mb=1");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another SPSA run"));
    // MCTS has no evaluation: weights are refused, not ignored.
    must_fail(
        &[
            "bestmove",
            "quixo",
            "--algo",
            "mcts",
            "--iterations",
            "50",
            "--weights",
            "builtin:texel",
        ],
        "--weights is for",
    );
    must_fail(
        &[
            "selfplay",
            "quixo",
            "--engine",
            "name=m,algo=mcts,iterations=20,weights=builtin:texel",
            "--games",
            "1",
            "--out",
            &p("m.txt"),
        ],
        "weights are for",
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `tune --set 2` on sharded self-play data: held out by game, the per-phase error table
/// next to format 1's, a resume that runs only the missing epochs, a resume with other
/// settings refused, and bad inputs (another game's data, a cut or corrupt weights file)
/// refused with one line and exit code 2.
#[test]
fn tune_set_2_fits_by_game_resumes_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("tessera-tune-set2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shard = |i: u32| {
        let out = dir.join(format!("s{i}.txt"));
        let o = tessera()
            .args(["selfplay", "othello", "--engine", "name=x,depth=1,tt-mb=1"])
            .args(["--games", "40", "--exact-empties", "8", "--no-progress"])
            .args(["--shard", &format!("{i}/2"), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    };
    let (s1, s2) = (shard(1), shard(2));
    let data = format!("{},{}", s1.display(), s2.display());
    let bin = dir.join("p2.bin");
    let run = |extra: &[&str]| {
        tessera()
            .args(["tune", "othello", "--method", "patterns", "--set", "2"])
            .args(["--no-progress", "--data", &data, "--out"])
            .arg(&bin)
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&["--epochs", "2"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("epoch    2: train rmse"), "{out}");
    assert!(out.contains("new (format 2) | shipped format 1"), "{out}");
    assert!(out.contains("  all: "), "{out}");
    let o = run(&["--epochs", "3"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        out.contains("at epoch 2") && out.contains("epoch    3:"),
        "{out}"
    );
    assert!(!out.contains("epoch    2:"), "{out}");
    let e = tessera::games::othello::eval::Eval::load(&bin).unwrap();
    let header = e.patterns2().expect("format 2").header().join("\n");
    assert!(
        header.contains("epochs 3") && header.contains("smooth 4"),
        "{header}"
    );
    // Held out by game: 80 games, the 19th and 39th of every 20 held out, none trained on.
    assert!(header.contains(" validation positions"), "{header}");
    // A resume with another --lr is refused: the checkpoint names both settings.
    let o = run(&["--epochs", "4", "--lr", "0.01"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("other settings") && err.contains("lr=0.02"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Quixo data is not Othello data.
    let q = dir.join("q.txt");
    let o = tessera()
        .args([
            "selfplay",
            "quixo",
            "--engine",
            "name=q,algo=alphabeta,depth=1,tt-mb=1",
        ])
        .args(["--games", "2", "--no-progress", "--out"])
        .arg(&q)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = tessera()
        .args([
            "tune", "othello", "--method", "patterns", "--set", "2", "--data",
        ])
        .arg(&q)
        .args(["--out", "x.bin", "--no-progress"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("q.txt line") && err.contains("not Othello data"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // A weights file cut short, or with a corrupt stream, as an engine's weights.
    let bytes = std::fs::read(&bin).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let mut flipped = bytes.clone();
    let n = flipped.len();
    flipped[n - 100] ^= 0x5A;
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, &flipped).unwrap();
    for (file, what) in [(&cut, "cut short"), (&bad, "corrupt")] {
        let o = tessera()
            .args(["bestmove", "othello", "--depth", "2", "--weights"])
            .arg(file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&*file.display().to_string()) && err.contains(what),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
