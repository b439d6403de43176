//! The HTTP side of `tessera serve`: reading a request's JSON body (bounded), its query
//! string, and answering with JSON, an embedded asset, or a one-line JSON error with a 4xx
//! status.

use std::io::Read;

use serde_json::Value;
use tiny_http::{Header, Request, Response, StatusCode};

/// Largest request body read, bytes (a GGF game or a long move list fits easily).
pub const MAX_BODY: usize = 256 * 1024;

/// An error answered to the page: an HTTP status (4xx for the client's mistakes) and one
/// line saying what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status code.
    pub status: u16,
    /// One line for people.
    pub message: String,
}

impl ApiError {
    /// 400 Bad Request: malformed input (a bad position, an illegal move, an unknown
    /// engine).
    pub fn bad(message: impl Into<String>) -> Self {
        Self::with(400, message)
    }

    /// 404 Not Found.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::with(404, message)
    }

    /// 409 Conflict: a request that does not fit the session's state (another game's move,
    /// the engine's turn).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::with(409, message)
    }

    /// An error with `status`; the message is kept to its first line.
    pub fn with(status: u16, message: impl Into<String>) -> Self {
        let message: String = message.into();
        let message = message.lines().next().unwrap_or_default().to_string();
        Self { status, message }
    }
}

/// The result of a handler: a JSON value or an error.
pub type ApiResult = Result<Value, ApiError>;

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("static header is valid")
}

/// Answers `req` with `value` as JSON (status 200) or the error as `{"error": "..."}`.
pub fn answer(req: Request, result: ApiResult) {
    let (status, body) = match result {
        Ok(v) => (200, v.to_string()),
        Err(e) => (
            e.status,
            serde_json::json!({ "error": e.message }).to_string(),
        ),
    };
    let resp = Response::from_string(body)
        .with_status_code(StatusCode(status))
        .with_header(header("Content-Type", "application/json; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"));
    // A client gone before the answer is no error of ours.
    let _ = req.respond(resp);
}

/// Answers `req` with an embedded asset.
pub fn asset(req: Request, body: &'static str, content_type: &str) {
    let resp = Response::from_string(body)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"));
    let _ = req.respond(resp);
}

/// The request's JSON body: at most [`MAX_BODY`] bytes, a JSON object.
///
/// # Errors
/// 413 for a larger body, 400 for one that is not a JSON object.
pub fn json_body(req: &mut Request) -> Result<Value, ApiError> {
    if req.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(ApiError::with(
            413,
            format!("request body too large (at most {MAX_BODY} bytes)"),
        ));
    }
    let mut buf = Vec::new();
    req.as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| ApiError::bad(format!("cannot read the request body: {e}")))?;
    if buf.len() > MAX_BODY {
        return Err(ApiError::with(
            413,
            format!("request body too large (at most {MAX_BODY} bytes)"),
        ));
    }
    let v: Value = serde_json::from_slice(&buf)
        .map_err(|e| ApiError::bad(format!("the request body is not JSON: {e}")))?;
    if !v.is_object() {
        return Err(ApiError::bad("the request body must be a JSON object"));
    }
    Ok(v)
}

/// The value of `key` in the query string of `url` (`/x?id=3&a=b`), percent-decoding
/// `%XX` and `+`.
#[must_use]
pub fn query(url: &str, key: &str) -> Option<String> {
    let q = url.split_once('?')?.1;
    q.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == key).then(|| decode(v))
    })
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (hex(b[i + 1]), hex(b[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A string field of a JSON object, if present.
///
/// # Errors
/// A field that is present but not a string.
pub fn opt_str<'a>(v: &'a Value, key: &str) -> Result<Option<&'a str>, ApiError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::bad(format!("field '{key}' must be a string"))),
    }
}

/// A required string field.
///
/// # Errors
/// A missing or non-string field.
pub fn req_str<'a>(v: &'a Value, key: &str) -> Result<&'a str, ApiError> {
    opt_str(v, key)?.ok_or_else(|| ApiError::bad(format!("field '{key}' is missing")))
}

/// The session id of a request (`id`, a number).
///
/// # Errors
/// A missing or non-numeric id.
pub fn session_id(v: &Value) -> Result<u64, ApiError> {
    v.get("id")
        .and_then(Value::as_u64)
        .ok_or_else(|| ApiError::bad("field 'id' (the session number) is missing"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_decoded() {
        assert_eq!(query("/a?id=3&x=a%20b+c", "x").as_deref(), Some("a b c"));
        assert_eq!(query("/a?id=3", "id").as_deref(), Some("3"));
        assert_eq!(query("/a?id=3", "x"), None);
        assert_eq!(query("/a?x=%zz%4", "x").as_deref(), Some("%zz%4"));
    }

    #[test]
    fn errors_keep_one_line() {
        assert_eq!(ApiError::bad("a\nb").message, "a");
    }
}
