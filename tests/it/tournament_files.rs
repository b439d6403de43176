//! What a tournament depends on cannot change under it: the files engines name are pinned
//! when a run starts (deleting or overwriting one mid-run loses or mis-scores no game), a
//! resume over a changed file is refused naming it with both hashes (unless
//! `--allow-changed-files`), a built-in engine that fails stops the run with the finished
//! games kept, and a resume that is refused leaves the directory as it was.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tessera::engine::{EngineSpec, Player, Players};
use tessera::games::othello::Position;
use tessera::tournament::openings::OpeningSource;
use tessera::tournament::record;
use tessera::tournament::runner::{self, RunOptions, Settings};
use tessera::tournament::schedule::Format;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A one-line error with exit code 2.
fn refused(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).trim().to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn settings(engines: Vec<EngineSpec>, rounds: usize) -> Settings {
    Settings {
        game: "othello".into(),
        engines,
        format: Format::RoundRobin,
        rounds,
        openings: OpeningSource::RandomPlies(8),
        openings_order: Default::default(),
        seed: 7,
        max_plies: 1000,
        sprt: None,
        anchor: None,
        adjudicate: Default::default(),
    }
}

fn options(out: &Path) -> RunOptions {
    RunOptions {
        out: out.to_path_buf(),
        concurrency: 1,
        shard: None,
        progress: false,
        interrupt: None,
        allow_changed_files: false,
        openings_repeat: Default::default(),
    }
}

