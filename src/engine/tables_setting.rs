//! The value of an engine spec's `tables` key (Quixo's solved tiers, played by
//! `engine::quixo_tables`): parsed here, below the spec, so the spec can check it without
//! importing the engine that uses it.

use std::path::PathBuf;

/// What a spec's `tables` key asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesSetting {
    /// No tables (the default).
    Off,
    /// The cache's files that are present.
    Auto,
    /// Both files, required, from the cache folder (`on`) or a folder named.
    Required(Option<PathBuf>),
}

impl TablesSetting {
    /// The setting of `text` (`off`, `auto`, `on` or a folder).
    ///
    /// # Errors
    /// An empty value, or a yes/no word (`yes`, `true`, ...) in place of `on`/`off`.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "" => Err("tables is empty: give off, auto, on or a folder holding the tables".into()),
            "yes" | "no" | "true" | "false" => Err(format!(
                "tables = {text}: give off, auto, on or a folder holding the tables"
            )),
            "off" => Ok(Self::Off),
            "auto" => Ok(Self::Auto),
            "on" => Ok(Self::Required(None)),
            dir => Ok(Self::Required(Some(PathBuf::from(dir)))),
        }
    }
}
