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

/// A running budget: limits plus the clock, and the nodes of the searches
/// already run on it (the node limit holds for all of them together).
#[derive(Clone, Debug)]
pub struct Budget {
    limits: Limits,
    start: Instant,
    spent: u64,
    /// The limit that was hit, once one was.
    pub hit: Option<LimitHit>,
    /// Set when another thread of the same search finished it: the search
    /// stops as if cancelled, and the caller takes the other's answer.
    finished_elsewhere: Option<Arc<AtomicBool>>,
    /// The nodes of every thread of the running search, when several run
    /// it: the node limit holds for all of them together.
    pool: Option<Arc<AtomicU64>>,
    /// Set when the shared table wants room: the threads of the search
    /// stop, as if cancelled, so that one of them grows it.
    pause: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// Start the clock.
    pub fn new(limits: Limits) -> Budget {
        Budget {
            limits,
            start: Instant::now(),
            spent: 0,
            hit: None,
            finished_elsewhere: None,
            pool: None,
            pause: None,
        }
    }

    /// Count the nodes of a finished search.
    pub fn spend(&mut self, nodes: u64) {
        self.spent += nodes;
    }

    /// Count one step of work outside a search (the composer's walk over
    /// the table) as a node: the node limit holds for such steps too, and
    /// the clock is read every 1024 of them. Nothing is counted, and
    /// `false` returned, when a limit is hit already or no node is left.
    pub fn step(&mut self) -> bool {
        if self.hit.is_some() {
            return false;
        }
        if self.limits.nodes.is_some_and(|n| self.spent >= n) {
            self.hit = Some(LimitHit::Nodes);
            return false;
        }
        // the last step raises the limit: what follows would go over
        if !self.count(1) && self.spent & 1023 == 0 {
            self.check(0);
        }
        true
    }

    /// Add `nodes` to those spent; the node limit is hit once they reach
    /// it. Whether they have.
    fn count(&mut self, nodes: u64) -> bool {
        self.spent += nodes;
        let reached = self.limits.nodes.is_some_and(|n| self.spent >= n);
        if reached {
            self.hit_limit(LimitHit::Nodes);
        }
        reached
    }

    /// Count the nodes spent on a budget made by [`Budget::capped`]; the
    /// node limit is hit when they use up what was left, and any other
    /// limit it hit (time, cancellation) is this budget's too.
    pub fn absorb(&mut self, capped: &Budget) {
        self.count(capped.spent);
        if let Some(hit) = capped.hit.filter(|&h| h != LimitHit::Nodes) {
            self.hit_limit(hit);
        }
    }

    /// Record a limit met outside `check` (the ply cap).
    pub fn hit_limit(&mut self, hit: LimitHit) {
        self.hit.get_or_insert(hit);
    }

    /// The same budget (clock, time limit, cancellation, no limit hit yet)
    /// with at most `nodes` more nodes (and no more than this budget has
    /// left): for a search whose answer is only wanted when it comes
    /// cheaply. Give its nodes back with [`Budget::absorb`].
    pub fn capped(&self, nodes: u64) -> Budget {
        let mut b = self.sibling(self.limits.clone(), 0);
        let left = self.limits.nodes.map(|n| n.saturating_sub(self.spent));
        b.limits.nodes = Some(left.map_or(nodes, |n| n.min(nodes)));
        b
    }

    /// The budget of a helper thread of a search run on this one: the same
    /// clock and limits, stopped by `stop` (set when the search is over)
    /// instead of the caller's cancellation flag, which the main thread
    /// watches, or by `pause`. The nodes of every thread count in `pool`.
    pub(crate) fn helper(
        &self,
        stop: Arc<AtomicBool>,
        pool: Arc<AtomicU64>,
        pause: Arc<AtomicBool>,
    ) -> Budget {
        let mut limits = self.limits.clone();
        limits.cancel = Some(stop);
        limits.progress = None;
        let mut b = self.sibling(limits, self.spent);
        b.pool = Some(pool);
        b.pause = Some(pause);
        b
    }

    /// A budget on this one's clock, with `limits`, `spent` nodes already
    /// counted and no limit hit yet.
    fn sibling(&self, limits: Limits, spent: u64) -> Budget {
        Budget {
            limits,
            start: self.start,
            spent,
            hit: None,
            finished_elsewhere: None,
            pool: None,
            pause: None,
        }
    }

