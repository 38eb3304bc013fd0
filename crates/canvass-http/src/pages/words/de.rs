//! The respondent pages' own words in German.

use super::Words;

/// The German catalogue.
pub const WORDS: Words = Words {
    survey: "Umfrage",
    page_of: "Seite {number} von {count}",
    required: "(Pflichtfrage)",
    your_answer: "Ihre Antwort",
    next: "Weiter",
    finish: "Abschließen",
    saved_as_you_go: "Ihre Antworten werden Seite für Seite gespeichert: Sie können die Umfrage verlassen und über diesen Link zurückkehren.",
    check_marked: "Bitte prüfen Sie die unten markierten Antworten.",
    answer_required: "Bitte beantworten Sie diese Frage.",
    pages_in_order: "Bitte beantworten Sie die Seiten der Reihe nach: Diese Seite ist jetzt an der Reihe.",
    enter_number: "Bitte geben Sie eine Zahl ein.",
    too_long: "Bitte kürzen Sie Ihre Antwort auf höchstens {max} Zeichen.",
    choose_shown: "Bitte wählen Sie aus den angezeigten Möglichkeiten.",
    earlier_answers: "Die Umfrage wurde geändert, seit Sie begonnen haben, daher konnten Ihre Antworten nicht gespeichert werden. Bitte wenden Sie sich an den Absender der Umfrage.",
    thank_you: "Vielen Dank! Ihre Antworten wurden gespeichert.",
    closed: "Diese Umfrage ist geschlossen. Vielen Dank für Ihr Interesse.",
    unknown_link: "Dieser Umfragelink ist ungültig. Bitte prüfen Sie den Link, den Sie erhalten haben.",
    unreadable: "Die Antworten konnten nicht gelesen werden. Bitte gehen Sie zurück und versuchen Sie es erneut.",
    server_error: "Bei uns ist ein Fehler aufgetreten. Bitte versuchen Sie es gleich noch einmal.",
    opt_out_heading: "Keine Umfragen mehr erhalten",
    opt_out_text: "Wenn Sie sich abmelden, sendet Ihnen diese Organisation keine Umfragen mehr.",
    opt_out_button: "Abmelden",
    opted_out_heading: "Sie haben sich abgemeldet",
    opted_out_text: "Sie erhalten von dieser Organisation keine Umfragen mehr.",
    login_heading: "Bei Ihrer Umfrage anmelden",
    login_label: "Ihre Anmeldekennung",
    login_button: "Umfrage öffnen",
    start_button: "Umfrage starten",
    login_unknown: "Für diese Anmeldekennung wurde keine offene Umfrage gefunden. Bitte prüfen Sie sie und versuchen Sie es erneut.",
    cross_site: "Dieses Formular wurde von einer anderen Website gesendet und nicht angenommen.",
    too_many_attempts: "Zu viele Versuche aus Ihrem Netzwerk. Bitte versuchen Sie es später erneut.",
};
