//! The respondent pages' own words in Norwegian Bokmål.

use super::Words;

/// The Norwegian Bokmål catalogue.
pub const WORDS: Words = Words {
    survey: "Undersøkelse",
    page_of: "Side {number} av {count}",
    required: "(obligatorisk)",
    your_answer: "Ditt svar",
    next: "Neste",
    finish: "Fullfør",
    saved_as_you_go: "Svarene dine lagres side for side: du kan gå ut og komme tilbake via den samme lenken.",
    check_marked: "Kontroller svarene som er merket nedenfor.",
    answer_required: "Svar på dette spørsmålet.",
    pages_in_order: "Svar på sidene i rekkefølge: dette er siden du skal svare på nå.",
    enter_number: "Skriv inn et tall.",
    too_long: "Forkort svaret ditt til høyst {max} tegn.",
    choose_shown: "Velg blant alternativene som vises.",
    earlier_answers: "Undersøkelsen er endret siden du begynte, så svarene dine kunne ikke lagres. Kontakt avsenderen av undersøkelsen.",
    thank_you: "Takk! Svarene dine er lagret.",
    closed: "Undersøkelsen er stengt. Takk for interessen.",
    unknown_link: "Denne lenken til undersøkelsen er ikke gyldig. Kontroller lenken du fikk.",
    unreadable: "Svarene kunne ikke leses. Gå tilbake og prøv igjen.",
    server_error: "Noe gikk galt hos oss. Prøv igjen om litt.",
    opt_out_heading: "Slutt å motta undersøkelser",
    opt_out_text: "Hvis du melder deg av, sender ikke denne organisasjonen deg flere undersøkelser.",
    opt_out_button: "Meld meg av",
    opted_out_heading: "Du er meldt av",
    opted_out_text: "Du får ikke flere undersøkelser fra denne organisasjonen.",
    login_heading: "Logg inn på undersøkelsen din",
    login_label: "Din pålogging",
    login_button: "Åpne undersøkelsen",
    start_button: "Start undersøkelsen",
    login_unknown: "Fant ingen åpen undersøkelse for denne påloggingen. Kontroller den og prøv igjen.",
    cross_site: "Skjemaet ble sendt fra et annet nettsted og ble ikke godtatt.",
    too_many_attempts: "For mange forsøk fra nettverket ditt. Prøv igjen senere.",
};
