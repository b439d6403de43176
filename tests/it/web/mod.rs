//! The web application (`tessera serve`): its HTTP API and the page in a real browser.

pub(crate) mod browser;
mod serve;
