//! Talat rule cases from `docs/rules/talat.md`, one per rule, each expected value worked
//! out by hand from the rules text (the reasoning is in the comments).
//!
//! Positions are written board by board as five rows, row 5 first (top) and row 1 last,
//! cells separated by spaces: `.` empty, upper case a tower of the board's row-1 player
//! (the first letter of its name), lower case one of its row-5 player. On `WG`, `S2` is
//! White's medium square and `h3` Grey's large hexagon.

use tessera::game::{Game, Seat};
use tessera::games::talat::{
    BoardId, DjinnSetup, Kind, Move, Phase, Position, SetupOptions, Talat, Talat2p, TowerSetup,
    freeze,
};

/// The text of one board, rows given top (row 5) to bottom (row 1).
fn rows(b: [&str; 5]) -> String {
    let mut r: Vec<String> = b.iter().map(|s| s.split_whitespace().collect()).collect();
    r.reverse();
    r.join("/")
}

/// A position from its boards and the remaining fields of the position text.
fn pos<const TWO: bool>(wg: [&str; 5], gb: [&str; 5], bw: [&str; 5], rest: &str) -> Position<TWO> {
    let id = if TWO { "talat-2p" } else { "talat" };
    let text = format!(
        "{id} WG:{} GB:{} BW:{} {rest}",
        rows(wg),
        rows(gb),
        rows(bw)
    );
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn names<const TWO: bool>(p: &Position<TWO>) -> Vec<String> {
    let mut list = <Position<TWO> as Game>::Moves::default();
    p.generate_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

fn play<const TWO: bool>(p: &Position<TWO>, mv: &str) -> Position<TWO> {
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} in {p}: {e}"));
    p.play(m)
}

fn illegal<const TWO: bool>(p: &Position<TWO>, mv: &str) -> String {
    p.parse_move(mv).expect_err(mv).0
}

/// Background for boards not under test: a live pair in the corners, `a1` (row-1 player's
/// `T1`) and `a5` (row-5 player's `H3`): T1 captures H3 (David and Goliath), g = 4, same
/// file, so the board is live. Nothing on it can capture now.
const LIVE: [&str; 5] = [
    "h3 . . . .",
    ". . . . .",
    ". . . . .",
    ". . . . .",
    "T1 . . . .",
];
/// Like [`LIVE`] with other kinds (`H1` takes `S1`), for tests that use the `T1`s elsewhere.
const LIVE2: [&str; 5] = [
    "s1 . . . .",
    ". . . . .",
    ". . . . .",
    ". . . . .",
    "H1 . . . .",
];
const EMPTY: [&str; 5] = [". . . . ."; 5];

#[test]
fn capture_table_cell_by_cell() {
    // From the rules text, row = attacker, column = victim, order T1 S1 H1 T2 S2 H2 T3 S3 H3:
    // same height and more sides (S>T, H>S, H>T); exactly one level taller, any shapes;
    // T1 takes H3; nothing else (two levels apart, equal towers, H3 on T1).
    let table = [
        "........x", // T1: only H3 (David and Goliath)
        "x........", // S1: T1 (same height, 4 > 3 sides)
        "xx.......", // H1: T1, S1
        "xxx......", // T2: every height-1 tower (one level taller)
        "xxxx.....", // S2: height 1, and T2
        "xxxxx....", // H2: height 1, T2, S2
        "...xxx...", // T3: height 2 only (height 1 is two levels down)
        "...xxxx..", // S3: height 2, T3
        "...xxxxx.", // H3: height 2, T3, S3; not T1
    ];
    for (a, row) in table.iter().enumerate() {
        for (d, cell) in row.chars().enumerate() {
            let (ka, kd) = (Kind::from_index(a), Kind::from_index(d));
            assert_eq!(ka.captures(kd), cell == 'x', "{ka} on {kd}");
            // No pair captures both ways.
            assert!(!(ka.captures(kd) && kd.captures(ka)), "{ka} <-> {kd}");
        }
    }
    let k = |s: &str| Kind::parse(s).unwrap();
    // The rules file's examples.
    assert!(k("H2").captures(k("S2")) && k("H2").captures(k("T2")) && k("S2").captures(k("T2")));
    assert!(k("T3").captures(k("H2")) && k("T2").captures(k("H1")));
    assert!(k("T1").captures(k("H3")));
    assert!(!k("H3").captures(k("T1")) && !k("S2").captures(k("S2")));
}

#[test]
fn setup_squares_turns_and_the_first_move() {
    let start = Talat::start();
    assert_eq!(start.phase(), Phase::Setup);
    assert_eq!(start.to_move(), Seat(0));
    // White's start squares: row 1 of WG and row 5 of BW, 10 squares x 9 kinds = 90.
    let w = names(&start);
    assert_eq!(w.len(), 90);
    assert!(w.contains(&"H3@WG:a1".into()) && w.contains(&"T1@BW:e5".into()));
    assert!(!w.iter().any(|m| m.contains("GB:")));
    let e = illegal(&start, "H3@WG:a5");
    assert!(e.contains("not a start square of White"), "{e}");
    let e = illegal(&start, "H3@GB:a1");
    assert!(e.contains("not a start square"), "{e}");
    let e = illegal(&start, "WG:a1-a2");
    assert!(e.contains("still being placed"), "{e}");
    // Grey next: row 1 of GB and row 5 of WG; White's placement took none of them.
    let p = play(&start, "H3@WG:a1");
    assert_eq!(p.to_move(), Seat(1));
    let g = names(&p);
    assert_eq!(g.len(), 90);
    assert!(g.contains(&"H3@WG:a5".into()) && g.contains(&"T1@GB:c1".into()));
    // The square White took is gone for White, and so is the placed kind.
    let p = play(&play(&p, "H3@WG:a5"), "H3@GB:a5");
    assert_eq!(p.to_move(), Seat(0));
    let w = names(&p);
    assert_eq!(w.len(), 8 * 9, "8 kinds left on 9 free squares");
    let e = illegal(&p, "H3@WG:b1");
    assert!(e.contains("already placed"), "{e}");
    let e = illegal(&p, "T1@WG:a1");
    assert!(e.contains("occupied"), "{e}");
    // 27 placements in turn (each colour its kinds in order on its squares in order), then
    // White moves first [choice].
    let mut p = Talat::start();
    for i in 0..27 {
        let m = names(&p);
        assert_eq!(m.len(), (9 - i / 3) * (10 - i / 3), "placement {i}");
        p = play(&p, &m[0]);
    }
    assert_eq!(p.phase(), Phase::Play);
    assert_eq!(p.to_move(), Seat(0));
    assert!(!names(&p).iter().any(|m| m.contains('@')));
}

#[test]
fn every_setup_splits_five_and_four() {
    // 10 start squares per colour for 9 towers: 5 on one board, 4 on the other. Also, no
    // board is frozen after setup: with at least 4 towers each, some pair is related (a
    // side with 4 kinds spans heights that relate to anything on the other side), and all
    // start-row pairs pass the cheap test (g = 4, |df| <= 4).
    fn split<const TWO: bool>(p: &Position<TWO>, colours: usize) {
        assert_eq!(p.phase(), Phase::Play);
        assert_eq!(p.frozen_mask(), 0, "{p}");
        for c in 0..colours {
            let lower = p.board(BoardId::from_index(c)).occ[0].count_ones();
            let upper = p.board(BoardId::from_index(c + 2)).occ[1].count_ones();
            assert_eq!(lower + upper, 9, "{p}");
            assert!(lower == 4 || lower == 5, "{p}");
        }
    }
    for seed in 0..100 {
        let opts = SetupOptions {
            djinn: DjinnSetup::Random(seed),
            towers: TowerSetup::Random(seed),
        };
        split(&Talat::new(&opts), 3);
        split(&Talat2p::new(&opts), 2);
    }
}

#[test]
fn steps_go_forward_and_diagonally_forward_only() {
    // WG: White S2 on c2 (row-1 player, moves up); Grey h3 on e5 keeps WG live (H3 takes
    // S2, g = 3, |c - e| = 2). White's S2 steps to b3, c3, d3 — not back to b1, c1, d1 and
    // not sideways to b2, d2. On BW White is the row-5 player: its H3 on a5 steps down to
    // a4 or b4 (the a-file has no left diagonal). 3 + 2 = 5 moves.
    let wg = [
        ". . . . h3",
        ". . . . .",
        ". . . . .",
        ". . S2 . .",
        ". . . . .",
    ];
    let p: Talat = pos(
        wg,
        LIVE,
        LIVE,
        "taken:-/-/- to:W phase:play frozen:- score:0,0,0",
    );
    assert_eq!(
        names(&p),
        ["BW:a5-a4", "BW:a5-b4", "WG:c2-b3", "WG:c2-c3", "WG:c2-d3"]
    );
    let e = illegal(&p, "WG:c2-c1");
    assert!(
        e.contains("not one square straight or diagonally forward"),
        "{e}"
    );
    let e = illegal(&p, "WG:c2-b2");
    assert!(e.contains("not one square"), "{e}");
    let e = illegal(&p, "WG:c2-c4");
    assert!(e.contains("not one square"), "{e}");
    let e = illegal(&p, "WG:e5-e4");
    assert!(e.contains("White (seat 0) does not move"), "{e}");
    // Grey (row-5 player on WG) steps down: h3 e5 to d4 or e4; on GB Grey is the row-1
    // player: T1 a1 to a2 or b2.
    let g: Talat = pos(
        wg,
        LIVE,
        LIVE,
        "taken:-/-/- to:G phase:play frozen:- score:0,0,0",
    );
    assert_eq!(names(&g), ["GB:a1-a2", "GB:a1-b2", "WG:e5-d4", "WG:e5-e4"]);
    // A step moves the tower and passes the turn on.
    let q = play(&p, "WG:c2-d3");
    assert_eq!(q.to_move(), Seat(1));
    assert_eq!(
        q.board(BoardId::WG).at(13).map(|(_, k)| k.to_string()),
        Some("S2".into())
    );
    assert!(q.board(BoardId::WG).at(7).is_none());
}

#[test]
fn captures_forward_diagonal_and_sideways_never_backward() {
    // WG: White H2 on c3. Grey: s2 c4 (ahead: H2 takes S2, same height, 6 > 4 sides),
    // t2 b4 (diagonally ahead: H2 takes T2), h2 d4 (diagonally ahead, equal: no capture),
    // s1 b3 (beside: H2 takes S1, one level taller), t3 d3 (beside: T3 is taller, no).
    // All three squares ahead are occupied, so H2 has no step. 3 captures.
    // BW: White (row-5 player) h3 on c3 may not capture Black's S3 on c4 behind it (H3
    // would take S3, but c4 is backward for a tower moving down); it steps to b2, c2, d2.
    // Black's T1 on a1 keeps BW live (T1 takes H3; g = 2, |a - c| = 2 <= 3).
    let wg = [
        ". . . . .",
        ". t2 s2 h2 .",
        ". s1 H2 t3 .",
        ". . . . .",
        ". . . . .",
    ];
    let bw = [
        ". . . . .",
        ". . S3 . .",
        ". . h3 . .",
        ". . . . .",
        "T1 . . . .",
    ];
    let p: Talat = pos(
        wg,
        LIVE,
        bw,
        "taken:-/-/- to:W phase:play frozen:- score:0,0,0",
    );
    assert_eq!(
        names(&p),
        [
            "BW:c3-b2", "BW:c3-c2", "BW:c3-d2", "WG:c3xb3", "WG:c3xb4", "WG:c3xc4"
        ]
    );
    assert!(illegal(&p, "WG:c3xd4").contains("H2 cannot capture H2"));
    assert!(illegal(&p, "WG:c3xd3").contains("H2 cannot capture T3"));
    assert!(illegal(&p, "BW:c3xc4").contains("cannot capture on c4"));
    assert!(illegal(&p, "WG:c3-c4").contains("occupied"));
    // The capture: H2 takes c4's place, Grey's S2 leaves the game, kept by White: 5 points.
    let q = play(&p, "WG:c3xc4");
    assert_eq!(q.taken(0, 1), 1 << Kind::parse("S2").unwrap().index());
    assert_eq!(q.points(0), 5);
    let wg_after = q.board(BoardId::WG);
    assert_eq!(
        wg_after.at(17).map(|(_, k)| k.to_string()),
        Some("H2".into())
    );
    assert!(wg_after.at(12).is_none());
    assert!(q.to_string().contains("taken:GS2/-/-"), "{q}");
    // Grey's T3 on d3 may capture White's H2 on c3 sideways (one level taller): Grey's
    // moves include WG:d3xc3.
    let g: Talat = pos(
        wg,
        LIVE,
        bw,
        "taken:-/-/- to:G phase:play frozen:- score:0,0,0",
    );
    assert!(names(&g).contains(&"WG:d3xc3".into()));
}

#[test]
fn a_tower_on_the_opponents_start_row_is_stuck_but_captures_sideways() {
    // WG: White T2 on c5 (Grey's start row): no forward square, so no step; it may capture
    // Grey's t1 on b5 sideways (T2 is one taller than T1), not h2 on d5 (H2 is stronger).
    // Standing there it scores 3 for White. Grey's h2 on d5 may capture it sideways.
    let wg = [
        ". t1 T2 h2 .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    let p: Talat = pos(
        wg,
        LIVE2,
        LIVE,
        "taken:-/-/- to:W phase:play frozen:- score:3,0,0",
    );
    assert_eq!(names(&p), ["BW:a5-a4", "BW:a5-b4", "WG:c5xb5"]);
    let g: Talat = pos(
        wg,
        LIVE2,
        LIVE,
        "taken:-/-/- to:G phase:play frozen:- score:3,0,0",
    );
    let gm = names(&g);
    assert!(gm.contains(&"WG:d5xc5".into()), "{gm:?}");
    // Grey's T1 on b5 cannot take T2; it steps a4, b4, c4.
    assert!(!gm.contains(&"WG:b5xc5".into()));
    let q = play(&g, "WG:d5xc5");
    assert_eq!(q.points(0), 0, "White lost its goal-row tower");
    assert_eq!(q.points(1), 5);
}

#[test]
fn a_player_without_moves_must_pass() {
    // White: T2 on WG:c5 (stuck, scores 3) next to Grey's s3 on d5, which it cannot take;
    // b5 empty; BW is frozen (empty). So White has no move: the only move is the pass, a
    // ply that only hands the turn to Grey. WG is live (Grey's S3 may take T2) and so is GB.
    let wg = [
        ". . T2 s3 .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    let p: Talat = pos(
        wg,
        LIVE,
        EMPTY,
        "taken:-/-/- to:W phase:play frozen:BW score:3,0,0",
    );
    assert_eq!(names(&p), ["pass"]);
    let q = play(&p, "pass");
    assert_eq!(q.to_move(), Seat(1));
    assert_eq!(q.boards_text(), p.boards_text());
    assert_ne!(q.key(), p.key());
    assert_eq!(q.key(), q.key_from_scratch());
    // Grey has moves, so may not pass (passing voluntarily is not allowed).
    assert!(illegal(&q, "pass").contains("may not pass"));
    assert!(names(&q).contains(&"WG:d5xc5".into()));
}

trait BoardsText {
    fn boards_text(&self) -> String;
}
impl<const TWO: bool> BoardsText for Position<TWO> {
    fn boards_text(&self) -> String {
        let t = self.to_string();
        t.split(" taken:").next().unwrap().to_string()
    }
}

#[test]
fn blocking_decides_frozen_boards() {
    // WG: White S1 a4, T1 a5, T3 b5 (the last two stuck on Grey's start row, 3 points each);
    // Grey t1 c5. S1 takes T1 (same height, more sides); the pair passes the cheap test
    // (g = 5 - 4 = 1, |a - c| = 2 <= 2). Grey's T1 is unrelated to T1 and T3 (equal, two
    // heights apart). Nothing can capture now.
    let live_wg = [
        "T1 T3 t1 . .",
        "S1 . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    // With b4 empty, Grey's T1 may step c5-b4 next to White's S1: live.
    let p: Talat = pos(
        live_wg,
        LIVE2,
        LIVE,
        "taken:-/-/- to:W phase:play frozen:- score:6,0,0",
    );
    assert!(freeze::cheap_live(p.board(BoardId::WG)));
    assert!(!p.board(BoardId::WG).any_capture());
    assert!(!p.is_frozen(BoardId::WG));
    // With White's S3 on b4, S3 and S1 cannot move (a5, b5, c5 full), T1 can only step to
    // c4 or d4, away from S1 for ever: frozen, though the cheap test says live.
    let blocked_wg = [
        "T1 T3 t1 . .",
        "S1 S3 . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    let text = "taken:-/-/- to:W phase:play frozen:WG score:6,0,0";
    let p: Talat = pos(blocked_wg, LIVE2, LIVE, text);
    assert!(freeze::cheap_live(p.board(BoardId::WG)));
    assert!(p.is_frozen(BoardId::WG));
    // A frozen board's towers may not move: White's moves are on BW only.
    assert_eq!(names(&p), ["BW:a5-a4", "BW:a5-b4"]);
    assert!(illegal(&p, "WG:a4-a5").contains("board WG is frozen"));
    // Claiming WG is live is an error naming the truth.
    let id = "talat";
    let bad = format!(
        "{id} WG:{} GB:{} BW:{} taken:-/-/- to:W phase:play frozen:- score:6,0,0",
        rows(blocked_wg),
        rows(LIVE2),
        rows(LIVE)
    );
    let e = bad.parse::<Talat>().unwrap_err().0;
    assert!(e.contains("frozen:WG"), "{e}");
}

#[test]
fn the_game_ends_when_a_second_board_freezes() {
    // WG as in the live blocking case, BW frozen: White's h3 on a1 (Black's start row, 3
    // points) and Black's T2 on e5 (White's start row, 3 points) are related but g < 0.
    // Points: White 3 + 3 + 3 = 9 (T1, T3 on WG row 5, H3 on BW a1), Grey 0, Black 3.
    // Grey to move: T1 c5 steps b4, c4, d4; GB: T1 a1 steps a2, b2.
    let wg = [
        "T1 T3 t1 . .",
        "S1 . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    let bw = [
        ". . . . T2",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        "h3 . . . .",
    ];
    let p: Talat = pos(
        wg,
        LIVE2,
        bw,
        "taken:-/-/- to:G phase:play frozen:BW score:9,0,3",
    );
    assert_eq!(
        names(&p),
        ["GB:a1-a2", "GB:a1-b2", "WG:c5-b4", "WG:c5-c4", "WG:c5-d4"]
    );
    // c5-b4: next to S1 on a4, which may capture it: WG stays live, play goes on.
    let q = play(&p, "WG:c5-b4");
    assert_eq!(q.phase(), Phase::Play);
    assert!(q.outcome().is_none());
    // c5-d4: S1 (a4) and T1 (d4) on one row three files apart fail the cheap test, and no
    // other pair is related: WG freezes, the second frozen board: the game is over.
    let q = play(&p, "WG:c5-d4");
    assert!(q.is_frozen(BoardId::WG));
    assert_eq!(q.phase(), Phase::Over);
    assert!(names(&q).is_empty());
    assert!(illegal(&q, "GB:a1-a2").contains("game is over"));
    let out = q.outcome().unwrap();
    // Scores are 10 x points + tie-break bonus: 90, 0, 30; White first, Black second.
    assert_eq!(out.scores.as_slice(), &[90, 0, 30]);
    assert_eq!(out.ranking().as_slice(), &[1, 3, 2]);
    assert!(
        q.to_string()
            .ends_with("phase:over frozen:WG,BW score:9,0,3"),
        "{q}"
    );
}

#[test]
fn scoring_and_tie_break() {
    // Five per captured tower, three per tower on an opponent's start row, frozen or not.
    // White: captured Grey's S2 (5) + H1 on WG e5 (Grey's start row, 3) + T3 on BW c1
    // (Black's start row, 3) = 11. Grey: captured White's T1 and Black's H2 = 10. Black: 0.
    let wg = [
        "t1 . . . H1",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    let bw = [
        ". . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        ". . t3 . .",
    ];
    let p: Talat = pos(
        wg,
        EMPTY,
        bw,
        "taken:GS2/WT1,BH2/- to:W phase:over frozen:WG,GB,BW score:11,10,0",
    );
    let out = p.outcome().unwrap();
    assert_eq!(out.scores.as_slice(), &[110, 100, 0]);
    assert_eq!(out.ranking().as_slice(), &[1, 2, 3]);
    // Equal points (15 each), tie-break on captured sides: Black's H1 + T1 + T2 = 12 sides,
    // 1 hexagon; White's Grey T1, T2, H1 = 12 sides, 1 hexagon; Grey's White S1, S2, S3 =
    // 12 sides, 0 hexagons. Sides tie; hexagons put White and Black ahead of Grey; White
    // and Black tie on everything and share first place; Grey is third (1, 1, 3).
    // (The squares level can never decide: equal sides and hexagons with different
    // squares needs 4 more triangles on one side, which equal points then forbid.)
    let p: Talat = pos(
        EMPTY,
        EMPTY,
        EMPTY,
        "taken:GT1,GT2,GH1/WS1,WS2,WS3/WT1,WT2,WH1 to:W phase:over frozen:WG,GB,BW score:15,15,15",
    );
    assert_eq!(p.tie_break(0), (12, 1, 0));
    assert_eq!(p.tie_break(1), (12, 0, 3));
    let out = p.outcome().unwrap();
    assert_eq!(out.scores.as_slice(), &[151, 150, 151]);
    assert_eq!(out.ranking().as_slice(), &[1, 3, 1]);
    // Sides decide first: White's Grey S2 (4 sides) beats Grey's White T3 (3 sides) and
    // loses to Black's White H1 (6 sides): Black 1st, White 2nd, Grey 3rd.
    let p: Talat = pos(
        EMPTY,
        EMPTY,
        EMPTY,
        "taken:GS2/WT3/WH1 to:W phase:over frozen:WG,GB,BW score:5,5,5",
    );
    let out = p.outcome().unwrap();
    assert_eq!(out.scores.as_slice(), &[51, 50, 52]);
    assert_eq!(out.ranking().as_slice(), &[2, 3, 1]);
}

#[test]
fn djinn_setup() {
    // Default: 8 of the Djinn's 9 kinds on 8 of its 10 start squares (GB row 5, BW row 1),
    // at random from the seed; White places first, 9 kinds x 10 squares.
    let mut sizes = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let p = Talat2p::new(&SetupOptions {
            djinn: DjinnSetup::Random(seed),
            towers: TowerSetup::Chosen,
        });
        let gb = p.board(BoardId::GB).occ;
        let bw = p.board(BoardId::BW).occ;
        assert_eq!(gb[0], 0);
        assert_eq!(bw[1], 0);
        assert_eq!(gb[1] & !(0x1F << 20), 0, "Djinn on GB row 5 only");
        assert_eq!(bw[0] & !0x1F, 0, "Djinn on BW row 1 only");
        assert_eq!(gb[1].count_ones() + bw[0].count_ones(), 8);
        sizes.insert(gb[1].count_ones());
        let mut kinds = 0u16;
        for sq in 0..25 {
            if let Some((_, k)) = p.board(BoardId::GB).at(sq) {
                kinds |= 1 << k.index();
            }
            if let Some((_, k)) = p.board(BoardId::BW).at(sq) {
                kinds |= 1 << k.index();
            }
        }
        assert_eq!(kinds.count_ones(), 8, "8 distinct kinds");
        assert_eq!(p.to_move(), Seat(0));
        assert_eq!(names(&p).len(), 90);
        assert_eq!(p.unplaced(2), 0, "the ninth Djinn tower is out");
    }
    assert_eq!(sizes.into_iter().collect::<Vec<_>>(), [3, 4, 5]);
    assert_eq!(Talat2p::start(), Talat2p::start());
    let a = Talat2p::new(&SetupOptions {
        djinn: DjinnSetup::Random(1),
        towers: TowerSetup::Chosen,
    });
    let b = Talat2p::new(&SetupOptions {
        djinn: DjinnSetup::Random(2),
        towers: TowerSetup::Chosen,
    });
    assert_ne!(a, b);

    // Chosen: the players place the Djinn's towers alternately, White first, 4 each, on
    // the Djinn's start squares; then their own, White first; Grey places the last tower
    // and moves first.
    let mut p = Talat2p::new(&SetupOptions {
        djinn: DjinnSetup::Chosen,
        towers: TowerSetup::Chosen,
    });
    let m = names(&p);
    assert_eq!(m.len(), 90);
    assert!(m.contains(&"H3@GB:a5".into()) && m.contains(&"H3@BW:e1".into()));
    let e = illegal(&p, "H3@WG:a1");
    assert!(e.contains("not a start square of the Djinn"), "{e}");
    for i in 0..8 {
        assert_eq!(p.to_move(), Seat((i % 2) as u8), "Djinn placement {i}");
        let m = names(&p);
        assert_eq!(m.len(), (9 - i) * (10 - i));
        p = play(&p, &m[0]);
    }
    assert_eq!(p.unplaced(2), 0);
    for i in 0..18 {
        assert_eq!(p.to_move(), Seat((i % 2) as u8), "own placement {i}");
        let m = names(&p);
        assert_eq!(m.len(), (9 - i / 2) * (10 - i / 2));
        assert!(m.iter().all(|m| !m.contains("GB:") || i % 2 == 1));
        p = play(&p, &m[0]);
    }
    assert_eq!(p.phase(), Phase::Play);
    assert_eq!(p.to_move(), Seat(1), "Grey placed last and moves first");
}

/// A two-player position (see the comments of `djinn_moves_and_scoring`).
fn djinn_position(to: char) -> Talat2p {
    let wg = LIVE; // White T1 a1, Grey h3 a5
    let gb = [
        "S1 . . . t3",
        ". . . . .",
        ". . s2 . .",
        ". . H2 . .",
        ". . . . t2",
    ];
    let bw = [
        ". . . S1 .",
        ". . . . .",
        ". . h2 . .",
        ". S3 . . .",
        ". . . . .",
    ];
    pos(
        wg,
        gb,
        bw,
        &format!("taken:-/- to:{to} phase:play frozen:- score:3,6"),
    )
}

#[test]
fn djinn_moves_and_scoring() {
    // WG: White T1 a1, Grey h3 a5 (live). GB (Grey row 1, Djinn row 5): Grey H2 c2 and S1
    // a5; Djinn s2 c3, t3 e5, t2 e1. BW (Djinn row 1, White row 5): Djinn S3 b2 and S1 d5;
    // White h2 c3.
    // Points: White 3 (the Djinn's T2 on GB e1, Grey's start row: White moves the Djinn on
    // GB); Grey 3 (own S1 on GB a5, the Djinn's start row) + 3 (the Djinn's S1 on BW d5,
    // White's start row: Grey moves the Djinn on BW) = 6. The Djinn's T3 on GB e5 stands
    // on its own start row: nobody's.
    let w = djinn_position('W');
    assert_eq!((w.points(0), w.points(1)), (3, 6));
    // White moves: own T1 (WG a1: a2, b2), own H2 (BW c3 moving down: b2 holds the Djinn's
    // S3, which H2 cannot take; c2, d2), and the Djinn on GB: s2 c3 (down: b2, d2; c2 holds
    // Grey's H2, which S2 cannot take), t3 e5 (d4, e4), t2 e1 (stuck, nothing beside).
    // Never the Djinn on BW.
    assert_eq!(
        names(&w),
        [
            "BW:c3-c2", "BW:c3-d2", "GB:c3-b2", "GB:c3-d2", "GB:e5-d4", "GB:e5-e4", "WG:a1-a2",
            "WG:a1-b2"
        ]
    );
    let e = illegal(&w, "BW:b2xc3");
    assert!(e.contains("White (seat 0) does not move"), "{e}");
    // Grey moves: own h3 (WG a5: a4, b4), own H2 (GB c2: b3, d3, and takes the Djinn's S2
    // on c3), own S1 (GB a5, stuck), and the Djinn on BW: S3 b2 (a3, b3, and takes White's
    // H2 on c3, one level taller), S1 d5 (stuck, nothing beside).
    let g = djinn_position('G');
    assert_eq!(
        names(&g),
        [
            "BW:b2-a3", "BW:b2-b3", "BW:b2xc3", "GB:c2-b3", "GB:c2-d3", "GB:c2xc3", "WG:a5-a4",
            "WG:a5-b4"
        ]
    );
    // A capture with a Djinn tower scores 5 for the player who made it.
    let q = play(&g, "BW:b2xc3");
    assert_eq!((q.points(0), q.points(1)), (3, 11));
    assert!(q.to_string().contains("taken:-/WH2"), "{q}");
    let q = play(&g, "GB:c2xc3");
    assert_eq!((q.points(0), q.points(1)), (3, 11));
    assert!(q.to_string().contains("taken:-/BS2"), "{q}");
    // White's Djinn captures on GB: make c2 hold Grey's T1 (S2 takes T1, one level taller,
    // diagonally forward for the Djinn moving down from d3).
    let gb = [
        "S1 . . . t3",
        ". . . . .",
        ". . . s2 .",
        ". . T1 . .",
        ". . . . t2",
    ];
    let p: Talat2p = pos(
        LIVE,
        gb,
        EMPTY,
        "taken:-/- to:W phase:play frozen:BW score:3,3",
    );
    assert!(names(&p).contains(&"GB:d3xc2".into()));
    let q = play(&p, "GB:d3xc2");
    assert_eq!(q.points(0), 8);
    assert!(q.to_string().contains("taken:GT1/-"), "{q}");
    // The two-player result: 10 x points; higher wins.
    assert_eq!(<Talat2p as Game>::ID, "talat-2p");
    assert_eq!(q.seats(), 2);
}

#[test]
fn moves_and_positions_round_trip_and_errors_are_one_line() {
    let p = Talat2p::start();
    for m in ["H3@WG:c1", "WG:c1-c2", "WG:c2xd2", "pass", "t1@bw:E5"] {
        let mv: Move = m.parse().unwrap();
        assert_eq!(mv.to_string().to_lowercase(), m.to_lowercase());
    }
    for (bad, why) in [
        ("", "missing ':'"),
        ("H4@WG:c1", "bad tower"),
        ("H3@XX:c1", "unknown board"),
        ("H3@WG:f1", "bad square"),
        ("WG:c1c2", "expected '-'"),
        ("WG:c1-c9", "bad square"),
        ("\u{1b}[2J", "not a Talat move"),
    ] {
        let e = p.parse_move(bad).unwrap_err().0;
        assert!(
            e.contains(why) && !e.contains('\n') && !e.contains('\u{1b}'),
            "{bad}: {e}"
        );
    }
    let good = Talat::start().to_string();
    assert_eq!(good.parse::<Talat>().unwrap(), Talat::start());
    assert!(good.parse::<Talat2p>().unwrap_err().0.contains("talat-2p"));
    for (text, why) in [
        ("", "empty"),
        ("talat", "'WG:' field"),
        ("talat WG:...../...../...../...../.... GB:", "has 4 cells"),
        (&good.replace("to:W", "to:Q"), "bad seat"),
        (&good.replace("to:W", "to:G"), "setup out of turn"),
        (&good.replace("score:0,0,0", "score:1,0,0"), "score:0,0,0"),
        (&good.replace("phase:setup", "phase:late"), "bad phase"),
        (&format!("{good} extra"), "unexpected"),
        (&good.replace("WG:.....", "WG:H3H3..."), "two squares"),
        (&good.replace("WG:.....", "WG:Q1...."), "bad tower"),
    ] {
        let e = text.parse::<Talat>().unwrap_err().0;
        assert!(e.contains(why) && !e.contains('\n'), "{text}: {e}");
    }
    // The example of the module docs.
    let (start, moves) = Talat::parse_opening("H3@WG:a1 T1@GB:c1 S2@BW:e1").unwrap();
    let after = moves.iter().fold(start, |p, &m| p.play(m));
    assert_eq!(
        after.to_string(),
        "talat WG:H3..../...../...../...../..... GB:..T1../...../...../...../..... \
         BW:....S2/...../...../...../..... taken:-/-/- to:W phase:setup frozen:- score:0,0,0"
    );
    // The diagram shows the three boards side by side with coordinates.
    let d = Talat2p::start().diagram();
    assert!(
        d.starts_with("   WG (W row 1, G row 5)     GB (G row 1, B row 5)"),
        "{d}"
    );
    assert!(d.contains("     a   b   c   d   e"));
    assert!(d.contains("White (seat 0) to move; phase setup"));
}

/// Best-reply search hands the turn to any seat through `Game::with_turn`; a seat with
/// nothing to do there (in the setup phase, every tower placed) gets `None`, never a
/// position without moves that is not finished.
#[test]
fn with_turn_never_gives_a_seat_without_moves() {
    use tessera::game::{Game, Seat};
    use tessera::games::talat::Talat;
    // Play the whole setup (27 placements, first legal move each time) and ask every seat
    // for the turn after every placement.
    let mut pos = Talat::start();
    let mut moves = <Talat as Game>::Moves::default();
    let mut refused = 0;
    for _ in 0..27 {
        for s in 0..3u8 {
            match pos.with_turn(Seat(s)) {
                Some(p) => {
                    assert_eq!(p.to_move(), Seat(s));
                    let mut m = <Talat as Game>::Moves::default();
                    p.generate_moves(&mut m);
                    assert!(!m.is_empty(), "seat {s} has no move in {p}");
                }
                None => refused += 1,
            }
        }
        pos.generate_moves(&mut moves);
        pos = pos.play(moves[0]);
    }
    // At the last placements the seats that placed all nine towers are refused.
    assert!(refused > 0);
}

/// Positions reached through `with_turn` in the setup phase always leave the next placer
/// something to place: a seat that has placed all nine towers is skipped. Every line of
/// best-reply search below such a position has moves or is finished.
#[test]
fn setup_after_a_skipped_turn_never_strands_a_seat() {
    use tessera::game::{Game, Seat};
    use tessera::games::talat::Talat;
    // Grey places all nine towers first (White and Black skipped through with_turn),
    // then White places once: Grey, next in rotation, has nothing left and is skipped.
    let mut pos = Talat::start();
    let mut moves = <Talat as Game>::Moves::default();
    for _ in 0..9 {
        pos = pos.with_turn(Seat(1)).unwrap();
        pos.generate_moves(&mut moves);
        pos = pos.play(moves[0]);
    }
    assert!(
        pos.with_turn(Seat(1)).is_none(),
        "Grey has placed everything"
    );
    let white = pos.with_turn(Seat(0)).unwrap();
    white.generate_moves(&mut moves);
    let after = white.play(moves[0]);
    assert_eq!(after.to_move(), Seat(2), "Grey is skipped: Black places");
    // Random walks mixing real turns and with_turn hand-overs never reach a position
    // without moves that is not finished.
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..200 {
        let mut p = Talat::start();
        for _ in 0..40 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            if rng.is_multiple_of(3)
                && let Some(q) = p.with_turn(Seat((rng >> 8) as u8 % 3))
            {
                p = q;
            }
            p.generate_moves(&mut moves);
            if moves.is_empty() {
                assert!(p.outcome().is_some(), "stranded: {p}");
                break;
            }
            p = p.play(moves[(rng >> 16) as usize % moves.len()]);
        }
    }
}
