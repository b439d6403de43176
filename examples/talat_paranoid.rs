//! A game of three-player Talat from Rust, each seat a different multi-player search:
//! `cargo run --release --example talat_paranoid -- [DEPTH]`.
//!
//! White plays paranoid search (the others minimise its utility), Grey max-n and Black
//! BRS+, all at DEPTH plies (default 2) with the Texel-tuned evaluation; the setup phase's
//! tower placements are moves like any other. Prints each move and the final points.

use std::process::ExitCode;

use tessera::engine::{EngineSpec, Players};
use tessera::game::Game;
use tessera::games::talat::Talat;
use tessera::present::Present;

fn run(args: &[String]) -> Result<(), String> {
    let depth: u32 = match args.first() {
        Some(d) => d
            .parse()
            .map_err(|_| format!("bad DEPTH '{d}': expected a whole number"))?,
        None => 2,
    };
    let specs = ["paranoid", "maxn", "brs-plus"]
        .map(|algo| {
            EngineSpec::from_inline(
                &format!("name={algo},algo={algo},depth={depth},tt-mb=8,weights=builtin:texel"),
                "talat",
            )
        })
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let mut players = specs
        .iter()
        .map(Talat::make_player)
        .collect::<Result<Vec<_>, _>>()?;
    let mut pos = Talat::start();
    let mut ply = 0;
    while pos.outcome().is_none() && ply < Talat::DEFAULT_MAX_PLIES {
        let seat = pos.to_move();
        let thought = players[seat.index()].choose(&pos, &specs[seat.index()].limits())?;
        let mv = thought.best_move.ok_or("an unfinished game has a move")?;
        println!("{:>3} {:<8} {mv}", ply + 1, pos.seat_name(seat));
        pos = pos.play(mv);
        ply += 1;
    }
    println!(
        "{}",
        pos.result_text()
            .unwrap_or_else(|| "stopped at the ply cap".into())
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
