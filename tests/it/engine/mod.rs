//! Building engines: one builder for every front end, levels, time management, accuracy.

mod accuracy;
mod builder;
mod levels;
mod time_management;
