//! The table's memory: one zeroed block, on Linux mapped straight from the
//! kernel (zero pages handed out as they are touched) and advised for
//! transparent huge pages (2 MiB pages, Linux `madvise(MADV_HUGEPAGE)`).
//!
//! A table of hundreds of MiB probed at random misses the TLB on almost
//! every probe with 4 KiB pages; with 2 MiB pages the page walks mostly
//! vanish. Elsewhere the block is an ordinary zeroed vector.

use std::ops::{Deref, DerefMut};

/// Huge-page size the block is aligned to (x86-64 and aarch64 Linux).
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// `len` zeroed values of `T` in one block.
pub(super) struct ZeroedBlock<T: bytemuck::Zeroable> {
    #[cfg(target_os = "linux")]
    map: Option<Mapping>,
    #[cfg(target_os = "linux")]
    len: usize,
    fallback: Vec<T>,
}

/// An anonymous mapping: its start, its length, and the aligned part used.
#[cfg(target_os = "linux")]
struct Mapping {
    base: *mut libc::c_void,
    bytes: usize,
    data: *mut u8,
}

// SAFETY: the block owns its memory exclusively, like a `Vec<T>`.
unsafe impl<T: bytemuck::Zeroable + Send> Send for ZeroedBlock<T> {}
// SAFETY: shared access only hands out `&[T]`, like a `Vec<T>`.
unsafe impl<T: bytemuck::Zeroable + Sync> Sync for ZeroedBlock<T> {}

impl<T: bytemuck::Zeroable> ZeroedBlock<T> {
    /// `len` zeroed values (at least one).
    pub(super) fn new(len: usize) -> ZeroedBlock<T> {
        let len = len.max(1);
        #[cfg(target_os = "linux")]
        if let Some(map) = Mapping::new(len * std::mem::size_of::<T>(), std::mem::align_of::<T>()) {
            return ZeroedBlock {
                map: Some(map),
                len,
                fallback: Vec::new(),
            };
        }
        ZeroedBlock {
            #[cfg(target_os = "linux")]
            map: None,
            #[cfg(target_os = "linux")]
            len: 0,
            fallback: bytemuck::zeroed_vec(len),
        }
    }
}

#[cfg(target_os = "linux")]
impl Mapping {
    /// `bytes` of zeroed memory aligned to a huge page (and to `align`),
    /// or `None` when the kernel refuses the mapping.
    fn new(bytes: usize, align: usize) -> Option<Mapping> {
        if bytes == 0 || align > HUGE_PAGE {
            return None;
        }
        let total = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping with no address hint; the
        // result is checked before use.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - (base as usize) % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `offset < HUGE_PAGE`, so `data .. data + bytes` lies
        // inside the `total` bytes just mapped.
        let data = unsafe { (base as *mut u8).add(offset) };
        // A hint: when the kernel declines, the memory is still valid.
        // SAFETY: the range lies inside the mapping.
        unsafe { libc::madvise(data as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
        Some(Mapping {
            base,
            bytes: total,
            data,
        })
    }
}

#[cfg(target_os = "linux")]
impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: `base` and `bytes` are those returned by and passed to
        // `mmap`, unmapped once.
        unsafe { libc::munmap(self.base, self.bytes) };
    }
}

impl<T: bytemuck::Zeroable> Deref for ZeroedBlock<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        #[cfg(target_os = "linux")]
        if let Some(map) = &self.map {
            // SAFETY: the mapping holds `len` values of `T`, suitably
            // aligned, all zero or written through `&mut`; zero is a valid
            // `T` (`Zeroable`).
            return unsafe { std::slice::from_raw_parts(map.data as *const T, self.len) };
        }
        &self.fallback
    }
}

impl<T: bytemuck::Zeroable> DerefMut for ZeroedBlock<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        #[cfg(target_os = "linux")]
        if let Some(map) = &self.map {
            // SAFETY: as in `deref`, and `&mut self` makes the access
            // exclusive.
            return unsafe { std::slice::from_raw_parts_mut(map.data as *mut T, self.len) };
        }
        &mut self.fallback
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_starts_zeroed_and_keeps_what_is_written() {
        let mut b: ZeroedBlock<u64> = ZeroedBlock::new(1 << 20);
        assert_eq!(b.len(), 1 << 20);
        assert!(b.iter().step_by(4099).all(|&x| x == 0));
        b[12345] = 7;
        b[(1 << 20) - 1] = 9;
        assert_eq!((b[12345], b[(1 << 20) - 1], b[0]), (7, 9, 0));
    }

    #[test]
    fn an_empty_request_still_gives_one_value() {
        let b: ZeroedBlock<[u64; 8]> = ZeroedBlock::new(0);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0], [0; 8]);
    }
}