    /// Run a search with helper threads: `finished` is set when one of
    /// them finishes it first, `pause` when the shared table wants room,
    /// and the nodes of all count in `pool`.
    pub(crate) fn join_helpers(
        &mut self,
        finished: Arc<AtomicBool>,
        pool: Arc<AtomicU64>,
        pause: Arc<AtomicBool>,
    ) {
        self.finished_elsewhere = Some(finished);
        self.pool = Some(pool);
        self.pause = Some(pause);
    }

    /// The helpers are gone: if one of them finished the search, or the
    /// table wanted room, the stop that made this thread give up is no
    /// limit hit.
    pub(crate) fn leave_helpers(&mut self) {
        let finished = raised(&self.finished_elsewhere.take());
        let paused = raised(&self.pause.take());
        if (finished || paused) && self.hit == Some(LimitHit::Cancelled) {
            let cancelled = self
                .limits
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed));
            if !cancelled {
                self.hit = None;
            }
        }
        self.pool = None;
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Check the limits after `nodes` nodes of the running search; cheap
    /// checks every call, the clock and the flag every 1024 nodes.
    #[inline]
    pub fn check(&mut self, nodes: u64) -> bool {
        if self.hit.is_some() {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.spent + nodes >= n {
                self.hit = Some(LimitHit::Nodes);
                return true;
            }
        }
        if nodes & 1023 == 0 {
            if let (Some(pool), Some(n)) = (&self.pool, self.limits.nodes) {
                if self.spent + pool.fetch_add(1024, Ordering::Relaxed) + 1024 >= n {
                    self.hit = Some(LimitHit::Nodes);
                    return true;
                }
            }
            if raised(&self.finished_elsewhere) || raised(&self.pause) {
                self.hit = Some(LimitHit::Cancelled);
                return true;
            }
            if let Some(p) = &self.limits.progress {
                p.store(self.spent + nodes, Ordering::Relaxed);
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

/// Whether a flag is there and set.
#[inline]
fn raised(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Acquire))
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
    fn steps_outside_a_search_count_against_the_node_limit() {
        let b = Budget::new(Limits {
            nodes: Some(500),
            ..Limits::default()
        });
        let mut c = b.capped(3);
        assert!((0..3).all(|_| c.step()));
        // the last step spent the budget: a search started now would
        // count a node beyond it
        assert_eq!(c.hit, Some(LimitHit::Nodes));
        assert!(!c.step());
        assert_eq!((c.spent, c.hit), (3, Some(LimitHit::Nodes)));
        // and the clock is read every 1024 steps
        let mut d = Budget::new(Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        });
        assert!((0..1023).all(|_| d.step()));
        assert_eq!(d.hit, None);
        assert!(d.step());
        assert_eq!(d.hit, Some(LimitHit::Time));
        assert!(!d.step());
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

    #[test]
    fn the_node_limit_holds_for_all_searches_together() {
        let mut b = Budget::new(Limits {
            nodes: Some(500),
            ..Limits::default()
        });
        assert!(!b.check(300));
        b.spend(300);
        assert!(!b.check(199));
        let mut c = b.capped(1000);
        assert_eq!(c.limits.nodes, Some(200));
        c.spend(150);
        b.absorb(&c);
        assert!(b.hit.is_none());
        assert!(b.check(50));
        assert_eq!(b.hit, Some(LimitHit::Nodes));
        // a capped search that uses up the rest hits the limit of both
        let mut d = Budget::new(Limits {
            nodes: Some(100),
            ..Limits::default()
        });
        let mut e = d.capped(1000);
        e.spend(100);
        d.absorb(&e);
        assert_eq!(d.hit, Some(LimitHit::Nodes));
    }

    #[test]
    fn a_capped_search_passes_on_every_limit_but_its_own_cap() {
        let mut b = Budget::new(Limits::default());
        let mut c = b.capped(10);
        c.spend(10);
        c.hit_limit(LimitHit::Nodes);
        b.absorb(&c);
        assert_eq!(b.hit, None, "the cap is the capped search's own");
        let mut d = b.capped(10);
        d.hit_limit(LimitHit::Time);
        b.absorb(&d);
        assert_eq!(b.hit, Some(LimitHit::Time));
    }
}
