//! One search on several threads over one shared table: the simultaneous
//! df-pn of Kaneko 2010 ("Parallel Depth First Proof Number Search",
//! AAAI-10) in its simplest, "lazy" form. Every thread runs the same root
//! query ("mate within `len`?") with a path, a stack and path-dependent
//! disproofs of its own; they meet only in the transposition table, where
//! each reads what the others proved. The helpers grow their root
//! thresholds by factors of their own and stay longer in a subtree (1 + ε
//! with ε = 1/2; [`Dfpn::helper`]), so they come back to the root at other
//! times and go down other paths than the main thread.
//!
//! Correctness does not depend on the schedule: a thread only stores what
//! it proved, every entry is read whole ([`super::tt`]'s sequence locks),
//! and the answer returned is one a thread proved from the root. The
//! first thread to finish stops the others; the node and time limits hold
//! for all threads together, and cancelling the main one stops every one.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::dfpn::{Dfpn, Outcome, SearchStats};
use super::limits::Budget;
use super::peers::Peers;
use super::repetition::BYTES_PER_PATH;
use super::stack::SEARCH_STACK_BYTES;
use super::tt::TranspositionTable;
use crate::rules::{Color, Position};

/// Nodes a search runs on one thread before the others join it (about
/// 30 ms): starting them costs about 0.1 ms.
const ALONE_NODES: u64 = 20_000;

/// One root query, "mate within `len` plies?" from `pos` for `attacker`,
/// over `tt`, with room for `path_capacity` path-dependent disproofs.
#[derive(Clone, Copy)]
pub struct Query<'q> {
    pub tt: &'q TranspositionTable,
    pub pos: &'q Position,
    pub attacker: Color,
    pub path_capacity: usize,
    pub len: u16,
}

/// What a search on several threads gives back.
pub struct Finished {
    /// The answer.
    pub outcome: Outcome,
    /// The counters of every thread.
    pub stats: SearchStats,
    /// The nodes of every thread.
    pub nodes: u64,
}

/// Search the query on `threads` threads (1: on this one only); its table
/// is shared ([`TranspositionTable::share`]) while the others run, and its
/// path-dependent disproofs shared out among the threads, less what their
/// [`Peers`] paths take.
pub fn search(q: Query, budget: &mut Budget, threads: usize) -> Finished {
    if threads <= 1 {
        return alone(q, budget);
    }
    // Alone first: most searches of a solve are short, and not worth
    // starting threads for.
    let mut capped = budget.capped(ALONE_NODES);
    let first = alone(q, &mut capped);
    let alone = capped;
    budget.absorb(&alone);
    if first.outcome != Outcome::Unknown || budget.hit.is_some() {
        return first;
    }
    let mut rest = together(q, budget, threads);
    rest.stats.add(&first.stats);
    rest.nodes += first.nodes;
    rest
}

/// The search on this thread only.
fn alone(q: Query, budget: &mut Budget) -> Finished {
    let mut df = Dfpn::new(q.tt, q.pos.clone(), q.attacker, budget, q.path_capacity);
    let outcome = df.search(q.len);
    Finished {
        outcome,
        stats: df.stats,
        nodes: df.nodes,
    }
}

/// The search on `threads` threads at once, over the table shared. When
/// the table wants room, every thread stops, this one grows it, and they
/// start again from the root: what they learnt is in the table.
fn together(q: Query, budget: &mut Budget, threads: usize) -> Finished {
    let room = q.tt.wants_room();
    let mut all = Finished {
        outcome: Outcome::Unknown,
        stats: SearchStats::default(),
        nodes: 0,
    };
    loop {
        q.tt.share();
        let f = round(q, budget, threads, &room);
        q.tt.unshare();
        all.outcome = f.outcome;
        all.stats.add(&f.stats);
        all.nodes += f.nodes;
        if f.outcome != Outcome::Unknown || budget.hit.is_some() || !room.load(Ordering::Acquire) {
            // alone, the table grows by itself when it needs to
            room.store(false, Ordering::Relaxed);
            return all;
        }
        q.tt.make_room();
    }
}

