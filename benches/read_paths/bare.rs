//! The anchor: a bare actix-web + diesel server for GET survey and the question tree, run as a process of its own
//! (this bench binary started again with [`SERVE_VARIABLE`] set), so its CPU per request is read like the server's.
//!
//! It is the stack Canvass stands on and nothing more: the same actix-web, worker count, `TCP_NODELAY` and
//! keep-alive as `canvass serve`; the adapter's own pool ([`canvass_postgres::connect_pool_with_timeout`], the
//! same size) and statements (`PgUnitOfWork`'s `find_survey` and `find_survey_tree`); one `web::block` hop; the
//! same JSON types. No authentication (the account is fixed at start), no middleware, no metrics, no tracing.
//! `/plain/...` goes straight to `web::block`; `/gated/...` first waits at a FIFO gate of as many permits as
//! the pool has connections, as `canvass_http::blocking` did before its lane; `/laned/...` runs on the lane
//! Canvass runs its units of work on ([`canvass_http::blocking::StoreLane`], as many threads as connections).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use actix_web::error::{ErrorInternalServerError, ErrorServiceUnavailable};
use actix_web::rt::time::timeout;
use actix_web::{web, App, HttpResponse, HttpServer};
use canvass_domain::ids::{AccountId, SurveyId};
use canvass_domain::ports::SurveyRepository;
use canvass_domain::RepoError;
use canvass_http::blocking::{Share, StoreLane};
use canvass_http::dto::survey::{QuestionTreeResponse, SurveyResponse};
use canvass_postgres::{PgPool, PgUnitOfWork};
use tokio::sync::Semaphore;

use crate::support::{free_port, Killed};

/// Set (to `DATABASE_URL ACCOUNT PORT`) in the environment of the bench binary started as the anchor.
const SERVE_VARIABLE: &str = "BENCH_BARE_SERVE";

/// What a handler of the anchor shares.
struct Bare {
    pool: PgPool,
    account: AccountId,
    gate: Semaphore,
    lane: StoreLane,
}

/// How a handler of the anchor reaches its connection.
#[derive(Clone, Copy)]
enum Hop {
    /// `web::block`, the thread waiting in the pool.
    Plain,
    /// The FIFO gate, then `web::block`.
    Gated,
    /// Canvass's lane.
    Laned,
}

/// Runs `work` on a pooled connection in one hop of the kind `hop` names.
async fn hop<T: Send + 'static>(
    bare: &web::Data<Bare>,
    hop: Hop,
    work: impl FnOnce(&mut PgUnitOfWork<'_>, AccountId) -> Result<T, RepoError> + Send + 'static,
) -> actix_web::Result<T> {
    let shared = bare.clone();
    let on_connection = move || {
        let mut conn = shared.pool.get().map_err(|e| e.to_string())?;
        conn.run(|uow| Ok(work(uow, shared.account)?)).map_err(|e| e.to_string())
    };
    if let Hop::Laned = hop {
        let found = bare.lane.run(Share::Public, move || Ok(on_connection())).await?;
        return found.map_err(ErrorInternalServerError);
    }
    let _turn = match hop {
        Hop::Gated => {
            Some(timeout(Duration::from_secs(5), bare.gate.acquire()).await.map_err(ErrorServiceUnavailable)?)
        }
        _ => None,
    };
    web::block(on_connection).await?.map_err(ErrorInternalServerError)
}

async fn survey(bare: web::Data<Bare>, id: web::Path<i64>, via: Hop) -> actix_web::Result<HttpResponse> {
    let id = SurveyId::new(id.into_inner());
    let found = hop(&bare, via, move |uow, account| uow.find_survey(account, id)).await?;
    Ok(found.map_or_else(not_found, |survey| HttpResponse::Ok().json(SurveyResponse::from(survey))))
}

async fn questions(bare: web::Data<Bare>, id: web::Path<i64>, via: Hop) -> actix_web::Result<HttpResponse> {
    let id = SurveyId::new(id.into_inner());
    let found = hop(&bare, via, move |uow, account| uow.find_survey_tree(account, id)).await?;
    Ok(found.map_or_else(not_found, |(_, tree)| HttpResponse::Ok().json(QuestionTreeResponse::from(tree))))
}

fn not_found() -> HttpResponse {
    HttpResponse::NotFound().finish()
}

/// Serves the anchor when this process was started as one (and then never returns).
pub fn serve_if_asked() {
    let Ok(args) = std::env::var(SERVE_VARIABLE) else { return };
    let [url, account, port]: [&str; 3] = args.split(' ').collect::<Vec<_>>().try_into().unwrap();
    let size = canvass_server::settings::default_pool_size();
    let pool = canvass_postgres::connect_pool_with_timeout(url, size, Duration::from_secs(30)).unwrap();
    let bare = web::Data::new(Bare {
        pool,
        account: AccountId::new(account.parse().unwrap()),
        gate: Semaphore::new(size as usize),
        lane: StoreLane::new(size as usize),
    });
    let server = HttpServer::new(move || {
        App::new()
            .app_data(bare.clone())
            .route("/plain/api/v1/surveys/{surveyId}", web::get().to(|b, id| survey(b, id, Hop::Plain)))
            .route("/plain/api/v1/surveys/{surveyId}/questions", web::get().to(|b, id| questions(b, id, Hop::Plain)))
            .route("/gated/api/v1/surveys/{surveyId}", web::get().to(|b, id| survey(b, id, Hop::Gated)))
            .route("/gated/api/v1/surveys/{surveyId}/questions", web::get().to(|b, id| questions(b, id, Hop::Gated)))
            .route("/laned/api/v1/surveys/{surveyId}", web::get().to(|b, id| survey(b, id, Hop::Laned)))
            .route("/laned/api/v1/surveys/{surveyId}/questions", web::get().to(|b, id| questions(b, id, Hop::Laned)))
    })
    .tcp_nodelay(true)
    .keep_alive(canvass_server::settings::DEFAULT_KEEP_ALIVE)
    .bind(("127.0.0.1", port.parse::<u16>().unwrap()))
    .unwrap();
    actix_web::rt::System::new().block_on(server.run()).unwrap();
    std::process::exit(0);
}

/// Starts the anchor on `database_url` for `account`; answers its process and base URL once it listens.
pub fn start(database_url: &str, account: i64) -> (Killed, String) {
    let port = free_port();
    let child = Command::new(std::env::current_exe().unwrap())
        .env(SERVE_VARIABLE, format!("{database_url} {account} {port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "the bare anchor did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (Killed(child), format!("http://127.0.0.1:{port}"))
}
