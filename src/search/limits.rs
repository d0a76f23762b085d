//! Search limits: nodes, time, and a cancellation flag. Hitting any of them
//! makes the result `unknown`, never a guess. An optional node counter lets
//! another thread watch a running search (USI `info nodes`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits a search must respect.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum nodes (expanded positions); `None` = no limit.
    pub nodes: Option<u64>,
    /// Maximum wall time of each search; `None` = no limit.
    pub time: Option<Duration>,
    /// An instant after which every search stops: one deadline shared by
    /// several searches (the whole of `check`). `None` = none.
    pub deadline: Option<Instant>,
    /// Set to `true` from another thread to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Progress hook: when set, the search stores its node count here every
    /// 1024 nodes (with the clock and flag checks), so another thread can
    /// report progress. Read-only for the watcher; `None` costs nothing.
    pub progress: Option<Arc<AtomicU64>>,
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LimitHit {
    /// The node limit.
    Nodes,
    /// The time limit.
    Time,
    /// Cancelled from outside.
    Cancelled,
    /// A line reached the ply cap of the search (30,000 plies).
    Ply,
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitHit::Nodes => "node limit",
            LimitHit::Time => "time limit",
            LimitHit::Cancelled => "cancelled",
            LimitHit::Ply => "ply cap",
        })
    }
}

/// A running budget: limits plus the clock.
#[derive(Clone, Debug)]
pub struct Budget {
    limits: Limits,
    start: Instant,
    /// The limit that was hit, once one was.
    pub hit: Option<LimitHit>,
}

impl Budget {
    /// Start the clock.
    pub fn new(limits: Limits) -> Budget {
        Budget {
            limits,
            start: Instant::now(),
            hit: None,
        }
    }

    /// Record a limit met outside `check` (the ply cap).
    pub fn hit_limit(&mut self, hit: LimitHit) {
        self.hit.get_or_insert(hit);
    }

    /// The same budget (clock, time limit, cancellation, no limit hit yet)
    /// with at most `nodes` nodes per search: for a search whose answer is
    /// only wanted when it comes cheaply.
    pub fn capped(&self, nodes: u64) -> Budget {
        let mut b = Budget {
            limits: self.limits.clone(),
            start: self.start,
            hit: None,
        };
        b.limits.nodes = Some(self.limits.nodes.map_or(nodes, |n| n.min(nodes)));
        b
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Check the limits after `nodes` nodes; cheap checks every call, the
    /// clock and the flag every 1024 nodes.
    #[inline]
    pub fn check(&mut self, nodes: u64) -> bool {
        if self.hit.is_some() {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if nodes >= n {
                self.hit = Some(LimitHit::Nodes);
                return true;
            }
        }
        if nodes & 1023 == 0 {
            if let Some(p) = &self.limits.progress {
                p.store(nodes, Ordering::Relaxed);
            }
            if self.limits.time.is_some() || self.limits.deadline.is_some() {
                let now = Instant::now();
                let late = self.limits.time.is_some_and(|t| now - self.start >= t)
                    || self.limits.deadline.is_some_and(|d| now >= d);
                if late {
                    self.hit = Some(LimitHit::Time);
                    return true;
                }
            }
            if let Some(c) = &self.limits.cancel {
                if c.load(Ordering::Relaxed) {
                    self.hit = Some(LimitHit::Cancelled);
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_past_deadline_stops_at_the_next_clock_check() {
        let mut b = Budget::new(Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        });
        assert!(!b.check(1));
        assert!(b.check(1024));
        assert_eq!(b.hit, Some(LimitHit::Time));
        // a budget capped from it keeps the deadline
        let mut c = b.capped(1 << 20);
        assert!(c.check(2048));
        assert_eq!(c.hit, Some(LimitHit::Time));
    }

    #[test]
    fn a_capped_budget_stops_at_its_own_node_limit() {
        let b = Budget::new(Limits {
            nodes: Some(500),
            ..Limits::default()
        });
        let mut c = b.capped(100);
        assert!(!c.check(99));
        assert!(c.check(100));
        assert_eq!((c.hit, b.hit), (Some(LimitHit::Nodes), None));
        assert_eq!(b.capped(1000).limits.nodes, Some(500));
    }
}
