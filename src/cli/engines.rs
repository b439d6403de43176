//! `tessera engines`: the engine presets a user can name, with their game, settings and
//! what each one is.

use std::process::ExitCode;

use clap::Args;
use tessera::engine::catalog;

use super::GameId;
use super::output::{CliError, print_json, say};

/// Arguments of `tessera engines`.
#[derive(Args, Debug)]
#[command(
    about = "List the engine presets (for --engine in tournament, gtp, selfplay): name, game, settings",
    long_about = "Lists the engine presets: those built into the program (the files of \
                  engines/) and any engines/*.toml in the working directory, with their game, \
                  algorithm and limit, and the first sentence of each file's comment. Any of \
                  them can be given to --engine; a .toml path or an inline spec \
                  (key=value,...) works too (docs/tournament.md).",
    after_help = "Examples:\n  tessera engines\n  tessera engines quixo --json"
)]
pub struct EnginesArgs {
    /// Only the presets of this game
    #[arg(value_parser = super::GameIdParser)]
    pub game: Option<GameId>,
    /// Print one JSON array instead of the table
    #[arg(long)]
    pub json: bool,
}

/// Runs `tessera engines`.
///
/// # Errors
/// A preset file in `engines/` that does not parse.
pub fn run(args: &EnginesArgs) -> Result<ExitCode, CliError> {
    let list = catalog::presets(args.game.map(GameId::name)).map_err(CliError::input)?;
    if args.json {
        print_json(&serde_json::to_value(&list).map_err(|e| CliError::failure(e.to_string()))?);
        return Ok(ExitCode::SUCCESS);
    }
    let width = list.iter().map(|p| p.name.len()).max().unwrap_or(4).max(4);
    say(format!(
        "{:<width$}  {:<8}  {:<28}  about",
        "name", "game", "settings"
    ));
    for p in &list {
        say(format!(
            "{:<width$}  {:<8}  {:<28}  {}",
            p.name, p.game, p.settings, p.about
        ));
    }
    Ok(ExitCode::SUCCESS)
}
