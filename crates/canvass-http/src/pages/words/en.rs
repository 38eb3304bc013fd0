//! The respondent pages' own words in English.

use super::Words;

/// The English catalogue.
pub const WORDS: Words = Words {
    survey: "Survey",
    page_of: "Page {number} of {count}",
    required: "(required)",
    your_answer: "Your answer",
    next: "Next",
    finish: "Finish",
    saved_as_you_go: "Your answers are saved page by page: you can leave and come back to this link.",
    check_marked: "Please check the answers marked below.",
    answer_required: "Please answer this question.",
    pages_in_order: "Please answer the pages in order: this is the page to answer now.",
    enter_number: "Please enter a number.",
    too_long: "Please shorten your answer to at most {max} characters.",
    choose_shown: "Please choose from the options shown.",
    earlier_answers: "The survey has changed since you began, so your answers could not be saved. Please contact the sender of the survey.",
    thank_you: "Thank you! Your answers have been saved.",
    closed: "This survey is closed. Thank you for your interest.",
    unknown_link: "This survey link is not valid. Please check the link you received.",
    unreadable: "The answers could not be read. Please go back and try again.",
    server_error: "Something went wrong on our side. Please try again in a moment.",
    opt_out_heading: "Stop receiving surveys",
    opt_out_text: "If you opt out, this organisation will not send you surveys any more.",
    opt_out_button: "Opt out",
    opted_out_heading: "You have opted out",
    opted_out_text: "You will not receive surveys from this organisation any more.",
    login_heading: "Log in to your survey",
    login_label: "Your login",
    login_button: "Open survey",
    start_button: "Start the survey",
    login_unknown: "No open survey was found for this login. Please check it and try again.",
    cross_site: "This form was sent from another site and was not accepted.",
    too_many_attempts: "Too many attempts from your network. Please try again later.",
};
