//! The transposition table (置換表): memory-bounded, bucketed by board key,
//! with superior/inferior position look-up (優等局面・劣等局面, Seo 1999)
//! for solved and unsolved entries alike, mate-length bounds in every entry
//! (see [`entry`]), and garbage collection by search effort (the "small
//! tree" idea of Nagai's df-pn solvers: keep what cost most to learn).
//!
//! Entries of one board (same pieces on the same squares, same side to
//! move) share a bucket and differ by the attacker's hand. A bucket is one
//! cache line of keys followed by the entries, so a probe reads one line
//! plus the entries whose key matches. The table never grows: when a
//! bucket is full the entry with the least effort is replaced, and when
//! the table is 90 % full the smaller half of all entries is collected.
//! `clear` is O(1): keys are salted by a generation counter.
//!
//! The table grows to its size as a problem needs it: a search starts on
//! the first `START_BUCKETS` buckets, and when one of them is full the
//! part in use doubles, each bucket splitting in two (the entries whose
//! index has the new bit move to the new half). So a short problem works
//! in a table that fits the caches, and pays for the memory it uses only:
//! the buckets are written (the pages mapped) when the table first grows
//! over them, one sweep each, never during probes. `clear` starts the
//! next problem small again; the memory already written stays.
//!
//! Several search threads may share one table ([`TranspositionTable::share`]):
//! every entry is then read and written under its own sequence lock
//! ([`slot`]), so a proof is never read torn, and one thread at a time
//! collects garbage while the others go on. A shared table does not grow
//! by itself (growing moves entries, which only one thread may do): it
//! raises a flag instead ([`TranspositionTable::wants_room`]), the threads
//! stop, and the one left grows it ([`TranspositionTable::make_room`])
//! before they start again. So a search on several threads touches no more
//! memory than it needs, as one on a single thread.

pub(crate) mod entry;
mod memory;
mod slot;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use entry::Entry;
pub(crate) use entry::{decode_disproof, disproof_covers, encode_disproof, NO_DISPROOF};
use memory::ZeroedBlock;
use slot::Slot;

use super::pndn::{PnDn, INF};
use crate::rules::Hand;

/// Depth value meaning "no mate at any depth" / "unbounded search".
pub const UNBOUNDED: u16 = u16::MAX;

const WAYS: usize = 8;

/// Buckets a search starts on (96 KiB).
const START_BUCKETS: usize = 256;

/// Effort added to a solved entry, so that it outlives unsolved ones.
const SOLVED_BONUS: u32 = 1024;

/// One bucket: the keys on one cache line, then their entries.
#[derive(bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Bucket {
    keys: [AtomicU64; WAYS],
    entries: [Slot; WAYS],
}

/// What the table knows about a node, for a query "mate within `len`?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Proof number (0: proven within the bound).
    pub pn: PnDn,
    /// Disproof number (0: disproven within the bound).
    pub dn: PnDn,
    /// Proven: the mate length found; disproven: the depth of the disproof.
    pub len: u16,
    /// The hand stored with a solved entry (proof or disproof hand).
    pub hand: Hand,
    /// Best move (`Move::to_u16`), 0 when none.
    pub best: u16,
    /// Search effort recorded.
    pub amount: u32,
    /// Whether an entry for this very hand was found.
    pub found: bool,
    /// The deepest "no mate within" by a defence without interpositions
    /// (stored form, [`encode_disproof`]; `NO_DISPROOF`: none), when
    /// disproven.
    pub clean: u16,
}

impl Probe {
    /// A node never seen: pn = dn = 1.
    pub const NEW: Probe = Probe {
        pn: 1,
        dn: 1,
        len: 0,
        hand: Hand::EMPTY,
        best: 0,
        amount: 0,
        found: false,
        clean: entry::NO_DISPROOF,
    };

    /// Whether the node is proven (mate within the bound).
    #[inline(always)]
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }

    /// Whether the node is disproven (no mate within the bound).
    #[inline(always)]
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

/// Counters of the table's life, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TableStats {
    /// Entries the table can hold.
    pub capacity: u64,
    /// Entries in use now.
    pub used: u64,
    /// The most entries in use at once.
    pub peak_used: u64,
    /// Garbage collections run.
    pub gc_runs: u64,
    /// Entries removed by garbage collection.
    pub gc_removed: u64,
    /// Entries replaced because their bucket was full.
    pub replaced: u64,
}

