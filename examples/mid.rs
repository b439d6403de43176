use tessera::engine::Player;
use tessera::games::othello::*;
use tessera::search::Limits;
fn main() {
    let d: u32 = std::env::args().nth(1).map_or(10, |s| s.parse().unwrap());
    let mut e = alphabeta_engine("ab", eval::Weights::default(), 64, 18)
        .with_progress(|i| println!("depth {} score {} nodes {} pv {:?}", i.depth, i.score, i.nodes, i.pv));
    let t = e.choose(&Position::start(), &Limits::depth(d)).unwrap();
    println!("{:?} {} nodes {} {:.0} nps", t.best_move, t.score, t.nodes, t.nps());
}
