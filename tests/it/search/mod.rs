//! The shared searches: MCTS (also tree-parallel), Lazy SMP, multi-player searches on toy games.

mod mcts;
mod mcts_tree_parallel;
mod multi_toys;
mod multiplayer;
mod parallel;
mod partial_iteration;
