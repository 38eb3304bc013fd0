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