/// The key stored for `key` in generation `gen`: older generations' keys
/// never match.
#[inline(always)]
fn salted(key: u64, gen: u16) -> u64 {
    key ^ (u64::from(gen)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The table's counters, as atomics (shared by the threads).
#[derive(Default)]
struct Counters {
    used: AtomicU64,
    peak_used: AtomicU64,
    gc_runs: AtomicU64,
    gc_removed: AtomicU64,
    replaced: AtomicU64,
}

/// A memory-bounded transposition table.
pub struct TranspositionTable {
    /// The table's memory, zeroed until written; the part in use is the
    /// first `mask + 1` buckets.
    buckets: ZeroedBlock<Bucket>,
    /// The buckets in use, minus one (a power of two minus one).
    mask: AtomicUsize,
    /// The full size in buckets (a power of two).
    full: usize,
    gen: u16,
    /// Whether several threads use the table: writers exclude each other,
    /// and the table does not grow by itself.
    shared: AtomicBool,
    capacity: u64,
    counters: Counters,
    gc_at: u64,
    /// Set while one thread collects garbage.
    collecting: AtomicBool,
    /// Set when the table, shared, would have grown: the threads stop so
    /// that one of them grows it.
    room_wanted: Arc<AtomicBool>,
}

impl TranspositionTable {
    /// A table using at most `bytes` bytes (at least one bucket).
    pub fn with_bytes(bytes: usize) -> TranspositionTable {
        let per_bucket = std::mem::size_of::<Bucket>();
        let mut n = 1usize;
        while n * 2 * per_bucket <= bytes {
            n *= 2;
        }
        let capacity = (n * WAYS) as u64;
        let start = n.min(START_BUCKETS);
        TranspositionTable {
            buckets: ZeroedBlock::new(n),
            mask: AtomicUsize::new(start - 1),
            full: n,
            gen: 1,
            shared: AtomicBool::new(false),
            capacity,
            counters: Counters::default(),
            gc_at: capacity / 10 * 9,
            collecting: AtomicBool::new(false),
            room_wanted: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A table using at most `mib` MiB.
    #[cfg(test)]
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::with_bytes(mib.max(1) * 1024 * 1024)
    }

    /// Bytes of memory the table may use (its full size).
    pub fn memory_bytes(&self) -> usize {
        self.full * std::mem::size_of::<Bucket>()
    }

    /// The counters.
    pub fn stats(&self) -> TableStats {
        let c = &self.counters;
        TableStats {
            capacity: self.capacity,
            used: c.used.load(Relaxed),
            peak_used: c.peak_used.load(Relaxed),
            gc_runs: c.gc_runs.load(Relaxed),
            gc_removed: c.gc_removed.load(Relaxed),
            replaced: c.replaced.load(Relaxed),
        }
    }

    /// Make the table ready for several threads at once: writers exclude
    /// each other from then on, and the table no longer grows by itself
    /// (see [`Self::wants_room`]), until [`Self::unshare`] or
    /// [`Self::clear`]. Call it while one thread only uses the table.
    pub fn share(&self) {
        self.shared.store(true, Relaxed);
    }

    /// Back to one thread: call it once the other threads are gone.
    pub fn unshare(&self) {
        self.shared.store(false, Relaxed);
    }

    /// The flag a shared table raises when it would grow: the threads
    /// using it stop, and one of them calls [`Self::make_room`].
    pub fn wants_room(&self) -> Arc<AtomicBool> {
        self.room_wanted.clone()
    }

    /// Grow the table (double the part in use) as it wanted while shared,
    /// and lower the flag. One thread only: call it between
    /// [`Self::unshare`] and [`Self::share`].
    pub fn make_room(&self) {
        debug_assert!(!self.is_shared());
        if self.mask() + 1 < self.full {
            self.grow();
        }
        self.room_wanted.store(false, Relaxed);
    }

    /// Whether the table is ready for several threads.
    #[inline(always)]
    pub fn is_shared(&self) -> bool {
        self.shared.load(Relaxed)
    }

    /// Forget everything, in O(1) except once every 65,535 clears, and
    /// start small again, for one thread (see [`Self::share`]).
    pub fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            for b in self.buckets.iter() {
                for i in 0..WAYS {
                    b.entries[i]
                        .hold(&b.keys[i], false)
                        .set(0, &Entry::new(0, 0));
                }
            }
            self.gen = 1;
        }
        self.mask = AtomicUsize::new(self.full.min(START_BUCKETS) - 1);
        self.shared = AtomicBool::new(false);
        self.room_wanted.store(false, Relaxed);
        self.counters = Counters::default();
    }

    /// Per mille of the table in use.
    #[cfg(test)]
    pub fn hashfull(&self) -> u32 {
        (self.stats().used * 1000 / self.capacity.max(1)) as u32
    }

    #[inline(always)]
    fn mask(&self) -> usize {
        self.mask.load(Relaxed)
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (key as usize ^ (key >> 32) as usize) & self.mask()
    }

    /// Whether bucket `bi` is full and `key`'s entry would not share it at
    /// the table's full size: growing makes room where the full table
    /// would have it (entries of one board always share a bucket). The
    /// table only grows once it holds an entry per bucket on average:
    /// below, distinct boards rarely fill a bucket, and growing for the
    /// few that do would spread a small problem over the whole table.
    fn splits(&self, bi: usize, key: u64) -> bool {
        let b = &self.buckets[bi];
        let full_index = |k: u64| (k as usize ^ (k >> 32) as usize) & (self.full - 1);
        let salt = salted(0, self.gen);
        let home = full_index(key);
        b.entries.iter().all(|e| e.gen_hint() == self.gen)
            && b.keys
                .iter()
                .any(|k| full_index(k.load(Relaxed) ^ salt) != home)
    }

    /// Double the part in use: bucket `i` splits into `i` and `i + n`.
    /// One thread only: a table not shared, or one being made so.
    fn grow(&self) {
        self.grow_to(2 * (self.mask() + 1));
    }

    /// Use the first `size` buckets (a power of two, more than now): every
    /// entry moves to its bucket at that size, `i + j·n` for one in bucket
    /// `i` of the `n` in use. Those lie beyond the part in use, where only
    /// older generations stand, and get at most the entries of bucket `i`,
    /// so they have room. Only the buckets that receive an entry are
    /// written: growing a nearly empty table to its full size is cheap.
    /// One thread only: a table not shared, or one being made so.
    fn grow_to(&self, size: usize) {
        let n = self.mask() + 1;
        self.mask.store(size - 1, Relaxed);
        let gen = self.gen;
        let salt = salted(0, gen);
        for bi in 0..n {
            for i in 0..WAYS {
                let b = &self.buckets[bi];
                let held = b.entries[i].hold(&b.keys[i], false);
                let (key, entry) = held.get();
                if entry.gen != gen {
                    continue;
                }
                let to_index = self.index(key ^ salt);
                if to_index == bi {
                    continue;
                }
                held.set(0, &Entry::new(0, 0));
                drop(held);
                let to = &self.buckets[to_index];
                let free = (0..WAYS)
                    .find(|&j| to.entries[j].gen_hint() != gen)
                    .expect("room in a bucket beyond the part in use");
                to.entries[free]
                    .hold(&to.keys[free], false)
                    .set(key, &entry);
            }
        }
    }

    /// Ask the CPU to fetch the key row of `key`'s bucket (a probe follows
    /// soon): the table is far larger than the caches. Kept because it
    /// pays: without it the first proofs of 寿
    /// and 煙詰 took 5.9–6.4 s and 5.9–6.1 s instead of 4.7–4.8 s and
    /// 4.8–4.9 s (whole process, default table, runs alternated).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = &self.buckets[self.index(key)] as *const Bucket as *const i8;
            // SAFETY: prefetch is a hint and never faults; the address is
            // that of a bucket inside `buckets`.
            unsafe { _mm_prefetch(p, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entries of `key`'s board in this generation, each read whole.
    #[inline(always)]
    fn entries_of(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        let b = &self.buckets[self.index(key)];
        let skey = salted(key, self.gen);
        let gen = self.gen;
        (0..WAYS).filter_map(move |i| {
            if b.keys[i].load(Relaxed) != skey {
                return None;
            }
            let (k, e) = b.entries[i].read(&b.keys[i]);
            (k == skey && e.gen == gen).then_some(e)
        })
    }

    /// Look up a node for "mate within `len` plies?" (`UNBOUNDED`: any
    /// length): board key and the attacker's hand.
    ///
    /// Solved answers come from any entry whose hand dominates (proof) or
    /// is dominated by (disproof) `hand`. Unsolved numbers come from the
    /// entry of this hand, raised by those of related hands: a position
    /// with fewer attacker pieces is at least as hard to prove (pn), one
    /// with more at least as hard to disprove (dn). They are never 0.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand, len: u16) -> Probe {
        let mut out = Probe::NEW;
        let mut proof: Option<Entry> = None;
        let mut disproof: Option<Entry> = None;
        let mut clean = entry::NO_DISPROOF;
        for e in self.entries_of(key) {
            let eh = Hand(e.hand);
            let superior = hand.dominates(eh); // we hold at least the entry's hand
            let inferior = eh.dominates(hand);
            if superior && e.proves(len) && proof.is_none_or(|p| e.proven < p.proven) {
                proof = Some(e);
            }
            if inferior
                && e.disproves(len)
                && disproof.is_none_or(|d| decode_disproof(e.disproven) > d.disproof_depth())
            {
                disproof = Some(e);
            }
            if inferior {
                clean = clean.max(e.clean);
            }
            if e.hand == hand.0 {
                out.found = true;
                out.pn = out.pn.max(e.pn);
                out.dn = out.dn.max(e.dn);
                out.best = e.best;
                out.amount = e.amount;
            } else if inferior {
                out.pn = out.pn.max(e.pn.min(INF - 1));
            } else if superior {
                out.dn = out.dn.max(e.dn.min(INF - 1));
            }
        }
        if let Some(e) = proof {
            return Probe {
                pn: 0,
                dn: INF,
                len: e.proven,
                hand: Hand(e.hand),
                best: e.best,
                amount: e.amount,
                found: true,
                clean: entry::NO_DISPROOF,
            };
        }
        if let Some(e) = disproof {
            return Probe {
                pn: INF,
                dn: 0,
                len: e.disproof_depth(),
                hand: Hand(e.hand),
                best: e.best,
                amount: e.amount,
                found: true,
                clean,
            };
        }
        out.pn = out.pn.clamp(1, INF - 1);
        out.dn = out.dn.clamp(1, INF - 1);
        out
    }

    /// What is known of the mate length of (board, hand): the greatest
    /// `d` with "no mate within d" proven (`None`: nothing) and the least
    /// `u` with "mate within u" proven (`None`: no mate known).
    pub fn length_bounds(&self, key: u64, hand: Hand) -> (Option<u16>, Option<u16>) {
        use entry::{NO_DISPROOF, NO_PROOF};
        let (mut lo, mut hi) = (None, None);
        for e in self.entries_of(key) {
            let eh = Hand(e.hand);
            if hand.dominates(eh) && e.proven != NO_PROOF {
                hi = Some(hi.map_or(e.proven, |h: u16| h.min(e.proven)));
            }
            if eh.dominates(hand) && e.disproven != NO_DISPROOF {
                let d = e.disproof_depth();
                lo = Some(lo.map_or(d, |l: u16| l.max(d)));
            }
        }
        (lo, hi)
    }

    /// The composer's bounds of (key, hand), from its own entry: the
    /// greatest `d` with "no mate within `d`" proven and the least `u`
    /// with "mate within `u`" proven (futile interpositions excluded; no
    /// superiority: excluding a defence depends on lengths, not only on
    /// material).
    pub fn composer_bounds(&self, key: u64, hand: Hand) -> (Option<u16>, Option<u16>) {
        use entry::{NO_DISPROOF, NO_PROOF};
        match self.entries_of(key).find(|e| e.hand == hand.0) {
            Some(e) => (
                (e.composer_disproven != NO_DISPROOF)
                    .then(|| decode_disproof(e.composer_disproven)),
                (e.composer_proven != NO_PROOF).then_some(e.composer_proven),
            ),
            None => (None, None),
        }
    }

    /// Record a composer's bound of (key, hand): a mate within `len`
    /// (`Ok`), or none within `len` (`Err`), learnt with `amount` effort.
    pub fn store_composer(&self, key: u64, hand: Hand, bound: Result<u16, u16>, amount: u32) {
        self.update(key, hand, |e| {
            match bound {
                Ok(len) => e.composer_proven = e.composer_proven.min(len),
                Err(len) => e.composer_disproven = e.composer_disproven.max(encode_disproof(len)),
            }
            e.amount = e.amount.max(amount.saturating_add(SOLVED_BONUS));
        });
    }

    /// Change the entry of (key, hand) with `f`, creating it when missing
    /// (possibly replacing the entry of least effort in its bucket, or
    /// after a collection). The entry is held while `f` runs, and checked
    /// to be still the one looked for: another thread may have replaced it
    /// meanwhile, and then the search for it starts again.
    fn update(&self, key: u64, hand: Hand, f: impl FnOnce(&mut Entry)) {
        let skey = salted(key, self.gen);
        let gen = self.gen;
        loop {
            let bi = self.index(key);
            let b = &self.buckets[bi];
            let mine = |k: u64, e: &Entry| k == skey && e.gen == gen && e.hand == hand.0;
            if let Some(i) = (0..WAYS).find(|&i| {
                b.keys[i].load(Relaxed) == skey && {
                    let (k, e) = b.entries[i].read(&b.keys[i]);
                    mine(k, &e)
                }
            }) {
                let held = b.entries[i].hold(&b.keys[i], self.is_shared());
                let (k, mut e) = held.get();
                if mine(k, &e) {
                    f(&mut e);
                    held.set(k, &e);
                    return;
                }
                continue;
            }
            let c = &self.counters;
            if c.used.load(Relaxed) >= self.gc_at {
                self.collect();
            }
            if self.mask() + 1 < self.full
                && c.used.load(Relaxed) as usize > self.mask()
                && self.splits(bi, key)
            {
                if !self.is_shared() {
                    self.grow();
                    continue;
                }
                // the threads will stop, and one grow it; meanwhile an
                // entry of the bucket is replaced
                if !self.room_wanted.load(Relaxed) {
                    self.room_wanted.store(true, Relaxed);
                }
            }
            let mut victim = 0;
            let mut victim_amount = u32::MAX;
            let mut free = None;
            for i in 0..WAYS {
                let slot = &b.entries[i];
                if slot.gen_hint() != gen {
                    free = Some(i);
                    break;
                }
                if slot.amount_hint() < victim_amount {
                    victim_amount = slot.amount_hint();
                    victim = i;
                }
            }
            let i = free.unwrap_or(victim);
            let held = b.entries[i].hold(&b.keys[i], self.is_shared());
            let (_, old) = held.get();
            if old.gen != gen {
                let used = c.used.fetch_add(1, Relaxed) + 1;
                c.peak_used.fetch_max(used, Relaxed);
            } else {
                c.replaced.fetch_add(1, Relaxed);
            }
            let mut e = Entry::new(hand.0, gen);
            f(&mut e);
            held.set(skey, &e);
            return;
        }
    }

    /// Garbage collection: remove the entries of least effort, about half
    /// of those in use, and halve the effort of the rest. One thread at a
    /// time; the others go on meanwhile.
    fn collect(&self) {
        if self
            .collecting
            .compare_exchange(false, true, Relaxed, Relaxed)
            .is_err()
        {
            return;
        }
        let gen = self.gen;
        let mut sample: Vec<u32> = Vec::with_capacity(4096);
        let used = &self.buckets[..=self.mask()];
        let step = (used.len() / 512).max(1);
        for b in used.iter().step_by(step) {
            for e in &b.entries {
                if e.gen_hint() == gen {
                    sample.push(e.amount_hint());
                }
            }
        }
        sample.sort_unstable();
        let threshold = sample.get(sample.len() / 2).copied().unwrap_or(0);
        let mut removed = 0u64;
        for b in used.iter() {
            for i in 0..WAYS {
                if b.entries[i].gen_hint() != gen {
                    continue;
                }
                let held = b.entries[i].hold(&b.keys[i], self.is_shared());
                let (k, mut e) = held.get();
                if e.gen != gen {
                    continue;
                }
                if e.amount <= threshold {
                    held.set(0, &Entry::new(0, 0));
                    removed += 1;
                } else {
                    e.amount = (e.amount / 2).max(1);
                    held.set(k, &e);
                }
            }
        }
        let c = &self.counters;
        c.gc_runs.fetch_add(1, Relaxed);
        c.gc_removed.fetch_add(removed, Relaxed);
        // `used` may have moved meanwhile: never below zero
        let _ = c
            .used
            .fetch_update(Relaxed, Relaxed, |u| Some(u.saturating_sub(removed)));
        self.collecting.store(false, Relaxed);
    }

    /// Record the numbers of an unsolved node (board key, attacker hand),
    /// with the effort spent on it.
    pub fn store_unknown(&self, key: u64, hand: Hand, pn: PnDn, dn: PnDn, best: u16, amount: u32) {
        self.update(key, hand, |e| {
            e.pn = pn;
            e.dn = dn;
            e.best = best;
            e.amount = e.amount.max(amount);
        });
    }

    /// Record a proof: mate within `len` plies for every hand dominating
    /// `proof_hand`.
    pub fn store_proven(&self, key: u64, proof_hand: Hand, len: u16, best: u16, amount: u32) {
        self.update(key, proof_hand, |e| {
            if !e.proves(len) {
                e.best = best;
            }
            e.set_proven(len);
            e.amount = e.amount.max(amount.saturating_add(SOLVED_BONUS));
        });
    }

    /// Record a disproof: no mate within `depth` plies (`UNBOUNDED`: none at
    /// all) for every hand dominated by `disproof_hand`.
    /// `clean`: the depth (stored form, `NO_DISPROOF` for none) of a
    /// "no mate within" by a defence without interpositions, at most
    /// `depth`.
    pub fn store_disproven(
        &self,
        key: u64,
        disproof_hand: Hand,
        depth: u16,
        clean: u16,
        best: u16,
        amount: u32,
    ) {
        self.update(key, disproof_hand, |e| {
            // A disproof can never contradict a proof: keep the table
            // consistent even if a caller's bound was off.
            if e.proves(depth) {
                return;
            }
            e.clean = e.clean.max(clean);
            if disproof_covers(e.disproven, depth) {
                return;
            }
            e.set_disproven(depth);
            e.best = best;
            e.amount = e.amount.max(amount.saturating_add(SOLVED_BONUS));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PieceKind;

    /// `n` random keys, as Zobrist keys are (splitmix64).
    fn random_keys(n: u64) -> Vec<u64> {
        (1..=n)
            .map(|k| {
                let z = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect()
    }

    #[test]
    fn superiority() {
        let mut tt = TranspositionTable::new(1);
        let p = Hand::EMPTY.with(PieceKind::Gold, 1);
        tt.store_proven(42, p, 5, 0, 1);
        let more = p.with(PieceKind::Pawn, 2);
        assert!(tt.probe(42, more, UNBOUNDED).is_proven());
        assert!(!tt.probe(42, Hand::EMPTY, UNBOUNDED).is_proven());
        assert!(!tt.probe(42, more, 3).is_proven());
        assert!(tt.probe(42, more, 5).is_proven());
        let d = Hand::EMPTY.with(PieceKind::Silver, 1);
        tt.store_disproven(7, d, UNBOUNDED, NO_DISPROOF, 0, 1);
        assert!(tt.probe(7, Hand::EMPTY, 9).is_disproven());
        assert!(!tt.probe(7, d.with(PieceKind::Pawn, 1), 9).is_disproven());
        tt.clear();
        assert!(!tt.probe(42, more, UNBOUNDED).found);
    }

    #[test]
    fn length_bounds_answer_bounded_queries() {
        let tt = TranspositionTable::new(1);
        let h = Hand::EMPTY.with(PieceKind::Rook, 1);
        tt.store_unknown(9, h, 7, 3, 0, 10);
        tt.store_proven(9, h, 15, 0, 10);
        tt.store_disproven(9, h, 11, NO_DISPROOF, 0, 10);
        // mate within 15 is known, no mate within 11 too: 13 is open
        assert!(tt.probe(9, h, 15).is_proven());
        assert!(tt.probe(9, h, 11).is_disproven());
        let open = tt.probe(9, h, 13);
        assert_eq!((open.pn, open.dn, open.found), (7, 3, true));
        assert_eq!(tt.length_bounds(9, h), (Some(11), Some(15)));
        // a stronger disproof never overrides a proof
        tt.store_disproven(9, h, 20, NO_DISPROOF, 0, 10);
        assert!(tt.probe(9, h, 15).is_proven());
    }

    #[test]
    fn a_composers_bound_is_kept_by_the_effort_it_cost() {
        // one board, more hands than a bucket holds: the entries of least
        // effort give way, and a composer's bound that took a long walk is
        // not one of them (無双第100番's walk lost such bounds and walked
        // them again and again at the default table)
        let tt = TranspositionTable::new(1);
        let walked = Hand::EMPTY.with(PieceKind::Rook, 1);
        let cheap = Hand::EMPTY.with(PieceKind::Bishop, 1);
        tt.store_composer(3, walked, Err(40), 100_000);
        tt.store_composer(3, cheap, Err(40), 0);
        for pawns in 1..=2 * WAYS as u32 {
            let h = Hand::EMPTY.with(PieceKind::Pawn, pawns);
            tt.store_unknown(3, h, 1, 1, 0, 5_000);
        }
        assert_eq!(tt.composer_bounds(3, walked), (Some(40), None));
        assert_eq!(tt.composer_bounds(3, cheap), (None, None));
    }

    #[test]
    fn unsolved_numbers_of_related_hands() {
        let tt = TranspositionTable::new(1);
        let small = Hand::EMPTY.with(PieceKind::Pawn, 1);
        let big = small.with(PieceKind::Gold, 1);
        tt.store_unknown(5, big, 40, 2, 0, 1);
        tt.store_unknown(5, small, 3, 30, 0, 1);
        // fewer pieces: at least as hard to prove as with more
        let p = tt.probe(5, Hand::EMPTY, UNBOUNDED);
        assert_eq!((p.pn, p.dn, p.found), (40, 1, false));
        // more pieces: at least as hard to disprove as with fewer
        let q = tt.probe(5, big.with(PieceKind::Rook, 1), UNBOUNDED);
        assert_eq!((q.pn, q.dn), (1, 30));
    }

    #[test]
    fn clear_forgets_across_the_generation_wrap() {
        let mut tt = TranspositionTable::new(1);
        for round in 0..(u16::MAX as u32 + 3) {
            let key = 1000 + u64::from(round % 7);
            tt.store_proven(key, Hand::EMPTY, 3, 0, 1);
            assert!(tt.probe(key, Hand::EMPTY, UNBOUNDED).is_proven());
            tt.clear();
            for k in 1000..1007 {
                assert!(!tt.probe(k, Hand::EMPTY, UNBOUNDED).found, "{round}");
            }
        }
    }

    #[test]
    fn a_new_table_is_empty() {
        let tt = TranspositionTable::new(1);
        assert!(tt
            .buckets
            .iter()
            .all(|b| b.keys.iter().all(|k| k.load(Relaxed) == 0)
                && b.entries.iter().all(|e| e.gen_hint() == 0)));
        assert!(!tt.probe(0, Hand::EMPTY, UNBOUNDED).found);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn the_table_grows_as_it_fills_and_starts_small_again() {
        let mut tt = TranspositionTable::new(16);
        assert_eq!(tt.mask() + 1, START_BUCKETS);
        let keys = random_keys(20_000);
        for (i, &k) in keys.iter().enumerate() {
            tt.store_proven(k, Hand::EMPTY, (i % 50) as u16, 0, 1);
        }
        // every entry found where the grown table looks for it
        for (i, &k) in keys.iter().enumerate() {
            let p = tt.probe(k, Hand::EMPTY, UNBOUNDED);
            assert_eq!((p.is_proven(), p.len), (true, (i % 50) as u16));
        }
        let s = tt.stats();
        assert_eq!((s.used, s.replaced), (20_000, 0));
        let grown = tt.mask() + 1;
        assert!(grown > START_BUCKETS && grown < tt.full, "{grown}");
        assert_eq!(tt.mask() + 1, grown);
        tt.clear();
        assert_eq!(tt.mask() + 1, START_BUCKETS);
        assert!(!tt.probe(keys[0], Hand::EMPTY, UNBOUNDED).found);
        // the next problem grows over memory already written
        for &k in &keys {
            tt.store_unknown(k ^ 1, Hand::EMPTY, 2, 2, 0, 1);
        }
        assert_eq!(tt.mask() + 1, grown);
        assert!(keys.iter().all(|&k| tt.probe(k ^ 1, Hand::EMPTY, 0).found));
        assert!(!keys.iter().any(|&k| tt.probe(k, Hand::EMPTY, 0).found));
    }

    #[test]
    fn a_shared_table_asks_for_room_and_grows_when_one_thread_makes_it() {
        let mut tt = TranspositionTable::new(16);
        let keys = random_keys(3000);
        for (i, &k) in keys.iter().enumerate() {
            tt.store_proven(k, Hand::EMPTY, (i % 40) as u16, 0, 1);
        }
        assert_eq!(tt.stats().replaced, 0);
        let size = tt.mask() + 1;
        assert!(size < tt.full);
        tt.share();
        assert!(tt.is_shared());
        let wanted = tt.wants_room();
        // shared: the table keeps its size and raises the flag instead
        let more = random_keys(20_000);
        for &k in &more {
            tt.store_unknown(k ^ 3, Hand::EMPTY, 2, 2, 0, 1);
        }
        assert_eq!(tt.mask() + 1, size);
        assert!(wanted.load(Relaxed));
        assert!(tt.stats().replaced > 0);
        // one thread grows it: every entry kept, the flag lowered
        let before: Vec<_> = more
            .iter()
            .map(|&k| tt.probe(k ^ 3, Hand::EMPTY, 0).found)
            .collect();
        tt.unshare();
        tt.make_room();
        tt.share();
        assert_eq!(tt.mask() + 1, 2 * size);
        assert!(!wanted.load(Relaxed));
        for (i, &k) in keys.iter().enumerate() {
            let p = tt.probe(k, Hand::EMPTY, UNBOUNDED);
            if p.found {
                assert_eq!((p.is_proven(), p.len), (true, (i % 40) as u16));
            }
        }
        let after: Vec<_> = more
            .iter()
            .map(|&k| tt.probe(k ^ 3, Hand::EMPTY, 0).found)
            .collect();
        assert_eq!(before, after);
        tt.clear();
        assert!(!tt.is_shared());
        assert!(!wanted.load(Relaxed));
        assert_eq!(tt.mask() + 1, START_BUCKETS);
    }

    #[test]
    fn many_hands_of_one_board_do_not_grow_the_table() {
        let tt = TranspositionTable::new(16);
        for n in 0..18 {
            tt.store_unknown(99, Hand::EMPTY.with(PieceKind::Pawn, n), 1, 1, 0, 1);
        }
        assert_eq!(tt.mask() + 1, START_BUCKETS);
        assert_eq!(tt.stats().replaced, 18 - WAYS as u64);
    }

    #[test]
    fn bounded_memory_and_collection() {
        let tt = TranspositionTable::with_bytes(64 * 1024);
        assert!(tt.memory_bytes() <= 64 * 1024);
        assert_eq!(std::mem::size_of::<Entry>(), 40);
        assert_eq!(std::mem::size_of::<Bucket>(), 384);
        let cap = tt.stats().capacity;
        for k in 0..cap * 4 {
            tt.store_unknown(
                k.wrapping_mul(0x2545_f491_4f6c_dd1d),
                Hand::EMPTY,
                1,
                1,
                0,
                (k % 97) as u32,
            );
        }
        let s = tt.stats();
        assert!(
            s.gc_runs > 0 && s.used <= cap && s.peak_used <= cap,
            "{s:?}"
        );
        // a solved entry outlives the collections that follow it
        tt.store_proven(77, Hand::EMPTY, 9, 0, 1);
        for k in 0..cap * 2 {
            tt.store_unknown(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
                Hand::EMPTY,
                1,
                1,
                0,
                1,
            );
        }
        assert!(tt.probe(77, Hand::EMPTY, UNBOUNDED).is_proven());
    }
}
