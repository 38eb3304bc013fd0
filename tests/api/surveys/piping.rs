//! Piping: `{{answer.<id>}}`, `{{bg.<label>}}` and the contact's names in a survey's texts, checked against the
//! tree (earlier pages only; none on a new survey), kept in order by moves, and filled in, escaped, on the pages.

use serde_json::json;

use crate::helpers::{item_id, page_id, spawn_app};

#[tokio::test]
async fn answers_and_background_data_are_piped_into_later_pages_escaped() {
    let app = spawn_app().await;
    let body = json!({"name": "Offices", "pages": [
        {"title": "Where", "items": [
            {"type": "SingleChoice", "text": "Which office?", "options": [
                {"value": "sto", "label": "Stockholm"}, {"value": "osl", "label": "Oslo"}]},
            {"type": "OpenText", "text": "Your team?"}]},
        {"title": "Then", "items": [{"type": "Info", "text": "Thanks"}]}
    ]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let (office, team, second) = (item_id(&tree, 0, 0), item_id(&tree, 0, 1), page_id(&tree, 1));

    let new_survey = json!({"name": "No", "pages": [{"title": "", "items": [{"type": "OpenText",
        "text": format!("About {{{{answer.{office}}}}}")}]}]});
    assert_eq!(app.post("/surveys", new_survey).await.fields(), ["pages[0].items[0].text"]);
    let same_page = json!({"type": "OpenText", "text": format!("And {{{{answer.{team}}}}}?")});
    let reply = app.post(&format!("/surveys/{survey}/pages/{}/items", page_id(&tree, 0)), same_page).await;
    assert_eq!(reply.fields(), ["text"], "an item of the same page is no earlier answer");

    let piped = json!({"type": "SingleChoice", "text": format!("How was the {{{{answer.{office}}}}} office, {{{{firstName|friend}}}}?"),
        "options": [{"value": "good", "label": format!("Good for team {{{{answer.{team}}}}}")}, {"value": "bad", "label": "Bad"}]});
    app.post(&format!("/surveys/{survey}/pages/{second}/items"), piped).await.expect(201);
    let titled = json!({"title": "About {{bg.Region}}"});
    app.call("PATCH", &format!("/surveys/{survey}/pages/{second}"), Some(titled)).await.expect(200);
    let moved = json!({"pageId": second});
    let reply = app.call("PATCH", &format!("/surveys/{survey}/questions/{office}"), Some(moved)).await;
    reply.problem(409, "/breaks-references");

    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
    let label = app.post(&format!("{base}/labels"), json!({"name": "Region", "labelType": "Text"})).await.expect(201);
    let cells = json!({label["labelId"].as_i64().unwrap().to_string(): "North"});
    let body = json!({"contactDetails": "ann@example.com", "sendMail": true, "backgroundData": cells});
    let added = app.post(&format!("{base}/respondents"), body).await.expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let link = added["surveyLink"].as_str().unwrap().to_owned();
    let form = [
        ("page".to_owned(), page_id(&tree, 0).to_string()),
        (format!("q{office}"), "sto".to_owned()),
        (format!("q{team}"), "<b>Ops</b>".to_owned()),
    ];
    let html = app.client.post(link).form(&form).send().await.unwrap().text().await.unwrap();
    assert!(html.contains("How was the Stockholm office, friend?"), "{html}");
    assert!(html.contains("About North"), "the page title pipes background data");
    assert!(html.contains("Good for team &lt;b&gt;Ops&lt;/b&gt;") && !html.contains("<b>Ops"), "escaped: {html}");

    let copy = app.get(&format!("/surveys/{survey}/copy")).await.expect(200)["surveyId"].as_i64().unwrap();
    let copied = app.get(&format!("/surveys/{copy}/questions")).await.expect(200);
    let text = copied["pages"][1]["items"][1]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("{{{{answer.{}}}}}", item_id(&copied, 0, 0))),
        "the copy pipes its own item: {text}"
    );
    assert_eq!(copied["pages"][1]["title"], "About {{bg.Region}}");
}

