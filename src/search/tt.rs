//! The transposition table: a fixed-size, lock-free hash table of search results keyed by
//! the 64-bit Zobrist key, shared by every search thread.
//!
//! Layout: buckets of four 16-byte entries, each bucket one 64-byte cache line (one miss
//! per probe). A store goes to the entry of the same key, else to an empty one, else
//! replaces the entry of an older search, else the shallowest (Edax's four-way buckets).
//! Each entry is two `AtomicU64`s: `key ^ data` and `data` (Hyatt's lockless XOR trick),
//! so a torn write is detected as a miss instead of returning mixed data.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score proves about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a fail-high / beta cut-off).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
    /// The score is exact (a PV node).
    Exact,
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best move's code ([`crate::game::MoveCode`]), `None` if no move was stored.
    pub mv: Option<u16>,
    /// Score, node-relative (mate-like scores adjusted by the caller).
    pub score: i32,
    /// Remaining depth (plies) of the search that produced it.
    pub depth: u8,
    /// Bound type of `score`.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const NO_MOVE: u64 = 0xFFFF;
/// Bits of the packed data that hold the generation of the search that stored it.
const GENERATION_BITS: u64 = 0xFF << 48;

fn pack(e: &Entry, generation: u8) -> u64 {
    let mv = e.mv.map_or(NO_MOVE, u64::from);
    let score = u64::from(e.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16);
    let bound = match e.bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    mv | score << 16 | u64::from(e.depth) << 32 | bound << 40 | u64::from(generation) << 48
}

fn unpack(d: u64) -> (Entry, u8) {
    let mv = (d & 0xFFFF) as u16;
    let bound = match (d >> 40) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    (
        Entry {
            mv: (u64::from(mv) != NO_MOVE).then_some(mv),
            score: i32::from((d >> 16) as u16 as i16),
            depth: (d >> 32) as u8,
            bound,
        },
        (d >> 48) as u8,
    )
}

/// Tables of at least this many bytes (32 MiB: `solve`'s 64 and 256 MiB and `bestmove`'s
/// 64 MiB, not the small tables of tests and tournaments) ask for huge pages. Measured on
/// FFO #40-#49 (256 MiB, idle 2-core machine): 2 threads 59.0 -> 50.9 s wall and 15.3 ->
/// 0.8 system CPU-s (the threads no longer fault the table's 65,536 pages in concurrently);
/// 1 thread #49 35.9 -> 31.7 user CPU-s (min of 2). At 64 MiB (floor 128 -> 32 MiB, AMD
/// EPYC Zen 3, 1 thread, 3 interleaved rounds): FFO #41 + #42 + #43 3.78-4.16 -> 3.25-3.37
/// user+sys CPU-s (the 4 KiB pages' TLB misses); #45 + #48 + #49 at --tt-mb 64, 4 KiB
/// pages 22.9-25.3 s, huge pages 20.9-22.0 s. The first huge-page table after memory was
/// used in 4 KiB pages can cost the kernel's compaction (up to ~2 system CPU-s seen for
/// 256 MiB on a churned machine), hence a floor.
const HUGE_PAGE_MIN_BYTES: usize = 32 * 1024 * 1024;

