//! A small Texel fit from Rust, what `tessera selfplay quixo` then `tessera tune quixo
//! --method texel` do: `cargo run --release --example fit -- [OUT_DIR]`.
//!
//! A depth-1 Quixo engine plays 20 games against itself from random openings; its labelled
//! positions are written to OUT_DIR/data.txt (default `fit-out`), then the Quixo
//! evaluation's named weights are fitted to the results for 30 epochs, printing the loss per
//! epoch, and written to OUT_DIR/weights.txt (with the checkpoint beside it: run again to
//! resume, here with nothing left to do). A few seconds.

use std::path::PathBuf;
use std::process::ExitCode;

use tessera::games::quixo::Quixo;
use tessera::tuning::selfplay::Config;
use tessera::tuning::selfplay_run::{self, SelfplayConfig};
use tessera::tuning::texel_run::{self, TexelConfig};
use tessera::tuning::{Progress, TuneError, outputs, run};

/// Prints the fit's notes and one line per epoch.
struct Print;

impl Progress for Print {
    fn note(&self, line: &str) {
        println!("{line}");
    }
    fn start(&self, unit: &'static str, total: u64, done: u64) {
        println!("{total} {unit}s, {done} done");
    }
    fn step(&self, line: &str, _status: &str) {
        println!("{line}");
    }
    fn position(&self, _done: u64) {}
    fn finish(&self) {}
}

fn fit(dir: &std::path::Path) -> Result<(), TuneError> {
    let data = dir.join("data.txt");
    outputs::create_parent(&data)?;
    let play = selfplay_run::run::<Quixo>(
        &SelfplayConfig {
            engine: run::resolve_engine("name=d1,depth=1,tt-mb=1", "quixo")?,
            play: Config {
                games: 20,
                seed: 1,
                random_plies: (2, 8),
                max_plies: 200,
                threads: 1,
                shard: None,
                progress: false,
            },
            out: data.clone(),
        },
        None,
    )?;
    println!(
        "{} games, {} distinct positions in {}",
        play.games.games,
        play.games.unique,
        data.display()
    );
    let out = dir.join("weights.txt");
    outputs::check_outputs(std::slice::from_ref(&data), &out, None)?;
    let cfg = TexelConfig {
        data: vec![data],
        checkpoint: outputs::default_checkpoint(&out),
        out,
        fresh: false,
        epochs: 30,
        lr: 1.0,
        threads: 1,
    };
    let s = texel_run::run::<Quixo>(&cfg, &Print)?;
    println!(
        "wrote {}: loss {:.6} (defaults) -> {:.6} after {} epochs",
        cfg.out.display(),
        s.loss_defaults,
        s.loss,
        s.epochs
    );
    Ok(())
}

fn main() -> ExitCode {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "fit-out".into()));
    match fit(&dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(if e.is_failure() { 1 } else { 2 })
        }
    }
}
