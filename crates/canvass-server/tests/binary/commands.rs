//! The account, key, retention and sender commands print JSON on stdout and refuse what they cannot do.

use serde_json::Value;

use crate::harness::{spawn_app, RunsBinary, TestApp};

/// Runs the binary; returns whether it succeeded, its JSON output (`Null` if none) and its stderr.
fn canvass(app: &TestApp, args: &[&str]) -> (bool, Value, String) {
    let output = app.canvass(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let json = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
    (output.status.success(), json, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[tokio::test]
async fn accounts_and_keys_are_made_and_revoked_from_the_command_line() {
    let app = spawn_app().await;
    let (ok, created, stderr) = canvass(&app, &["account", "create", "--name", "Beta", "--email", "ops@beta.example"]);
    assert!(ok, "{stderr}");
    let key = created["apiKey"].as_str().unwrap().to_owned();
    assert!(key.starts_with("cvs_") && key.len() == 68, "{key}");
    assert!(created["accountId"].is_i64() && created["userId"].is_i64());
    let users = app.call_as(&key, "GET", "/accounts/users", None).await.expect(200);
    assert_eq!(users[0]["userId"], created["userId"]);

    let user = created["userId"].to_string();
    let (ok, second, stderr) = canvass(&app, &["key", "create", "--user", &user]);
    assert!(ok, "{stderr}");
    assert_eq!(second["accountId"], created["accountId"]);
    let second_key = second["apiKey"].as_str().unwrap().to_owned();
    app.call_as(&second_key, "GET", "/surveys", None).await.expect(200);

    let (ok, revoked, stderr) = canvass(&app, &["key", "revoke", "--key-prefix", &second_key[..16]]);
    assert!(ok, "{stderr}");
    assert_eq!(revoked["revoked"], 1);
    let (ok, _, _) = canvass(&app, &["key", "create", "--user", "999999"]);
    assert!(!ok, "an unknown user is refused");
    let (ok, _, _) = canvass(&app, &["account", "create", "--name", "", "--email", "nope"]);
    assert!(!ok, "a bad account is refused");
}

#[tokio::test]
async fn retention_run_prints_one_json_summary() {
    let app = spawn_app().await;
    let (ok, summary, stderr) = canvass(&app, &["retention", "run", "--now", "2030-01-01T00:00:00Z", "--dry-run"]);
    assert!(ok, "{stderr}");
    assert_eq!(summary["dryRun"], true);
    assert_eq!(summary["respondentsRemoved"], 0);
    assert_eq!(summary["asOf"], "2030-01-01T00:00:00Z");
    let (ok, _, _) = canvass(&app, &["retention", "run", "--now", "tomorrow"]);
    assert!(!ok, "a bad --now is refused");
}

#[tokio::test]
async fn sender_numbers_belong_to_one_account_each() {
    let app = spawn_app().await;
    let (other, _) = app.new_account("Other", "owner@other.example");
    let (acme, other) = (app.account_id.to_string(), other.to_string());
    let number = "+4790000001";

    let (ok, added, stderr) = canvass(&app, &["sender", "add", "--account", &acme, "--sms", number]);
    assert!(ok, "{stderr}");
    assert_eq!(added, serde_json::json!({"accountId": app.account_id, "sms": number}));
    let (ok, _, stderr) = canvass(&app, &["sender", "add", "--account", &acme, "--sms", number]);
    assert!(ok, "adding a number the account has changes nothing: {stderr}");
    let (ok, _, stderr) = canvass(&app, &["sender", "add", "--account", &other, "--sms", number]);
    assert!(!ok, "a number belongs to one account");
    assert!(stderr.contains(&format!("account {acme}")), "the error names the owner: {stderr}");
    for bad in ["Acme", "4790000001", ""] {
        let (ok, _, _) = canvass(&app, &["sender", "add", "--account", &other, "--sms", bad]);
        assert!(!ok, "{bad:?} is not an E.164 number");
    }
    let (ok, _, _) = canvass(&app, &["sender", "add", "--account", "999999", "--sms", "+4790000009"]);
    assert!(!ok, "an unknown account is refused");

    let (ok, listed, stderr) = canvass(&app, &["sender", "list", "--account", &acme]);
    assert!(ok, "{stderr}");
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["sms"], number);
    assert!(listed[0]["createdAt"].as_str().unwrap().ends_with('Z'));
    let (_, listed, _) = canvass(&app, &["sender", "list", "--account", &other]);
    assert_eq!(listed, serde_json::json!([]));
    let (ok, listed, stderr) = canvass(&app, &["sender", "list", "--account", "999999"]);
    assert!(!ok && listed.is_null(), "an account that does not exist has no list: {listed}");
    assert!(stderr.contains("canvass: ") && stderr.contains("account"), "{stderr}");

    let (ok, _, _) = canvass(&app, &["sender", "remove", "--account", &other, "--sms", number]);
    assert!(!ok, "another account cannot remove it");
    let (ok, removed, stderr) = canvass(&app, &["sender", "remove", "--account", &acme, "--sms", number]);
    assert!(ok, "{stderr}");
    assert_eq!(removed["removed"], true);
    let (ok, _, stderr) = canvass(&app, &["sender", "add", "--account", &other, "--sms", number]);
    assert!(ok, "a removed number can go to another account: {stderr}");
}

#[tokio::test]
async fn an_email_address_makes_one_account() {
    let app = spawn_app().await;
    let (ok, _, stderr) = canvass(&app, &["account", "create", "--name", "Again", "--email", "OWNER@acme.example"]);
    assert!(!ok, "owner@acme.example has an account already");
    let account = app.account_id.to_string();
    assert!(stderr.contains("canvass: ") && stderr.contains(&format!("account {account}")), "{stderr}");
}

#[tokio::test]
async fn arguments_it_cannot_parse_are_refused_as_every_other_failure() {
    let app = spawn_app().await;
    for args in [&["account", "create", "--name", "Beta"][..], &["sender", "list", "--account", "one"], &["nonsense"]] {
        let output = app.canvass(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("canvass: ") && !stderr.contains("error:"), "{args:?}: {stderr}");
    }
    let help = app.canvass(&["--help"]);
    assert!(help.status.success() && String::from_utf8_lossy(&help.stdout).contains("serve"));
}

#[tokio::test]
async fn serve_and_worker_refuse_a_database_without_migrations() {
    use diesel::RunQueryDsl;
    let app = spawn_app().await;
    let empty = format!("{}_empty", app.db.name());
    diesel::sql_query(format!("CREATE DATABASE {empty}")).execute(&mut app.db.connect_admin()).unwrap();
    let url = app.db.url().replacen(app.db.name(), &empty, 1);
    for command in [&["serve", "--demo", "--bind", "127.0.0.1:0"][..], &["worker"]] {
        let output = std::process::Command::new(crate::harness::canvass_binary())
            .args(command)
            .env("DATABASE_URL", &url)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{command:?}: {stderr}");
        assert!(stderr.contains("run `canvass migrate` first"), "{command:?}: {stderr}");
        assert!(output.stdout.is_empty(), "no demo key for a database that cannot take it");
    }
    let _ = diesel::sql_query(format!("DROP DATABASE {empty}")).execute(&mut app.db.connect_admin());
}
