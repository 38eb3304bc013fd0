//! Diesel's description of the tables created by `migrations/`.

diesel::table! {
    accounts (id) {
        id -> Int8,
        name -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    users (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        name -> Text,
        email -> Text,
        role -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    api_keys (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        user_id -> Int8,
        prefix -> Text,
        key_hash -> Bytea,
        created_at -> Timestamptz,
        revoked_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    categories (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        name -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    surveys (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        name -> Text,
        description -> Text,
        start_date -> Timestamptz,
        end_date -> Timestamptz,
        category_id -> Nullable<Int8>,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    survey_pages (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        position -> Int4,
        title -> Text,
    }
}

diesel::table! {
    question_items (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        page_id -> Int8,
        position -> Int4,
        item_type -> Text,
        text -> Text,
        required -> Bool,
        options -> Jsonb,
    }
}

diesel::table! {
    logic_rules (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        position -> Int4,
        question_item_id -> Int8,
        equals -> Text,
        go_to_page_id -> Int8,
    }
}

diesel::table! {
    answer_sets (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        respondent_id -> Nullable<Int8>,
        sendout_id -> Nullable<Int8>,
        completed -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    answers (account_id, answer_set_id, question_item_id) {
        account_id -> Int8,
        answer_set_id -> Int8,
        question_item_id -> Int8,
        value -> Jsonb,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    accounts,
    users,
    api_keys,
    categories,
    surveys,
    survey_pages,
    question_items,
    logic_rules,
    answer_sets,
    answers,
);
