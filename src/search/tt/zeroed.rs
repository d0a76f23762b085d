//! A zeroed array aligned to cache lines, from memory the operating system
//! zeroes lazily: a large table costs nothing until it is used.
//!
//! The standard allocator zeroes lazily (`calloc`) only for alignments up
//! to 16 bytes; for a 64-byte alignment it writes the whole block out. So
//! the block is asked for with 16-byte alignment and 64 bytes to spare, and
//! the array starts at the first 64-byte boundary inside it.

use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The alignment of the elements (a cache line).
const LINE: usize = 64;

/// `len` zeroed `T`s, 64-byte aligned. `T` must be valid as all zeros
/// (`bytemuck::Zeroable`) and at most 64-byte aligned.
pub(super) struct ZeroedArray<T: bytemuck::Zeroable> {
    block: NonNull<u8>,
    layout: Layout,
    start: NonNull<T>,
    len: usize,
}

// SAFETY: the array owns its elements like a `Vec<T>` does.
unsafe impl<T: bytemuck::Zeroable + Send> Send for ZeroedArray<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: bytemuck::Zeroable + Sync> Sync for ZeroedArray<T> {}

impl<T: bytemuck::Zeroable> ZeroedArray<T> {
    /// `len` zeroed elements (at least one).
    pub(super) fn new(len: usize) -> ZeroedArray<T> {
        assert!(std::mem::align_of::<T>() <= LINE && std::mem::size_of::<T>() > 0);
        let len = len.max(1);
        let bytes = std::mem::size_of::<T>()
            .checked_mul(len)
            .and_then(|b| b.checked_add(LINE))
            .expect("table size overflows");
        let layout = Layout::from_size_align(bytes, 16).expect("table layout");
        // SAFETY: the layout has a non-zero size.
        let block = unsafe { alloc_zeroed(layout) };
        let Some(block) = NonNull::new(block) else {
            handle_alloc_error(layout)
        };
        let offset = block.as_ptr().align_offset(LINE);
        // SAFETY: `offset < LINE`, and LINE bytes were added to the size, so
        // `len` elements from `start` lie inside the block; `start` is
        // 64-byte aligned, so aligned for `T`.
        let start = unsafe { NonNull::new_unchecked(block.as_ptr().add(offset).cast::<T>()) };
        ZeroedArray {
            block,
            layout,
            start,
            len,
        }
    }
}

impl<T: bytemuck::Zeroable> Deref for ZeroedArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` elements from `start` are inside the block, zeroed
        // at allocation (a valid `T`: `Zeroable`) or written since.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T: bytemuck::Zeroable> DerefMut for ZeroedArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

impl<T: bytemuck::Zeroable> Drop for ZeroedArray<T> {
    fn drop(&mut self) {
        // SAFETY: `block` was allocated with `layout` and is freed once;
        // the elements are plain data (`Zeroable` types need no drop here:
        // the table's are `Copy`).
        unsafe { dealloc(self.block.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, bytemuck::Zeroable)]
    #[repr(C, align(64))]
    struct Line {
        words: [u64; 8],
    }

    #[test]
    fn elements_are_zero_aligned_and_writable() {
        for n in [1, 3, 1000] {
            let mut a: ZeroedArray<Line> = ZeroedArray::new(n);
            assert_eq!(a.len(), n);
            assert_eq!(a.as_ptr() as usize % 64, 0);
            assert!(a.iter().all(|l| l.words == [0; 8]));
            a[n - 1].words[7] = 42;
            assert_eq!(a[n - 1].words[7], 42);
        }
    }
}
