//! The respondent pages' own words in Finnish.

use super::Words;

/// The Finnish catalogue.
pub const WORDS: Words = Words {
    survey: "Kysely",
    page_of: "Sivu {number}/{count}",
    required: "(pakollinen)",
    your_answer: "Vastauksesi",
    next: "Seuraava",
    finish: "Lähetä",
    saved_as_you_go: "Vastauksesi tallentuvat sivu kerrallaan: voit poistua ja palata samasta linkistä.",
    check_marked: "Tarkista alla merkityt vastaukset.",
    answer_required: "Vastaa tähän kysymykseen.",
    pages_in_order: "Vastaa sivuihin järjestyksessä: tähän sivuun vastataan nyt.",
    enter_number: "Anna luku.",
    too_long: "Lyhennä vastauksesi enintään {max} merkkiin.",
    choose_shown: "Valitse näytetyistä vaihtoehdoista.",
    earlier_answers: "Kysely on muuttunut aloittamisesi jälkeen, joten vastauksiasi ei voitu tallentaa. Ota yhteyttä kyselyn lähettäjään.",
    thank_you: "Kiitos! Vastauksesi on tallennettu.",
    closed: "Kysely on suljettu. Kiitos kiinnostuksestasi.",
    unknown_link: "Tämä kyselylinkki ei ole voimassa. Tarkista saamasi linkki.",
    unreadable: "Vastauksia ei voitu lukea. Palaa takaisin ja yritä uudelleen.",
    server_error: "Meillä tapahtui virhe. Yritä hetken kuluttua uudelleen.",
    opt_out_heading: "Lopeta kyselyjen vastaanottaminen",
    opt_out_text: "Jos kiellät kyselyt, tämä organisaatio ei enää lähetä sinulle kyselyjä.",
    opt_out_button: "Kiellä kyselyt",
    opted_out_heading: "Olet kieltänyt kyselyt",
    opted_out_text: "Et saa enää kyselyjä tältä organisaatiolta.",
    login_heading: "Kirjaudu kyselyysi",
    login_label: "Kirjautumistunnuksesi",
    login_button: "Avaa kysely",
    start_button: "Aloita kysely",
    login_unknown: "Tällä tunnuksella ei löytynyt avointa kyselyä. Tarkista tunnus ja yritä uudelleen.",
    cross_site: "Lomake lähetettiin toiselta sivustolta, eikä sitä hyväksytty.",
    too_many_attempts: "Verkostasi on tehty liian monta yritystä. Yritä myöhemmin uudelleen.",
};
