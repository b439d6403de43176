//! Table cells of the pages: a number of the report (or the fairness summary) with its
//! path in the JSON (`data-key`) and its exact JSON text (`data-value`), an absent number
//! as a dash with the reason, a text cell.

use super::escape;

/// A number a table shows, as the report's JSON holds it: its value and its exact JSON text
/// (`data-value`), or `None` where the JSON has `null` (a NaN or infinite float, or an
/// absent optional number).
pub(super) trait JsonNumber {
    /// The value and its JSON text.
    fn json(&self) -> Option<(f64, String)>;
}

impl JsonNumber for f64 {
    fn json(&self) -> Option<(f64, String)> {
        // serde_json writes a finite float as this `Number` does and a non-finite one as null.
        serde_json::Number::from_f64(*self).map(|n| (*self, n.to_string()))
    }
}

impl JsonNumber for u64 {
    fn json(&self) -> Option<(f64, String)> {
        Some((*self as f64, self.to_string()))
    }
}

impl JsonNumber for usize {
    fn json(&self) -> Option<(f64, String)> {
        Some((*self as f64, self.to_string()))
    }
}

impl<T: JsonNumber> JsonNumber for Option<T> {
    fn json(&self) -> Option<(f64, String)> {
        self.as_ref().and_then(JsonNumber::json)
    }
}

/// `x` when the report's JSON holds it as a number (finite), `None` where it holds `null`.
pub(super) fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A table cell showing `x` (`scale` 100 for percent) with `decimals`, carrying `key` (its
/// path in the report JSON) and its exact JSON value.
pub(super) fn num(key: &str, x: &dyn JsonNumber, scale: f64, decimals: usize) -> String {
    num_or_why(key, x, scale, decimals, None)
}

/// As [`num`], and an absent number (JSON `null`) shows "—" with `why` as its title.
pub(super) fn num_or_why(
    key: &str,
    x: &dyn JsonNumber,
    scale: f64,
    decimals: usize,
    why: Option<&str>,
) -> String {
    match x.json() {
        Some((f, text)) => format!(
            "<td data-key=\"{}\" data-value=\"{text}\">{:.*}</td>",
            escape(key),
            decimals,
            f * scale
        ),
        None => format!(
            "<td data-key=\"{}\" title=\"{}\">—</td>",
            escape(key),
            escape(why.unwrap_or("not available"))
        ),
    }
}

/// An Elo cell: the number, or ±∞ when the Elo is infinite (JSON `null` with a score of
/// 100 % or 0 %, the only case in which a report's Elo is `null`).
pub(super) fn infinite_or_num(key: &str, elo: f64, score: f64) -> String {
    match (finite(elo), finite(score)) {
        (None, Some(s)) if s > 0.5 => format!("<td data-key=\"{}\">+∞</td>", escape(key)),
        (None, Some(s)) if s < 0.5 => format!("<td data-key=\"{}\">−∞</td>", escape(key)),
        _ => num(key, &elo, 1.0, 1),
    }
}

/// A text cell (left-aligned).
pub(super) fn txt(s: &str) -> String {
    format!("<td class=\"l\">{}</td>", escape(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_carries_its_key_and_json_value() {
        assert_eq!(
            num("a.0.b", &1.5, 100.0, 1),
            "<td data-key=\"a.0.b\" data-value=\"1.5\">150.0</td>"
        );
    }

    /// `data-value` is the number's text in `report.json`, so a test can compare the two:
    /// whole floats keep their `.0`, small ones their exponent, integers stay integers.
    #[test]
    fn cells_carry_the_json_text_of_their_number() {
        for x in [1.0, 100.0, 0.1 + 0.2, 1e-7, -3.25e21, 0.5] {
            let cell = num("k", &x, 1.0, 1);
            let json = serde_json::to_string(&x).unwrap();
            assert!(cell.contains(&format!("data-value=\"{json}\"")), "{cell}");
        }
        assert_eq!(
            num("g", &8u64, 1.0, 0),
            "<td data-key=\"g\" data-value=\"8\">8</td>"
        );
        // JSON null (NaN, infinite, absent) shows a dash with the reason.
        for x in [f64::NAN, f64::INFINITY] {
            assert_eq!(serde_json::to_string(&x).unwrap(), "null");
            assert_eq!(
                num_or_why("e", &x, 1.0, 1, Some("one pair")),
                "<td data-key=\"e\" title=\"one pair\">—</td>"
            );
        }
        assert_eq!(
            num("s", &None::<f64>, 1.0, 3),
            "<td data-key=\"s\" title=\"not available\">—</td>"
        );
        // An infinite Elo shows its sign from the score; a finite one its number.
        assert_eq!(
            infinite_or_num("p", f64::INFINITY, 1.0),
            "<td data-key=\"p\">+∞</td>"
        );
        assert_eq!(
            infinite_or_num("p", f64::NEG_INFINITY, 0.0),
            "<td data-key=\"p\">−∞</td>"
        );
        assert_eq!(
            infinite_or_num("p", -12.5, 0.4),
            "<td data-key=\"p\" data-value=\"-12.5\">-12.5</td>"
        );
    }
}
