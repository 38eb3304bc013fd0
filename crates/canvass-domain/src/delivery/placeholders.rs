//! Placeholders of invitations and reminders: `{{surveyLink}}`, `{{optOutLink}}`, `{{firstName}}`,
//! `{{lastName}}`, `{{contact.<attribute>}}` and `{{bg.<label name>}}`, each but the links with an optional default
//! after a bar (`{{firstName|there}}`), and the message filled in as text, as escaped HTML, or as a subject line.
//!
//! A parser of our own, not a template engine: the language is one substitution with a default, a template is
//! refused at creation for any other placeholder (so it is parsed then, and rendering is one pass over the text
//! that needs no tree kept), and no text of a user's can ever run anything. Values go in as text: a line break
//! in one becomes a space (no value can add a header line), and the HTML part escapes them.

use std::collections::BTreeMap;

use crate::directory::check_attribute_name;

/// What a placeholder stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placeholder<'a> {
    SurveyLink,
    OptOutLink,
    FirstName,
    LastName,
    Contact(&'a str),
    Background(&'a str),
}

/// A piece of a template: text as written, or a placeholder with its default (empty when none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece<'a, P = Placeholder<'a>> {
    Text(&'a str),
    Slot(P, &'a str),
    /// `{{...}}` that is no placeholder, as written (refused at creation, so only in texts stored before).
    Unknown(&'a str),
}

/// Reads what is between `{{` and `}}`.
pub(crate) fn placeholder(inner: &str) -> Option<(Placeholder<'_>, &str)> {
    let (name, default) = match inner.split_once('|') {
        Some((name, default)) => (name, Some(default)),
        None => (inner, None),
    };
    let placeholder = match name {
        "surveyLink" if default.is_none() => Placeholder::SurveyLink,
        "optOutLink" if default.is_none() => Placeholder::OptOutLink,
        "firstName" => Placeholder::FirstName,
        "lastName" => Placeholder::LastName,
        _ => match (name.strip_prefix("contact."), name.strip_prefix("bg.")) {
            (Some(attribute), _) if check_attribute_name(attribute).is_ok() => Placeholder::Contact(attribute),
            (_, Some(label)) if !label.trim().is_empty() && label.trim() == label => Placeholder::Background(label),
            _ => return None,
        },
    };
    Some((placeholder, default.unwrap_or_default()))
}

/// The template's pieces, in order, in one pass.
fn pieces(template: &str) -> impl Iterator<Item = Piece<'_>> {
    scan(template, placeholder)
}

/// A text's pieces, in order, in one pass, what is between `{{` and `}}` read by `read` (as written when it
/// reads nothing).
pub(crate) fn scan<'a, P>(
    template: &'a str,
    read: impl Fn(&'a str) -> Option<(P, &'a str)>,
) -> impl Iterator<Item = Piece<'a, P>> {
    let mut rest = template;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(open) = find_twice(rest, '{') else {
            return Some(Piece::Text(std::mem::take(&mut rest)));
        };
        if open > 0 {
            let (text, after) = rest.split_at(open);
            rest = after;
            return Some(Piece::Text(text));
        }
        let Some(close) = find_twice(&rest[2..], '}') else {
            return Some(Piece::Text(std::mem::take(&mut rest)));
        };
        let (whole, after) = rest.split_at(close + 4);
        rest = after;
        let inner = &whole[2..whole.len() - 2];
        Some(read(inner).map_or(Piece::Unknown(whole), |(found, default)| Piece::Slot(found, default)))
    })
}

/// Where `brace` first stands twice in a row in `text`: a search for the one character (a byte search), then a look
/// at the next, which costs less on a short text than setting up a search for the pair.
fn find_twice(text: &str, brace: char) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find(brace) {
        let at = from + found;
        if text[at + 1..].starts_with(brace) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The placeholders of `template` that are none of the known ones, as written, each once.
///
/// ```
/// use canvass_domain::delivery::unknown_placeholders;
///
/// let text = "Hi {{firstName|there}}, {{bg.Office}}: {{surveyLink}} {{nmae}} {{contact.2x}} {{nmae}}";
/// assert_eq!(unknown_placeholders(text), ["{{nmae}}", "{{contact.2x}}"]);
/// ```
pub fn unknown_placeholders(template: &str) -> Vec<String> {
    let mut unknown: Vec<String> = Vec::new();
    for piece in pieces(template) {
        if let Piece::Unknown(written) = piece {
            if !unknown.iter().any(|seen| seen == written) {
                unknown.push(written.to_owned());
            }
        }
    }
    unknown
}

/// What a respondent's placeholders are filled with. Its `Debug` shows nothing of it: all of it is personal data.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Personal {
    /// The first name of the respondent's contact.
    pub first_name: Option<String>,
    /// The last name of the respondent's contact.
    pub last_name: Option<String>,
    /// The attributes of the respondent's contact, by name.
    pub contact: BTreeMap<String, String>,
    /// The respondent's background data, by label name.
    pub background: BTreeMap<String, String>,
}

