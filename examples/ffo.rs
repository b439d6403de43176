use tessera::games::othello::{Position, endgame::Solver, eval::Eval};
use tessera::search::{Limits, TranspositionTable};
/// Solves FFO problems (ids as arguments, default all); the environment variable
/// `TESSERA_WEIGHTS=FILE` sets the evaluation that orders the solver's moves (default: the
/// shipped pattern evaluation; `tuning/othello-baseline.json` gives the baseline one).
fn main() {
    let eval = match std::env::var_os("TESSERA_WEIGHTS") {
        Some(path) => Eval::load(std::path::Path::new(&path)).unwrap(),
        None => Eval::with_patterns(tessera::games::othello::patterns::shipped()),
    };
    let ids: Vec<u32> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap())
        .collect();
    let text = std::fs::read_to_string("tests/data/othello/ffo-40-59.txt").unwrap();
    let mut total = 0.0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let id: u32 = f[0].parse().unwrap();
        if !ids.is_empty() && !ids.contains(&id) {
            continue;
        }
        let pos: Position = format!("{} {}", f[1], f[2]).parse().unwrap();
        let tt = TranspositionTable::new(256);
        let mut s = Solver::with_eval(&tt, &Limits::default(), eval.clone());
        let sol = s.solve(&pos);
        total += sol.seconds;
        println!(
            "#{id} empties {} score {:?} (expect {}) move {:?} (expect {}) nodes {} time {:.3}s {:.1} Mn/s",
            pos.empties(),
            sol.score,
            f[3],
            sol.best_move,
            f[4],
            sol.nodes,
            sol.seconds,
            sol.nodes as f64 / sol.seconds / 1e6
        );
    }
    println!("total {total:.2}s");
}
