//! The engine of a protocol front end (`tessera gtp`): a preset or inline spec
//! ([`ProtocolFlags::engine`], default per game: [`default_engine`]) whose limits
//! `--depth` and `--time-ms`, or `--level`, replace, and the Othello book it plays from.

use super::flags::{FlagsError, refuse_empty_book};
use super::{EngineSpec, Protocol};

/// The preset a protocol front end plays when no engine is named, per game id. Othello:
/// the strongest configuration, `othello-best-t100` (the front ends' engine,
/// [`EngineSpec::front_end_default`], with `exact-empties = "auto"`, which plans one move at
/// a time as a GTP engine is asked), whose 100 ms per move a GUI's clock replaces
/// ([`ProtocolFlags::clock_limits`]).
#[must_use]
pub fn default_engine(game: &str) -> &'static str {
    match game {
        "quixo" => "quixo-ab-d4",
        "quixo-4p" => "quixo-4p-ab-d3",
        _ => "othello-best-t100",
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
            if self.engine.is_none() {
                // The default engine at a level searches full width, as `bestmove --level`.
                spec = spec.full_width();
            }
            spec = spec
                .with_level(level)
                .map_err(|e| FlagsError::Engine(e.into()))?;
        }
        Ok(spec)
    }

    /// The limits to move within once the other side sends a game clock (GTP's
    /// `time_settings` / `time_left`), in place of `spec`'s: with no engine, depth, time or
    /// level asked for, the default engine's own move time is only its untimed default, and
    /// the clock alone plans the moves (`Some`: `spec`'s limits without depth, nodes or
    /// time). Anything asked for stays a limit under the clock too (`None`).
    #[must_use]
    pub fn clock_limits(&self, spec: &EngineSpec) -> Option<crate::search::Limits> {
        let asked = self.engine.is_some()
            || self.depth.is_some()
            || self.time_ms.is_some()
            || self.level.is_some();
        (!asked).then(|| crate::search::Limits {
            depth: None,
            nodes: None,
            time_ms: None,
            ..spec.limits()
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_othello_engine_is_the_strongest_and_a_clock_replaces_its_move_time() {
        let flags = ProtocolFlags::default();
        let mut spec = flags.spec("othello").unwrap();
        // The preset itself, with the built-in book put in front of it.
        assert_eq!(spec.book.as_deref(), Some("builtin"));
        spec.book = None;
        assert_eq!(spec, EngineSpec::resolve("othello-best-t100").unwrap());
        assert_eq!(spec.time_ms, Some(100));
        let l = flags.clock_limits(&spec).unwrap();
        assert_eq!((l.depth, l.nodes, l.time_ms), (None, None, None));
        // A book choice is not a limit; anything asked for stays one under a clock.
        let booked = ProtocolFlags {
            book: Some("none".into()),
            ..ProtocolFlags::default()
        };
        assert!(booked.clock_limits(&spec).is_some());
        for asked in [
            ProtocolFlags {
                depth: Some(4),
                ..ProtocolFlags::default()
            },
            ProtocolFlags {
                time_ms: Some(50),
                ..ProtocolFlags::default()
            },
            ProtocolFlags {
                level: Some(3),
                ..ProtocolFlags::default()
            },
            ProtocolFlags {
                engine: Some("othello-best-t100".into()),
                ..ProtocolFlags::default()
            },
        ] {
            let spec = asked.spec("othello").unwrap();
            assert!(asked.clock_limits(&spec).is_none(), "{asked:?}");
        }
    }
}
