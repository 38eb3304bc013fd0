//! The respondent pages' own words in Italian.

use super::Words;

/// The Italian catalogue.
pub const WORDS: Words = Words {
    survey: "Sondaggio",
    page_of: "Pagina {number} di {count}",
    required: "(obbligatoria)",
    your_answer: "La tua risposta",
    next: "Avanti",
    finish: "Invia",
    saved_as_you_go: "Le risposte vengono salvate pagina per pagina: puoi uscire e tornare con questo stesso link.",
    check_marked: "Controlla le risposte segnalate qui sotto.",
    answer_required: "Rispondi a questa domanda.",
    pages_in_order: "Rispondi alle pagine in ordine: questa è la pagina a cui rispondere ora.",
    enter_number: "Inserisci un numero.",
    too_long: "Accorcia la risposta a non più di {max} caratteri.",
    choose_shown: "Scegli tra le opzioni mostrate.",
    earlier_answers: "Il sondaggio è cambiato da quando l’hai iniziato, quindi non è stato possibile salvare le risposte. Contatta il mittente del sondaggio.",
    thank_you: "Grazie! Le tue risposte sono state salvate.",
    closed: "Questo sondaggio è chiuso. Grazie per l’interesse.",
    unknown_link: "Questo link al sondaggio non è valido. Controlla il link che hai ricevuto.",
    unreadable: "Non è stato possibile leggere le risposte. Torna indietro e riprova.",
    server_error: "Si è verificato un errore da parte nostra. Riprova tra un momento.",
    opt_out_heading: "Non ricevere più sondaggi",
    opt_out_text: "Se annulli l’iscrizione, questa organizzazione non ti invierà più sondaggi.",
    opt_out_button: "Annulla l’iscrizione",
    opted_out_heading: "Iscrizione annullata",
    opted_out_text: "Non riceverai più sondaggi da questa organizzazione.",
    login_heading: "Accedi al tuo sondaggio",
    login_label: "Il tuo codice di accesso",
    login_button: "Apri il sondaggio",
    start_button: "Inizia il sondaggio",
    login_unknown: "Nessun sondaggio aperto trovato per questo codice di accesso. Controllalo e riprova.",
    cross_site: "Questo modulo è stato inviato da un altro sito e non è stato accettato.",
    too_many_attempts: "Troppi tentativi dalla tua rete. Riprova più tardi.",
};
