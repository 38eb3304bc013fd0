//! `GET /surveys/{id}/copy`: defaults, options, failure conditions.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app};

#[tokio::test]
async fn a_copy_takes_the_tree_and_the_defaults() {
    let app = spawn_app().await;
    let category = app.post("/accounts/categories", json!({"name": "HR"})).await.expect(201);
    let source = app
        .post(
            "/surveys",
            json!({"name": "Pulse", "description": "d", "categoryId": category["categoryId"], "active": false,
            "pages": [{"title": "P", "items": [{"type": "OpenText", "text": "Why?"}]}]}),
        )
        .await
        .expect(201);
    let id = source["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{id}/questions")).await.expect(200);
    app.post(
        &format!("/surveys/{id}/answers"),
        json!({"answers": [{"questionItemId": item_id(&tree, 0, 0), "value": "x"}]}),
    )
    .await
    .expect(201);

    let copy = app.get(&format!("/surveys/{id}/copy")).await.expect(200);
    let copy_id = copy["surveyId"].as_i64().unwrap();
    assert_ne!(copy_id, id);
    assert_eq!(copy["name"], "Pulse");
    assert_eq!(copy["description"], "d");
    assert_eq!(copy["active"], false);
    assert_eq!(copy["categoryId"], Value::Null, "the default category is -999");
    let copied_tree = app.get(&format!("/surveys/{copy_id}/questions")).await.expect(200);
    assert_eq!(copied_tree["pages"][0]["items"][0]["text"], "Why?");
    assert_ne!(item_id(&copied_tree, 0, 0), item_id(&tree, 0, 0));
    assert_eq!(
        app.get(&format!("/surveys/{copy_id}/answers")).await.expect(200),
        json!([]),
        "answers are not copied by default"
    );
    assert_eq!(app.get("/surveys").await.expect(200).as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn options_name_dates_category_answers_and_logic() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let category = app.post("/accounts/categories", json!({"name": "HR"})).await.expect(201);
    let rules = json!([{"questionItemId": item_id(&tree, 0, 0), "equals": "no", "goToPageId": page_id(&tree, 2)}]);
    app.put(&format!("/surveys/{id}/logic"), rules).await.expect(200);
    let answers = json!({"completed": false, "answers": [{"questionItemId": item_id(&tree, 0, 1), "value": ["pay"]}]});
    let original = app.post(&format!("/surveys/{id}/answers"), answers).await.expect(201);

    let query = format!(
        "surveyname=Copy&description=new&startdate=2100-03-01&enddate=2100-03-05T10:00:00Z&categoryid={}&copyanswers=true&copylogic=true&active=false&copysendoutids=",
        category["categoryId"]
    );
    let copy = app.get(&format!("/surveys/{id}/copy?{query}")).await.expect(200);
    assert_eq!(copy["name"], "Copy");
    assert_eq!(copy["description"], "new");
    assert_eq!(copy["startDate"], "2100-03-01T00:00:00Z");
    assert_eq!(copy["endDate"], "2100-03-05T10:00:00Z");
    assert_eq!(copy["categoryId"], category["categoryId"]);
    assert_eq!(copy["active"], false);
    let copy_id = copy["surveyId"].as_i64().unwrap();
    let copied_tree = app.get(&format!("/surveys/{copy_id}/questions")).await.expect(200);
    assert_eq!(copied_tree["logic"][0]["questionItemId"], item_id(&copied_tree, 0, 0));
    assert_eq!(copied_tree["logic"][0]["goToPageId"], page_id(&copied_tree, 2));
    assert_eq!(copied_tree["logic"][0]["broken"], false);
    let copied_sets = app.get(&format!("/surveys/{copy_id}/answersWithData")).await.expect(200);
    assert_eq!(copied_sets["totalCount"], 1);
    let copied = &copied_sets["answerSets"][0];
    assert_ne!(copied["answerSetId"], original["answerSetId"]);
    assert_eq!(copied["surveyId"], copy_id);
    assert_eq!(copied["createdAt"], original["createdAt"]);
    assert_eq!(copied["answers"], json!([{"questionItemId": item_id(&copied_tree, 0, 1), "value": ["pay"]}]));
    assert_eq!(app.get(&format!("/surveys/{id}/answers")).await.expect(200).as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn failure_conditions_of_the_interface() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    app.get("/surveys/999999/copy").await.problem(404, "/not-found");
    for (query, field) in [
        ("categoryid=424242", "categoryid"),
        ("copysendoutids=1", "copysendoutids"),
        ("copysendoutids=a,b", "copysendoutids"),
        ("startdate=2100-01-10&enddate=2100-01-01", "enddate"),
        ("startdate=later", "startdate"),
        ("copyanswers=perhaps", "copyanswers"),
        ("categoryid=x", "categoryid"),
    ] {
        let reply = app.get(&format!("/surveys/{id}/copy?{query}")).await;
        assert_eq!(reply.fields(), [field], "{query}");
        reply.problem(400, "/validation");
    }
    let single = item_id(&tree, 0, 0);
    let rules = json!([{"questionItemId": single, "equals": "no", "goToPageId": page_id(&tree, 2)}]);
    app.put(&format!("/surveys/{id}/logic"), rules).await.expect(200);
    app.delete(&format!("/surveys/{id}/questions/{single}")).await;
    app.get(&format!("/surveys/{id}/copy?copylogic=true")).await.problem(409, "/broken-logic");
    assert_eq!(app.get("/surveys").await.expect(200).as_array().unwrap().len(), 1, "failed copies store nothing");
    let copy = app.get(&format!("/surveys/{id}/copy?copylogic=false")).await.expect(200);
    let copied_tree = app.get(&format!("/surveys/{}/questions", copy["surveyId"])).await.expect(200);
    assert_eq!(copied_tree["logic"], json!([]));
}

#[tokio::test]
async fn named_sendouts_are_copied_as_drafts_with_labels_and_pending_respondents() {
    let app = spawn_app().await;
    let (id, _) = app.sample_survey().await;
    let sendout = app.post(&format!("/surveys/{id}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let sendout_id = sendout["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{id}/sendouts/{sendout_id}");
    let label = app.post(&format!("{base}/labels"), json!({"name": "City", "labelType": "Text"})).await.expect(201);
    let label_id = label["labelId"].as_i64().unwrap();
    let source_respondent = app
        .post(
            &format!("{base}/respondents"),
            json!({"contactDetails": "a@example.com", "sendMail": false,
            "backgroundData": {label_id.to_string(): "Oslo"}}),
        )
        .await
        .expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    app.post(&format!("/surveys/{id}/sendouts"), json!({"name": "Not copied", "type": "LOGIN"})).await.expect(201);

    // Empty entries name nothing: a lone comma copies no sendout, and `,id,,` the one it names.
    let none = app.get(&format!("/surveys/{id}/copy?copysendoutids=%2C")).await.expect(200);
    let copied_none = app.get(&format!("/surveys/{}/sendouts", none["surveyId"])).await.expect(200);
    assert_eq!(copied_none.as_array().unwrap().len(), 0);
    let copy = app.get(&format!("/surveys/{id}/copy?copysendoutids=%2C{sendout_id}%2C%2C")).await.expect(200);
    let copy_id = copy["surveyId"].as_i64().unwrap();
    let sendouts = app.get(&format!("/surveys/{copy_id}/sendouts")).await.expect(200);
    assert_eq!(sendouts.as_array().unwrap().len(), 1);
    let copied = &sendouts[0];
    assert_ne!(copied["sendoutId"], sendout_id);
    assert_eq!(copied["status"], "Draft");
    assert_eq!(
        (copied["name"].clone(), copied["message"].clone()),
        (sendout["name"].clone(), sendout["message"].clone())
    );
    assert_eq!((copied["respondentCount"].clone(), copied["pendingCount"].clone()), (json!(1), json!(1)));
    let copied_base = format!("/surveys/{copy_id}/sendouts/{}", copied["sendoutId"]);
    let labels = app.get(&format!("{copied_base}/labels")).await.expect(200);
    let new_label = labels[0]["labelId"].as_i64().unwrap();
    assert_ne!(new_label, label_id);
    assert_eq!(labels[0]["name"], "City");
    let respondents = app.get(&format!("{copied_base}/respondents")).await.expect(200);
    let respondent = &respondents[0];
    assert_eq!(respondent["status"], "Pending");
    assert_eq!(respondent["sendMail"], false);
    assert_eq!(respondent["backgroundData"], json!({new_label.to_string(): "Oslo"}));
    assert_ne!(respondent["surveyLink"], source_respondent["surveyLink"]);
    let documents = app.get("/bgdata/bgdocuments").await.expect(200);
    assert!(documents.as_array().unwrap().iter().any(|d| d["sendoutId"] == copied["sendoutId"]));

    let (other, _) = app.sample_survey().await;
    let foreign =
        app.post(&format!("/surveys/{other}/sendouts"), json!({"name": "x", "type": "LOGIN"})).await.expect(201);
    let reply = app.get(&format!("/surveys/{id}/copy?copysendoutids={sendout_id},{}", foreign["sendoutId"])).await;
    assert_eq!(reply.fields(), ["copysendoutids"]);
}

#[tokio::test]
async fn copied_respondents_links_open_the_survey_and_opt_out() {
    let app = spawn_app().await;
    let (id, _) = app.sample_survey().await;
    let body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z", "sender": "hr@acme.example",
        "subject": "Your view", "message": "Answer: {{surveyLink}} Stop: {{optOutLink}}"});
    let sendout = app.post(&format!("/surveys/{id}/sendouts"), body).await.expect(201)["sendoutId"].clone();
    let people = json!({"surveyRespondents": [{"contactDetails": "a@example.com", "sendMail": true},
        {"contactDetails": "b@example.com", "sendMail": true}]});
    app.post(&format!("/surveys/{id}/sendouts/{sendout}/respondents/batch"), people).await.expect(200);

    let copy = app.get(&format!("/surveys/{id}/copy?copysendoutids={sendout}")).await.expect(200);
    let copy_id = copy["surveyId"].as_i64().unwrap();
    let copied = app.get(&format!("/surveys/{copy_id}/sendouts")).await.expect(200)[0]["sendoutId"].clone();
    let base = format!("/surveys/{copy_id}/sendouts/{copied}");
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let respondents = app.get(&format!("{base}/respondents")).await.expect(200);
    let links: Vec<String> =
        respondents.as_array().unwrap().iter().map(|r| r["surveyLink"].as_str().unwrap().to_owned()).collect();
    assert_eq!(links.len(), 2);
    assert_ne!(links[0], links[1]);
    for link in &links {
        let token = link.rsplit('/').next().unwrap();
        // `<account>-<40 lowercase hex digits>`: a link that names its account.
        let random = token.strip_prefix(&format!("{}-", app.account_id)).expect("a copied link names its account");
        assert!(random.len() == 40 && random.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')), "{link}");
        let page = app.client.get(link).send().await.unwrap();
        assert_eq!(page.status().as_u16(), 200, "{link}");
        assert!(page.text().await.unwrap().contains("Page 1 of 3"));
    }
    let opted_out = app.client.post(format!("{}/opt-out", links[0])).send().await.unwrap();
    assert_eq!(opted_out.status().as_u16(), 200);
    let blocklist = app.get("/accounts/blocklist").await.expect(200);
    assert_eq!(blocklist[0]["contactDetails"], "a@example.com");
}
