//! The engine of a protocol front end (`tessera gtp`): a preset or inline spec
//! ([`ProtocolFlags::engine`], default per game: [`default_engine`]) whose limits
//! `--depth` and `--time-ms`, or `--level`, replace, and the Othello book it plays from.

use super::flags::{FlagsError, refuse_empty_book};
use super::{EngineSpec, Protocol};

/// The preset a protocol front end plays when no engine is named, per game id.
#[must_use]
pub fn default_engine(game: &str) -> &'static str {
    match game {
        "quixo" => "quixo-ab-d4",
        "quixo-4p" => "quixo-4p-ab-d3",
        _ => "othello-ab-d6",
    }
}

/// The flags, `None` where not given.
#[derive(Clone, Debug, Default)]
pub struct ProtocolFlags {
    /// A preset name, preset file (`.toml`) or inline spec; `None`: [`default_engine`].
    pub engine: Option<String>,
    /// Depth per move, plies (replaces the spec's limits).
    pub depth: Option<u32>,
    /// Time per move, milliseconds (replaces the spec's limits).
    pub time_ms: Option<u64>,
    /// Strength level (replaces the spec's limits).
    pub level: Option<u32>,
    /// Othello opening book: `builtin`, a file or `none`; `None`: the spec's own `book`,
    /// else `builtin`.
    pub book: Option<String>,
}

impl ProtocolFlags {
    /// The engine spec for game `game`: an inline spec when the text has a `=`, else a
    /// preset; `depth` and `time_ms`, or `level`, replace its limits; in Othello the book
    /// (the `book` field, or the spec's own).
    ///
    /// # Errors
    /// An unknown preset or bad spec, a bad level, an empty `--book`, or a book for an
    /// external program.
    pub fn spec(&self, game: &str) -> Result<EngineSpec, FlagsError> {
        let engine = self
            .engine
            .as_deref()
            .unwrap_or_else(|| default_engine(game));
        let mut spec =
            EngineSpec::from_arg(engine, game).map_err(|e| FlagsError::Engine(e.into()))?;
        if game == "othello" {
            spec.book = self.othello_book(&spec)?;
        }
        if self.depth.is_some() || self.time_ms.is_some() {
            spec.depth = self.depth;
            spec.time_ms = self.time_ms;
            spec.nodes = None;
            spec.level = None;
        }
        if let Some(level) = self.level {
            spec = spec
                .with_level(level)
                .map_err(|e| FlagsError::Engine(e.into()))?;
        }
        Ok(spec)
    }

    /// The Othello book the engine plays with, as the spec's `book` field (which
    /// [`super::Players::make_player`] applies): `--book` when given, else the spec's own
    /// `book` (`none` included), else the built-in book. An external program plays its
    /// own: none, and `--book builtin|FILE` is refused for it.
    fn othello_book(&self, spec: &EngineSpec) -> Result<Option<String>, FlagsError> {
        refuse_empty_book(self.book.as_deref())?;
        if spec.protocol != Protocol::Builtin {
            return match self.book.as_deref() {
                Some(b) if b != "none" => Err(FlagsError::Conflict(
                    "--book is for the built-in engines (an external program plays its own)".into(),
                )),
                _ => Ok(None),
            };
        }
        Ok(Some(
            self.book
                .clone()
                .or_else(|| spec.book.clone())
                .unwrap_or_else(|| "builtin".into()),
        ))
    }
}
