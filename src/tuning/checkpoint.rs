//! Writing a fit's checkpoint: the one writer every tuner's checkpoint goes through
//! (SPSA, Texel and pattern fits), so none can leave a half-written file behind.

use std::path::Path;

/// Writes `bytes` to `path` atomically: to `path` with the extension `.tmp` first, then
/// renamed over `path`, so an interrupted run leaves the previous checkpoint intact.
///
/// # Errors
/// `cannot write checkpoint PATH: ...` when the file cannot be written or renamed.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write checkpoint {}: {e}", path.display()))
}
