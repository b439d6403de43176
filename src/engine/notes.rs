//! The note a front end shows before a search ([`search_note`]): in Othello, that the
//! position is in the opening book (its move is played, not searched), or that it will be
//! solved exactly; in Quixo, that the engine's tables answer the position.

use std::any::Any;

use super::EngineSpec;
use super::spec::{Algorithm, ExactEmpties};
use crate::game::Game;
use crate::games::othello::{self as oth, Position};
use crate::search::Limits;

/// What the engine `engine` will do with `pos` under `limits`, when worth a line before
/// the search (`info ...`); `None` for the games without such a note.
#[must_use]
pub fn search_note<G: Game>(pos: &G, engine: &EngineSpec, limits: &Limits) -> Option<String> {
    if let Some(q) = (pos as &dyn Any).downcast_ref::<crate::games::quixo::Quixo>() {
        return super::quixo_tables::table_note(engine, q);
    }
    let pos = (pos as &dyn Any).downcast_ref::<Position>()?;
    if let Some(book) = engine.book_source()
        && super::flags::book_arg(Some(book))
            .ok()
            .flatten()
            .is_some_and(|b| b.contains(pos))
    {
        return Some(
            "info the position is in the opening book: its best move is played (--book none to search)"
                .to_string(),
        );
    }
    let setting = engine
        .exact_empties
        .unwrap_or(ExactEmpties::Upto(oth::DEFAULT_EXACT_EMPTIES));
    let exact = setting.max_empties();
    let empties = pos.empties();
    let exact_applies = engine.algo == Algorithm::Alphabeta
        && empties <= exact
        && (engine.level.is_some() || limits.depth.is_none_or(|d| d >= empties));
    exact_applies.then(|| match setting {
        ExactEmpties::Upto(_) => {
            format!("info {empties} empties <= --exact-empties {exact}: solving exactly")
        }
        ExactEmpties::Auto => format!(
            "info {empties} empties <= {exact} (--exact-empties auto): solving exactly where the solver's measured cost fits the budget"
        ),
    })
}
