//! Quixo: rules cases, perft, df-pn and the tables, exact solving, the table files and tiers.

mod cases;
mod dfpn;
mod perft;
mod rules;
mod search;
mod solve;
mod speedups;
mod table;
mod tables;
mod tier;
