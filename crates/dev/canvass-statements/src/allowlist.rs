//! The allowlist (`docs/citus-allowlist.txt`): statements allowed to touch account tables without naming one
//! account. One statement per line, its key (16 hex digits, see [`crate::normal::key`]), two spaces and the start
//! of its normal form (for the reader only). `#` starts a comment (the reasons); `== <title>` starts a section.

use std::collections::BTreeMap;

/// One allowed statement: the section it is listed in and the line that lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The title of its section (`allowed`, or the statements still to convert).
    pub section: String,
    /// The text after the key.
    pub text: String,
}

/// The entries of an allowlist text, by key; an error names the first line that is neither a comment, a section
/// title nor an entry.
pub fn parse(text: &str) -> Result<BTreeMap<String, Entry>, String> {
    let mut section = String::new();
    let mut entries = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(title) = line.strip_prefix("==") {
            title.trim().clone_into(&mut section);
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if key.len() != 16 || !key.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("line {}: expected `<16 hex digits>  <statement>`, found {line:?}", number + 1));
        }
        entries.insert(key.to_lowercase(), Entry { section: section.clone(), text: rest.trim().to_owned() });
    }
    Ok(entries)
}

/// The line that lists a statement on the allowlist.
pub fn line(key: &str, normal: &str) -> String {
    let mut text: String = normal.chars().take(160).collect();
    if text.len() < normal.len() {
        text.push_str(" …");
    }
    format!("{key}  {text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_carry_their_section_and_bad_lines_are_refused() {
        let text = "# why\n== allowed\n0123456789abcdef  SELECT 1\n\n== still to convert\n# reason\n\
                    fedcba9876543210  UPDATE t …\n";
        let entries = parse(text).unwrap();
        assert_eq!(entries["0123456789abcdef"].section, "allowed");
        assert_eq!(entries["fedcba9876543210"].section, "still to convert");
        assert!(parse("== allowed\nSELECT 1\n").unwrap_err().contains("line 2"));
    }

    #[test]
    fn a_line_is_parsed_back_to_its_key() {
        let listed = line("0123456789abcdef", &"SELECT a FROM t ".repeat(20));
        assert!(listed.ends_with(" …"));
        assert!(parse(&listed).unwrap().contains_key("0123456789abcdef"));
    }
}
