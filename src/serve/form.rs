//! `application/x-www-form-urlencoded` fields, as the API's requests send
//! them (and as query strings carry them): `a=1&b=x+y%21`. Each field's
//! name and value are percent-decoded and must be UTF-8.

use std::fmt;

/// The fields of a form, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Form(Vec<(String, String)>);

/// Why a form was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormError {
    /// A `%` not followed by two hex digits.
    BadEscape { field: usize },
    /// A name or value that is not UTF-8 once decoded.
    NotUtf8 { field: usize },
    /// The same field given twice.
    Repeated(String),
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormError::BadEscape { field } => {
                write!(
                    f,
                    "form field {field}: '%' must be followed by two hex digits"
                )
            }
            FormError::NotUtf8 { field } => write!(f, "form field {field}: not UTF-8"),
            FormError::Repeated(name) => write!(f, "form field '{name}' given twice"),
        }
    }
}

impl std::error::Error for FormError {}

/// Percent-decodes one name or value (`+` is a space).
fn decode(text: &[u8], field: usize) -> Result<String, FormError> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = text
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or(FormError::BadEscape { field })?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| FormError::NotUtf8 { field })
}

impl Form {
    /// Reads a form body or query string. Empty pieces (`a=1&&b=2`) are
    /// skipped; a piece without `=` is a field with an empty value.
    pub fn parse(body: &[u8]) -> Result<Form, FormError> {
        let mut fields: Vec<(String, String)> = Vec::new();
        for (index, piece) in body
            .split(|&b| b == b'&')
            .filter(|p| !p.is_empty())
            .enumerate()
        {
            let field = index + 1;
            let (name, value) = match piece.iter().position(|&b| b == b'=') {
                Some(eq) => (&piece[..eq], &piece[eq + 1..]),
                None => (piece, &piece[piece.len()..]),
            };
            let name = decode(name, field)?;
            if fields.iter().any(|(n, _)| *n == name) {
                return Err(FormError::Repeated(name));
            }
            fields.push((name, decode(value, field)?));
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

/// Encodes a value for a form (what a client sends): unreserved bytes as
/// they are, everything else `%XX`.
pub fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out += &format!("%{b:02X}");
        }
    }
    out
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
        let text = "r1bqk/8 w KQkq - 0 1 é&=%";
        assert_eq!(
            Form::parse(format!("x={}", encode(text)).as_bytes())
                .unwrap()
                .get("x"),
            Some(text)
        );
    }

    #[test]
    fn bad_escapes_bad_bytes_and_repeats_are_refused() {
        assert_eq!(
            Form::parse(b"a=1&b=%4"),
            Err(FormError::BadEscape { field: 2 })
        );
        assert_eq!(
            Form::parse(b"a=%zz"),
            Err(FormError::BadEscape { field: 1 })
        );
        assert_eq!(Form::parse(b"a=%ff"), Err(FormError::NotUtf8 { field: 1 }));
        assert_eq!(Form::parse(b"a=\xff"), Err(FormError::NotUtf8 { field: 1 }));
        assert_eq!(
            Form::parse(b"a=1&a=2"),
            Err(FormError::Repeated("a".into()))
        );
    }
}
