//! An API request refused: the HTTP status and a message for the person
//! reading it, answered as `{"error": "..."}`.

use super::form::FormError;
use super::settings::FieldError;
use serde_json::{json, Value as Json};
use std::fmt;

/// A refusal with its status code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: a field, FEN or PGN that does not read.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    /// 404: no such game, analysis or path.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    /// 409: the request names an older version of the game.
    pub fn stale(given: u64, current: u64) -> ApiError {
        ApiError::new(
            409,
            format!("version {given} is stale: the game is at version {current}"),
        )
    }

    /// 422: well formed, but not possible now (an illegal move, a move
    /// after the end).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(422, message)
    }

    /// The answer's body.
    pub fn json(&self) -> Json {
        json!({ "error": self.message })
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

impl From<FieldError> for ApiError {
    fn from(error: FieldError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

impl From<FormError> for ApiError {
    fn from(error: FormError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}