/// The repro, made deterministic: the factory deletes the weights file and
/// overwrites the book with other bytes when the fifth game's engines are built. Every
/// game is still played normally by the engines the run started with, and the records
/// pass the report's checks.
#[test]
fn files_deleted_or_overwritten_mid_run_change_no_game() {
    let dir = tmp("mid-run");
    let (w, b) = (dir.join("w.bin"), dir.join("b.book"));
    std::fs::copy(repo("tuning/othello-patterns.bin"), &w).unwrap();
    std::fs::copy(repo("books/othello.book"), &b).unwrap();
    let engines = vec![
        EngineSpec::resolve("othello-ab-d1").unwrap(),
        EngineSpec::from_inline(
            &format!("name=w,depth=2,weights={}", w.display()),
            "othello",
        )
        .unwrap(),
        EngineSpec::from_inline(&format!("name=bk,depth=2,book={}", b.display()), "othello")
            .unwrap(),
    ];
    let s = settings(engines, 4);
    let built = Arc::new(AtomicUsize::new(0));
    let (w2, b2, count) = (w.clone(), b.clone(), Arc::clone(&built));
    let factory = move |spec: &EngineSpec| -> Result<Box<dyn Player<Position>>, String> {
        // Counting from 0: 3 engines built up front, then game k's at calls 3+2k and 4+2k;
        // call 11 is game 4's first.
        if count.fetch_add(1, Ordering::SeqCst) == 11 {
            std::fs::remove_file(&w2).unwrap();
            std::fs::write(&b2, [0x5a; 1000]).unwrap();
        }
        Position::make_player(spec)
    };
    let out = dir.join("out");
    let outcome = runner::run::<Position>(&s, &options(&out), &factory, None).unwrap();
    assert!(
        built.load(Ordering::SeqCst) > 13,
        "the files changed before the last games"
    );
    assert!(!w.exists());
    assert_eq!((outcome.played, outcome.report.games), (24, 24));
    let recs = record::load(&out.join("games.jsonl")).unwrap();
    assert_eq!(recs.len(), 24);
    assert!(
        recs.iter().all(|r| r.reason == record::Reason::Normal),
        "{:?}",
        recs.iter().map(|r| r.reason).collect::<Vec<_>>()
    );
    // The folder reports (the report checks every record) and records the files' stamps.
    let o = bin()
        .args(["tournament", "report"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (files, changes) = runner::saved_files(&out).unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(
        files[0].describe(),
        format!("engine 'w' weights file {}", w.display())
    );
    assert_eq!(files[0].stamp.size, 3_348_568);
    assert_eq!(files[1].kind, "book");
    assert!(changes.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A built-in engine that fails mid-run stops the run with an error naming it and the
/// game; the games finished before are kept, and the directory reports and resumes.
#[test]
fn a_failing_built_in_engine_stops_the_run_keeping_finished_games() {
    let dir = tmp("builtin-fails");
    let engines = vec![
        EngineSpec::resolve("othello-ab-d1").unwrap(),
        EngineSpec::resolve("othello-ab-d2").unwrap(),
    ];
    let s = settings(engines, 5);
    let built = AtomicUsize::new(0);
    let failing = move |spec: &EngineSpec| -> Result<Box<dyn Player<Position>>, String> {
        // Counting from 0: 2 engines up front, then game k's at calls 2+2k and 3+2k; call
        // 11 is game 4's second seat (othello-ab-d2, the round's first game).
        if built.fetch_add(1, Ordering::SeqCst) == 11 {
            return Err("out of memory for its table".into());
        }
        Position::make_player(spec)
    };
    let out = dir.join("out");
    let e = runner::run::<Position>(&s, &options(&out), &failing, None).unwrap_err();
    assert_eq!(
        e,
        format!(
            "engine 'othello-ab-d2' (built in) failed in game 4: out of memory for its table; \
             the run stopped: 4 finished games are kept in {} (`tessera tournament report` \
             reads them; the same command resumes)",
            out.display()
        )
    );
    assert_eq!(record::load(&out.join("games.jsonl")).unwrap().len(), 4);
    let o = bin()
        .args(["tournament", "report", "--json"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 4);
    let outcome =
        runner::run::<Position>(&s, &options(&out), &Position::make_player, None).unwrap();
    assert_eq!((outcome.played, outcome.resumed), (6, 4));
    let _ = std::fs::remove_dir_all(&dir);
}

fn tournament(args: &[&str], out: &Path) -> Output {
    bin()
        .args([
            "tournament",
            "othello",
            "--no-progress",
            "--concurrency",
            "1",
            "--out",
        ])
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

/// A resume whose weights file changed is refused with one line naming the file and both
/// hashes, leaving the directory as it was; `--allow-changed-files` plays on and records
/// the change.
#[test]
fn a_resume_after_a_changed_weights_file_is_refused() {
    let dir = tmp("changed");
    let w = dir.join("w.bin");
    std::fs::copy(repo("tuning/othello-patterns.bin"), &w).unwrap();
    let engine = format!("name=w,depth=1,weights={}", w.display());
    let out = dir.join("out");
    let args = |rounds: &'static str| {
        vec![
            "--engines".to_string(),
            "othello-ab-d1".into(),
            "--engine".into(),
            engine.clone(),
            "--rounds".into(),
            rounds.into(),
        ]
    };
    let run = |a: Vec<String>, extra: &[&str]| {
        let mut v: Vec<&str> = a.iter().map(String::as_str).collect();
        v.extend_from_slice(extra);
        tournament(&v, &out)
    };
    assert!(run(args("1"), &[]).status.success());
    let before = runner::saved_files(&out).unwrap().0;
    let settings_before = std::fs::read(out.join("tournament.json")).unwrap();
    std::fs::copy(repo("tuning/othello-patterns2.bin"), &w).unwrap();
    let e = refused(&run(args("2"), &[]));
    assert!(
        e.starts_with(&format!(
            "error: engine 'w' weights file {} changed since {} was started ({} then, fnv1a64:",
            w.display(),
            out.display(),
            before[0].stamp.hash
        )) && e.contains("--allow-changed-files"),
        "{e}"
    );
    assert_eq!(
        std::fs::read(out.join("tournament.json")).unwrap(),
        settings_before
    );
    // The same content again (a copy put back) resumes.
    std::fs::copy(repo("tuning/othello-patterns.bin"), &w).unwrap();
    assert!(run(args("1"), &[]).status.success());
    std::fs::copy(repo("tuning/othello-patterns2.bin"), &w).unwrap();
    let o = run(args("2"), &["--allow-changed-files", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (files, changes) = runner::saved_files(&out).unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].before, before[0]);
    assert_eq!(changes[0].after, files[0].stamp);
    assert_eq!(changes[0].games_before, 2);
    assert_ne!(files[0].stamp.hash, before[0].stamp.hash);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A resume with fewer rounds than the directory has played is refused before anything
/// is written, naming how many rounds it holds; the directory still reports.
#[test]
fn a_resume_with_fewer_rounds_is_refused_and_the_folder_still_reports() {
    let dir = tmp("fewer");
    let out = dir.join("out");
    let engines = ["--engines", "othello-ab-d1,othello-ab-d2"];
    assert!(
        tournament(&[&engines[..], &["--rounds", "4"]].concat(), &out)
            .status
            .success()
    );
    let settings_before = std::fs::read(out.join("tournament.json")).unwrap();
    let e = refused(&tournament(
        &[&engines[..], &["--rounds", "2"]].concat(),
        &out,
    ));
    assert_eq!(
        e,
        format!(
            "error: {0} holds 4 rounds, more than --rounds 2: 4 of its games are in rounds \
             3-4; give --rounds 4 or more to resume (`tessera tournament report {0}` reports \
             what it holds)",
            out.display()
        )
    );
    assert_eq!(
        std::fs::read(out.join("tournament.json")).unwrap(),
        settings_before
    );
    let o = bin()
        .args(["tournament", "report"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("8 games of othello"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schedule_ids_read_as_ranges() {
    use tessera::tournament::validate::id_range;
    assert_eq!(id_range(8), "ids 0-7");
    assert_eq!(id_range(1), "id 0");
    assert_eq!(id_range(0), "no ids");
}

/// More rounds than a file has openings: said before the first game (how many games
/// replay an opening), refused with `--openings-repeat error`, and the report counts the
/// distinct games and says its error bars assume independent ones.
#[test]
fn reused_openings_are_announced_and_counted() {
    let dir = tmp("reuse");
    let openings = dir.join("two.txt");
    std::fs::write(&openings, "f5 d6 c3 d3\nf5 f6 e6 f4\n").unwrap();
    let out = dir.join("out");
    let args = |repeat: &'static str| {
        vec![
            "--engines".to_string(),
            "othello-ab-d1,othello-ab-d2".into(),
            "--openings".into(),
            openings.display().to_string(),
            "--rounds".into(),
            "3".into(),
            "--openings-repeat".into(),
            repeat.into(),
        ]
    };
    let run = |a: Vec<String>| tournament(&a.iter().map(String::as_str).collect::<Vec<_>>(), &out);
    let e = refused(&run(args("error")));
    assert_eq!(
        e,
        "error: the openings file holds 2 openings for 3 rounds: 2 of the 6 games replay an \
         opening already played, and deterministic engines repeat those games move for move \
         (the report's error bars assume independent games); use more openings or fewer \
         rounds, or --openings-repeat allow (--openings-repeat error)"
    );
    assert!(!out.join("tournament.json").exists());
    let o = run(args("warn"));
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("warning: the openings file holds 2 openings for 3 rounds: 2 of the 6"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(
            "note: 4 distinct games: 2 repeat an earlier game move for move (openings reused); \
             the error bars below assume 6 independent games and are too narrow"
        ),
        "{text}"
    );
    let o = bin()
        .args(["tournament", "report", "--json"])
        .arg(&out)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["games"].as_u64(), v["distinct_games"].as_u64()),
        (Some(6), Some(4))
    );
    // allow: not a word.
    let o = run(args("allow"));
    assert!(
        o.status.success() && o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
