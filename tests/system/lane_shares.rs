//! One account flooding the store's lane with slow requests (held behind a table lock taken with SQL on the test
//! database, which no API call can do, until the statement timeout ends each) while another account's requests
//! still get their turn: the lane's fair share per account (docs/decisions.md, "A fair share of the store's lane").

use std::time::Duration;

use diesel::{sql_query, RunQueryDsl};
use futures::future::join_all;

use crate::helpers::spawn_app_with;

/// How long each of the flooding account's requests holds the lane's one thread.
const HELD: Duration = Duration::from_millis(400);

#[tokio::test]
async fn another_account_is_served_while_one_account_floods_the_lane_with_slow_requests() {
    let app = spawn_app_with(|settings| {
        settings.pool_size = 1;
        settings.statement_timeout = HELD;
    })
    .await;
    let (_, other_key) = app.new_account("Globex", "owner@globex.example");
    // Both keys are looked up now, so that neither request below waits for a look-up.
    app.get("/accounts/categories").await.expect(200);
    app.call_as(&other_key, "GET", "/surveys", None).await.expect(200);

    let mut holder = app.db.connect();
    sql_query("BEGIN").execute(&mut holder).unwrap();
    sql_query("LOCK TABLE categories IN ACCESS EXCLUSIVE MODE").execute(&mut holder).unwrap();
    // 24 requests of the first account, each held until the statement timeout: 9.6 s of work for the one thread,
    // far beyond the 5 s a request waits for its turn.
    let flood = join_all((0..24).map(|_| app.get("/accounts/categories")));
    let other = async {
        let mut watcher = app.db.connect();
        let waiting_on_the_lock = "SELECT 1 FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock'";
        while sql_query(waiting_on_the_lock).execute(&mut watcher).unwrap() == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // The first of the flood holds the thread; give the rest time to reach the queue.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mut statuses = Vec::new();
        for _ in 0..3 {
            statuses.push(app.call_as(&other_key, "GET", "/surveys", None).await.status.as_u16());
        }
        statuses
    };
    let (flooded, statuses) = tokio::join!(flood, other);
    sql_query("ROLLBACK").execute(&mut holder).unwrap();

    assert_eq!(statuses, [200, 200, 200], "the other account waited behind the flood");
    let flooded: Vec<u16> = flooded.iter().map(|reply| reply.status.as_u16()).collect();
    assert!(flooded.iter().all(|status| *status == 503), "every flooding request timed out or waited out: {flooded:?}");
    app.get("/accounts/categories").await.expect(200);
}
