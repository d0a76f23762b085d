//! The transposition table: memory-bounded, bucketed by board key, with
//! superior/inferior position look-up (優等局面・劣等局面).
//!
//! Entries of one board (same pieces on the same squares, same side to move)
//! share a bucket and differ by the attacker's hand. A proven entry stores a
//! proof hand (証明駒): every attacker hand that dominates it is mate too. A
//! disproven entry stores a disproof hand (反証駒): every hand it dominates
//! is not mate. The table never grows: when a bucket is full the least
//! valuable entry is replaced. `clear` is O(1) (a 16-bit generation counter).

use super::pndn::{PnDn, INF};
use crate::rules::Hand;

/// Depth value meaning "no mate at any depth" / "unbounded search".
pub const UNBOUNDED: u16 = u16::MAX;

const EMPTY: u8 = 0;
const UNKNOWN: u8 = 1;
const PROVEN: u8 = 2;
const DISPROVEN: u8 = 3;

const BUCKET: usize = 8;

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    hand: u32,
    pn: u32,
    dn: u32,
    amount: u32,
    best: u16,
    /// Proven: length of the mate found. Disproven: no mate within this
    /// many plies (`UNBOUNDED` = no mate at all). Unknown: the remaining
    /// depth of the search that stored it.
    len: u16,
    kind: u8,
    _pad: u8,
    /// The `clear` generation that wrote the entry; others are empty.
    gen: u16,
}

/// What the table knows about a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Proof number.
    pub pn: PnDn,
    /// Disproof number.
    pub dn: PnDn,
    /// Proven: mate length found; disproven: depth of the disproof.
    pub len: u16,
    /// The hand stored with a solved entry (proof or disproof hand).
    pub hand: Hand,
    /// Best move (low 16 bits), 0 when none.
    pub best: u16,
    /// Search effort recorded.
    pub amount: u32,
    /// Whether the entry was found at all.
    pub found: bool,
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
    };

    /// Whether the node is proven (mate).
    #[inline(always)]
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }

    /// Whether the node is disproven.
    #[inline(always)]
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

/// `n` empty entries, from zeroed memory: the operating system hands out
/// zero pages lazily, so a large table costs nothing until it is used
/// (a short solve does not pay for touching 256 MiB).
fn zeroed_entries(n: usize) -> Vec<Entry> {
    let layout = std::alloc::Layout::array::<Entry>(n).expect("table size overflows");
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: `Entry` is made of integers only, and all-zero bytes are
    // `Entry::default()`; the memory comes from the global allocator with
    // the layout of `n` entries, which is what `Vec` frees it with.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<Entry>();
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(p, n, n)
    }
}

/// A memory-bounded transposition table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    gen: u16,
}

