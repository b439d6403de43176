//! Tournaments: runs, records, clocks, signals, shards, the cluster, ratings, fairness, schemas.

mod clock;
mod cluster;
mod fairness;
mod files;
mod rating_stats;
mod records;
mod runs;
mod safety;
mod schemas;
mod selfplay_shards;
mod shards;
mod signals;
