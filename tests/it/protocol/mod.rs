//! The GTP and NBoard protocols, driven as a GUI or an opponent drives them.

mod gtp;
mod nboard;