/// One run of every thread, until one answers, a limit is hit or the
/// table wants room.
fn round(q: Query, budget: &mut Budget, threads: usize, room: &Arc<AtomicBool>) -> Finished {
    let Query {
        tt,
        pos,
        attacker,
        path_capacity,
        len,
    } = q;
    // the threads' paths come out of the path-dependent disproofs' share
    let peers_paths = Peers::bytes(threads).div_ceil(BYTES_PER_PATH);
    let capacity = (path_capacity.saturating_sub(peers_paths) / threads).max(1);
    let stop = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicBool::new(false));
    let pool = Arc::new(AtomicU64::new(0));
    let answer: Mutex<Option<Outcome>> = Mutex::new(None);
    let peers = Peers::new(threads);
    let mut helpers_stats = SearchStats::default();
    let mut helpers_nodes = 0;
    let (main_outcome, main_stats, main_nodes) = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for k in 1..threads {
            let mut hb = budget.helper(stop.clone(), pool.clone(), room.clone());
            let (finished, answer, pos, peers) = (&finished, &answer, pos.clone(), &peers);
            let run = move || {
                let mut df = Dfpn::new(tt, pos, attacker, &mut hb, capacity)
                    .helper(k as u32)
                    .with_peers(peers);
                let o = df.search(len);
                if o != Outcome::Unknown {
                    answer
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(o);
                    finished.store(true, Ordering::Release);
                }
                (df.stats, df.nodes)
            };
            let h = std::thread::Builder::new()
                .name(format!("tsume-helper-{k}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(s, run);
            // without a thread, the others search alone
            if let Ok(h) = h {
                handles.push(h);
            }
        }
        budget.join_helpers(finished.clone(), pool.clone(), room.clone());
        let mut df = Dfpn::new(tt, pos.clone(), attacker, budget, capacity).with_peers(&peers);
        let o = df.search(len);
        let (st, n) = (df.stats, df.nodes);
        stop.store(true, Ordering::Release);
        for h in handles {
            if let Ok((hs, hn)) = h.join() {
                helpers_stats.add(&hs);
                helpers_nodes += hn;
            }
        }
        budget.leave_helpers();
        (o, st, n)
    });
    let outcome = match main_outcome {
        Outcome::Unknown => answer
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .unwrap_or(Outcome::Unknown),
        o => o,
    };
    budget.spend(helpers_nodes);
    let mut stats = main_stats;
    stats.add(&helpers_stats);
    Finished {
        outcome,
        stats,
        nodes: main_nodes + helpers_nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;
    use crate::search::limits::{LimitHit, Limits};
    use crate::search::tt::UNBOUNDED;

    fn query<'q>(tt: &'q TranspositionTable, pos: &'q Position, cap: usize, len: u16) -> Query<'q> {
        Query {
            tt,
            pos,
            attacker: pos.side_to_move(),
            path_capacity: cap,
            len,
        }
    }

    /// A budget of `nodes` nodes.
    fn within(nodes: u64) -> Budget {
        Budget::new(Limits {
            nodes: Some(nodes),
            ..Limits::default()
        })
    }

    /// "Mate within `len`?" on `threads` threads from the start.
    fn run(sfen: &str, len: u16, threads: usize) -> Finished {
        let pos = parse_position(sfen).unwrap();
        let tt = TranspositionTable::new(16);
        let mut budget = within(5_000_000);
        together(query(&tt, &pos, 1 << 14, len), &mut budget, threads)
    }

    #[test]
    fn two_threads_decide_what_one_decides() {
        // 無双 第84番 (a mate in 29, its first proof takes about 50,000
        // nodes), the same within 27 (none), and 無双 第88番 (no mate)
        let musou_084 = "6S2/1+B3pg1+L/9/6SP1/8p/4g+R1n1/7R1/6+p2/4N3k b BP2g2s2n3l13p 1";
        let musou_088 = "9/9/6Sn1/3+R1g1p1/6P1B/9/5G1Pp/3+B4+p/3Ls1k+r1 b GPg2s3n3l12p 1";
        for (sfen, len) in [
            (musou_084, UNBOUNDED),
            (musou_084, 27),
            (musou_088, UNBOUNDED),
        ] {
            let one = run(sfen, len, 1);
            let two = run(sfen, len, 2);
            assert_ne!(one.outcome, Outcome::Unknown, "{sfen} {len}");
            assert_eq!(
                matches!(one.outcome, Outcome::Proven(_)),
                matches!(two.outcome, Outcome::Proven(_)),
                "{sfen} {len}"
            );
            assert_eq!(
                one.outcome == Outcome::Disproven,
                two.outcome == Outcome::Disproven
            );
        }
    }

    #[test]
    fn the_shared_table_grows_while_the_threads_search() {
        // 無双 第84番's first proof stores tens of thousands of entries; a
        // table starts on 256 buckets of 8 (2,048 entries), and on two
        // threads from the start it can only grow by stopping them
        let pos = parse_position("6S2/1+B3pg1+L/9/6SP1/8p/4g+R1n1/7R1/6+p2/4N3k b BP2g2s2n3l13p 1")
            .unwrap();
        let tt = TranspositionTable::new(16);
        let mut budget = within(5_000_000);
        let f = together(query(&tt, &pos, 1 << 14, UNBOUNDED), &mut budget, 2);
        assert!(matches!(f.outcome, Outcome::Proven(_)), "{:?}", f.outcome);
        assert_eq!(budget.hit, None);
        assert!(tt.stats().used > 10_000, "{:?}", tt.stats());
        assert!(!tt.is_shared());
        assert!(!tt.wants_room().load(Ordering::Relaxed));
    }

    #[test]
    fn a_short_search_stays_on_one_thread_and_leaves_the_table_unshared() {
        let pos = parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
        let tt = TranspositionTable::new(16);
        let mut budget = Budget::new(Limits::default());
        let f = search(query(&tt, &pos, 1 << 12, UNBOUNDED), &mut budget, 2);
        assert_eq!(f.outcome, Outcome::Proven(3));
        assert!(!tt.is_shared());
    }

    #[test]
    fn the_node_limit_holds_for_all_threads_together() {
        // 無双 第73番 (no mate, millions of nodes to show it) within 30,000
        // nodes in all: unknown on two threads
        let pos = parse_position(
            "+r2S5/4p2+B1/9/6+p+r1/3N1P1S1/2+l6/k1G6/1+p4pG1/1BS3PN1 b G3LPgs2n11p 1",
        )
        .unwrap();
        let tt = TranspositionTable::new(16);
        let mut budget = within(30_000);
        let f = search(query(&tt, &pos, 1 << 12, UNBOUNDED), &mut budget, 2);
        assert_eq!(f.outcome, Outcome::Unknown);
        assert_eq!(budget.hit, Some(LimitHit::Nodes));
        assert!(f.nodes > ALONE_NODES, "the second thread joined");
        assert!(!tt.is_shared(), "one thread on the table again");
        // each thread stops within 1,024 nodes of the limit
        assert!(f.nodes < 30_000 + 2 * 1024, "{}", f.nodes);
    }
}
