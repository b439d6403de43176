//! The `tessera` command-line program: `tessera --help` lists the subcommands, README.md
//! has examples. The commands live in [`cli`]; the engine itself is the `tessera` library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
