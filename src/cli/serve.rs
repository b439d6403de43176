//! `tessera serve`: the web application of [`tessera::web`] on a local port.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tessera::web::{ServeConfig, ServeError, WebServer};

use super::output::{CliError, say};

/// Arguments of `tessera serve`.
#[derive(Args, Debug)]
#[command(
    about = "Play, analyse and watch games in the browser: a local web page for all five games",
    long_about = "Starts a web server on this machine and serves one page to play any of the \
                  five games against tessera's engines (people at any seats), with the legal \
                  moves on the board, hints, undo/redo and every move's score (analysis), and to \
                  watch tournament folders (--watch). The page needs no network: its scripts are \
                  in the binary. It listens on 127.0.0.1 only unless --bind is given.",
    after_help = "Examples:\n  tessera serve --open\n  tessera serve --port 8080 --watch runs/t1"
)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the URL is printed at start)
    #[arg(long, default_value_t = 8421)]
    pub port: u16,
    /// Address to listen on: 127.0.0.1 (this machine only) unless given, e.g. 0.0.0.0 for
    /// every interface (anyone who can reach the port can then use the page)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Open the page in the desktop's browser (xdg-open)
    #[arg(long)]
    pub open: bool,
    /// A tournament folder (with games.jsonl) to replay and follow on the page (repeatable)
    #[arg(long, value_name = "DIR")]
    pub watch: Vec<PathBuf>,
}

/// Runs `tessera serve` until interrupted.
///
/// # Errors
/// A port that cannot be bound or a watched folder that does not exist.
pub fn run(args: &ServeArgs) -> Result<ExitCode, CliError> {
    let config = ServeConfig {
        addr: std::net::SocketAddr::new(args.bind, args.port),
        watch: args.watch.clone(),
    };
    let server = WebServer::bind(config).map_err(|e| match e {
        ServeError::NotAFolder(_) => CliError::input(format!("--watch {e}")),
        ServeError::Listen { .. } => CliError::input(e.to_string()),
        ServeError::NoAddress => CliError::failure(e.to_string()),
    })?;
    let url = server.url();
    let scope = if args.bind.is_loopback() {
        "this machine only; --bind ADDR to listen elsewhere"
    } else {
        "every client that can reach this address"
    };
    say(format!(
        "tessera serve: listening on {url} ({scope}); Ctrl-C stops"
    ));
    if args.open
        && let Err(e) = std::process::Command::new("xdg-open").arg(&url).spawn()
    {
        say(format!(
            "cannot open a browser (xdg-open: {e}); open {url} yourself"
        ));
    }
    server.run();
    Ok(ExitCode::SUCCESS)
}
