//! Where an erasure looks for a person outside their respondents: the patterns (PostgreSQL regular expressions,
//! ARE flavour, no locale in them) that find their contact in kept answers and in the texts that may quote it.
//!
//! - An **email address** (a contact with `@`) is found anywhere, in any case: each letter matches every character
//!   whose lower case it is (Unicode, as [`crate::distribution::contact_key`] lower-cases), so `Kari@Example.NO` is
//!   found by `kari@example.no` without relying on the database's `lower()` and its locale.
//! - A **phone number** (E.164) is found anywhere, exactly.
//! - Anything else (a login identifier, which can be as short as `7`) is found only as a whole JSON string
//!   (`"employee-7"`) in a kept answer; it is never handed to a relay, so no relay text quotes it.
//!
//! Email addresses and phone numbers hold neither quotes nor backslashes, so JSON writes them as they are; a whole
//! JSON string is matched in its escaped form. Kept answers are bytes: they are matched in PostgreSQL's
//! `encode(body, 'escape')` form, where a byte of 0x80 or more reads `\ooo` (octal) and a backslash reads `\\`.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::distribution::{contact_key, is_e164};

/// What an erased contact's traces are replaced by in texts that stay (a relay's reply, an answer).
pub const ERASED_MARK: &str = "[erased]";

/// The patterns that find one contact, made from its key.
#[derive(Clone, PartialEq, Eq)]
pub struct ContactPatterns {
    key: String,
    text: Option<String>,
    kept_body: String,
}

impl ContactPatterns {
    /// The patterns of the contact whose key is `contact_key(contact)`.
    ///
    /// ```
    /// use canvass_domain::governance::ContactPatterns;
    ///
    /// let email = ContactPatterns::of("Ann@Example.com");
    /// assert_eq!(email.key(), "ann@example.com");
    /// assert!(email.text_pattern().unwrap().starts_with("(?:a|A)(?:n|N)"));
    /// assert_eq!(ContactPatterns::of("+4791234567").text_pattern(), Some("\\+4791234567"));
    /// assert_eq!(ContactPatterns::of("employee-7").text_pattern(), None);
    /// assert_eq!(ContactPatterns::of("employee-7").kept_body_pattern(), "\\\"employee\\-7\\\"");
    /// ```
    pub fn of(contact: &str) -> Self {
        let key = contact_key(contact);
        let (text, kept_body) = if is_address(&key) {
            (Some(pattern(&key, Literal::Text)), pattern(&key, Literal::EscapedBytes))
        } else if is_e164(&key) {
            (Some(exact(&key, Literal::Text)), exact(&key, Literal::EscapedBytes))
        } else {
            (None, exact(&json_string(&key), Literal::EscapedBytes))
        };
        Self { key, text, kept_body }
    }

    /// The contact key respondents, the blocklist and permanent failures are found by.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Finds the contact in a text column (a relay's reply, an answer's JSON text); `None` for a contact no such
    /// text can quote (a login identifier).
    pub fn text_pattern(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Finds the contact in `encode(body, 'escape')` of a kept answer.
    pub fn kept_body_pattern(&self) -> &str {
        &self.kept_body
    }

    /// Whether `text` holds the contact as [`Self::text_pattern`] finds it there (for stores without regular
    /// expressions): anywhere, in any case, for an email address; anywhere for a phone number; never otherwise.
    pub fn found_in_text(&self, text: &str) -> bool {
        if self.text.is_none() {
            false
        } else if is_address(&self.key) {
            let lowered: String = text.chars().map(lower_char).collect();
            lowered.contains(&self.key)
        } else {
            text.contains(&self.key)
        }
    }

    /// Whether a kept answer holds the contact as [`Self::kept_body_pattern`] finds it there.
    pub fn found_in_kept_body(&self, body: &[u8]) -> bool {
        let text = String::from_utf8_lossy(body);
        if self.text.is_some() {
            self.found_in_text(&text)
        } else {
            text.contains(&json_string(&self.key))
        }
    }
}

impl std::fmt::Debug for ContactPatterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ContactPatterns(..)")
    }
}

/// An email address, as far as matching goes: it holds `@`, and no quote or backslash JSON would escape.
fn is_address(key: &str) -> bool {
    key.contains('@') && !key.contains(['"', '\\'])
}

/// `text` as a JSON writer (serde_json, jsonb) writes it, quotes included: quotes and backslashes escaped, and
/// control characters (which no erasable contact holds), the rest as it is.
fn json_string(text: &str) -> String {
    let mut json = String::with_capacity(text.len() + 2);
    json.push('"');
    for c in text.chars() {
        match c {
            '"' => json.push_str("\\\""),
            '\\' => json.push_str("\\\\"),
            c if u32::from(c) < 0x20 => json.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => json.push(c),
        }
    }
    json.push('"');
    json
}

/// How a literal character is written in the text a pattern reads.
#[derive(Clone, Copy)]
enum Literal {
    /// As it is.
    Text,
    /// As `encode(bytes, 'escape')` writes its UTF-8 bytes.
    EscapedBytes,
}

