//! The respondent pages' own words in Dutch.

use super::Words;

/// The Dutch catalogue.
pub const WORDS: Words = Words {
    survey: "Enquête",
    page_of: "Pagina {number} van {count}",
    required: "(verplicht)",
    your_answer: "Uw antwoord",
    next: "Volgende",
    finish: "Versturen",
    saved_as_you_go: "Uw antwoorden worden per pagina bewaard: u kunt de enquête verlaten en via deze link terugkomen.",
    check_marked: "Controleer de antwoorden die hieronder zijn gemarkeerd.",
    answer_required: "Beantwoord deze vraag.",
    pages_in_order: "Beantwoord de pagina’s op volgorde: dit is de pagina die nu aan de beurt is.",
    enter_number: "Vul een getal in.",
    too_long: "Maak uw antwoord korter, tot hoogstens {max} tekens.",
    choose_shown: "Kies uit de getoonde mogelijkheden.",
    earlier_answers: "De enquête is gewijzigd sinds u begon, daarom konden uw antwoorden niet worden bewaard. Neem contact op met de afzender van de enquête.",
    thank_you: "Bedankt! Uw antwoorden zijn bewaard.",
    closed: "Deze enquête is gesloten. Bedankt voor uw belangstelling.",
    unknown_link: "Deze enquêtelink is niet geldig. Controleer de link die u hebt ontvangen.",
    unreadable: "De antwoorden konden niet worden gelezen. Ga terug en probeer het opnieuw.",
    server_error: "Er ging bij ons iets mis. Probeer het zo meteen opnieuw.",
    opt_out_heading: "Geen enquêtes meer ontvangen",
    opt_out_text: "Als u zich afmeldt, stuurt deze organisatie u geen enquêtes meer.",
    opt_out_button: "Afmelden",
    opted_out_heading: "U bent afgemeld",
    opted_out_text: "U ontvangt geen enquêtes meer van deze organisatie.",
    login_heading: "Inloggen bij uw enquête",
    login_label: "Uw inlognaam",
    login_button: "Enquête openen",
    start_button: "Enquête starten",
    login_unknown: "Er is geen open enquête gevonden voor deze inlognaam. Controleer deze en probeer het opnieuw.",
    cross_site: "Dit formulier is vanaf een andere website verstuurd en is niet geaccepteerd.",
    too_many_attempts: "Te veel pogingen vanaf uw netwerk. Probeer het later opnieuw.",
};
