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
    }
}

fn run(threads: usize) -> (Vec<selfplay::Sample>, selfplay::Summary) {
    let spec = EngineSpec::from_inline("name=d1,depth=1,tt-mb=1", "othello").unwrap();
    let make = || othello::make_player(&spec);
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
    let make = || othello::make_player(&spec);
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
    let o = tessera()
        .args([
            "tune",
            "othello",
            "--method",
            "spsa",
            "--no-progress",
            "--epochs",
            "1",
        ])
        .args(["--engine", "name=m,algo=mcts,iterations=30", "--out"])
        .arg(&sp)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&sp).unwrap();
    assert!(
        text.contains("SPSA") && text.contains("mcts_c_centi"),
        "{text}"
    );
    // Bad input: one error line, exit code 2.
    for args in [
        vec!["--method", "patterns", "--out", "x.bin"],
        vec![
            "--method",
            "spsa",
            "--engine",
            "othello-ab-d1",
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
