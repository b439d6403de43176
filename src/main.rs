//! The `tessera` command-line program: `tessera --help` lists the subcommands, and docs/ (the
//! user guide) has a page with examples for each. The commands live in [`cli`]; the engine
//! itself is the `tessera` library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
