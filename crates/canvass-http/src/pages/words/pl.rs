//! The respondent pages' own words in Polish.

use super::Words;

/// The Polish catalogue.
pub const WORDS: Words = Words {
    survey: "Ankieta",
    page_of: "Strona {number} z {count}",
    required: "(wymagane)",
    your_answer: "Twoja odpowiedź",
    next: "Dalej",
    finish: "Zakończ",
    saved_as_you_go: "Odpowiedzi są zapisywane strona po stronie: możesz przerwać i wrócić do ankiety przez ten sam link.",
    check_marked: "Sprawdź odpowiedzi oznaczone poniżej.",
    answer_required: "Odpowiedz na to pytanie.",
    pages_in_order: "Odpowiadaj na strony po kolei: to jest strona, na którą należy teraz odpowiedzieć.",
    enter_number: "Wpisz liczbę.",
    too_long: "Skróć odpowiedź do najwyżej {max} znaków.",
    choose_shown: "Wybierz spośród pokazanych odpowiedzi.",
    earlier_answers: "Ankieta zmieniła się od rozpoczęcia wypełniania, więc nie udało się zapisać odpowiedzi. Skontaktuj się z nadawcą ankiety.",
    thank_you: "Dziękujemy! Twoje odpowiedzi zostały zapisane.",
    closed: "Ta ankieta jest zamknięta. Dziękujemy za zainteresowanie.",
    unknown_link: "Ten link do ankiety jest nieprawidłowy. Sprawdź otrzymany link.",
    unreadable: "Nie udało się odczytać odpowiedzi. Wróć i spróbuj ponownie.",
    server_error: "Wystąpił błąd po naszej stronie. Spróbuj ponownie za chwilę.",
    opt_out_heading: "Nie chcę otrzymywać ankiet",
    opt_out_text: "Jeśli zrezygnujesz, ta organizacja nie będzie już wysyłać Ci ankiet.",
    opt_out_button: "Rezygnuję",
    opted_out_heading: "Zrezygnowano z ankiet",
    opted_out_text: "Nie będziesz już otrzymywać ankiet od tej organizacji.",
    login_heading: "Zaloguj się do ankiety",
    login_label: "Twój login",
    login_button: "Otwórz ankietę",
    start_button: "Rozpocznij ankietę",
    login_unknown: "Nie znaleziono otwartej ankiety dla tego loginu. Sprawdź go i spróbuj ponownie.",
    cross_site: "Ten formularz został wysłany z innej witryny i nie został przyjęty.",
    too_many_attempts: "Zbyt wiele prób z Twojej sieci. Spróbuj ponownie później.",
};
