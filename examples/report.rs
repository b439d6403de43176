//! An HTML report from Rust, what `tessera tournament report DIR --html FILE` writes:
//! `cargo run --release --example report -- [OUT_HTML [OUT_DIR]]`.
//!
//! Plays a short Quixo match between two presets into OUT_DIR (default `report-out`; run
//! again and it resumes), then renders the folder's self-contained page (rating table,
//! charts, every game replayable) to OUT_HTML (default `report-out/report.html`).

use std::path::PathBuf;
use std::process::ExitCode;

use tessera::engine::{EngineSpec, Players};
use tessera::games::quixo::Quixo;
use tessera::tournament::openings::OpeningSource;
use tessera::tournament::record;
use tessera::tournament::runner::{self, RunOptions};
use tessera::tournament::schedule::Format;
use tessera::tournament::settings::Settings;

fn run(args: &[String]) -> Result<(), String> {
    let out = PathBuf::from(args.get(1).map_or("report-out", String::as_str));
    let html = args
        .first()
        .map_or_else(|| out.join("report.html"), PathBuf::from);
    let settings = Settings {
        game: "quixo".into(),
        engines: vec![
            EngineSpec::resolve("quixo-ab-d2")?,
            EngineSpec::from_inline("name=quixo-d3,depth=3,tt-mb=16", "quixo")?,
        ],
        format: Format::RoundRobin,
        rounds: 4,
        openings: OpeningSource::RandomPlies(2),
        openings_order: Default::default(),
        seed: 7,
        max_plies: 200,
        sprt: None,
        anchor: None,
        adjudicate: Default::default(),
    };
    let options = RunOptions {
        out: out.clone(),
        concurrency: 1,
        shard: None,
        progress: false,
        interrupt: None,
    };
    let outcome = runner::run::<Quixo>(&settings, &options, &Quixo::make_player, None)?;
    let records = record::load(&out.join("games.jsonl"))?;
    let page = tessera::report::tournament_page::<Quixo>(&out, &settings, &records)
        .map_err(|e| e.to_string())?;
    tessera::report::write_page(&html, &page).map_err(|e| e.to_string())?;
    println!(
        "{} games ({} played now); page written to {}",
        records.len(),
        outcome.played,
        html.display()
    );
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