impl TranspositionTable {
    /// A table using at most `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.max(1) * 1024 * 1024;
        let per_bucket = BUCKET * std::mem::size_of::<Entry>();
        let mut buckets = 1usize;
        while buckets * 2 * per_bucket <= bytes {
            buckets *= 2;
        }
        TranspositionTable {
            entries: zeroed_entries(buckets * BUCKET),
            mask: buckets - 1,
            gen: 1,
        }
    }

    /// Bytes of memory held.
    pub fn memory_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Forget everything, in O(1) except once every 65,535 clears.
    pub fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.entries.fill(Entry::default());
            self.gen = 1;
        }
    }

    /// Fraction (per mille) of live entries in the first 1000 buckets' slots.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(8000);
        let live = self.entries[..n]
            .iter()
            .filter(|e| e.kind != EMPTY && e.gen == self.gen)
            .count();
        (live * 1000 / n.max(1)) as u32
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let b = (key as usize ^ (key >> 32) as usize) & self.mask;
        b * BUCKET..(b + 1) * BUCKET
    }

    /// Ask the CPU to fetch the bucket of `key` into the cache (a probe
    /// follows soon): the table is far larger than the caches, and a
    /// node's children are probed one after another.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let start = self.bucket(key).start;
            let p = self.entries[start..].as_ptr() as *const i8;
            let bucket_bytes = BUCKET * std::mem::size_of::<Entry>();
            for line in (0..bucket_bytes).step_by(64) {
                // SAFETY: prefetch is a hint and never faults; the address
                // lies inside the bucket, within `entries`.
                unsafe { _mm_prefetch(p.wrapping_add(line), _MM_HINT_T0) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Look up a node: board key, the attacker's hand, and the remaining
    /// depth (`UNBOUNDED` for an unbounded search).
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand, depth: u16) -> Probe {
        let mut out = Probe::NEW;
        let mut best_len = u16::MAX;
        let mut proven = None;
        for e in &self.entries[self.bucket(key)] {
            if e.key != key || e.gen != self.gen {
                continue;
            }
            match e.kind {
                PROVEN if hand.dominates(Hand(e.hand)) && e.len <= depth && e.len < best_len => {
                    best_len = e.len;
                    proven = Some(*e);
                }
                DISPROVEN if Hand(e.hand).dominates(hand) && e.len >= depth && proven.is_none() => {
                    out = Probe {
                        pn: INF,
                        dn: 0,
                        len: e.len,
                        hand: Hand(e.hand),
                        best: e.best,
                        amount: e.amount,
                        found: true,
                    };
                }
                UNKNOWN if e.hand == hand.0 && e.len == depth && !out.found => {
                    out = Probe {
                        pn: e.pn,
                        dn: e.dn,
                        len: e.len,
                        hand,
                        best: e.best,
                        amount: e.amount,
                        found: true,
                    };
                }
                _ => {}
            }
        }
        if let Some(e) = proven {
            return Probe {
                pn: 0,
                dn: INF,
                len: e.len,
                hand: Hand(e.hand),
                best: e.best,
                amount: e.amount,
                found: true,
            };
        }
        out
    }

    fn slot_for(&mut self, key: u64, pred: impl Fn(&Entry) -> bool) -> usize {
        let range = self.bucket(key);
        let gen = self.gen;
        // reuse a matching entry
        for i in range.clone() {
            let e = &self.entries[i];
            if e.gen == gen && e.kind != EMPTY && e.key == key && pred(e) {
                return i;
            }
        }
        // else an empty or stale slot, else the least valuable entry
        let mut victim = range.start;
        let mut victim_score = u64::MAX;
        for i in range {
            let e = &self.entries[i];
            if e.kind == EMPTY || e.gen != gen {
                return i;
            }
            let solved_bonus = if e.kind == UNKNOWN { 0 } else { 1u64 << 32 };
            let score = solved_bonus + e.amount as u64;
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        victim
    }

    /// Record an unsolved node searched with `depth` plies remaining. Its
    /// numbers are only reused by searches at the same remaining depth.
    #[allow(clippy::too_many_arguments)]
    pub fn store_unknown(
        &mut self,
        key: u64,
        hand: Hand,
        depth: u16,
        pn: PnDn,
        dn: PnDn,
        best: u16,
        amount: u32,
    ) {
        let i = self.slot_for(key, |e| {
            e.kind == UNKNOWN && e.hand == hand.0 && e.len == depth
        });
        let gen = self.gen;
        self.entries[i] = Entry {
            key,
            hand: hand.0,
            pn,
            dn,
            amount,
            best,
            len: depth,
            kind: UNKNOWN,
            gen,
            _pad: 0,
        };
    }

    /// Record a proof: mate of length `len` for every hand dominating
    /// `proof_hand`. Unknown entries it settles are dropped.
    pub fn store_proven(&mut self, key: u64, proof_hand: Hand, len: u16, best: u16, amount: u32) {
        let gen = self.gen;
        for i in self.bucket(key) {
            let e = &mut self.entries[i];
            if e.gen == gen
                && e.key == key
                && e.kind == UNKNOWN
                && Hand(e.hand).dominates(proof_hand)
            {
                e.kind = EMPTY;
            }
        }
        let i = self.slot_for(key, |e| e.kind == PROVEN && e.hand == proof_hand.0);
        let e = &mut self.entries[i];
        if e.gen == gen
            && e.kind == PROVEN
            && e.key == key
            && e.hand == proof_hand.0
            && e.len <= len
        {
            e.amount = e.amount.max(amount);
            return;
        }
        *e = Entry {
            key,
            hand: proof_hand.0,
            pn: 0,
            dn: INF,
            amount,
            best,
            len,
            kind: PROVEN,
            gen,
            _pad: 0,
        };
    }

    /// Record a disproof: no mate within `depth` plies (`UNBOUNDED`: none at
    /// all) for every hand dominated by `disproof_hand`.
    pub fn store_disproven(
        &mut self,
        key: u64,
        disproof_hand: Hand,
        depth: u16,
        best: u16,
        amount: u32,
    ) {
        let gen = self.gen;
        for i in self.bucket(key) {
            let e = &mut self.entries[i];
            if e.gen == gen
                && e.key == key
                && e.kind == UNKNOWN
                && disproof_hand.dominates(Hand(e.hand))
            {
                e.kind = EMPTY;
            }
        }
        let i = self.slot_for(key, |e| e.kind == DISPROVEN && e.hand == disproof_hand.0);
        let e = &mut self.entries[i];
        if e.gen == gen
            && e.kind == DISPROVEN
            && e.key == key
            && e.hand == disproof_hand.0
            && e.len >= depth
        {
            e.amount = e.amount.max(amount);
            return;
        }
        *e = Entry {
            key,
            hand: disproof_hand.0,
            pn: INF,
            dn: 0,
            amount,
            best,
            len: depth,
            kind: DISPROVEN,
            gen,
            _pad: 0,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PieceKind;

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
        tt.store_disproven(7, d, UNBOUNDED, 0, 1);
        assert!(tt.probe(7, Hand::EMPTY, 9).is_disproven());
        assert!(!tt.probe(7, d.with(PieceKind::Pawn, 1), 9).is_disproven());
        tt.clear();
        assert!(!tt.probe(42, more, UNBOUNDED).found);
    }

    #[test]
    fn clear_forgets_across_the_generation_wrap() {
        let mut tt = TranspositionTable::new(1);
        for round in 0..(u16::MAX as u32 + 3) {
            let key = 1000 + u64::from(round % 7);
            tt.store_proven(key, Hand::EMPTY, 3, 0, 1);
            assert!(tt.probe(key, Hand::EMPTY, UNBOUNDED).is_proven());
            tt.clear();
            // nothing from any earlier generation survives
            for k in 1000..1007 {
                assert!(!tt.probe(k, Hand::EMPTY, UNBOUNDED).found, "{round}");
            }
        }
    }

    #[test]
    fn a_new_table_is_empty() {
        let tt = TranspositionTable::new(1);
        assert!(tt.entries.iter().all(|e| e.kind == EMPTY && e.key == 0));
        assert!(!tt.probe(0, Hand::EMPTY, UNBOUNDED).found);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn bounded_memory() {
        let tt = TranspositionTable::new(2);
        assert!(tt.memory_bytes() <= 2 * 1024 * 1024);
        assert_eq!(std::mem::size_of::<Entry>(), 32);
    }
}
