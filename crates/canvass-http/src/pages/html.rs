//! The respondent pages' HTML: plain server-rendered forms that work without JavaScript, with labels,
//! fieldsets and error messages tied to their questions, in the language of the link's sendout.

mod grid;
mod question;

use canvass_domain::language::Language;
use canvass_domain::survey::TextKey;
use canvass_domain::use_cases::open_link::OpenLinkView;
use canvass_domain::use_cases::respondent_page::{PageError, PageState, PageView, QuestionPage};
use maud::{html, Markup, DOCTYPE};

use super::words::{fill, words, Words};

/// The pages' only style, inline; the Content-Security-Policy allows it by its hash. The rating scale is one row
/// of eleven on a page wider than 480 CSS pixels, and wraps in even columns below that; a Matrix is a table above
/// 480 pixels and one fieldset per row at or below.
pub(crate) const STYLE: &str = "*,*::before,*::after{box-sizing:border-box}\
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;overflow-wrap:anywhere}\
fieldset{border:1px solid #ccc;border-radius:.4rem;margin:1rem 0;padding:.8rem;min-width:0}\
.error{color:#a40000;font-weight:600}label{display:block}textarea,input{max-width:100%}textarea{width:100%}\
button{font-size:1rem;padding:.4rem 1.2rem}.thanks{white-space:pre-line}\
.scale{display:grid;grid-template-columns:repeat(auto-fit,minmax(2.75rem,1fr));gap:.25rem}\
@media (min-width:481px){.scale{grid-template-columns:repeat(11,minmax(0,1fr))}}\
.scale label{position:relative;text-align:center}\
.scale input{position:absolute;top:0;left:0;width:100%;height:100%;margin:0;opacity:0;cursor:pointer}\
.scale span{display:block;padding:.5rem 0;border:1px solid #767676;border-radius:.3rem}\
.scale input:checked+span{background:#1a4d8f;border-color:#1a4d8f;color:#fff;font-weight:600}\
.scale input:focus-visible+span{outline:3px solid #1a4d8f;outline-offset:2px}\
.ends{display:flex;justify-content:space-between;gap:1rem;font-size:.9rem;margin:.3rem 0 0}.ends span+span{text-align:end}\
.matrix{border-collapse:collapse;width:100%}.matrix th,.matrix td{padding:.4rem;text-align:center;border-bottom:1px solid #ddd}\
.matrix th[scope=row]{text-align:start;font-weight:normal}.matrix input{width:1.4rem;height:1.4rem}\
.matrix-rows{display:none}\
@media (max-width:480px){.matrix{display:none}.matrix-rows{display:block}}\
.rank{display:flex;align-items:center;justify-content:space-between;gap:1rem;margin:.3rem 0}.rank label{flex:1}\
select{font-size:1rem;padding:.2rem}\
.languages{list-style:none;display:flex;flex-wrap:wrap;gap:.3rem 1rem;padding:0;margin:0 0 1rem}";

/// Which texts of the survey a view shows in the survey's own language (for want of a translation into the
/// language shown): each is marked with that language's `lang`, so that a screen reader speaks it as it is written.
#[derive(Clone, Copy)]
pub(crate) struct Marks<'v>(&'v PageView);

impl Marks<'_> {
    /// The `lang` of the text `key` names, when it is not the page's.
    pub(crate) fn lang(&self, key: impl FnOnce() -> TextKey) -> Option<&'static str> {
        if self.0.untranslated.is_empty() {
            return None;
        }
        self.0.other_language(&key()).map(Language::code)
    }

    /// The text, inside a `span` with its own `lang` when it is not in the page's language.
    pub(crate) fn text(&self, key: impl FnOnce() -> TextKey, text: &str) -> Markup {
        match self.lang(key) {
            Some(lang) => html! { span lang=(lang) { (text) } },
            None => html! { (text) },
        }
    }
}

/// The links to the survey's other languages, each named in its own language (and marked with it).
fn language_links(view: &PageView, action: &str, words: &Words) -> Markup {
    html! {
        @if !view.languages.is_empty() {
            nav aria-label=(words.languages) {
                ul.languages {
                    @for language in view.languages.iter().filter(|&&l| l != view.language) {
                        li {
                            a href=(format!("{action}?lang={}", language.code())) lang=(language.code())
                                hreflang=(language.code()) { (language.native_name()) }
                        }
                    }
                }
            }
        }
    }
}

