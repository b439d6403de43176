//! Engine scores in words: `exact +38 discs`, `+1.25 discs (centi-discs 125)`, `forced win
//! in 3 plies`.

/// A score for humans: `exact +38 discs`, or `+1.25 discs (centi-discs 125)`; other units
/// are printed as they are.
#[must_use]
pub fn score_text(score: i32, unit: &str, exact: bool) -> String {
    use crate::search::{WIN, WIN_MIN};
    if score.abs() >= WIN_MIN {
        // A forced result found by the search: WIN - plies (a loss: -(WIN - plies)).
        let plies = WIN - score.abs();
        let word = if score > 0 { "win" } else { "loss" };
        let plural = if plies == 1 { "ply" } else { "plies" };
        return format!("forced {word} in {plies} {plural} ({unit} {score})");
    }
    if unit == crate::games::othello::SCORE_UNIT {
        if exact && score % 100 == 0 {
            format!("exact {:+} discs", score / 100)
        } else {
            let discs = format!("{:+.2} discs ({unit} {score})", f64::from(score) / 100.0);
            if exact {
                format!("exact {discs}")
            } else {
                discs
            }
        }
    } else if exact {
        format!("exact {score:+} {unit}")
    } else {
        format!("{score:+} {unit}")
    }
}

/// A short score for info lines: `+1.25` for centi-discs, else the number.
#[must_use]
pub fn score_short(score: i32, unit: &str) -> String {
    if score.abs() >= crate::search::WIN_MIN {
        let plies = crate::search::WIN - score.abs();
        return format!("{}{plies}", if score > 0 { "win-in-" } else { "loss-in-" });
    }
    if unit == crate::games::othello::SCORE_UNIT {
        format!("{:+.2}", f64::from(score) / 100.0)
    } else {
        format!("{score:+}")
    }
}

/// The `info` line of a finished search iteration, as `bestmove` prints them: `info depth 12
/// score +3.50 nodes 1234567 time 0.512 nps 2411263 pv d3 c5 f6` (`unit` as in
/// [`score_short`]; nps rounded to a whole number).
#[must_use]
pub fn info_line<M: std::fmt::Display>(info: &crate::search::SearchInfo<M>, unit: &str) -> String {
    let secs = info.elapsed.as_secs_f64();
    let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
    format!(
        "info depth {} score {} nodes {} time {secs:.3} nps {} pv {}",
        info.depth,
        score_short(info.score, unit),
        info.nodes,
        (info.nodes as f64 / secs.max(1e-9)).round(),
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_discs_or_forced_results() {
        assert_eq!(score_text(3800, "centi-discs", true), "exact +38 discs");
        assert_eq!(
            score_text(125, "centi-discs", false),
            "+1.25 discs (centi-discs 125)"
        );
        assert_eq!(
            score_text(-50, "centi-discs", false),
            "-0.50 discs (centi-discs -50)"
        );
        assert_eq!(score_text(0, "centi-discs", true), "exact +0 discs");
        assert_eq!(score_text(-7, "points", false), "-7 points");
        let win3 = crate::search::WIN - 3;
        assert_eq!(
            score_text(win3, "points", false),
            format!("forced win in 3 plies (points {win3})")
        );
        assert_eq!(score_short(-125, "centi-discs"), "-1.25");
        assert_eq!(score_short(-win3, "points"), "loss-in-3");
    }
}
