//! The respondent pages' own words in Swedish.

use super::Words;

/// The Swedish catalogue.
pub const WORDS: Words = Words {
    survey: "Enkät",
    page_of: "Sida {number} av {count}",
    required: "(obligatorisk)",
    your_answer: "Ditt svar",
    next: "Nästa",
    finish: "Skicka",
    saved_as_you_go: "Dina svar sparas sida för sida: du kan lämna enkäten och komma tillbaka via samma länk.",
    check_marked: "Kontrollera svaren som är markerade nedan.",
    answer_required: "Besvara den här frågan.",
    pages_in_order: "Besvara sidorna i tur och ordning: det här är sidan du ska besvara nu.",
    enter_number: "Ange ett tal.",
    too_long: "Korta ner ditt svar till högst {max} tecken.",
    choose_shown: "Välj bland de alternativ som visas.",
    earlier_answers:
        "Enkäten har ändrats sedan du började, så dina svar kunde inte sparas. Kontakta avsändaren av enkäten.",
    thank_you: "Tack! Dina svar har sparats.",
    closed: "Enkäten är stängd. Tack för ditt intresse.",
    unknown_link: "Den här enkätlänken är inte giltig. Kontrollera länken du fick.",
    unreadable: "Svaren kunde inte läsas. Gå tillbaka och försök igen.",
    server_error: "Något gick fel hos oss. Försök igen om en stund.",
    opt_out_heading: "Sluta ta emot enkäter",
    opt_out_text: "Om du avregistrerar dig skickar den här organisationen inga fler enkäter till dig.",
    opt_out_button: "Avregistrera mig",
    opted_out_heading: "Du är avregistrerad",
    opted_out_text: "Du får inga fler enkäter från den här organisationen.",
    login_heading: "Logga in till din enkät",
    login_label: "Ditt inloggnings-id",
    login_button: "Öppna enkäten",
    start_button: "Starta enkäten",
    login_unknown: "Ingen öppen enkät hittades för det här inloggnings-id:t. Kontrollera det och försök igen.",
    cross_site: "Formuläret skickades från en annan webbplats och godtogs inte.",
    too_many_attempts: "För många försök från ditt nätverk. Försök igen senare.",
};
