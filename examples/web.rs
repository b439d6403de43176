//! The web application from Rust, what `tessera serve` runs:
//! `cargo run --release --example web -- [PORT [WATCH_DIR...]]`.
//!
//! Listens on 127.0.0.1:PORT (default 0: any free port, printed), serves the page to play,
//! analyse and watch games of all five games, and follows the tournament folders given
//! after the port. Ctrl-C stops it.

use std::process::ExitCode;

use tessera::web::{ServeConfig, WebServer};

fn run(args: &[String]) -> Result<(), String> {
    let port = match args.first() {
        Some(p) => p
            .parse::<u16>()
            .map_err(|_| format!("bad PORT '{p}': expected 0..65535"))?,
        None => 0,
    };
    let config = ServeConfig {
        addr: std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        watch: args.iter().skip(1).map(Into::into).collect(),
    };
    let server = WebServer::bind(config).map_err(|e| e.to_string())?;
    println!("serving {} (Ctrl-C stops)", server.url());
    server.run();
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