#[tokio::test]
async fn the_thank_you_message_pipes_in_the_language_shown_and_translations_are_checked_like_own_texts() {
    let app = spawn_app().await;
    let forward = json!({"name": "No", "thankYouMessage": "You chose {{answer.1}}", "pages": []});
    assert_eq!(app.post("/surveys", forward).await.fields(), ["thankYouMessage"], "a new survey has no items yet");
    let body = json!({"name": "Offices", "thankYouMessage": "Thanks, {{firstName|friend}} of {{bg.Region}}!",
        "pages": [
            {"title": "Where", "items": [{"type": "SingleChoice", "text": "Which office?", "options": [
                {"value": "sto", "label": "Stockholm"}, {"value": "osl", "label": "Oslo"}]}]},
            {"title": "Then", "items": [{"type": "OpenText", "text": "Why?"}]}
    ]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let (office, why, first) = (item_id(&tree, 0, 0), item_id(&tree, 1, 0), page_id(&tree, 0));

    let swedish = format!("/surveys/{survey}/translations/sv");
    let forward = json!({"pages": {first.to_string(): {"title": format!("Om {{{{answer.{office}}}}}")}},
        "items": {office.to_string(): {"text": format!("Efter {{{{answer.{why}}}}}?"),
            "options": {"sto": format!("{{{{answer.{office}}}}}")}}}});
    let reply = app.call("PUT", &swedish, Some(forward)).await;
    let mut fields = reply.fields();
    fields.sort();
    let expected =
        [format!("items.{office}.options.sto"), format!("items.{office}.text"), format!("pages.{first}.title")];
    assert_eq!(fields, expected, "a translation pipes only answers of earlier pages");
    assert_eq!(app.get(&format!("/surveys/{survey}/translations")).await.expect(200), json!([]), "nothing stored");
    let thanks = json!({"thankYouMessage": format!("Tack, du valde {{{{answer.{office}}}}} och skrev {{{{answer.{why}}}}}."),
        "items": {why.to_string(): {"text": format!("Varför {{{{answer.{office}}}}}?")}}});
    app.call("PUT", &swedish, Some(thanks)).await.expect(200);

    let sendout = json!({"name": "Invite", "type": "LOGIN", "language": "sv"});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), sendout).await.expect(201);
    let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
    let label = app.post(&format!("{base}/labels"), json!({"name": "Region", "labelType": "Text"})).await.expect(201);
    let mut links = Vec::new();
    for (who, language) in [("ann-sv", "sv"), ("bob-en", "en")] {
        let cells = json!({label["labelId"].as_i64().unwrap().to_string(): "North"});
        let body = json!({"contactDetails": who, "sendMail": false, "backgroundData": cells, "language": language});
        links.push(
            app.post(&format!("{base}/respondents"), body).await.expect(201)["surveyLink"].as_str().unwrap().to_owned(),
        );
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let mut shown = Vec::new();
    for link in &links {
        let first_page = [("page".to_owned(), first.to_string()), (format!("q{office}"), "sto".to_owned())];
        let html = app.client.post(link).form(&first_page).send().await.unwrap().text().await.unwrap();
        let second =
            [("page".to_owned(), page_id(&tree, 1).to_string()), (format!("q{why}"), "<i>närhet</i>".to_owned())];
        let done = app.client.post(link).form(&second).send().await.unwrap().text().await.unwrap();
        let again = app.client.get(link).send().await.unwrap().text().await.unwrap();
        shown.push((html, done, again));
    }
    let (page, done, again) = &shown[0];
    assert!(page.contains("Varför Stockholm?"), "a translated text pipes: {page}");
    let piped = "Tack, du valde Stockholm och skrev &lt;i&gt;närhet&lt;/i&gt;.";
    assert!(done.contains(piped) && !done.contains("<i>"), "piped, escaped, at completion: {done}");
    assert!(again.contains(piped), "and on a later visit: {again}");
    let (_, done, again) = &shown[1];
    assert!(done.contains("Thanks, friend of North!") && again.contains("Thanks, friend of North!"), "{done}");

    let copy = app.get(&format!("/surveys/{survey}/copy")).await.expect(200)["surveyId"].as_i64().unwrap();
    let copied = app.get(&format!("/surveys/{copy}/questions")).await.expect(200);
    let translated = app.get(&format!("/surveys/{copy}/translations/sv")).await.expect(200);
    let (office_copy, why_copy) = (item_id(&copied, 0, 0), item_id(&copied, 1, 0));
    let expected = format!("Tack, du valde {{{{answer.{office_copy}}}}} och skrev {{{{answer.{why_copy}}}}}.");
    assert_eq!(translated["thankYouMessage"], expected.as_str(), "the copy's translation pipes its own items");
    assert_eq!(
        translated["items"][why_copy.to_string()]["text"],
        format!("Varför {{{{answer.{office_copy}}}}}?").as_str()
    );
}