/// `text` matched exactly.
fn exact(text: &str, form: Literal) -> String {
    text.chars().map(|c| literal(c, form)).collect()
}

/// `key` matched in any case: each character by every character whose lower case it is.
fn pattern(key: &str, form: Literal) -> String {
    key.chars()
        .map(|c| {
            let forms = case_forms(c);
            if forms.len() == 1 {
                literal(c, form)
            } else {
                let choices: Vec<String> = forms.iter().map(|&f| literal(f, form)).collect();
                format!("(?:{})", choices.join("|"))
            }
        })
        .collect()
}

/// One character as a regular expression matches it literally in the chosen form.
fn literal(c: char, form: Literal) -> String {
    match form {
        Literal::Text | Literal::EscapedBytes if c.is_ascii_alphanumeric() => c.to_string(),
        // An escaped byte form doubles a backslash; the pattern escapes each of the two.
        Literal::EscapedBytes if c == '\\' => "\\\\\\\\".to_owned(),
        Literal::Text | Literal::EscapedBytes if c.is_ascii() => format!("\\{c}"),
        Literal::Text => c.to_string(),
        Literal::EscapedBytes => {
            let mut bytes = [0; 4];
            c.encode_utf8(&mut bytes).bytes().map(|b| format!("\\\\{b:03o}")).collect()
        }
    }
}

/// `c` and every other character whose lower case is `c`, `c` first.
fn case_forms(c: char) -> Vec<char> {
    static UPPER_FORMS: OnceLock<HashMap<char, Vec<char>>> = OnceLock::new();
    let table = UPPER_FORMS.get_or_init(|| {
        let mut table: HashMap<char, Vec<char>> = HashMap::new();
        for other in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            let lower = lower_char(other);
            if lower != other {
                table.entry(lower).or_default().push(other);
            }
        }
        table
    });
    let mut forms = vec![c];
    forms.extend(table.get(&c).into_iter().flatten().copied());
    forms
}

/// The lower case of `c` when it is one character, else `c`.
fn lower_char(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(one), None) => one,
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_of_an_address_is_one_pattern_and_only_its_letters_vary() {
        let patterns = ContactPatterns::of(" Kari.Nordmann@Example.NO ");
        assert_eq!(patterns.key(), "kari.nordmann@example.no");
        let text = patterns.text_pattern().unwrap();
        assert!(text.starts_with("(?:k|K|\u{212a})(?:a|A)"), "the Kelvin sign lower-cases to k: {text}");
        assert!(text.contains("\\.") && text.contains("\\@"), "punctuation is escaped: {text}");
        for written in ["kari.nordmann@example.no", "KARI.NORDMANN@EXAMPLE.NO", "Kari.Nordmann@example.No"] {
            assert!(patterns.found_in_text(&format!("550 5.1.1 <{written}>: unknown")), "{written}");
        }
        assert!(!patterns.found_in_text("550 5.1.1 <kari.nordman@example.no>"));
    }

    #[test]
    fn a_non_ascii_letter_is_matched_in_both_cases_and_as_escaped_bytes() {
        let patterns = ContactPatterns::of("Åse@Eksempel.no");
        assert!(patterns.text_pattern().unwrap().starts_with("(?:å|Å|\u{212b})(?:s|S)"));
        // å is C3 A5 and Å is C3 85 in UTF-8: `\303\245` and `\303\205` once escaped, each backslash escaped again.
        assert!(patterns.kept_body_pattern().starts_with("(?:\\\\303\\\\245|\\\\303\\\\205|"));
        assert!(patterns.found_in_kept_body("{\"contactDetails\":\"\u{c5}SE@eksempel.no\"}".as_bytes()));
    }

    #[test]
    fn a_phone_number_is_exact_and_a_login_identifier_only_a_whole_json_string() {
        let phone = ContactPatterns::of("+4791234567");
        assert_eq!(phone.kept_body_pattern(), "\\+4791234567");
        assert!(phone.found_in_text("400 invalid recipient +4791234567"));
        let login = ContactPatterns::of("7");
        assert_eq!((login.text_pattern(), login.kept_body_pattern()), (None, "\\\"7\\\""));
        assert!(!login.found_in_text("the 7th"));
        assert!(login.found_in_kept_body(b"{\"contactDetails\":\"7\"}"));
        assert!(!login.found_in_kept_body(b"{\"respondentId\":7}"), "a number is not the identifier");
    }

    #[test]
    fn quotes_and_backslashes_of_a_login_identifier_are_matched_as_json_escapes_them() {
        let login = ContactPatterns::of("a\"b\\c");
        // JSON writes "a\"b\\c"; the escaped byte form doubles each backslash; the pattern escapes every one.
        assert_eq!(login.kept_body_pattern(), "\\\"a\\\\\\\\\\\"b\\\\\\\\\\\\\\\\c\\\"");
        assert!(login.found_in_kept_body(br#"{"contactDetails":"a\"b\\c"}"#));
    }

    #[test]
    fn debug_shows_nothing_of_the_contact() {
        assert_eq!(format!("{:?}", ContactPatterns::of("ann@example.com")), "ContactPatterns(..)");
    }
}