crate::debug_without_personal_data!(Personal {});

/// Everything a template is filled with: the respondent's links and personal values.
#[derive(Clone, Copy)]
pub struct Values<'a> {
    /// The survey link.
    pub survey_link: &'a str,
    /// The opt-out link.
    pub opt_out_link: &'a str,
    /// The personal values.
    pub personal: &'a Personal,
}

impl<'a> Values<'a> {
    /// The text a placeholder stands for: its value, or its default when the value is missing or blank, line
    /// breaks made spaces.
    fn of(&self, placeholder: Placeholder<'_>, default: &'a str) -> std::borrow::Cow<'a, str> {
        let value = match placeholder {
            Placeholder::SurveyLink => Some(self.survey_link),
            Placeholder::OptOutLink => Some(self.opt_out_link),
            personal => self.personal.value(personal),
        };
        one_line(value.filter(|value| !value.trim().is_empty()).unwrap_or(default))
    }
}

/// The text with each line break made a space.
pub(crate) fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if text.bytes().any(|byte| byte == b'\r' || byte == b'\n') {
        text.replace(['\r', '\n'], " ").into()
    } else {
        text.into()
    }
}

impl Personal {
    /// The value of a personal placeholder (none for the links).
    pub(crate) fn value(&self, placeholder: Placeholder<'_>) -> Option<&str> {
        match placeholder {
            Placeholder::SurveyLink | Placeholder::OptOutLink => None,
            Placeholder::FirstName => self.first_name.as_deref(),
            Placeholder::LastName => self.last_name.as_deref(),
            Placeholder::Contact(name) => self.contact.get(name).map(String::as_str),
            Placeholder::Background(name) => self.background.get(name).map(String::as_str),
        }
    }
}

/// The template filled in as plain text.
///
/// ```
/// use canvass_domain::delivery::{fill_text, Personal, Values};
///
/// let anna = Personal { first_name: Some("Anna".into()), ..Personal::default() };
/// let values = Values { survey_link: "https://x/r/t", opt_out_link: "https://x/r/t/opt-out", personal: &anna };
/// assert_eq!(fill_text("Dear {{firstName|friend}} {{lastName}}: {{surveyLink}}", values), "Dear Anna : https://x/r/t");
/// ```
pub fn fill_text(template: &str, values: Values<'_>) -> String {
    let mut out = String::with_capacity(template.len() + values.survey_link.len() + values.opt_out_link.len() + 64);
    for piece in pieces(template) {
        match piece {
            Piece::Text(text) | Piece::Unknown(text) => out.push_str(text),
            Piece::Slot(placeholder, default) => out.push_str(&values.of(placeholder, default)),
        }
    }
    out
}

/// The start of the HTML part, before the message.
const HTML_START: &str = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n<p>";
/// The end of the HTML part, after the message.
const HTML_END: &str = "</p>\n</body></html>\n";

/// The template filled in as an HTML document: the user's text and every value escaped, line breaks kept, each
/// link an anchor. Written into one string, each piece escaped into it.
pub fn fill_html(template: &str, values: Values<'_>) -> String {
    let links = values.survey_link.len() + values.opt_out_link.len();
    let mut html = String::with_capacity(HTML_START.len() + template.len() * 2 + links * 2 + 64 + HTML_END.len());
    html.push_str(HTML_START);
    for piece in pieces(template) {
        match piece {
            Piece::Text(text) | Piece::Unknown(text) => escaped(&mut html, text),
            Piece::Slot(link @ (Placeholder::SurveyLink | Placeholder::OptOutLink), default) => {
                anchor(&mut html, &values.of(link, default));
            }
            Piece::Slot(placeholder, default) => escaped(&mut html, &values.of(placeholder, default)),
        }
    }
    html.push_str(HTML_END);
    html
}

/// `text` escaped into `html`, each line break kept as `<br>` and a new line.
fn escaped(html: &mut String, text: &str) {
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            html.push_str("<br>\n");
        }
        html_escape::encode_text_to_string(line, html);
    }
}

