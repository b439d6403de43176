//! The tables a Quixo accuracy run judges moves by ([`tier_truth`]): a finished 5x5
//! one-blank tier table from its file, and the full-board table (loaded or built).

use std::path::Path;

use super::one_blank::OneBlankTable;
use super::retro::FullBoardTable;

/// The one-blank tier table of `file` (checked first) and the full-board table (`table`,
/// else the cache file; built when missing); `notes` gets the cache's lines for people.
///
/// # Errors
/// A tier file that cannot be read or is the 4x4 one, a `table` file that is not ours, no
/// full-board table (the message names which).
pub fn tier_truth(
    file: &Path,
    table: Option<&Path>,
    notes: &mut dyn FnMut(&str),
) -> Result<(OneBlankTable, FullBoardTable), String> {
    // The tier file is checked before the full-board table is loaded (or built).
    let (one, _) = super::tier_build::read_final(file)?;
    if one.tier().classes() != 6 {
        return Err(format!(
            "{}: a 4x4 tier table; accuracy needs the 5x5 one",
            file.display()
        ));
    }
    let full = super::table_cache::obtain(table, 1, true, notes)
        .map_err(|e| format!("--table {e}"))?
        .map(|(t, _)| t)
        .ok_or_else(|| "no full-board table could be had".to_string())?;
    Ok((one, full))
}
