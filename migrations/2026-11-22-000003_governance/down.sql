DROP INDEX respondents_added_idx;
DROP INDEX respondents_released_idx;
DROP TABLE survey_retention_policies, account_retention_policies, retention_rules, survey_frequency_settings,
    account_frequency_settings;
