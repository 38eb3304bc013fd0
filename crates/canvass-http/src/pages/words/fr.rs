//! The respondent pages' own words in French.

use super::Words;

/// The French catalogue.
pub const WORDS: Words = Words {
    survey: "Enquête",
    page_of: "Page {number} sur {count}",
    required: "(obligatoire)",
    your_answer: "Votre réponse",
    next: "Suivant",
    finish: "Terminer",
    saved_as_you_go: "Vos réponses sont enregistrées page par page : vous pouvez quitter l’enquête et y revenir avec ce lien.",
    check_marked: "Veuillez vérifier les réponses signalées ci-dessous.",
    answer_required: "Veuillez répondre à cette question.",
    pages_in_order: "Veuillez répondre aux pages dans l’ordre : voici la page à remplir maintenant.",
    enter_number: "Veuillez saisir un nombre.",
    too_long: "Veuillez raccourcir votre réponse à {max} caractères au maximum.",
    choose_shown: "Veuillez choisir parmi les options proposées.",
    earlier_answers: "L’enquête a été modifiée depuis que vous l’avez commencée : vos réponses n’ont pas pu être enregistrées. Veuillez contacter l’expéditeur de l’enquête.",
    thank_you: "Merci ! Vos réponses ont été enregistrées.",
    closed: "Cette enquête est close. Merci de votre intérêt.",
    unknown_link: "Ce lien d’enquête n’est pas valide. Veuillez vérifier le lien que vous avez reçu.",
    unreadable: "Les réponses n’ont pas pu être lues. Veuillez revenir en arrière et réessayer.",
    server_error: "Une erreur s’est produite de notre côté. Veuillez réessayer dans un instant.",
    opt_out_heading: "Ne plus recevoir d’enquêtes",
    opt_out_text: "Si vous vous désinscrivez, cette organisation ne vous enverra plus d’enquêtes.",
    opt_out_button: "Me désinscrire",
    opted_out_heading: "Vous êtes désinscrit",
    opted_out_text: "Vous ne recevrez plus d’enquêtes de cette organisation.",
    login_heading: "Accéder à votre enquête",
    login_label: "Votre identifiant",
    login_button: "Ouvrir l’enquête",
    start_button: "Commencer l’enquête",
    login_unknown: "Aucune enquête ouverte n’a été trouvée pour cet identifiant. Veuillez le vérifier et réessayer.",
    cross_site: "Ce formulaire a été envoyé depuis un autre site et n’a pas été accepté.",
    too_many_attempts: "Trop de tentatives depuis votre réseau. Veuillez réessayer plus tard.",
};
