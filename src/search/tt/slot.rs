//! One entry's storage, shared between search threads: the fields of an
//! [`Entry`] as atomics, guarded by a sequence number (a seqlock, after
//! Boehm 2012, "Can seqlocks get along with programming language memory
//! models?").
//!
//! A writer makes the sequence odd, writes the key and the fields, and
//! makes it even again; a reader takes the key and the fields between two
//! reads of an even, unchanged sequence, and retries otherwise. So a reader
//! never sees half of one entry and half of another: a proof is only ever
//! read together with the key and hand it was stored for. With one thread
//! (a table not shared) the writer's lock is two plain stores.
//!
//! Every field is an atomic read and written with relaxed ordering, which
//! costs the same as plain loads and stores on x86-64 and keeps the table
//! free of `unsafe`.

use std::hint::spin_loop;
use std::sync::atomic::{fence, AtomicU16, AtomicU32, AtomicU64, Ordering::*};

use super::entry::Entry;

/// An entry's fields as atomics, and its sequence number.
#[derive(bytemuck::Zeroable)]
#[repr(C)]
pub(super) struct Slot {
    pn: AtomicU64,
    dn: AtomicU64,
    hand: AtomicU32,
    amount: AtomicU32,
    proven: AtomicU16,
    disproven: AtomicU16,
    best: AtomicU16,
    gen: AtomicU16,
    composer_proven: AtomicU16,
    composer_disproven: AtomicU16,
    clean: AtomicU16,
    /// Odd while a writer holds the slot.
    seq: AtomicU16,
}

/// A slot held by a writer: readers wait until it is dropped.
pub(super) struct Held<'s> {
    slot: &'s Slot,
    key: &'s AtomicU64,
    seq: u16,
}

impl Slot {
    /// The generation, read alone (a hint: the entry may change).
    #[inline(always)]
    pub fn gen_hint(&self) -> u16 {
        self.gen.load(Relaxed)
    }

    /// The amount, read alone (a hint: the entry may change).
    #[inline(always)]
    pub fn amount_hint(&self) -> u32 {
        self.amount.load(Relaxed)
    }

    #[inline(always)]
    fn load_fields(&self) -> Entry {
        Entry {
            pn: self.pn.load(Relaxed),
            dn: self.dn.load(Relaxed),
            hand: self.hand.load(Relaxed),
            amount: self.amount.load(Relaxed),
            proven: self.proven.load(Relaxed),
            disproven: self.disproven.load(Relaxed),
            best: self.best.load(Relaxed),
            gen: self.gen.load(Relaxed),
            composer_proven: self.composer_proven.load(Relaxed),
            composer_disproven: self.composer_disproven.load(Relaxed),
            clean: self.clean.load(Relaxed),
        }
    }

    #[inline(always)]
    fn store_fields(&self, e: &Entry) {
        self.pn.store(e.pn, Relaxed);
        self.dn.store(e.dn, Relaxed);
        self.hand.store(e.hand, Relaxed);
        self.amount.store(e.amount, Relaxed);
        self.proven.store(e.proven, Relaxed);
        self.disproven.store(e.disproven, Relaxed);
        self.best.store(e.best, Relaxed);
        self.gen.store(e.gen, Relaxed);
        self.composer_proven.store(e.composer_proven, Relaxed);
        self.composer_disproven.store(e.composer_disproven, Relaxed);
        self.clean.store(e.clean, Relaxed);
    }

    /// The key stored with this slot and the entry, read consistently.
    #[inline]
    pub fn read(&self, key: &AtomicU64) -> (u64, Entry) {
        loop {
            let s1 = self.seq.load(Acquire);
            if s1 & 1 == 0 {
                let k = key.load(Relaxed);
                let e = self.load_fields();
                fence(Acquire);
                if self.seq.load(Relaxed) == s1 {
                    return (k, e);
                }
            }
            spin_loop();
        }
    }

    /// Hold the slot for writing (with `shared`, against other writers too).
    #[inline]
    pub fn hold<'s>(&'s self, key: &'s AtomicU64, shared: bool) -> Held<'s> {
        let seq = if shared {
            loop {
                let s = self.seq.load(Relaxed);
                if s & 1 == 0
                    && self
                        .seq
                        .compare_exchange_weak(s, s.wrapping_add(1), Acquire, Relaxed)
                        .is_ok()
                {
                    break s.wrapping_add(1);
                }
                spin_loop();
            }
        } else {
            let s = self.seq.load(Relaxed).wrapping_add(1);
            self.seq.store(s, Relaxed);
            s
        };
        fence(Release);
        Held {
            slot: self,
            key,
            seq,
        }
    }
}

impl Held<'_> {
    /// The key and the entry as they stand.
    #[inline(always)]
    pub fn get(&self) -> (u64, Entry) {
        (self.key.load(Relaxed), self.slot.load_fields())
    }

    /// Write the key and the entry.
    #[inline(always)]
    pub fn set(&self, key: u64, e: &Entry) {
        self.key.store(key, Relaxed);
        self.slot.store_fields(e);
    }
}

impl Drop for Held<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        self.slot.seq.store(self.seq.wrapping_add(1), Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_the_size_of_an_entry() {
        assert_eq!(std::mem::size_of::<Slot>(), std::mem::size_of::<Entry>());
    }

    #[test]
    fn a_write_is_read_whole() {
        let slot: Slot = bytemuck::Zeroable::zeroed();
        let key = AtomicU64::new(0);
        let mut e = Entry::new(5, 3);
        e.set_proven(9);
        slot.hold(&key, true).set(77, &e);
        let (k, r) = slot.read(&key);
        assert_eq!((k, r.hand, r.gen, r.proven), (77, 5, 3, 9));
        let (k, r) = slot.hold(&key, false).get();
        assert_eq!((k, r.proven), (77, 9));
    }

    #[test]
    fn readers_never_see_a_torn_entry() {
        // One writer alternates two entries that differ in every field;
        // readers must see one or the other, never a mix.
        let slot: Slot = bytemuck::Zeroable::zeroed();
        let key = AtomicU64::new(1);
        let mut a = Entry::new(1, 1);
        a.set_proven(1);
        let mut b = Entry::new(2, 2);
        b.set_disproven(40);
        slot.hold(&key, true).set(1, &a);
        std::thread::scope(|s| {
            s.spawn(|| {
                for i in 0..200_000u32 {
                    let (k, e) = if i % 2 == 0 { (2, &b) } else { (1, &a) };
                    slot.hold(&key, true).set(k, e);
                }
            });
            for _ in 0..200_000 {
                let (k, e) = slot.read(&key);
                let whole_a = k == 1 && e.hand == 1 && e.gen == 1 && e.proven == 1;
                let whole_b = k == 2 && e.hand == 2 && e.gen == 2 && e.disproof_depth() == 40;
                assert!(whole_a || whole_b, "torn: key {k}, {e:?}");
            }
        });
    }
}