/// Asks the kernel (Linux: `madvise(MADV_HUGEPAGE)`) to back the not yet touched capacity
/// of `slots` with 2 MiB pages where a whole aligned 2 MiB fits: a table of 256 MiB then
/// takes 128 page faults instead of 65,536 and its random probes miss the TLB far less.
/// Only advice: where transparent huge pages are off, or on other systems, nothing changes.
fn advise_huge_pages(slots: &mut [Slot]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 * 1024 * 1024;
        const MADV_HUGEPAGE: i32 = 14;
        unsafe extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        let start = slots.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(slots);
        let first = start.next_multiple_of(HUGE);
        let last = end / HUGE * HUGE;
        if last > first {
            // SAFETY: [first, last) lies inside the slice's own allocation (fresh zero
            // pages not touched yet); MADV_HUGEPAGE only changes how the kernel backs those
            // pages (their contents stay as they are), and a failure is harmless (ignored).
            unsafe {
                madvise(first as *mut std::ffi::c_void, last - first, MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

/// Slots allocated beyond the buckets so that the first bucket can start on a 64-byte
/// boundary: the allocator aligns `Slot`s to 8 or 16 bytes only (a large table comes from
/// fresh pages at a 16-byte offset with glibc), and a bucket off a line boundary spans two
/// lines, so a probe could miss the cache twice.
const ALIGN_SLACK_SLOTS: usize = 3;
/// Entries per bucket: one 64-byte cache line of 16-byte slots.
const WAYS: usize = 4;

/// A transposition table sized in MiB. Thread-safe (`&self` for probe and store).
pub struct TranspositionTable {
    /// The allocation: the buckets' slots from `first` on, plus up to
    /// [`ALIGN_SLACK_SLOTS`] unused slots before them.
    slots: Box<[Slot]>,
    /// Index of the first bucket's slot 0: the first slot on a 64-byte boundary.
    first: usize,
    bucket_mask: u64,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (rounded down to a power-of-two bucket count,
    /// at least one bucket of 32 bytes).
    ///
    /// # Panics
    /// When the memory cannot be allocated (the process aborts): front ends that take the
    /// size from a user call [`TranspositionTable::try_new`] first.
    #[must_use]
    pub fn new(mib: usize) -> Self {
        Self::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`TranspositionTable::new`], or an error naming the size when the memory cannot be
    /// allocated (an address-space limit, a container's memory cap). The memory comes from
    /// fresh zero pages and is not touched here, so a trial allocation is cheap.
    ///
    /// # Errors
    /// "cannot allocate a {mib} MiB transposition table (out of memory)".
    pub fn try_new(mib: usize) -> Result<Self, String> {
        let bytes = mib.max(1) * 1024 * 1024;
        let n = (bytes / (16 * WAYS)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - n.leading_zeros());
        // One zeroed allocation (an all-zero slot is an empty entry): a large one comes
        // from the operating system's zero pages (calloc: `Slot`'s alignment is 8), so
        // nothing writes the table before the search does and pages it never probes are
        // never touched. (Writing every slot up front cost 0.27 G instructions and the
        // page faults of the whole table per 256 MiB table.)
        let len = buckets * WAYS + ALIGN_SLACK_SLOTS;
        let fail = || format!("cannot allocate a {mib} MiB transposition table (out of memory)");
        let layout = std::alloc::Layout::array::<Slot>(len).map_err(|_| fail())?;
        // SAFETY: the layout has a non-zero size (at least 5 slots); a null result is the
        // allocator's failure, handled. All-zero bits are a valid `Slot` (two `AtomicU64`s
        // of 0 = empty), and a `Box<[Slot]>` of `len` slots frees exactly this layout
        // (`Layout::array::<Slot>(len)`) with the global allocator that made it.
        let mut slots = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout).cast::<Slot>();
            if ptr.is_null() {
                return Err(fail());
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
        };
        // Slots are 16 bytes: from a 16-aligned start, skip to the first slot on a line
        // boundary (at most 3); an allocation aligned to 8 only stays as it is.
        let addr = slots.as_ptr() as usize;
        let first = if addr.is_multiple_of(16) {
            (64 - addr % 64) % 64 / 16
        } else {
            0
        };
        if bytes >= HUGE_PAGE_MIN_BYTES {
            advise_huge_pages(&mut slots);
        }
        Ok(Self {
            slots,
            first,
            bucket_mask: buckets as u64 - 1,
            generation: AtomicU64::new(0),
        })
    }

    /// Touches every 4 KiB page of the table once from this thread (storing the zero that
    /// is already there), so that the operating system maps the whole table now rather than
    /// while several search threads fault its pages in at the same time. For a table
    /// that several threads will share: on this project's 2-core VM, two threads faulting a
    /// 64 MiB table's 16,384 pages in concurrently cost 0.4-0.6 system CPU-s per FFO solve
    /// of #40-#42 against 0.07-0.10 s prefaulted (wall 0.54/0.95/0.84 -> 0.35/0.64/0.68 s).
    /// A table large enough for huge pages (`HUGE_PAGE_MIN_BYTES`) is left alone: it
    /// faults in 2 MiB at a time, and touching all of it up front cost FFO #43 more than
    /// it saved.
    pub fn prefault(&mut self) {
        const SLOTS_PER_PAGE: usize = 4096 / std::mem::size_of::<Slot>();
        if self.bytes() >= HUGE_PAGE_MIN_BYTES {
            return;
        }
        for s in self.slots.iter_mut().step_by(SLOTS_PER_PAGE) {
            let c = s.check.get_mut();
            // SAFETY: `c` is a valid, aligned, exclusive reference; the volatile write
            // keeps the store of the value it already holds.
            unsafe { std::ptr::write_volatile(c, *c) };
        }
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        (self.bucket_mask as usize + 1) * 16 * WAYS
    }

    /// Marks the start of a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            *s.check.get_mut() = 0;
            *s.data.get_mut() = 0;
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // High bits pick the bucket; the full key is checked on probe.
        self.first + ((key.rotate_left(32) & self.bucket_mask) as usize) * WAYS
    }

    /// The entry stored for `key`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + WAYS] {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.check.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores a result for `key`. A store without a move keeps the move already stored
    /// for the same key.
    #[inline]
    pub fn store(&self, key: u64, mut entry: Entry) {
        let generation = (self.generation.load(Ordering::Relaxed) & 0xFF) as u8;
        let (slot, old) = self.slot_for(key, generation);
        if let Some(old) = old
            && entry.mv.is_none()
        {
            entry.mv = unpack(old).0.mv;
        }
        let data = pack(&entry, generation);
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// The slot a store of `key` (from search `generation`) goes to, with the data it holds
    /// for the same key, if any: the entry of the same key, else an empty one, else the
    /// one of an older search, else the shallowest (the first of equals).
    #[inline]
    fn slot_for(&self, key: u64, generation: u8) -> (&Slot, Option<u64>) {
        let b = self.bucket(key);
        let bucket = &self.slots[b..b + WAYS];
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let d = s.data.load(Ordering::Relaxed);
            if d == 0 {
                if victim_rank > 0 {
                    victim = i;
                    victim_rank = 0;
                }
                continue;
            }
            if s.check.load(Ordering::Relaxed) ^ d == key {
                return (s, Some(d));
            }
            // Entries of the current search rank above older ones, then by depth.
            let (held, held_generation) = unpack(d);
            let current = u32::from(held_generation == generation);
            let rank = 1 + (current << 8 | u32::from(held.depth));
            if rank < victim_rank {
                victim = i;
                victim_rank = rank;
            }
        }
        (&bucket[victim], None)
    }

    /// Asks the CPU to bring the cache line of `key`'s bucket in (x86-64 `prefetcht0`; a no-op
    /// elsewhere): a later probe or store of `key` then finds it in the cache instead of
    /// waiting on memory. Only a hint: nothing is read or written.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line = self
                .slots
                .as_ptr()
                .wrapping_add(self.bucket(key))
                .cast::<i8>();
            // SAFETY: a prefetch is a hint that never faults nor reads into the program;
            // `line` points into the table anyway.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(line);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The raw data stored for `key` by [`TranspositionTable::store_raw`], without the
    /// table's generation bits (48..56), if any.
    #[inline]
    #[must_use]
    pub fn probe_raw(&self, key: u64) -> Option<u64> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + WAYS] {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.check.load(Ordering::Relaxed) ^ data == key {
                return Some(data & !GENERATION_BITS);
            }
        }
        None
    }

    /// Stores `data`, a caller's own packing, for `key`: non-zero, its replacement depth in
    /// bits 32..40 (as [`Entry::depth`]), bits 48..56 left to the table (generation). The
    /// slot is chosen as by [`TranspositionTable::store`].
    #[inline]
    pub fn store_raw(&self, key: u64, data: u64) {
        let generation = (self.generation.load(Ordering::Relaxed) & 0xFF) as u8;
        let (slot, _) = self.slot_for(key, generation);
        let data = (data & !GENERATION_BITS) | u64::from(generation) << 48;
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.bytes(), 1024 * 1024);
        let e = Entry {
            mv: Some(37),
            score: -1234,
            depth: 9,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF_1234_5678, e);
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5678), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5679), None);
        // A move-less store keeps the stored move.
        tt.store(
            0xDEAD_BEEF_1234_5678,
            Entry {
                mv: None,
                score: 5,
                depth: 10,
                bound: Bound::Exact,
            },
        );
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5678).unwrap().mv, Some(37));
    }

    /// Every slot of `tt` is all zero bits (empty).
    fn all_slots_empty(tt: &TranspositionTable) -> bool {
        tt.slots
            .iter()
            .all(|s| s.check.load(Ordering::Relaxed) == 0 && s.data.load(Ordering::Relaxed) == 0)
    }

    /// Prefaulting writes nothing a probe could see: the table stays empty and stores.
    #[test]
    fn a_prefaulted_table_is_still_empty_and_stores() {
        for mib in [1, 4, 8] {
            let mut tt = TranspositionTable::new(mib);
            tt.prefault();
            assert!(all_slots_empty(&tt), "{mib} MiB");
            let e = Entry {
                mv: Some(7),
                score: -3,
                depth: 9,
                bound: Bound::Lower,
            };
            tt.store(0x1234_5678_9abc_def0, e);
            assert_eq!(tt.probe(0x1234_5678_9abc_def0), Some(e), "{mib} MiB");
        }
    }

    /// The lazily zeroed table holds only empty slots (small tables come from the heap,
    /// large ones from fresh pages): no key probes as present, and after a store and
    /// `clear` the table is empty again.
    #[test]
    fn a_new_table_is_empty_at_every_size() {
        for mib in [1, 3, 17] {
            let mut tt = TranspositionTable::new(mib);
            assert!(all_slots_empty(&tt));
            let mut key = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..1000 {
                key = key.rotate_left(7).wrapping_mul(0xD1B5_4A32_D192_ED03);
                assert_eq!(tt.probe(key), None, "{mib} MiB, key {key:#x}");
            }
            let e = Entry {
                mv: Some(3),
                score: 1,
                depth: 2,
                bound: Bound::Exact,
            };
            tt.store(key, e);
            assert_eq!(tt.probe(key), Some(e));
            tt.clear();
            assert_eq!(tt.probe(key), None);
        }
    }

    /// Each bucket lies in one 64-byte cache line, and all buckets lie inside the allocation
    /// (tables of these sizes come from fresh pages at a 16-byte offset with glibc).
    #[test]
    fn every_bucket_starts_on_a_cache_line() {
        for mib in [1, 16, 64] {
            let tt = TranspositionTable::new(mib);
            assert_eq!(tt.bytes(), mib << 20, "{mib} MiB");
            let buckets = tt.bucket_mask as usize + 1;
            assert!(tt.first + WAYS * buckets <= tt.slots.len(), "{mib} MiB");
            for key in [0, u64::MAX, 0x1234_5678_9abc_def0, 1 << 32] {
                let b = tt.bucket(key);
                let addr = std::ptr::from_ref(&tt.slots[b]) as usize;
                assert_eq!(addr % 64, 0, "{mib} MiB, key {key:#x}");
            }
            let end = std::ptr::from_ref(&tt.slots[tt.first + WAYS * buckets - 1]) as usize;
            assert_eq!((end + 16) % 64, 0, "{mib} MiB: the last bucket ends a line");
        }
    }

    #[test]
    fn depth_preferred_slot_survives_shallow_stores() {
        let tt = TranspositionTable::new(1);
        let deep = Entry {
            mv: Some(1),
            score: 10,
            depth: 20,
            bound: Bound::Exact,
        };
        tt.store(1 << 32, deep);
        // Same bucket (bucket index from the rotated key), different keys, shallow depth.
        // Keys differing only in their low 32 bits share a bucket.
        for k in 1..50u64 {
            let key = (1 << 32) | k;
            tt.store(
                key,
                Entry {
                    mv: Some(2),
                    score: 0,
                    depth: 1,
                    bound: Bound::Upper,
                },
            );
        }
        assert_eq!(tt.probe(1 << 32), Some(deep));
    }
}
