//! Security: authentication and keys, one account never seeing another's data, protection of the server (keys and
//! secrets before bodies, slow bodies), browser defences, rate limits and client addresses behind proxies. HTTP
//! only, like [`crate::api`]; what needs the database taken away or locked is in `system/outages.rs`.

mod auth;
mod behind_proxies;
mod browser_defences;
mod path_spellings;
mod protection;
mod rate_limits;
mod tenancy;
mod tenancy_distribution;
