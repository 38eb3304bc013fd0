// @generated automatically by Diesel CLI.

//! Diesel's description of the tables created by `migrations/`: what `diesel print-schema` prints (configured by
//! `diesel.toml`) with `../schema.patch` applied, which adds these lines and declares the elements of
//! `excluded_label_ids` not null (print-schema makes every array element nullable; the service writes no null).
//! `just test` fails when this file drifts from the migrations; `scripts/schema-drift.sh --write` regenerates it.

diesel::table! {
    account_frequency_settings (account_id) {
        account_id -> Int8,
        enabled -> Bool,
        number_of_days -> Int2,
        max_surveys -> Int2,
    }
}

diesel::table! {
    account_retention_policies (account_id) {
        account_id -> Int8,
        partial_delete_after_days -> Nullable<Int4>,
        complete_delete_after_days -> Nullable<Int4>,
        include_open_text -> Bool,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    account_settings (account_id) {
        account_id -> Int8,
        min_group_size -> Int4,
    }
}

diesel::table! {
    accounts (id) {
        id -> Int8,
        name -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    alert_emails (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        alert_id -> Int8,
        answer_set_id -> Int8,
        recipient -> Text,
        subject -> Text,
        body -> Text,
        status -> Text,
        due_at -> Timestamptz,
        attempts -> Int4,
        holds -> Int4,
        aged_ms -> Int8,
        lease_until -> Nullable<Timestamptz>,
        last_error -> Nullable<Text>,
        message_token -> Text,
        created_at -> Timestamptz,
        sent_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    alerts (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        name -> Text,
        conditions -> Jsonb,
        recipients -> Array<Nullable<Text>>,
        include_answers -> Bool,
        created_at -> Timestamptz,
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
        current_page_id -> Nullable<Int8>,
        completed_at -> Nullable<Timestamptz>,
        copy_of -> Nullable<Int8>,
        language -> Nullable<Text>,
        quota_full -> Bool,
        shown_order -> Nullable<Jsonb>,
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

diesel::table! {
    api_keys (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        user_id -> Int8,
        prefix -> Text,
        key_hash -> Bytea,
        created_at -> Timestamptz,
        revoked_at -> Nullable<Timestamptz>,
        name -> Text,
        expires_at -> Nullable<Timestamptz>,
        last_used_at -> Nullable<Timestamptz>,
        read_only -> Bool,
    }
}

diesel::table! {
    audit_events (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        at -> Timestamptz,
        user_id -> Int8,
        key_prefix -> Text,
        action -> Text,
        target_type -> Text,
        target_id -> Nullable<Text>,
        client_address -> Nullable<Text>,
        request_id -> Nullable<Text>,
        status -> Int2,
    }
}

diesel::table! {
    bg_documents (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        sendout_id -> Int8,
    }
}

diesel::table! {
    bg_labels (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        sendout_id -> Int8,
        name -> Text,
        label_type -> Text,
        function -> Int2,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    blocklist (account_id, contact_key) {
        account_id -> Int8,
        contact_key -> Text,
        contact_details -> Text,
        entry_type -> Text,
        created_at -> Timestamptz,
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
    contact_list_members (account_id, list_id, contact_id) {
        account_id -> Int8,
        list_id -> Int8,
        contact_id -> Int8,
        added_at -> Timestamptz,
    }
}

diesel::table! {
    contact_lists (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        name -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    contacts (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        email -> Nullable<Text>,
        email_key -> Nullable<Text>,
        phone -> Nullable<Text>,
        first_name -> Nullable<Text>,
        last_name -> Nullable<Text>,
        language -> Nullable<Text>,
        attributes -> Jsonb,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    delivery_pace (id) {
        id -> Int2,
        tokens -> Float8,
        refilled_at -> Timestamptz,
        ceiling -> Nullable<Float8>,
        ceiling_at -> Nullable<Timestamptz>,
        day -> Date,
        day_sent -> Int8,
        day_full_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    erasure_receipts (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        at -> Timestamptz,
        user_id -> Int8,
        key_prefix -> Text,
        include_answers -> Bool,
        respondents_erased -> Int8,
        answer_sets_deleted -> Int8,
    }
}

diesel::table! {
    idempotency_keys (account_id, key) {
        account_id -> Int8,
        key -> Text,
        fingerprint -> Bytea,
        state -> Text,
        status -> Nullable<Int2>,
        content_type -> Nullable<Text>,
        body -> Nullable<Bytea>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    logic_rules (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        position -> Int4,
        question_item_id -> Nullable<Int8>,
        equals -> Nullable<Text>,
        go_to_page_id -> Nullable<Int8>,
        rule -> Nullable<Jsonb>,
    }
}

diesel::table! {
    login_sendouts (sendout_id) {
        sendout_id -> Int8,
        account_id -> Int8,
    }
}

diesel::table! {
    outbox (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        respondent_id -> Int8,
        sendout_id -> Int8,
        reminder_id -> Nullable<Int8>,
        idempotency_key -> Text,
        status -> Text,
        due_at -> Timestamptz,
        attempts -> Int4,
        lease_until -> Nullable<Timestamptz>,
        last_error -> Nullable<Text>,
        created_at -> Timestamptz,
        sent_at -> Nullable<Timestamptz>,
        body -> Nullable<Text>,
        message_token -> Text,
        holds -> Int4,
        aged_ms -> Int8,
        hold_kind -> Nullable<Text>,
        accepted_reply -> Nullable<Text>,
    }
}

diesel::table! {
    permanent_failures (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        email_address -> Text,
        email_key -> Text,
        sending_domain -> Text,
        failed_at -> Timestamptz,
        reason -> Text,
        sendout_id -> Nullable<Int8>,
        respondent_id -> Nullable<Int8>,
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
        min_label -> Nullable<Text>,
        max_label -> Nullable<Text>,
        settings -> Jsonb,
    }
}

diesel::table! {
    quotas (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        name -> Text,
        conditions -> Jsonb,
        quota_limit -> Int8,
        action -> Text,
        count -> Int8,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    reminders (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        sendout_id -> Int8,
        sendout_logic -> Text,
        send_date -> Timestamptz,
        sender -> Text,
        subject -> Nullable<Text>,
        message -> Text,
        status -> Text,
        created_at -> Timestamptz,
        messages -> Jsonb,
    }
}

diesel::table! {
    respondent_events (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        respondent_id -> Int8,
        at -> Timestamptz,
        kind -> Text,
        detail -> Nullable<Jsonb>,
    }
}

diesel::table! {
    respondents (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        sendout_id -> Int8,
        contact_details -> Text,
        contact_key -> Text,
        send_mail -> Bool,
        background_data -> Jsonb,
        status -> Text,
        token -> Text,
        added_at -> Timestamptz,
        released_at -> Nullable<Timestamptz>,
        sent_at -> Nullable<Timestamptz>,
        opted_out_at -> Nullable<Timestamptz>,
        language -> Nullable<Text>,
        contact_id -> Nullable<Int8>,
    }
}

diesel::table! {
    retention_rules (account_id, scope, survey_id, sendout_id, action) {
        account_id -> Int8,
        scope -> Text,
        survey_id -> Int8,
        sendout_id -> Int8,
        action -> Text,
        retention_days -> Int4,
        status -> Text,
        updated_at -> Timestamptz,
        created_order -> Int8,
    }
}

diesel::table! {
    retention_run_figures (account_id, run_id) {
        account_id -> Int8,
        run_id -> Int8,
        respondents_removed -> Int8,
        respondents_erased -> Int8,
        open_text_answers_removed -> Int8,
        answer_sets_removed -> Int8,
        survey_respondents_removed -> Int8,
        failed -> Bool,
    }
}

diesel::table! {
    retention_runs (id) {
        id -> Int8,
        started_at -> Timestamptz,
        finished_at -> Timestamptz,
        trigger -> Text,
    }
}

diesel::table! {
    sender_numbers (account_id, number) {
        account_id -> Int8,
        number -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    sendouts (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        name -> Text,
        dispatch_type -> Text,
        status -> Text,
        send_date -> Nullable<Timestamptz>,
        sender -> Nullable<Text>,
        subject -> Nullable<Text>,
        message -> Nullable<Text>,
        expiry_date -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        activated_at -> Nullable<Timestamptz>,
        respondent_count -> Int8,
        pending_count -> Int8,
        delivery_issue_kind -> Nullable<Text>,
        delivery_issue_reply -> Nullable<Text>,
        delivery_issue_since -> Nullable<Timestamptz>,
        language -> Text,
        open_link_handle -> Nullable<Text>,
        max_responses -> Nullable<Int8>,
        one_response_per_browser -> Nullable<Bool>,
        messages -> Jsonb,
        outbox_queued -> Bool,
        outbox_pending -> Int8,
        outbox_held -> Int8,
    }
}

diesel::table! {
    survey_frequency_settings (account_id, survey_id) {
        account_id -> Int8,
        survey_id -> Int8,
        enabled -> Bool,
        number_of_days -> Int2,
        max_surveys -> Int2,
    }
}

diesel::table! {
    survey_pages (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        survey_id -> Int8,
        position -> Int4,
        title -> Text,
        randomize_items -> Bool,
    }
}

diesel::table! {
    survey_retention_policies (account_id, survey_id) {
        account_id -> Int8,
        survey_id -> Int8,
        partial_delete_date -> Nullable<Date>,
        complete_delete_date -> Nullable<Date>,
        respondent_partial_days -> Nullable<Int4>,
        respondent_complete_days -> Nullable<Int4>,
        exclude_from_policies -> Bool,
        excluded_label_ids -> Array<Int8>,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    survey_translations (account_id, survey_id, language) {
        account_id -> Int8,
        survey_id -> Int8,
        language -> Text,
        id -> Int8,
        texts -> Jsonb,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
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
        thank_you_message -> Nullable<Text>,
        tree_version -> Int4,
        language -> Text,
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
        active -> Bool,
    }
}

diesel::table! {
    webhook_deliveries (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        webhook_id -> Int8,
        message_id -> Text,
        event -> Text,
        survey_id -> Nullable<Int8>,
        sendout_id -> Nullable<Int8>,
        respondent_id -> Nullable<Int8>,
        answer_set_id -> Nullable<Int8>,
        occurred_at -> Timestamptz,
        status -> Text,
        attempts -> Int4,
        due_at -> Timestamptz,
        lease_until -> Nullable<Timestamptz>,
        last_status_code -> Nullable<Int4>,
        last_error -> Nullable<Text>,
        hold_kind -> Nullable<Text>,
    }
}

diesel::table! {
    webhooks (account_id, id) {
        account_id -> Int8,
        id -> Int8,
        url -> Text,
        events -> Array<Nullable<Text>>,
        description -> Nullable<Text>,
        secret -> Text,
        active -> Bool,
        created_at -> Timestamptz,
        last_delivery_at -> Nullable<Timestamptz>,
        consecutive_failures -> Int4,
    }
}

diesel::joinable!(account_frequency_settings -> accounts (account_id));
diesel::joinable!(account_retention_policies -> accounts (account_id));
diesel::joinable!(account_settings -> accounts (account_id));
diesel::joinable!(api_keys -> accounts (account_id));
diesel::joinable!(blocklist -> accounts (account_id));
diesel::joinable!(categories -> accounts (account_id));
diesel::joinable!(contact_lists -> accounts (account_id));
diesel::joinable!(contacts -> accounts (account_id));
diesel::joinable!(idempotency_keys -> accounts (account_id));
diesel::joinable!(login_sendouts -> accounts (account_id));
diesel::joinable!(outbox -> accounts (account_id));
diesel::joinable!(permanent_failures -> accounts (account_id));
diesel::joinable!(retention_rules -> accounts (account_id));
diesel::joinable!(sender_numbers -> accounts (account_id));
diesel::joinable!(surveys -> accounts (account_id));
diesel::joinable!(users -> accounts (account_id));
diesel::joinable!(webhook_deliveries -> accounts (account_id));
diesel::joinable!(webhooks -> accounts (account_id));

diesel::allow_tables_to_appear_in_same_query!(
    account_frequency_settings,
    account_retention_policies,
    account_settings,
    accounts,
    alert_emails,
    alerts,
    answer_sets,
    answers,
    api_keys,
    audit_events,
    bg_documents,
    bg_labels,
    blocklist,
    categories,
    contact_list_members,
    contact_lists,
    contacts,
    delivery_pace,
    erasure_receipts,
    idempotency_keys,
    logic_rules,
    login_sendouts,
    outbox,
    permanent_failures,
    question_items,
    quotas,
    reminders,
    respondent_events,
    respondents,
    retention_rules,
    retention_run_figures,
    retention_runs,
    sender_numbers,
    sendouts,
    survey_frequency_settings,
    survey_pages,
    survey_retention_policies,
    survey_translations,
    surveys,
    users,
    webhook_deliveries,
    webhooks,
);
