//! The respondent pages' own words in Spanish.

use super::Words;

/// The Spanish catalogue.
pub const WORDS: Words = Words {
    survey: "Encuesta",
    page_of: "Página {number} de {count}",
    required: "(obligatoria)",
    your_answer: "Su respuesta",
    next: "Siguiente",
    finish: "Finalizar",
    saved_as_you_go: "Sus respuestas se guardan página a página: puede salir y volver con este mismo enlace.",
    check_marked: "Revise las respuestas marcadas a continuación.",
    answer_required: "Responda a esta pregunta.",
    pages_in_order: "Responda a las páginas en orden: esta es la página que debe responder ahora.",
    enter_number: "Introduzca un número.",
    too_long: "Acorte su respuesta a un máximo de {max} caracteres.",
    choose_shown: "Elija entre las opciones que se muestran.",
    earlier_answers: "La encuesta ha cambiado desde que la empezó, por lo que no se han podido guardar sus respuestas. Póngase en contacto con el remitente de la encuesta.",
    thank_you: "¡Gracias! Sus respuestas se han guardado.",
    closed: "Esta encuesta está cerrada. Gracias por su interés.",
    unknown_link: "Este enlace de la encuesta no es válido. Compruebe el enlace que recibió.",
    unreadable: "No se han podido leer las respuestas. Vuelva atrás e inténtelo de nuevo.",
    server_error: "Algo ha fallado por nuestra parte. Inténtelo de nuevo en un momento.",
    opt_out_heading: "Dejar de recibir encuestas",
    opt_out_text: "Si se da de baja, esta organización no le enviará más encuestas.",
    opt_out_button: "Darme de baja",
    opted_out_heading: "Se ha dado de baja",
    opted_out_text: "No recibirá más encuestas de esta organización.",
    login_heading: "Acceda a su encuesta",
    login_label: "Su identificador",
    login_button: "Abrir la encuesta",
    start_button: "Empezar la encuesta",
    login_unknown: "No se ha encontrado ninguna encuesta abierta para este identificador. Compruébelo e inténtelo de nuevo.",
    cross_site: "Este formulario se envió desde otro sitio y no se ha aceptado.",
    too_many_attempts: "Demasiados intentos desde su red. Inténtelo de nuevo más tarde.",
};
