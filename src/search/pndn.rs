//! Proof and disproof numbers (証明数・反証数, Allis et al. 1994), 64-bit
//! and saturating: `INF` means proven / disproven, and sums stop at
//! `MAX_FINITE`, far beyond what a search can reach by counting nodes.

/// A proof or disproof number.
pub type PnDn = u64;

/// Infinity: the other number is 0 and the node is solved.
pub const INF: PnDn = u64::MAX;

/// The largest finite value (2⁶²): sums saturate here, below `INF`.
pub const MAX_FINITE: PnDn = 1 << 62;

/// Saturating sum: INF stays INF, finite sums stop at `MAX_FINITE`.
#[inline(always)]
pub fn add(a: PnDn, b: PnDn) -> PnDn {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(MAX_FINITE)
    }
}

/// A child's threshold `th - total + own`, computed without overflow and
/// kept within `1..=MAX_FINITE`, or INF when `th` is INF.
#[inline(always)]
pub fn child_threshold(th: PnDn, total: PnDn, own: PnDn) -> PnDn {
    if th == INF {
        return INF;
    }
    let v = th.saturating_add(own).saturating_sub(total);
    v.clamp(1, MAX_FINITE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturation() {
        assert_eq!(add(INF, 3), INF);
        assert_eq!(add(MAX_FINITE, 3), MAX_FINITE);
        assert_eq!(add(MAX_FINITE - 1, MAX_FINITE), MAX_FINITE);
        assert_eq!(add(2, 3), 5);
        assert_eq!(child_threshold(10, 7, 3), 6);
        assert_eq!(child_threshold(INF, 7, 3), INF);
        assert_eq!(child_threshold(2, 9, 0), 1);
        assert_eq!(child_threshold(MAX_FINITE, 1, MAX_FINITE), MAX_FINITE);
    }
}
