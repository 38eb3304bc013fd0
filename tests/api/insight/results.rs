//! A survey's results over HTTP: every item of the sample survey in tree order with figures computed by hand, under
//! the answer list's filters and a sendout; the filters' errors named.

use serde_json::{json, Value};

use crate::helpers::{item_id, spawn_app, TestApp};

/// The sample survey answered three times: two anonymous sets (the first completed) and a completed one of a
/// respondent of an EMAIL sendout; returns the survey, its tree and the sendout.
async fn answered(app: &TestApp) -> (i64, Value, i64) {
    let (survey, tree) = app.sample_survey().await;
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201)
        ["sendoutId"]
        .as_i64()
        .unwrap();
    let person = json!({"contactDetails": "ann@example.com", "sendMail": false});
    let ann = app.post(&format!("/surveys/{survey}/sendouts/{sendout}/respondents"), person).await.expect(201);
    let item = |page, index| item_id(&tree, page, index);
    let sets = [
        json!({"completed": true, "answers": [
            {"questionItemId": item(0, 0), "value": "yes"}, {"questionItemId": item(0, 1), "value": ["pay", "team"]},
            {"questionItemId": item(1, 0), "value": 38}, {"questionItemId": item(1, 1), "value": 10},
            {"questionItemId": item(2, 0), "value": "Great"}]}),
        json!({"completed": false, "answers": [
            {"questionItemId": item(0, 0), "value": "no"}, {"questionItemId": item(1, 0), "value": 40},
            {"questionItemId": item(1, 1), "value": 6}]}),
        json!({"completed": true, "respondentId": ann["respondentId"], "answers": [
            {"questionItemId": item(0, 0), "value": "yes"}, {"questionItemId": item(0, 1), "value": ["team"]},
            {"questionItemId": item(1, 0), "value": 21}, {"questionItemId": item(1, 1), "value": 8}]}),
    ];
    for set in sets {
        app.post(&format!("/surveys/{survey}/answers"), set).await.expect(201);
    }
    (survey, tree, sendout)
}

#[tokio::test]
async fn every_item_has_its_figures_in_tree_order() {
    let app = spawn_app().await;
    let (survey, tree, _) = answered(&app).await;
    let results = app.get(&format!("/surveys/{survey}/results")).await.expect(200);
    let item = |page, index| item_id(&tree, page, index);
    assert_eq!(
        results,
        json!({"surveyId": survey, "answerSets": 3, "items": [
            {"questionItemId": item(0, 0), "type": "SingleChoice", "text": "Happy?", "answered": 3,
             "options": [{"value": "yes", "label": "Yes", "count": 2}, {"value": "no", "label": "No", "count": 1}]},
            {"questionItemId": item(0, 1), "type": "MultipleChoice", "text": "Why?", "answered": 2,
             "options": [{"value": "pay", "label": "pay", "count": 1}, {"value": "team", "label": "team", "count": 2}]},
            {"questionItemId": item(0, 2), "type": "Info", "text": "Next, numbers."},
            // 38, 40, 21.
            {"questionItemId": item(1, 0), "type": "Numeric", "text": "Hours?", "answered": 3, "count": 3,
             "mean": 33.0, "median": 38.0, "min": 21.0, "max": 40.0},
            // 10, 6, 8: a promoter, a detractor, a passive.
            {"questionItemId": item(1, 1), "type": "Rating", "text": "Rate us", "answered": 3, "count": 3, "mean": 8.0,
             "distribution": [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1],
             "nps": {"promoters": 1, "passives": 1, "detractors": 1, "score": 0}},
            // "Great" is an English stop word (the ISO list).
            {"questionItemId": item(2, 0), "type": "OpenText", "text": "Anything else?", "answered": 1, "count": 1,
             "topWords": []}
        ]})
    );
}

