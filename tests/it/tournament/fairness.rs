//! Results by seat in tournament reports, `tessera fairness`, and the HTML pages, through
//! the `tessera` binary.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-fair-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The records of DIR/games.jsonl as JSON values.
fn records(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn report_counts_results_by_seat_from_the_records() {
    let out = tmp("seats");
    let o = bin()
        .args([
            "tournament",
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--rounds",
            "5",
            "--no-progress",
            "--json",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let rep = json_of(&o);
    let seats = rep["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["name"], "Black (X)");
    assert_eq!(seats[1]["name"], "White (O)");
    // Count Black's results straight from the records (different engines: no repeats).
    let recs = records(&out);
    assert_eq!(recs.len(), 10);
    let (mut w, mut d, mut l, mut points) = (0, 0, 0, 0.0);
    for r in &recs {
        let ranks: Vec<u64> = r["ranks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        match (ranks[0], ranks[1]) {
            (1, 2) => w += 1,
            (1, 1) => d += 1,
            _ => l += 1,
        }
        points += r["points"][0].as_f64().unwrap();
    }
    assert_eq!(seats[0]["games"], 10);
    assert_eq!(
        (
            seats[0]["wins"].as_u64(),
            seats[0]["draws"].as_u64(),
            seats[0]["losses"].as_u64()
        ),
        (Some(w), Some(d), Some(l))
    );
    assert_eq!(seats[1]["wins"].as_u64(), Some(l));
    let score = seats[0]["score"]["value"].as_f64().unwrap();
    assert!(
        (score - points / 10.0).abs() < 1e-9,
        "{score} vs {}",
        points / 10.0
    );
    let (lo, hi) = (
        seats[0]["win"]["lower"].as_f64().unwrap(),
        seats[0]["win"]["upper"].as_f64().unwrap(),
    );
    assert!(lo <= w as f64 / 10.0 && w as f64 / 10.0 <= hi);
    // The text report has the section, and report.json holds the same named seats.
    let text = bin()
        .args(["tournament", "report"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Results by seat") && text.contains("Black (X)"),
        "{text}"
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(saved["seats"], rep["seats"]);
    let _ = std::fs::remove_dir_all(&out);
}

/// Every `data-key`/`data-value` pair of a page (the numbers its tables show).
fn page_numbers(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(i) = rest.find("data-key=\"") {
        rest = &rest[i + 10..];
        let end = rest.find('"').unwrap();
        let key = rest[..end].to_string();
        rest = &rest[end..];
        if let Some(v) = rest.strip_prefix("\" data-value=\"") {
            let end = v.find('"').unwrap();
            out.push((key, v[..end].to_string()));
        }
    }
    out
}

/// The value at a dotted path of `v`.
fn at<'a>(v: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    path.split('.')
        .fold(v, |cur, part| match part.parse::<usize>() {
            Ok(i) => &cur[i],
            Err(_) => &cur[part],
        })
}

/// Asserts that every number the page shows is the JSON's, and that there are at least
/// `min` of them; returns the keys.
fn assert_page_matches(page: &str, json: &serde_json::Value, min: usize) -> Vec<String> {
    let nums = page_numbers(page);
    assert!(nums.len() >= min, "only {} numbers on the page", nums.len());
    for (k, v) in &nums {
        let want = at(json, k);
        let got: f64 = v
            .parse()
            .unwrap_or_else(|_| panic!("{k}: '{v}' is not a number"));
        let want = want
            .as_f64()
            .unwrap_or_else(|| panic!("{k}: no number in the JSON"));
        // serde_json's default float parsing may differ in the last bit.
        assert!(
            (got - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{k}: {got} vs {want}"
        );
    }
    // Self-contained: nothing loaded from the network.
    for bad in ["src=\"http", "href=\"http", "@import", "url(http"] {
        assert!(!page.contains(bad), "the page loads {bad}");
    }
    nums.into_iter().map(|(k, _)| k).collect()
}

fn tournament_dir(name: &str, game: &str, engines: &str, extra: &[&str]) -> PathBuf {
    let out = tmp(name);
    let o = bin()
        .args([
            "tournament",
            game,
            "--engines",
            engines,
            "--no-progress",
            "--out",
        ])
        .arg(&out)
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
fn tournament_report_page_numbers_equal_report_json() {
    let dir = tournament_dir(
        "page",
        "othello",
        "othello-ab-d1,othello-ab-d3",
        &["--rounds", "4", "--sprt", "elo0=0,elo1=50"],
    );
    let page_path = dir.join("report.html");
    let o = bin()
        .args(["tournament", "report"])
        .arg(&dir)
        .arg("--html")
        .arg(&page_path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(&page_path).unwrap();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let keys = assert_page_matches(&page, &report, 30);
    for k in [
        "ratings.0.elo",
        "pairings.0.score",
        "seats.0.score.value",
        "sprt.llr",
        "reasons.normal",
    ] {
        assert!(keys.iter().any(|x| x == k), "the page does not show {k}");
    }
    for section in [
        "Rating list",
        "Head to head",
        "Score over the games",
        "SPRT",
        "Results by seat",
        "Time used per move",
        "How the games ended",
        "Game viewer",
    ] {
        assert!(page.contains(section), "no section {section}");
    }
    // The viewer holds every game, each with one position per ply plus the start.
    let data = &page[page.find("id=\"games-data\">").unwrap() + 16..];
    let data: serde_json::Value =
        serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), records(&dir).len());
    for g in games {
        assert_eq!(
            g["frames"].as_array().unwrap().len(),
            g["moves"].as_array().unwrap().len() + 1
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn fairness(args: &[&str], out: &Path) -> std::process::Output {
    bin()
        .arg("fairness")
        .args(args)
        .args(["--no-progress", "--json", "--out"])
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn fairness_rows_are_tournaments_and_the_page_matches_the_json() {
    let out = tmp("rows");
    let page_path =
        std::env::temp_dir().join(format!("tessera-fair-{}-rows.html", std::process::id()));
    let args = [
        "othello",
        "--depths",
        "1,2",
        "--rounds",
        "3",
        "--html",
        page_path.to_str().unwrap(),
    ];
    let first = json_of(&fairness(&args, &out));
    let rows = first["rows"].as_array().unwrap();
    let names: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {} {}", r["variant"], r["openings"], r["level"]).replace('"', ""))
        .collect();
    assert_eq!(
        names,
        [
            "rules start depth 1",
            "rules start depth 2",
            "rules random-8 depth 1",
            "rules random-8 depth 2"
        ]
    );
    for r in rows {
        // Each row is a tournament of two copies: its own report gives the same seats.
        let rep = json_of(
            &bin()
                .args(["tournament", "report", r["dir"].as_str().unwrap(), "--json"])
                .output()
                .unwrap(),
        );
        assert_eq!(rep["seats"], r["seats"]);
        let recs = records(Path::new(r["dir"].as_str().unwrap()));
        assert_eq!(r["games"].as_u64(), Some(recs.len() as u64));
        // Copies of a deterministic engine: both games of a pair are the same game.
        assert_eq!(r["distinct"].as_u64().unwrap() * 2, recs.len() as u64);
        assert_eq!(r["seats"][0]["games"], r["distinct"]);
    }
    // Start rows are one game each (deterministic); the random suite has 3 rounds.
    assert_eq!(rows[0]["games"], 2);
    assert_eq!(rows[2]["games"], 6);
    let trends = first["trends"].as_array().unwrap();
    assert_eq!(trends.len(), 1, "{trends:?}");
    assert_eq!(trends[0]["openings"], "random-8");
    assert!(
        first["verdict"]
            .as_str()
            .unwrap()
            .starts_with("rules (random-8, depth 2")
    );
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert_page_matches(&page, &first, 40);
    // Every row is a tournament with ids from 0, so `#game=0` named a game of
    // each row. The viewer's key (`#game=KEY`) is ROW-ID, unique on the page.
    let data = &page[page.find("id=\"games-data\">").unwrap() + 16..];
    let data: serde_json::Value =
        serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
    let games = data["games"].as_array().unwrap();
    let keys: std::collections::HashSet<&str> =
        games.iter().map(|g| g["key"].as_str().unwrap()).collect();
    assert_eq!(keys.len(), games.len(), "keys repeat: {keys:?}");
    let ids: std::collections::HashSet<u64> =
        games.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    assert!(ids.len() < games.len(), "the record ids repeat across rows");
    for row in 1..=4 {
        assert!(keys.contains(format!("{row}-0").as_str()), "{keys:?}");
    }
    assert!(
        page.contains("#game=KEY"),
        "the viewer script looks games up by key"
    );
    // Running it again resumes: no new games, the same numbers.
    let again = json_of(&fairness(&args, &out));
    assert_eq!(again["rows"], first["rows"]);
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_file(&page_path);
}

#[test]
fn talat_choice_points_are_separate_rows() {
    let out = tmp("talat");
    let v = json_of(&fairness(
        &["talat", "--depths", "1", "--rounds", "1"],
        &out,
    ));
    let rows = v["rows"].as_array().unwrap();
    let variants: Vec<&str> = rows
        .iter()
        .map(|r| r["variant"].as_str().unwrap())
        .collect();
    for want in [
        "rules",
        "White first after setup",
        "Grey first after setup",
        "Black first after setup",
    ] {
        assert!(variants.contains(&want), "{variants:?}");
    }
    for (row, colour) in [
        ("Grey first after setup", "G"),
        ("Black first after setup", "B"),
    ] {
        let r = rows.iter().find(|r| r["variant"] == row).unwrap();
        for rec in records(Path::new(r["dir"].as_str().unwrap())) {
            let start = rec["start"].as_str().unwrap();
            assert!(
                start.contains(&format!("to:{colour} phase:play")),
                "{start}"
            );
        }
        assert_eq!(r["seats"].as_array().unwrap().len(), 3);
    }
    let out2 = tmp("talat2p");
    let v = json_of(&fairness(
        &["talat-2p", "--depths", "1", "--rounds", "1"],
        &out2,
    ));
    let rows = v["rows"].as_array().unwrap();
    let chosen = rows
        .iter()
        .find(|r| r["variant"] == "chosen Djinn" && r["openings"] == "start")
        .unwrap();
    // The players place the Djinn: the game starts from empty boards and the first
    // placements are the Djinn's (Black's towers, lower case on GB's row 5).
    for rec in records(Path::new(chosen["dir"].as_str().unwrap())) {
        let start = rec["start"].as_str().unwrap();
        assert!(
            start.contains("GB:...../...../...../...../....."),
            "{start}"
        );
    }
    let random = rows
        .iter()
        .find(|r| r["variant"] == "random Djinn" && r["openings"] == "start")
        .unwrap();
    for rec in records(Path::new(random["dir"].as_str().unwrap())) {
        let start = rec["start"].as_str().unwrap();
        assert!(
            !start.contains("GB:...../...../...../...../....."),
            "{start}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&out2);
}

#[test]
fn quixo_fairness_gives_the_solved_small_board() {
    let out = tmp("quixo");
    let v = json_of(&fairness(
        &["quixo", "--quick", "--depths", "1", "--rounds", "1"],
        &out,
    ));
    let exact = v["exact"].as_array().unwrap();
    // 3x3 Quixo: a first-player win in 7 plies (Tanaka et al.; retrograde table here).
    assert_eq!(exact[0]["board"], "3x3");
    assert_eq!(exact[0]["value"], "first player (X) wins");
    assert_eq!(exact[0]["plies"], 7);
    assert_eq!(exact.len(), 1, "--quick skips the 4x4 solve");
    // It said "5x5 Quixo is not solved"; it is, a draw (Tanaka et al. 2020,
    // tests/data/quixo/solved.md: "5x5 (five in a row) | draw").
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(!notes.iter().any(|n| n.contains("not solved")), "{notes:?}");
    let five = notes.iter().find(|n| n.starts_with("5x5 Quixo")).unwrap();
    assert!(
        five.contains("is solved") && five.contains("a draw"),
        "{five}"
    );
    assert!(
        five.contains("Quixo Is Solved") && five.contains("2020"),
        "{five}"
    );
    let solved = include_str!("../../data/quixo/solved.md");
    assert!(solved.contains("| 5x5 (five in a row) | draw"));
    let _ = std::fs::remove_dir_all(&out);
}

/// `fairness talat --quick` said "the advantage shrinks" for Black in the
/// "Black first after setup" row, a seat that was behind and rose (34.8 % -> 52.0 %). The
/// words follow the seat's side of the fair 50 % at both levels.
#[test]
fn trend_words_follow_the_seats_side_of_fair() {
    use tessera::tournament::fairness::Trend;
    let trend = |from: f64, to: f64, direction: &str| Trend {
        variant: "Black first after setup".into(),
        openings: "random-setup".into(),
        seat: 2,
        name: "Black".into(),
        from: ("depth 1".into(), from),
        to: ("depth 3".into(), to),
        change: to - from,
        lower: to - from - 0.13,
        upper: to - from + 0.13,
        direction: direction.into(),
    };
    let crossed = trend(0.348, 0.520, "shrinks").reading();
    assert_eq!(
        crossed,
        "the seat goes from behind (34.8 %) to ahead (52.0 %)"
    );
    assert!(!crossed.contains("advantage"));
    assert_eq!(
        trend(0.30, 0.45, "shrinks").reading(),
        "the seat's disadvantage shrinks"
    );
    assert_eq!(
        trend(0.45, 0.30, "grows").reading(),
        "the seat's disadvantage grows"
    );
    assert_eq!(
        trend(0.748, 0.618, "shrinks").reading(),
        "the seat's advantage shrinks"
    );
    assert_eq!(
        trend(0.60, 0.70, "grows").reading(),
        "the seat's advantage grows"
    );
    assert_eq!(
        trend(0.60, 0.40, "shrinks").reading(),
        "the seat goes from ahead (60.0 %) to behind (40.0 %)"
    );
    assert_eq!(trend(0.5, 0.52, "no significant change").reading(), "");
}

/// Runs tessera and returns (exit code, stderr) for an expected failure.
fn fails(args: &[&std::ffi::OsStr]) -> (i32, String) {
    let o = bin().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    (o.status.code().unwrap_or(-1), err)
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    use std::ffi::OsStr;
    let empty = tmp("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let dir = tournament_dir(
        "bad",
        "othello",
        "othello-ab-d1,othello-ab-d2",
        &["--rounds", "1"],
    );
    let page = empty.join("x.html");
    let missing = empty.join("no-such-folder").join("x.html");
    let mut cases: Vec<(Vec<&OsStr>, &str)> = vec![
        (
            vec![
                OsStr::new("tournament"),
                OsStr::new("report"),
                empty.as_os_str(),
                OsStr::new("--html"),
                page.as_os_str(),
            ],
            "is not a tournament directory",
        ),
        (
            vec![
                OsStr::new("tournament"),
                OsStr::new("report"),
                dir.as_os_str(),
                OsStr::new("--html"),
                missing.as_os_str(),
            ],
            "does not exist",
        ),
        (
            vec![
                OsStr::new("tournament"),
                OsStr::new("report"),
                dir.as_os_str(),
                OsStr::new("--html"),
                empty.as_os_str(),
            ],
            "is a folder",
        ),
        (
            vec![
                OsStr::new("fairness"),
                OsStr::new("othello"),
                OsStr::new("--html"),
                empty.as_os_str(),
            ],
            "is a folder",
        ),
        (
            vec![
                OsStr::new("fairness"),
                OsStr::new("othello"),
                OsStr::new("--html"),
                missing.as_os_str(),
            ],
            "does not exist",
        ),
    ];
    // A tournament directory whose settings exist but no game finished.
    let none = tmp("none");
    std::fs::create_dir_all(&none).unwrap();
    std::fs::copy(dir.join("tournament.json"), none.join("tournament.json")).unwrap();
    cases.push((
        vec![
            OsStr::new("tournament"),
            OsStr::new("report"),
            none.as_os_str(),
            OsStr::new("--html"),
            page.as_os_str(),
        ],
        "holds no finished games",
    ));
    // Records of another game in an Othello tournament.
    let other = tmp("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(dir.join("tournament.json"), other.join("tournament.json")).unwrap();
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    std::fs::write(
        other.join("games.jsonl"),
        text.replacen("\"game\":\"othello\"", "\"game\":\"quixo\"", 1),
    )
    .unwrap();
    cases.push((
        vec![
            OsStr::new("tournament"),
            OsStr::new("report"),
            other.as_os_str(),
            OsStr::new("--html"),
            page.as_os_str(),
        ],
        "is a record of quixo",
    ));
    for (args, want) in &cases {
        let (code, err) = fails(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!page.exists(), "{args:?} left a page behind");
    }
    for d in [empty, dir, none, other] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The final position of a record, replayed with the rules, and its number of pieces.
/// The final position of a record and the plies the viewer shows: the opening's moves (a
/// move list from the game's start that leads to the record's start) and the game's moves.
fn replayed<G: tessera::game::Game>(rec: &serde_json::Value) -> (String, usize) {
    let (mut pos, opening) = G::parse_opening(rec["start"].as_str().unwrap()).unwrap();
    for m in opening {
        pos = pos.play(m);
    }
    let start = pos.to_string();
    let opening_plies = match G::parse_opening(rec["opening"].as_str().unwrap_or("")) {
        Ok((first, moves)) if !moves.is_empty() => {
            let end = moves.iter().fold(first, |p, &m| p.play(m));
            if end.to_string() == start {
                moves.len()
            } else {
                0
            }
        }
        _ => 0,
    };
    let moves = rec["moves"].as_array().unwrap();
    for m in moves {
        let mv = pos.parse_move(m.as_str().unwrap()).unwrap();
        pos = pos.play(mv);
    }
    (pos.to_string(), opening_plies + moves.len())
}

/// Pieces on the boards of a position text: discs, cubes with a symbol, towers.
fn pieces(game: &str, pos: &str) -> usize {
    match game {
        "othello" => pos[..64].chars().filter(|c| *c == 'X' || *c == 'O').count(),
        "quixo" | "quixo-4p" => pos
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(|c| "XOxo".contains(*c))
            .count(),
        _ => pos
            .split_whitespace()
            .filter(|f| f.starts_with("WG:") || f.starts_with("GB:") || f.starts_with("BW:"))
            .map(|f| f[3..].chars().filter(char::is_ascii_alphabetic).count())
            .sum(),
    }
}

/// An attribute of the element with `id` in a dumped DOM.
fn attr(dom: &str, id: &str, name: &str) -> String {
    let el = &dom[dom.find(&format!("id=\"{id}\"")).unwrap()..];
    let el = &el[..el.find('>').unwrap()];
    let v = &el[el.find(&format!("{name}=\"")).unwrap() + name.len() + 2..];
    v[..v.find('"').unwrap()].to_string()
}

/// The game viewer in a headless browser (Debian's `chromium`): for a recorded game of each
/// game id, the page stepped to the end (`#game=ID&final`) shows the record's final
/// position, replayed here with the rules, with one drawn piece per piece on the boards (the
/// drawing is `tessera serve`'s, `src/cli/html/board.js`). `.ci/run` installs chromium;
/// without it the test is skipped with a message, except under CI where it fails.
#[test]
fn viewer_replays_a_game_of_each_id_to_its_final_position() {
    use tessera::games::{othello, quixo, talat};
    if !crate::web::browser::chromium_available() {
        return;
    }
    let _one = crate::web::browser::ONE_BROWSER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    type Replay = fn(&serde_json::Value) -> (String, usize);
    let cases: [(&str, &[&str], Replay); 5] = [
        (
            "othello",
            &["name=a,depth=1", "name=b,depth=2"],
            replayed::<othello::Position>,
        ),
        (
            "quixo",
            &["name=a,depth=1", "name=b,depth=2"],
            replayed::<quixo::Quixo>,
        ),
        (
            "quixo-4p",
            &["name=a,depth=1", "name=b,depth=2"],
            replayed::<quixo::Quixo4p>,
        ),
        (
            "talat",
            &["name=a,depth=1", "name=b,depth=1", "name=c,depth=2"],
            replayed::<talat::Talat>,
        ),
        (
            "talat-2p",
            &["name=a,depth=1", "name=b,depth=2"],
            replayed::<talat::Talat2p>,
        ),
    ];
    for (game, engines, replay) in cases {
        let dir = tmp(&format!("viewer-{game}"));
        let mut cmd = bin();
        cmd.args([
            "tournament",
            game,
            "--rounds",
            "1",
            "--no-progress",
            "--out",
        ])
        .arg(&dir);
        for e in engines {
            cmd.args(["--engine", e]);
        }
        let o = cmd.output().unwrap();
        assert!(
            o.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let page = dir.join("page.html");
        let o = bin()
            .args(["tournament", "report"])
            .arg(&dir)
            .arg("--html")
            .arg(&page)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let recs = records(&dir);
        let rec = recs.last().unwrap();
        let id = rec["id"].as_u64().unwrap();
        let profile = dir.join("chromium-profile");
        let o = Command::new("/usr/bin/chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--dump-dom",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("file://{}#game={id}&final", page.display()))
            .output()
            .expect("cannot run /usr/bin/chromium");
        let dom = String::from_utf8_lossy(&o.stdout);
        let (want, plies) = replay(rec);
        assert_eq!(attr(&dom, "shown", "data-game"), id.to_string(), "{game}");
        // Move numbers count from the game's first ply: the opening's moves come first.
        assert_eq!(attr(&dom, "shown", "data-ply"), plies.to_string(), "{game}");
        // (talat-2p's opening is played from a seeded Djinn setup the record's opening text
        // does not name, so its game is shown from the record's start.)
        if game != "talat-2p" {
            assert!(
                plies > rec["moves"].as_array().unwrap().len(),
                "{game}: no opening plies"
            );
        }
        assert_eq!(attr(&dom, "shown", "data-position"), want, "{game}");
        assert_eq!(
            attr(&dom, "shown", "data-pieces"),
            pieces(game, &want).to_string(),
            "{game}: drawn pieces"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn four_player_quixo_seats_are_its_teams() {
    let out = tmp("teams");
    let o = bin()
        .args([
            "tournament",
            "quixo-4p",
            "--engine",
            "name=a,depth=1",
            "--engine",
            "name=b,depth=2",
            "--rounds",
            "1",
            "--no-progress",
            "--json",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let rep = json_of(&o);
    let seats = rep["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["name"], "team X (A1+A2)");
    assert_eq!(seats[1]["name"], "team O (B1+B2)");
    // Teammates share results: one side's wins are the other's losses.
    assert_eq!(seats[0]["wins"], seats[1]["losses"]);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_levels_rounds_and_foreign_rows_are_refused_before_any_game() {
    // Levels must increase: a repeated or falling list would make the trend run backwards.
    for depths in ["2,2", "3,1"] {
        let out = tmp(&format!("levels-{}", depths.replace(',', "-")));
        let o = fairness(&["quixo", "--depths", depths, "--rounds", "1"], &out);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("must increase"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!out.exists(), "{depths}: {} was written", out.display());
    }
    // Too many rounds for one tournament: refused before the start rows are played.
    let out = tmp("huge");
    let o = fairness(
        &["othello", "--depths", "1,2", "--rounds", "10000000"],
        &out,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("more than the"), "{err}");
    assert!(!out.exists(), "{} was written", out.display());
    // A row on disk holding another game's records is found before any new row is played.
    let out = tmp("foreign");
    // `--quick` only skips the 4x4 solve (30 CPU-s) that this check does not need.
    let o = fairness(
        &["quixo", "--quick", "--depths", "1", "--rounds", "1"],
        &out,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let row = out
        .join("rules")
        .join("random-8")
        .join("d1")
        .join("games.jsonl");
    let othello = tournament_dir(
        "foreign-src",
        "othello",
        "othello-ab-d1,othello-ab-d2",
        &["--rounds", "1"],
    );
    std::fs::copy(othello.join("games.jsonl"), &row).unwrap();
    let o = fairness(&["quixo", "--depths", "1,2", "--rounds", "1"], &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("othello"), "{err}");
    // The start row at depth 2 comes first in the schedule: it was not played.
    assert!(
        !out.join("rules").join("start").join("d2").exists(),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&othello);
}