/// The subject filled in: one line, whatever the values hold.
pub fn fill_line(template: &str, values: Values<'_>) -> String {
    fill_text(template, values).replace(['\r', '\n'], " ")
}

/// A respondent's invitation before it is filled in: what a preview shows. Its `Debug` shows nothing personal.
#[derive(Clone, PartialEq, Eq)]
pub struct Invitation {
    /// The subject, in the language the respondent is shown.
    pub subject: Option<String>,
    /// The message, in that language.
    pub template: String,
    /// The respondent's link token.
    pub token: String,
    /// What its personal placeholders are filled with.
    pub personal: Personal,
}

crate::debug_without_personal_data!(Invitation {});

impl Invitation {
    /// The subject and text as the respondent gets them, links under `base`.
    pub fn filled(&self, base: &super::LinkBase) -> (Option<String>, String) {
        let (survey_link, opt_out_link) = base.links(&self.token);
        let values = Values { survey_link: &survey_link, opt_out_link: &opt_out_link, personal: &self.personal };
        (self.subject.as_deref().map(|subject| fill_line(subject, values)), fill_text(&self.template, values))
    }
}

/// `link` as an anchor whose text is the link.
fn anchor(html: &mut String, link: &str) {
    html.push_str("<a href=\"");
    html_escape::encode_double_quoted_attribute_to_string(link, html);
    html.push_str("\">");
    html_escape::encode_text_to_string(link, html);
    html.push_str("</a>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(personal: &Personal) -> Values<'_> {
        Values { survey_link: "https://x/r/t", opt_out_link: "https://x/r/t/opt-out", personal }
    }

    #[test]
    fn each_placeholder_takes_its_value_or_its_default() {
        let personal = Personal {
            first_name: Some("  ".into()),
            last_name: Some("Berg".into()),
            contact: BTreeMap::from([("tier".to_owned(), "gold".to_owned())]),
            background: BTreeMap::from([("Home office".to_owned(), "Oslo".to_owned())]),
        };
        let template = "{{firstName|there}} {{lastName|x}} {{contact.tier}} {{contact.city|-}} {{bg.Home office}} \
                        {{bg.Team}}.";
        assert_eq!(fill_text(template, values(&personal)), "there Berg gold - Oslo .");
        assert_eq!(fill_text("{{ {{x}} {{firstName", values(&personal)), "{{ {{x}} {{firstName", "left as written");
        assert_eq!(fill_text("", values(&personal)), "");
        assert_eq!(fill_text("a{b{{lastName}}}} {x}", values(&personal)), "a{bBerg}} {x}", "single braces are text");
    }

    #[test]
    fn the_html_part_is_the_text_escaped_with_its_line_breaks_and_its_links_as_anchors() {
        let anna = Personal { first_name: Some("Anna & Bo".into()), ..Personal::default() };
        let html = fill_html("Hi {{firstName}},\n<answer> {{surveyLink}}\n\n{{optOutLink}} {{x}}", values(&anna));
        let body = "Hi Anna &amp; Bo,<br>\n&lt;answer&gt; <a href=\"https://x/r/t\">https://x/r/t</a><br>\n<br>\n\
                    <a href=\"https://x/r/t/opt-out\">https://x/r/t/opt-out</a> {{x}}";
        let document = format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n<p>{body}</p>\n</body></html>\n"
        );
        assert_eq!(html, document);
    }

    #[test]
    fn values_cannot_add_markup_or_header_lines() {
        let personal =
            Personal { first_name: Some("<b>Eve</b>\r\nBcc: all@example.com".into()), ..Personal::default() };
        let html = fill_html("Hi {{firstName}}\n{{surveyLink}}", values(&personal));
        assert!(
            html.contains("Hi &lt;b&gt;Eve&lt;/b&gt;  Bcc: all@example.com<br>\n<a href=\"https://x/r/t\">"),
            "{html}"
        );
        assert_eq!(fill_line("Hi {{firstName}}", values(&personal)), "Hi <b>Eve</b>  Bcc: all@example.com");
        let crlf = Personal { last_name: Some("A\nB".into()), ..Personal::default() };
        assert_eq!(fill_line("x\r\n{{lastName}}", values(&crlf)), "x  A B");
    }

    #[test]
    fn links_take_no_default_and_names_follow_their_rules() {
        assert_eq!(unknown_placeholders("{{surveyLink|x}} {{bg.}} {{bg. Team}} {{contact.}} {{Firstname}}").len(), 5);
        assert!(unknown_placeholders("{{optOutLink}} {{bg.Team|?}} {{contact.tier_2|}}").is_empty());
    }
}
