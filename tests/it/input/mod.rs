//! Bad input refused with one line and exit code 2: capped file reads, values that mean nothing.

mod bounded_reads;
mod engine_names;
mod limits;
