//! File formats shared with other programs: [`ggf`] (GGS / NBoard / Edax game records for
//! Othello).

pub mod ggf;