/// A whole page around `body`, in `language`.
pub fn layout(language: Language, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang=(language.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (STYLE) }
            }
            body { main { (body) } }
        }
    }
}

/// A page with a heading and one paragraph.
pub fn message(language: Language, heading: &str, text: &str) -> Markup {
    layout(language, heading, html! { h1 { (heading) } p { (text) } })
}

/// An open link's view: its start page (the survey's name and description, a start button posting to
/// `action` with the `hidden` fields the link's query carried), or its closed page.
pub fn open_link(view: &OpenLinkView, action: &str, hidden: &[(String, String)]) -> Markup {
    let words = words(view.language());
    match view {
        OpenLinkView::Start { survey_name, description, language } => layout(
            *language,
            survey_name,
            html! {
                h1 { (survey_name) }
                @if !description.trim().is_empty() { p.thanks { (description) } }
                form method="post" action=(action) {
                    @for (name, value) in hidden { input type="hidden" name=(name) value=(value); }
                    button type="submit" { (words.start_button) }
                }
            },
        ),
        OpenLinkView::Closed { survey_name, language } => {
            layout(*language, survey_name, html! { h1 { (survey_name) } p { (words.closed) } })
        }
    }
}

/// The respondent's view as HTML, posting back to `action` (the link's path).
pub fn view(view: &PageView, action: &str) -> Markup {
    let (name, words, marks) = (view.survey_name.as_str(), words(view.language), Marks(view));
    let heading = html! { h1 { (marks.text(|| TextKey::Name, name)) } };
    let body = match &view.state {
        PageState::Closed => html! { (language_links(view, action, words)) (heading) p { (words.closed) } },
        PageState::Done { thank_you_message } => html! {
            (language_links(view, action, words))
            (heading)
            @match thank_you_message {
                Some(thanks) => p.thanks lang=[marks.lang(|| TextKey::ThankYouMessage)] { (thanks) },
                None => p { (words.thank_you) },
            }
        },
        PageState::Page(page) => html! {
            (language_links(view, action, words))
            (heading)
            (question_page(page, words, marks, action))
        },
        PageState::OptOut => html! {
            h1 { (words.opt_out_heading) }
            p { (words.opt_out_text) }
            form method="post" action=(format!("{action}/opt-out")) { button type="submit" { (words.opt_out_button) } }
        },
        PageState::OptedOut => html! { h1 { (words.opted_out_heading) } p { (words.opted_out_text) } },
    };
    let title = match &view.state {
        PageState::OptOut => words.opt_out_heading,
        PageState::OptedOut => words.opted_out_heading,
        _ => name,
    };
    layout(view.language, title, body)
}

fn question_page(view: &QuestionPage, words: &Words, marks: Marks, action: &str) -> Markup {
    let page_of = fill(words.page_of, &[("number", &view.number), ("count", &view.count)]);
    let general = view.errors.iter().find(|error| error.item().is_none());
    let page_id = view.page.id;
    html! {
        p { (page_of) }
        @if !view.page.title.is_empty() { h2 lang=[marks.lang(|| TextKey::PageTitle(page_id))] { (view.page.title) } }
        @match general {
            Some(PageError::OutOfOrder) => p.error role="alert" { (words.pages_in_order) },
            Some(_) => p.error role="alert" { (words.earlier_answers) },
            None if !view.errors.is_empty() => p.error role="alert" { (words.check_marked) },
            None => {},
        }
        form method="post" action=(action) {
            input type="hidden" name="page" value=(view.page.id);
            @for item in &view.page.items {
                @let answer = view.answers.iter().find(|a| a.question_item_id == item.id);
                @let error = view.errors.iter().find(|e| e.item() == Some(item.id));
                (question::item(item, answer, error, words, marks))
            }
            button type="submit" { @if view.number == view.count { (words.finish) } @else { (words.next) } }
        }
        p { small { (words.saved_as_you_go) } }
    }
}

/// The login form posting to `action`; after a try that opened nothing, `tried` is what was entered.
pub fn login(language: Language, action: &str, tried: Option<&str>) -> Markup {
    let words = words(language);
    layout(
        language,
        words.login_heading,
        html! {
            h1 { (words.login_heading) }
            @if tried.is_some() {
                p.error role="alert" { (words.login_unknown) }
            }
            form method="post" action=(action) {
                label for="identifier" { (words.login_label) }
                input type="text" id="identifier" name="identifier" required value=(tried.unwrap_or_default()) autocomplete="username";
                " "
                button type="submit" { (words.login_button) }
            }
        },
    )
}
