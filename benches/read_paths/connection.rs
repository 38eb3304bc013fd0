//! How the servers under load and pgbench reach the benchmark's database: over TCP (the default), over the
//! cluster's Unix socket, with or without TLS.

use crate::cluster::Cluster;

/// The URL the servers under load and pgbench use for the database `name`: over TCP as [`Cluster::database_url`]
/// by default, over the cluster's Unix socket with `BENCH_DB_VIA=socket`, with `sslmode=<BENCH_DB_SSLMODE>`
/// when that is set. The cluster speaks TLS when started with `PG_CLUSTER_OPTIONS="-c ssl=on -c
/// ssl_cert_file=... -c ssl_key_file=..."`; libpq's default `sslmode=prefer` then uses it over TCP.
pub fn load_url(cluster: &Cluster, name: &str) -> String {
    let tcp = cluster.database_url(name);
    let mut url = match std::env::var("BENCH_DB_VIA").as_deref() {
        Ok("socket") => {
            let socket_dir = cluster.log.parent().unwrap().to_str().unwrap();
            let port = tcp.rsplit_once(':').unwrap().1.split('/').next().unwrap();
            format!("postgres:///{name}?user=postgres&host={socket_dir}&port={port}")
        }
        Ok("tcp") | Err(_) => tcp,
        Ok(other) => panic!("BENCH_DB_VIA={other}: tcp or socket"),
    };
    if let Ok(mode) = std::env::var("BENCH_DB_SSLMODE") {
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str(&format!("sslmode={mode}"));
    }
    url
}
