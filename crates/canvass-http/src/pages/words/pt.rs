//! The respondent pages' own words in Portuguese.

use super::Words;

/// The Portuguese catalogue.
pub const WORDS: Words = Words {
    survey: "Inquérito",
    page_of: "Página {number} de {count}",
    required: "(obrigatória)",
    your_answer: "A sua resposta",
    next: "Seguinte",
    finish: "Terminar",
    saved_as_you_go: "As suas respostas são guardadas página a página: pode sair e voltar através deste mesmo link.",
    check_marked: "Verifique as respostas assinaladas abaixo.",
    answer_required: "Responda a esta pergunta.",
    pages_in_order: "Responda às páginas por ordem: esta é a página a que deve responder agora.",
    enter_number: "Introduza um número.",
    too_long: "Encurte a sua resposta para no máximo {max} caracteres.",
    choose_shown: "Escolha entre as opções apresentadas.",
    earlier_answers: "O inquérito foi alterado desde que começou, por isso não foi possível guardar as suas respostas. Contacte o remetente do inquérito.",
    thank_you: "Obrigado! As suas respostas foram guardadas.",
    closed: "Este inquérito está encerrado. Obrigado pelo seu interesse.",
    unknown_link: "Este link do inquérito não é válido. Verifique o link que recebeu.",
    unreadable: "Não foi possível ler as respostas. Volte atrás e tente novamente.",
    server_error: "Ocorreu um erro do nosso lado. Tente novamente dentro de momentos.",
    opt_out_heading: "Deixar de receber inquéritos",
    opt_out_text: "Se cancelar a subscrição, esta organização deixará de lhe enviar inquéritos.",
    opt_out_button: "Cancelar subscrição",
    opted_out_heading: "Cancelou a subscrição",
    opted_out_text: "Deixará de receber inquéritos desta organização.",
    login_heading: "Aceder ao seu inquérito",
    login_label: "O seu identificador",
    login_button: "Abrir inquérito",
    start_button: "Começar o inquérito",
    login_unknown: "Não foi encontrado nenhum inquérito aberto para este identificador. Verifique-o e tente novamente.",
    cross_site: "Este formulário foi enviado a partir de outro site e não foi aceite.",
    too_many_attempts: "Demasiadas tentativas a partir da sua rede. Tente novamente mais tarde.",
};
