//! CPU time spent by the server and by PostgreSQL during a load, from /proc: what explains a ratio below 1 is
//! where each request's CPU goes.

/// Clock ticks per second of /proc's times (USER_HZ, 100 on Linux).
const TICKS: f64 = 100.0;

/// `/proc/<pid>/stat` fields after the command: (ppid, utime + stime, cutime + cstime) in ticks.
fn stat(pid: u32) -> Option<(u32, u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = text[text.rfind(')')? + 2..].split_whitespace().collect();
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    // After the command: state (0), ppid (1), ... utime (11), stime (12), cutime (13), cstime (14).
    Some((number(1)? as u32, number(11)? + number(12)?, number(13)? + number(14)?))
}

/// CPU seconds used so far by `pid` (all its threads).
pub fn process(pid: u32) -> f64 {
    stat(pid).map_or(0.0, |(_, own, _)| own as f64 / TICKS)
}

/// CPU seconds used so far by a PostgreSQL server: the postmaster, its live processes, and those that exited
/// (counted in the postmaster's children's times once it has reaped them).
pub fn postgres(postmaster: u32) -> f64 {
    let Some((_, own, exited)) = stat(postmaster) else { return 0.0 };
    let live: u64 = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(stat)
        .filter(|(ppid, _, _)| *ppid == postmaster)
        .map(|(_, own, _)| own)
        .sum();
    (own + exited + live) as f64 / TICKS
}

/// The postmaster of the backend `pid`.
pub fn postmaster_of(backend: u32) -> u32 {
    stat(backend).map_or(0, |(ppid, _, _)| ppid)
}