#[tokio::test]
async fn the_filters_and_the_sendout_narrow_the_sets() {
    let app = spawn_app().await;
    let (survey, tree, sendout) = answered(&app).await;
    let completed = app.get(&format!("/surveys/{survey}/results?completed=true")).await.expect(200);
    assert_eq!(completed["answerSets"], 2);
    assert_eq!(
        completed["items"][0]["options"],
        json!([{"value": "yes", "label": "Yes", "count": 2}, {"value": "no", "label": "No", "count": 0}])
    );
    // 38 and 21; ratings 10 and 8: a promoter and a passive.
    let hours = &completed["items"][3];
    assert_eq!(
        (&hours["mean"], &hours["median"], &hours["min"], &hours["max"]),
        (&json!(29.5), &json!(29.5), &json!(21.0), &json!(38.0))
    );
    assert_eq!(completed["items"][4]["nps"], json!({"promoters": 1, "passives": 1, "detractors": 0, "score": 50}));

    let of_sendout = app.get(&format!("/surveys/{survey}/results?sendoutId={sendout}")).await.expect(200);
    assert_eq!(of_sendout["answerSets"], 1);
    assert_eq!(of_sendout["items"][1]["options"][1], json!({"value": "team", "label": "team", "count": 1}));
    assert_eq!(of_sendout["items"][4]["distribution"], json!([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]));

    let tomorrow = app.get(&format!("/surveys/{survey}/results?from=2999-01-01")).await.expect(200);
    assert_eq!(tomorrow["answerSets"], 0);
    let numeric = &tomorrow["items"][3];
    assert_eq!((&numeric["answered"], &numeric["count"], &numeric["mean"]), (&json!(0), &json!(0), &Value::Null));
    assert_eq!(tomorrow["items"][4]["nps"]["score"], Value::Null);
    assert_eq!(tomorrow["items"][0]["options"][0]["count"], 0);
    assert_eq!(
        tomorrow["items"][2],
        json!({"questionItemId": item_id(&tree, 0, 2), "type": "Info", "text": "Next, numbers."})
    );
}

#[tokio::test]
async fn a_bad_filter_is_named_and_another_accounts_survey_is_not_found() {
    let app = spawn_app().await;
    let (survey, _, _) = answered(&app).await;
    let (_, _, second_sendout) = answered(&app).await;
    let refused = app.get(&format!("/surveys/{survey}/results?sendoutId={second_sendout}")).await;
    assert_eq!(refused.fields(), ["sendoutId"], "a sendout of another survey");
    refused.problem(400, "/validation");
    let refused = app.get(&format!("/surveys/{survey}/results?from=last-week")).await;
    assert_eq!(refused.fields(), ["from"]);
    let refused = app.get(&format!("/surveys/{survey}/results?sendoutId=ten")).await;
    assert_eq!(refused.fields(), ["sendoutId"]);
    app.get("/surveys/999999/results").await.problem(404, "/not-found");

    let (_, other) = app.new_account("Other", "owner@other.example");
    let theirs = app.call_as(&other, "GET", &format!("/surveys/{survey}/results"), None).await;
    theirs.problem(404, "/not-found");
    let created = app.call_as(&other, "POST", "/surveys", Some(json!({"name": "Theirs"}))).await.expect(201);
    let their_survey = created["surveyId"].as_i64().unwrap();
    let mine =
        app.call_as(&other, "GET", &format!("/surveys/{their_survey}/results?sendoutId={second_sendout}"), None).await;
    assert_eq!(mine.fields(), ["sendoutId"], "another account's sendout");
}

/// An OpenText item's top words: per answer once, lower-cased, without the stop words of the survey's own language
/// and of its translations; under the filters.
#[tokio::test]
async fn open_texts_list_their_top_words_without_the_stop_words_of_the_survey_s_languages() {
    let app = spawn_app().await;
    let (survey, tree) = app.sample_survey().await;
    let (happy, rate, comment) = (item_id(&tree, 0, 0), item_id(&tree, 1, 1), item_id(&tree, 2, 0));
    let texts = [
        (true, "The canteen and the CANTEEN; kaffe och kanelbullar"),
        (true, "Kaffe! Canteen salad 2026"),
        (false, "kaffe kaffe kaffe"),
    ];
    for (completed, text) in texts {
        let answers = json!([{"questionItemId": happy, "value": "yes"}, {"questionItemId": rate, "value": 7},
            {"questionItemId": comment, "value": text}]);
        let set = json!({"completed": completed, "answers": answers});
        app.post(&format!("/surveys/{survey}/answers"), set).await.expect(201);
    }
    let top = |results: &Value| results["items"][5]["topWords"].clone();
    let english_only = app.get(&format!("/surveys/{survey}/results")).await.expect(200);
    let words = top(&english_only);
    assert_eq!(words[0], json!({"word": "kaffe", "count": 3}), "{words}");
    assert!(words.as_array().unwrap().contains(&json!({"word": "och", "count": 1})), "Swedish is not yet a language");
    assert!(!words.to_string().contains("\"the\""), "an English stop word: {words}");

    app.call("PUT", &format!("/surveys/{survey}/translations/sv"), Some(json!({"name": "Enkät"}))).await.expect(200);
    let completed = app.get(&format!("/surveys/{survey}/results?completed=true")).await.expect(200);
    assert_eq!(
        top(&completed),
        json!([{"word": "canteen", "count": 2}, {"word": "kaffe", "count": 2}, {"word": "2026", "count": 1},
            {"word": "kanelbullar", "count": 1}, {"word": "salad", "count": 1}]),
        "ties by word; och is a Swedish stop word now"
    );
}
