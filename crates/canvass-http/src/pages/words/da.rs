//! The respondent pages' own words in Danish.

use super::Words;

/// The Danish catalogue.
pub const WORDS: Words = Words {
    survey: "Spørgeskema",
    page_of: "Side {number} af {count}",
    required: "(skal besvares)",
    your_answer: "Dit svar",
    next: "Næste",
    finish: "Afslut",
    saved_as_you_go: "Dine svar gemmes side for side: du kan gå fra spørgeskemaet og vende tilbage via det samme link.",
    check_marked: "Kontrollér de svar, der er markeret nedenfor.",
    answer_required: "Besvar venligst dette spørgsmål.",
    pages_in_order: "Besvar siderne i rækkefølge: dette er den side, du skal besvare nu.",
    enter_number: "Indtast et tal.",
    too_long: "Forkort dit svar til højst {max} tegn.",
    choose_shown: "Vælg blandt de viste muligheder.",
    earlier_answers: "Spørgeskemaet er ændret, siden du begyndte, så dine svar kunne ikke gemmes. Kontakt afsenderen af spørgeskemaet.",
    thank_you: "Tak! Dine svar er gemt.",
    closed: "Spørgeskemaet er lukket. Tak for din interesse.",
    unknown_link: "Dette link til spørgeskemaet er ikke gyldigt. Kontrollér det link, du har modtaget.",
    unreadable: "Svarene kunne ikke læses. Gå tilbage, og prøv igen.",
    server_error: "Der opstod en fejl hos os. Prøv igen om lidt.",
    opt_out_heading: "Modtag ikke flere spørgeskemaer",
    opt_out_text: "Hvis du framelder dig, sender denne organisation ikke flere spørgeskemaer til dig.",
    opt_out_button: "Frameld mig",
    opted_out_heading: "Du er frameldt",
    opted_out_text: "Du modtager ikke flere spørgeskemaer fra denne organisation.",
    login_heading: "Log ind på dit spørgeskema",
    login_label: "Dit login",
    login_button: "Åbn spørgeskemaet",
    start_button: "Start spørgeskemaet",
    login_unknown: "Der blev ikke fundet et åbent spørgeskema til dette login. Kontrollér det, og prøv igen.",
    cross_site: "Formularen blev sendt fra et andet websted og blev ikke accepteret.",
    too_many_attempts: "For mange forsøg fra dit netværk. Prøv igen senere.",
};
