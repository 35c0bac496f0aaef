//! `application/x-www-form-urlencoded` fields, as the API's requests send
//! them (and as query strings carry them): `a=1&b=x+y%21`. Decoding is the
//! `form_urlencoded` crate's: a `%` without two hex digits stays as it is,
//! and bytes that are not UTF-8 once decoded become U+FFFD, so such a
//! value reaches its field's own check (a FEN, a move, a number) and is
//! refused there with that field's reason.

use std::fmt;

/// The fields of a form, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Form(Vec<(String, String)>);

/// Why a form was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormError {
    /// The same field given twice.
    Repeated(String),
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormError::Repeated(name) => write!(f, "form field '{name}' given twice"),
        }
    }
}

impl std::error::Error for FormError {}

impl Form {
    /// Reads a form body or query string. Empty pieces (`a=1&&b=2`) are
    /// skipped; a piece without `=` is a field with an empty value.
    pub fn parse(body: &[u8]) -> Result<Form, FormError> {
        let mut fields: Vec<(String, String)> = Vec::new();
        for (name, value) in form_urlencoded::parse(body) {
            if fields.iter().any(|(n, _)| *n == name) {
                return Err(FormError::Repeated(name.into_owned()));
            }
            fields.push((name.into_owned(), value.into_owned()));
        }
        Ok(Form(fields))
    }

    /// The value of field `name`, if given (an empty value counts as not
    /// given).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, v)| n == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
    }

    /// The names given, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(n, _)| n.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_decoded_in_order() {
        let form = Form::parse(b"fen=8%2F8+w&&human=white&empty=&flag").unwrap();
        assert_eq!(form.get("fen"), Some("8/8 w"));
        assert_eq!(form.get("human"), Some("white"));
        assert_eq!(form.get("empty"), None);
        assert_eq!(form.get("flag"), None);
        assert_eq!(
            form.names().collect::<Vec<_>>(),
            ["fen", "human", "empty", "flag"]
        );
        let text = "r1bqk/8 w KQkq - 0 1 é&=%+";
        let encoded: String = form_urlencoded::byte_serialize(text.as_bytes()).collect();
        let form = Form::parse(format!("x={encoded}").as_bytes()).unwrap();
        assert_eq!(form.get("x"), Some(text));
    }

    #[test]
    fn repeats_are_refused_and_odd_bytes_reach_the_field() {
        assert_eq!(
            Form::parse(b"a=1&a=2"),
            Err(FormError::Repeated("a".into()))
        );
        let odd = Form::parse(b"a=%zz&b=%4&c=%ff&d=\xff").unwrap();
        assert_eq!(odd.get("a"), Some("%zz"));
        assert_eq!(odd.get("b"), Some("%4"));
        assert_eq!(odd.get("c"), Some("\u{fffd}"));
        assert_eq!(odd.get("d"), Some("\u{fffd}"));
    }
}
