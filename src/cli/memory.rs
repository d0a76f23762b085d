//! How much memory this machine has, for refusing a table that cannot
//! fit before it is allocated (an allocation that fails aborts the
//! process).

/// Physical memory in MiB (Linux: `MemTotal` of `/proc/meminfo`); `None`
/// where it cannot be read.
pub(crate) fn physical_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_total_mib(&text)
}

/// `MemTotal` of a `/proc/meminfo` text, in MiB.
fn mem_total_mib(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line.split_whitespace().skip(1);
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => Some(n / 1024),
        _ => None,
    }
}

/// Whether `mib` MiB can be reserved now (where the physical memory is
/// not known).
pub(crate) fn can_reserve_mib(mib: u64) -> bool {
    usize::try_from(mib)
        .ok()
        .and_then(|m| m.checked_mul(1024 * 1024))
        .is_some_and(|bytes| Vec::<u8>::new().try_reserve_exact(bytes).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_total() {
        let text = "MemTotal:       24578532 kB\nMemFree:        1 kB\n";
        assert_eq!(mem_total_mib(text), Some(24002));
        assert_eq!(mem_total_mib("MemFree: 1 kB\n"), None);
        assert_eq!(mem_total_mib("MemTotal: x kB\n"), None);
    }

    #[test]
    fn an_absurd_size_cannot_be_reserved() {
        assert!(!can_reserve_mib(u64::MAX));
        assert!(can_reserve_mib(1));
    }
}
