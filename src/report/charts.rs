//! The pages' SVG charts: intervals on a shared axis, and lines over the games played.

use std::fmt::Write as _;

use super::escape;

/// An SVG chart of intervals: one row per item (`label`, value, lower, upper) on a shared
/// axis from `lo` to `hi`, with a reference line at `mark` (e.g. 0 Elo or 50 %).
pub(super) fn interval_chart(
    items: &[(String, f64, f64, f64)],
    lo: f64,
    hi: f64,
    mark: f64,
    unit: &str,
) -> String {
    let longest = items.iter().map(|i| i.0.chars().count()).max().unwrap_or(0) as f64;
    let left = (longest * 6.5 + 16.0).clamp(120.0, 420.0);
    let (w, row) = (left + 460.0, 22.0);
    let h = row * items.len() as f64 + 40.0;
    let span = if hi > lo { hi - lo } else { 1.0 };
    let x = |v: f64| left + (v.clamp(lo, hi) - lo) / span * (w - left - 20.0);
    let mut s = format!("<svg class=\"chart\" width=\"{w}\" height=\"{h}\" role=\"img\">");
    let _ = write!(
        s,
        "<line x1=\"{m}\" y1=\"10\" x2=\"{m}\" y2=\"{b}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
        m = x(mark),
        b = h - 24.0
    );
    for (i, (label, v, l, u)) in items.iter().enumerate() {
        let y = 20.0 + row * i as f64;
        let _ = write!(
            s,
            "<text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{name}</text>",
            lx = left - 8.0,
            ty = y + 4.0,
            name = escape(label),
        );
        // An absent interval (NaN) draws no bar, an absent value no point.
        if l.is_finite() && u.is_finite() {
            let _ = write!(
                s,
                "<line x1=\"{a}\" y1=\"{y}\" x2=\"{b}\" y2=\"{y}\" stroke=\"#1565c0\" stroke-width=\"2\"/>\
                 <line x1=\"{a}\" y1=\"{y0}\" x2=\"{a}\" y2=\"{y1}\" stroke=\"#1565c0\"/>\
                 <line x1=\"{b}\" y1=\"{y0}\" x2=\"{b}\" y2=\"{y1}\" stroke=\"#1565c0\"/>",
                a = x(*l),
                b = x(*u),
                y0 = y - 5.0,
                y1 = y + 5.0
            );
        }
        if v.is_finite() {
            let _ = write!(
                s,
                "<circle cx=\"{c}\" cy=\"{y}\" r=\"4\" fill=\"#c62828\"/>",
                c = x(*v)
            );
        }
    }
    let _ = write!(
        s,
        "<text x=\"{a}\" y=\"{t}\">{lo:.0}{unit}</text><text x=\"{b}\" y=\"{t}\" text-anchor=\"end\">{hi:.0}{unit}</text></svg>",
        a = left,
        b = w - 20.0,
        t = h - 8.0
    );
    s
}

/// A line chart of one or more series over games (x = game number), with a zero line.
pub(super) fn line_chart(series: &[(&str, &str, Vec<f64>)], extra: &[(f64, &str)]) -> String {
    let (w, h, pad) = (640.0, 220.0, 36.0);
    let n = series.iter().map(|s| s.2.len()).max().unwrap_or(0).max(2);
    let mut lo = 0f64;
    let mut hi = 0f64;
    for (_, _, v) in series {
        for &y in v {
            lo = lo.min(y);
            hi = hi.max(y);
        }
    }
    for &(y, _) in extra {
        lo = lo.min(y);
        hi = hi.max(y);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let x = |i: usize| pad + i as f64 / (n - 1) as f64 * (w - 2.0 * pad);
    let y = |v: f64| h - pad - (v - lo) / (hi - lo) * (h - 2.0 * pad);
    let mut s = format!("<svg class=\"chart\" width=\"{w}\" height=\"{h}\" role=\"img\">");
    let _ = write!(
        s,
        "<line x1=\"{pad}\" y1=\"{z}\" x2=\"{r}\" y2=\"{z}\" stroke=\"#999\"/>",
        z = y(0.0),
        r = w - pad
    );
    for &(v, label) in extra {
        let _ = write!(
            s,
            "<line x1=\"{pad}\" y1=\"{z}\" x2=\"{r}\" y2=\"{z}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\
             <text x=\"{r}\" y=\"{t}\" text-anchor=\"end\">{}</text>",
            escape(label),
            z = y(v),
            r = w - pad,
            t = y(v) - 3.0
        );
    }
    for (k, (name, colour, v)) in series.iter().enumerate() {
        let pts: Vec<String> = v
            .iter()
            .enumerate()
            .map(|(i, &p)| format!("{:.1},{:.1}", x(i), y(p)))
            .collect();
        let _ = write!(
            s,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\
             <text x=\"{tx}\" y=\"{ty}\" fill=\"{colour}\">{}</text>",
            pts.join(" "),
            escape(name),
            tx = pad + 4.0,
            ty = 14.0 + 14.0 * k as f64
        );
    }
    let _ = write!(
        s,
        "<text x=\"{pad}\" y=\"{b}\">game 1</text><text x=\"{r}\" y=\"{b}\" text-anchor=\"end\">game {n}</text>\
         <text x=\"4\" y=\"{t}\">{hi:.1}</text><text x=\"4\" y=\"{bb}\">{lo:.1}</text></svg>",
        b = h - 8.0,
        r = w - pad,
        t = pad,
        bb = h - pad
    );
    s
}
