//! The values of the limit options (`--time`, `--nodes`, `--hash`,
//! `--jobs`), checked when the arguments are parsed: a bad value is a
//! message and exit code 2 before any table is built or search started.
//!
//! **0 means "no limit"** for `--time` and `--nodes` in every command, as
//! `NodesLimit 0` does in USI. `--hash` and `--jobs` are sizes: 0 is
//! refused.

use std::time::Duration;

/// The longest `--time` accepted, seconds (365 days).
pub(crate) const MAX_SECONDS: u64 = 365 * 24 * 3600;

/// The most worker threads `batch --jobs` accepts.
pub(crate) const MAX_JOBS: usize = 1024;

/// `--time SECS`: a number of seconds from 0 to [`MAX_SECONDS`].
pub(crate) fn seconds(s: &str) -> Result<f64, String> {
    let range = format!("a number of seconds from 0 to {MAX_SECONDS} (0 = no limit)");
    match s.trim().parse::<f64>() {
        Ok(x) if (0.0..=MAX_SECONDS as f64).contains(&x) => Ok(x),
        Ok(x) if x.is_finite() => Err(format!("out of range: expected {range}")),
        _ => Err(format!("not a number: expected {range}")),
    }
}

/// The time limit of a `--time` value: `None` for 0 (no limit).
pub(crate) fn time_limit(secs: Option<f64>) -> Option<Duration> {
    secs.filter(|&s| s > 0.0).map(Duration::from_secs_f64)
}

/// The node limit of a `--nodes` value: `None` for 0 (no limit).
pub(crate) fn node_limit(nodes: Option<u64>) -> Option<u64> {
    nodes.filter(|&n| n > 0)
}

/// `--jobs N`: 1 to [`MAX_JOBS`] worker threads.
pub(crate) fn jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_JOBS).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a number of worker threads from 1 to {MAX_JOBS}"
        )),
    }
}

/// `--threads`, or its default: every core the process may use, except
/// under a node limit, which is there to make a run reproducible, and
/// several threads are not (one then, unless `--threads` says more).
pub(crate) fn threads(given: Option<usize>, nodes: Option<u64>) -> usize {
    given.unwrap_or_else(|| {
        if nodes.is_some() {
            1
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    })
}

/// `--hash MIB`: a table size from 1 MiB to the machine's memory.
pub(crate) fn table_mib(s: &str) -> Result<usize, String> {
    let n = match s.trim().parse::<u64>() {
        Ok(n) if n >= 1 => n,
        _ => return Err("expected a table size in MiB, at least 1".into()),
    };
    fits_in_memory(n)?;
    Ok(n as usize)
}

/// Whether tables of `mib` MiB in all fit in this machine's memory.
pub(crate) fn fits_in_memory(mib: u64) -> Result<(), String> {
    match super::memory::physical_mib() {
        Some(total) if mib > total => Err(format!(
            "{mib} MiB is more than this machine's memory ({total} MiB)"
        )),
        Some(_) => Ok(()),
        None if super::memory::can_reserve_mib(mib) => Ok(()),
        None => Err(format!("{mib} MiB cannot be allocated on this machine")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_finite_and_in_range() {
        assert_eq!(seconds("0"), Ok(0.0));
        assert_eq!(seconds("2.5"), Ok(2.5));
        for bad in ["-1", "nan", "inf", "-inf", "1e300", "31536001", "x", ""] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(time_limit(Some(0.0)), None);
        assert_eq!(time_limit(Some(1.5)), Some(Duration::from_millis(1500)));
        assert_eq!(
            time_limit(Some(MAX_SECONDS as f64)),
            Some(Duration::from_secs(MAX_SECONDS))
        );
    }

    #[test]
    fn zero_nodes_is_no_limit() {
        assert_eq!(node_limit(Some(0)), None);
        assert_eq!(node_limit(Some(7)), Some(7));
        assert_eq!(node_limit(None), None);
    }

    #[test]
    fn sizes_are_positive() {
        assert!(jobs("0").is_err());
        assert!(jobs("1025").is_err());
        assert_eq!(jobs("2"), Ok(2));
        assert!(table_mib("0").is_err());
        assert!(table_mib("-5").is_err());
        assert!(table_mib("100000000").is_err());
        assert_eq!(table_mib("16"), Ok(16));
    }
}
