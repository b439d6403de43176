//! Tuning: self-play data, WTHOR import, Texel and SPSA, the shipped weight files and their gain.

mod files;
mod gain;
mod selfplay;
mod spsa;
mod texel;
mod wthor;
