//! A two-engine Othello match from Rust, what `tessera tournament othello` does:
//! `cargo run --release --example match -- [ENGINE_A ENGINE_B [ROUNDS [OUT_DIR]]]`.
//!
//! Engines are preset names (`othello-ab-d2`, the files of `engines/`), `.toml` paths or
//! inline specs (`name=d3,depth=3`); each round plays one random 8-ply opening twice, colours
//! swapped. The records go to OUT_DIR (default `match-out`; run again to resume), then the
//! report is printed. Defaults: `othello-ab-d2 othello-ab-d4 10`.

use std::path::PathBuf;
use std::process::ExitCode;

use tessera::engine::{EngineSpec, Players};
use tessera::games::othello::Position;
use tessera::tournament::openings::OpeningSource;
use tessera::tournament::runner::{self, RunOptions};
use tessera::tournament::schedule::Format;
use tessera::tournament::{report, settings::Settings};

/// An engine argument: a preset name or `.toml` path, or an inline spec (`name=...,...`).
fn engine(arg: &str) -> Result<EngineSpec, tessera::engine::SpecError> {
    if arg.contains('=') {
        EngineSpec::from_inline(arg, "othello")
    } else {
        EngineSpec::resolve(arg)
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let a = engine(args.first().map_or("othello-ab-d2", String::as_str))?;
    let b = engine(args.get(1).map_or("othello-ab-d4", String::as_str))?;
    let rounds = match args.get(2) {
        Some(r) => r
            .parse()
            .map_err(|_| format!("bad ROUNDS '{r}': expected a whole number"))?,
        None => 10,
    };
    let out = PathBuf::from(args.get(3).map_or("match-out", String::as_str));
    let settings = Settings {
        game: "othello".into(),
        engines: vec![a, b],
        format: Format::RoundRobin,
        rounds,
        openings: OpeningSource::RandomPlies(8),
        openings_order: Default::default(),
        seed: 1,
        max_plies: 1000,
        sprt: None,
        anchor: None,
        adjudicate: Default::default(),
    };
    let options = RunOptions {
        out,
        concurrency: std::thread::available_parallelism().map_or(1, |n| n.get()),
        shard: None,
        progress: false,
        interrupt: None,
        allow_changed_files: false,
        openings_repeat: Default::default(),
    };
    let outcome = runner::run::<Position>(&settings, &options, &Position::make_player, None)?;
    println!(
        "played {} games ({} already recorded in {})",
        outcome.played,
        outcome.resumed,
        options.out.display()
    );
    print!("{}", report::render(&outcome.report));
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
