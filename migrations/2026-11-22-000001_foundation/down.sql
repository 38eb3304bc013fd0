DROP TABLE answers, answer_sets, logic_rules, question_items, survey_pages, surveys, categories, api_keys, users,
    accounts;
