//! `tessera selfplay othello --wthor FILE,...`: the positions of human games from WTHOR
//! databases, labelled as self-play positions are, written in the self-play data format.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use tessera::formats::wthor::{self, GAME_BYTES, HEADER_BYTES, MAX_GAMES};
use tessera::games::othello::Position;
use tessera::tuning::selfplay::{self, SolveFn};

use super::output::{CliError, print_json, say};

/// What `selfplay --wthor` needs of the `selfplay` arguments.
pub struct WthorArgs<'a> {
    /// The game id given (only `othello` has WTHOR files).
    pub game: String,
    /// The WTHOR files, read in order.
    pub files: &'a [PathBuf],
    /// Output data file (overwritten).
    pub out: &'a Path,
    /// Exact labels at this many empties or fewer (default 14; 0 = none).
    pub exact_empties: Option<u32>,
    /// `--max-plies`, refused here (played games only).
    pub max_plies: Option<u64>,
    /// Worker threads.
    pub threads: u64,
    /// Print one JSON object.
    pub json: bool,
}

/// Reads `path`: the header, then as many bytes as the game count it announces (at most
/// [`MAX_GAMES`] games) and one more, so that [`wthor::parse`] can tell a file cut short or
/// too long; a device such as `/dev/zero` is never read past that.
fn read_bounded(path: &Path) -> Result<Vec<u8>, CliError> {
    let err = |e: std::io::Error| {
        CliError::input(format!("cannot read WTHOR file {}: {e}", path.display()))
    };
    let mut file = std::fs::File::open(path).map_err(err)?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(HEADER_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(err)?;
    let n1 = bytes
        .get(4..8)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    // A header announcing more than MAX_GAMES is refused by the parser from the header.
    if bytes.len() == HEADER_BYTES && n1 <= MAX_GAMES {
        let rest = u64::from(n1) * GAME_BYTES as u64 + 1;
        file.take(rest).read_to_end(&mut bytes).map_err(err)?;
    }
    Ok(bytes)
}

/// Runs `selfplay othello --wthor`.
///
/// # Errors
/// Another game than Othello, options that only apply to played games, an unreadable, cut
/// short or malformed WTHOR file (naming it, and the game and ply of a bad move), an
/// unwritable output.
pub fn run(args: &WthorArgs) -> Result<ExitCode, CliError> {
    if args.game != "othello" {
        return Err(CliError::input(
            "--wthor reads Othello game databases: use `selfplay othello --wthor FILE`",
        ));
    }
    if args.max_plies.is_some() {
        return Err(CliError::input(
            "--max-plies is for played games; WTHOR games are read whole",
        ));
    }
    let mut games = Vec::new();
    let mut sources = Vec::new();
    for path in args.files {
        let bytes = read_bounded(path)?;
        let file = wthor::parse(&bytes, &path.display().to_string()).map_err(CliError::input)?;
        sources.push(format!(
            "{} ({} games of {}, made {:04}-{:02}-{:02})",
            path.display(),
            file.games.len(),
            file.year,
            file.created.0,
            file.created.1,
            file.created.2
        ));
        games.extend(file.games);
    }
    super::output::create_parent(args.out)?;
    super::output::check_writable(args.out)?;
    let exact = args.exact_empties.unwrap_or(14);
    let solve = move |pos: &Position| tessera::tuning::othello::solve_label(pos, exact);
    let solve = (exact > 0).then_some(&solve as &SolveFn<Position>);
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|e| CliError::failure(format!("cannot start {} threads: {e}", args.threads)))?;
    let (samples, summary) = pool
        .install(|| tessera::tuning::wthor::samples(&games, solve))
        .map_err(CliError::input)?;
    let mut header = vec![
        format!("tessera selfplay data ({} positions)", summary.unique),
        format!("command: {}", tessera::tuning::command_line()),
    ];
    header.extend(sources.iter().map(|s| format!("wthor: {s}")));
    header.push(format!(
        "games {}, {} stopped before the end (labelled with the recorded result), date {}",
        summary.games,
        summary.cut,
        tessera::tuning::utc_date()
    ));
    let mut fields =
        "fields: position, final disc difference (empties to the winner) for the side to move, "
            .to_string();
    if solve.is_some() {
        header.push(format!("exact values at <= {exact} empties"));
        fields.push_str("exact value or -");
    } else {
        fields.push('-');
    }
    header.push(fields);
    std::fs::write(args.out, selfplay::to_text(&samples, &header))
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", args.out.display())))?;
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        print_json(&serde_json::json!({
            "games": summary.games,
            "unfinished": summary.cut,
            "positions": summary.positions,
            "unique": summary.unique,
            "exact": summary.exact,
            "seconds": secs,
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "{} WTHOR games ({} stopped before the end), {} positions, {} distinct written to {} \
             ({} with exact labels) in {secs:.1} s",
            summary.games,
            summary.cut,
            summary.positions,
            summary.unique,
            args.out.display(),
            summary.exact
        ));
    }
    Ok(ExitCode::SUCCESS)
}
