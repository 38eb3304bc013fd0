//! How a message reads: links filled into its text, the same text as escaped HTML, and the Message-ID it carries.

use super::placeholders::{fill_html, fill_text, Personal, Values};

/// The placeholder for the respondent's opt-out link.
pub const OPT_OUT_PLACEHOLDER: &str = "{{optOutLink}}";

/// Where respondents' links point, and the domain of the Message-IDs the service writes (the host of the public
/// URL, so a reply or bounce names the service that sent it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkBase {
    /// Base of the links, without a trailing `/`.
    pub public_url: String,
    /// Right-hand side of every Message-ID.
    pub message_domain: String,
}

impl LinkBase {
    /// Links under `public_url` (a trailing `/` is dropped), Message-IDs on its host.
    ///
    /// ```
    /// use canvass_domain::delivery::LinkBase;
    ///
    /// let base = LinkBase::new("https://user@survey.example:8443/canvass/");
    /// assert_eq!(base.public_url, "https://user@survey.example:8443/canvass");
    /// assert_eq!(base.message_domain, "survey.example");
    /// assert_eq!(LinkBase::new("http://[::1]:8080").message_domain, "[::1]");
    /// ```
    pub fn new(public_url: &str) -> Self {
        let public_url = public_url.trim_end_matches('/').to_owned();
        let authority = public_url.split_once("://").map_or(public_url.as_str(), |(_, rest)| rest);
        let authority = authority.split(['/', '?', '#']).next().unwrap_or_default();
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
        let host = match host_port.strip_prefix('[') {
            Some(v6) => v6.split_once(']').map_or(host_port, |(address, _)| &host_port[..address.len() + 2]),
            None => host_port.split(':').next().unwrap_or_default(),
        };
        let message_domain = if host.is_empty() { "localhost".to_owned() } else { host.to_ascii_lowercase() };
        Self { public_url, message_domain }
    }

    /// The respondent's survey link and opt-out link for a link token.
    pub fn links(&self, token: &str) -> (String, String) {
        let survey = [self.public_url.as_str(), "/r/", token].concat();
        let opt_out = [survey.as_str(), "/opt-out"].concat();
        (survey, opt_out)
    }

    /// The Message-ID for a message token: `<token@domain>`.
    pub fn message_id(&self, message_token: &str) -> String {
        ["<", message_token, "@", self.message_domain.as_str(), ">"].concat()
    }
}

/// Fills the survey link and opt-out link placeholders of a message (the personal ones take their defaults).
///
/// ```
/// use canvass_domain::delivery::render;
///
/// let text = render("Answer: {{surveyLink}} / stop: {{optOutLink}}", "https://x/r/t", "https://x/r/t/opt-out");
/// assert_eq!(text, "Answer: https://x/r/t / stop: https://x/r/t/opt-out");
/// ```
pub fn render(template: &str, survey_link: &str, opt_out_link: &str) -> String {
    fill_text(template, Values { survey_link, opt_out_link, personal: &Personal::default() })
}

/// The same message as an HTML document: the user's text escaped, line breaks kept, and each link an anchor.
///
/// ```
/// use canvass_domain::delivery::render_html;
///
/// let html = render_html("<b>Hi</b> & go: {{surveyLink}}", "https://x/r/t", "https://x/r/t/opt-out");
/// assert!(html.contains("&lt;b&gt;Hi&lt;/b&gt; &amp; go: <a href=\"https://x/r/t\">https://x/r/t</a>"));
/// ```
pub fn render_html(template: &str, survey_link: &str, opt_out_link: &str) -> String {
    fill_html(template, Values { survey_link, opt_out_link, personal: &Personal::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_text_cannot_add_markup_to_the_html_part() {
        let html = render_html("\"><script>x()</script>\n{{optOutLink}}", "https://x/r/t", "https://x/r/t/opt-out");
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;"));
        assert!(html.contains("<br>\n<a href=\"https://x/r/t/opt-out\">"));
    }

    #[test]
    fn message_ids_carry_the_token_on_the_public_host() {
        let base = LinkBase::new("http://127.0.0.1:8080");
        assert_eq!(base.message_id("ab12"), "<ab12@127.0.0.1>");
        assert_eq!(base.links("t"), ("http://127.0.0.1:8080/r/t".into(), "http://127.0.0.1:8080/r/t/opt-out".into()));
        assert_eq!(LinkBase::new("survey.example").message_domain, "survey.example");
    }
}
