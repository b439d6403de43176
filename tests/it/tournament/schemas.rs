//! The JSON Schema files in `schemas/` (games.jsonl records, tournament.json, report.json)
//! against real output: a small Othello tournament with an SPRT, a three-player Talat
//! tournament and a four-player Quixo one. The checker below implements the subset of JSON
//! Schema (draft 2020-12) those files use — `type`, `enum`, `properties`, `required`,
//! `additionalProperties`, `items`, `minItems`, `maxItems`, `minimum`, `maximum`, `oneOf`,
//! local `$ref` — and refuses any other keyword, so a schema cannot silently use one it
//! ignores.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn schema(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Errors of `v` against `s` (within the root schema `root`), each with its JSON path.
fn check(root: &Value, s: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    let Some(obj) = s.as_object() else {
        errors.push(format!("{path}: schema is not an object"));
        return;
    };
    for key in obj.keys() {
        const KNOWN: &[&str] = &[
            "$schema",
            "$id",
            "title",
            "description",
            "type",
            "enum",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "minItems",
            "maxItems",
            "minimum",
            "maximum",
            "oneOf",
            "$ref",
            "$defs",
        ];
        assert!(
            KNOWN.contains(&key.as_str()),
            "unsupported schema keyword {key}"
        );
    }
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("only local $defs refs");
        check(root, &root["$defs"][name], v, path, errors);
    }
    if let Some(t) = obj.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => panic!("bad type"),
        };
        let ok = types.iter().any(|t| match *t {
            "null" => v.is_null(),
            "boolean" => v.is_boolean(),
            "string" => v.is_string(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            "number" => v.is_number(),
            "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|x| x.fract() == 0.0),
            other => panic!("unknown type {other}"),
        });
        if !ok {
            errors.push(format!("{path}: {v} is not of type {types:?}"));
            return;
        }
    }
    if let Some(e) = obj.get("enum").and_then(Value::as_array)
        && !e.contains(v)
    {
        errors.push(format!("{path}: {v} is not one of {e:?}"));
    }
    if let Some(x) = v.as_f64() {
        if let Some(m) = obj.get("minimum").and_then(Value::as_f64)
            && x < m
        {
            errors.push(format!("{path}: {x} < minimum {m}"));
        }
        if let Some(m) = obj.get("maximum").and_then(Value::as_f64)
            && x > m
        {
            errors.push(format!("{path}: {x} > maximum {m}"));
        }
    }
    if let Some(items) = v.as_array() {
        if let Some(n) = obj.get("minItems").and_then(Value::as_u64)
            && (items.len() as u64) < n
        {
            errors.push(format!("{path}: fewer than {n} items"));
        }
        if let Some(n) = obj.get("maxItems").and_then(Value::as_u64)
            && (items.len() as u64) > n
        {
            errors.push(format!("{path}: more than {n} items"));
        }
        if let Some(is) = obj.get("items") {
            for (i, item) in items.iter().enumerate() {
                check(root, is, item, &format!("{path}[{i}]"), errors);
            }
        }
    }
    if let Some(fields) = v.as_object() {
        let props = obj.get("properties").and_then(Value::as_object);
        for r in obj
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap();
            if !fields.contains_key(r) {
                errors.push(format!("{path}: required field {r} is missing"));
            }
        }
        for (k, fv) in fields {
            let sub = format!("{path}.{k}");
            match props.and_then(|p| p.get(k)) {
                Some(ps) => check(root, ps, fv, &sub, errors),
                None => match obj.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        errors.push(format!("{path}: field {k} is not in the schema"))
                    }
                    Some(extra @ Value::Object(_)) => check(root, extra, fv, &sub, errors),
                    _ => {}
                },
            }
        }
    }
    if let Some(options) = obj.get("oneOf").and_then(Value::as_array) {
        let matching = options
            .iter()
            .filter(|o| {
                let mut e = Vec::new();
                check(root, o, v, path, &mut e);
                e.is_empty()
            })
            .count();
        if matching != 1 {
            errors.push(format!(
                "{path}: {v} matches {matching} of the oneOf options"
            ));
        }
    }
}

