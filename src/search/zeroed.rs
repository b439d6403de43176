//! A slice in one lazily zeroed allocation, at any alignment.
//!
//! `Box::<[T]>::new_zeroed_slice` is only lazy for alignments up to 16: the system
//! allocator's zeroed allocation is `calloc` (fresh zero pages from the operating system
//! for large sizes, nothing written) only then; for a larger alignment (the MCTS arena's
//! 64-byte nodes) it allocates and **writes** every byte, so a 1 GiB arena cost seconds
//! before the first simulation. [`ZeroedSlice`] asks for 16-byte alignment, `align - 16`
//! bytes more, and starts the slice at the first aligned address inside.

use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
use std::ptr::NonNull;

/// The alignment asked of the allocator (its zeroed allocation is `calloc` up to this).
const CALLOC_ALIGN: usize = 16;

/// `len` values of `T`, all bits zero when created, in one allocation that the allocator
/// zeroes lazily (see the module docs). Derefs to `[T]`; frees its memory on drop (the
/// values are not dropped: `T` must not need dropping).
pub struct ZeroedSlice<T> {
    /// Start of the allocation (dangling when nothing was allocated).
    base: NonNull<u8>,
    /// The allocation's layout (size 0 when nothing was allocated).
    layout: Layout,
    /// First element: `base` rounded up to `T`'s alignment.
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: a `ZeroedSlice<T>` owns its `T`s as a `Box<[T]>` would.
unsafe impl<T: Send> Send for ZeroedSlice<T> {}
// SAFETY: as above: shared access only hands out `&[T]`.
unsafe impl<T: Sync> Sync for ZeroedSlice<T> {}

impl<T> ZeroedSlice<T> {
    /// `len` zeroed values.
    ///
    /// # Safety
    /// All bits zero must be a valid `T` (integers, atomics), and `T` must not need
    /// dropping.
    ///
    /// # Panics
    /// When `len` values of `T` overflow `isize`; aborts when the allocation fails.
    pub unsafe fn new(len: usize) -> Self {
        const { assert!(!std::mem::needs_drop::<T>()) };
        let size = std::mem::size_of::<T>()
            .checked_mul(len)
            .expect("zeroed slice size overflows");
        if size == 0 {
            return Self::default();
        }
        let align = std::mem::align_of::<T>();
        let extra = align.saturating_sub(CALLOC_ALIGN);
        let layout = Layout::from_size_align(size + extra, CALLOC_ALIGN.min(align.max(1)))
            .expect("zeroed slice layout");
        // SAFETY: `layout` has a non-zero size.
        let base = unsafe { alloc_zeroed(layout) };
        let Some(base) = NonNull::new(base) else {
            handle_alloc_error(layout)
        };
        // An allocation aligned to min(align, 16) with `align - 16` spare bytes holds an
        // `align`-aligned run of `size` bytes.
        let offset = base.as_ptr().align_offset(align);
        debug_assert!(offset <= extra);
        // SAFETY: `offset + size <= layout.size()`: inside the allocation.
        let ptr = unsafe { NonNull::new_unchecked(base.as_ptr().add(offset).cast::<T>()) };
        Self {
            base,
            layout,
            ptr,
            len,
        }
    }
}

impl<T> Default for ZeroedSlice<T> {
    /// The empty slice (no allocation).
    fn default() -> Self {
        Self {
            base: NonNull::dangling(),
            layout: Layout::new::<()>(),
            ptr: NonNull::dangling(),
            len: 0,
        }
    }
}

impl<T> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` is aligned and points at `len` initialised (zeroed, valid by
        // `new`'s contract) values owned by `self`; dangling only when `len` is 0.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> std::ops::DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        if self.layout.size() > 0 {
            // SAFETY: `base` was allocated with `layout` by `alloc_zeroed`.
            unsafe { dealloc(self.base.as_ptr(), self.layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);

    #[test]
    fn slices_are_zeroed_aligned_and_writable_at_every_alignment() {
        for len in [1usize, 3, 1000, 70_000] {
            // SAFETY: atomics: all zero is valid, no drop.
            let lines = unsafe { ZeroedSlice::<Line>::new(len) };
            assert_eq!(lines.len(), len);
            assert_eq!(lines.as_ptr() as usize % 64, 0);
            assert!(
                lines
                    .iter()
                    .all(|l| l.0.iter().all(|x| x.load(Relaxed) == 0))
            );
            lines[len - 1].0[7].store(9, Relaxed);
            assert_eq!(lines.last().unwrap().0[7].load(Relaxed), 9);
            // SAFETY: as above.
            let mut words = unsafe { ZeroedSlice::<u64>::new(len) };
            assert_eq!(words.as_ptr() as usize % 8, 0);
            assert!(words.iter().all(|&x| x == 0));
            words[len / 2] = 7;
            assert_eq!(words.iter().sum::<u64>(), 7);
        }
        let empty = ZeroedSlice::<Line>::default();
        assert!(empty.is_empty());
        // SAFETY: as above.
        assert!(unsafe { ZeroedSlice::<Line>::new(0) }.is_empty());
    }
}