fn validate(schema_name: &str, v: &Value) -> Vec<String> {
    let root = schema(schema_name);
    let mut errors = Vec::new();
    check(&root, &root, v, "$", &mut errors);
    errors
}

pub(crate) fn assert_valid(schema_name: &str, v: &Value, what: &str) {
    let errors = validate(schema_name, v);
    assert!(
        errors.is_empty(),
        "{what} against {schema_name}: {errors:#?}"
    );
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-schema-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Runs a tournament into a fresh directory and checks all three files and the `--json`
/// output against the schemas.
fn check_tournament(name: &str, args: &[&str]) -> Value {
    let dir = tmp(name);
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["tournament", "--no-progress", "--json", "--out"])
        .arg(&dir)
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid("report.schema.json", &printed, "tournament --json");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let report: Value = serde_json::from_str(&read("report.json")).unwrap();
    assert_valid("report.schema.json", &report, "report.json");
    let settings: Value = serde_json::from_str(&read("tournament.json")).unwrap();
    assert_valid("tournament.schema.json", &settings, "tournament.json");
    for (i, line) in read("games.jsonl").lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_valid(
            "games.schema.json",
            &v,
            &format!("games.jsonl line {}", i + 1),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    printed
}

#[test]
fn tournament_files_follow_their_schemas() {
    let v = check_tournament(
        "othello",
        &[
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d3",
            "--rounds",
            "3",
            "--sprt",
            "elo0=0,elo1=300",
        ],
    );
    assert!(v["sprt"].is_object() && !v["pairings"].as_array().unwrap().is_empty());
    // A shard's tournament.json names its shard.
    check_tournament(
        "shard",
        &[
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--rounds",
            "2",
            "--shard",
            "2/2",
        ],
    );
    let v = check_tournament(
        "talat",
        &[
            "talat",
            "--engine",
            "name=a,depth=1",
            "--engine",
            "name=b,depth=1",
            "--engine",
            "name=c,depth=2",
            "--rounds",
            "1",
        ],
    );
    // Three players: the head-to-head table has every pair.
    assert_eq!(v["head_to_head"].as_array().unwrap().len(), 3, "{v}");
    // Clocks, adjudication and a shuffled opening file: the records carry move_ms, clock_ms
    // and adjudicated reasons, tournament.json the tc, the rules and the order.
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/othello-8ply.txt");
    let v = check_tournament(
        "clocks",
        &[
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--rounds",
            "2",
            "--tc",
            "5+0.1",
            "--timemargin",
            "50",
            "--adjudicate",
            "exact=10",
            "--adjudicate",
            "resign=300,3",
            "--adjudicate",
            "draw=50,4,30",
            "--openings",
            suite.to_str().unwrap(),
            "--openings-order",
            "random",
        ],
    );
    assert_eq!(v["games"].as_u64(), Some(4), "{v}");
    check_tournament(
        "quixo4p",
        &[
            "quixo-4p",
            "--engine",
            "name=a,depth=1",
            "--engine",
            "name=b,depth=1",
            "--rounds",
            "1",
            "--max-plies",
            "40",
        ],
    );
}

#[test]
fn the_checker_refuses_what_the_schemas_forbid() {
    let good = serde_json::json!({
        "id": 0, "block": 0, "round": 0, "game": "othello", "seed": 1,
        "engines": ["a", "b"], "opening": "", "start": "x", "moves": [], "scores": [],
        "points": [1.0, 0.0], "ranks": [1, 2], "reason": "normal", "seconds": 0.5
    });
    assert!(validate("games.schema.json", &good).is_empty());
    for (field, bad) in [
        ("points", serde_json::json!([1.5, 0.0])),
        ("reason", serde_json::json!("resigned")),
        ("id", serde_json::json!(-1)),
        ("ranks", serde_json::json!([0, 2])),
        ("extra", serde_json::json!(1)),
        ("engines", serde_json::json!("a")),
    ] {
        let mut v = good.clone();
        v[field] = bad;
        assert!(!validate("games.schema.json", &v).is_empty(), "{field}");
    }
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("moves");
    assert!(!validate("games.schema.json", &v).is_empty());
}
