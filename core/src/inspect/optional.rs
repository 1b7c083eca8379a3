//! The AttributeNames and RegisterTypes sections, read one function at a
//! time as far as asked and cached.

use std::ops::Range;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::format::{
    BefFile, DecodeError, DecodeResult, FunctionAttributeNames, FunctionCursor,
    FunctionRegisterTypes, SectionId,
};

/// The per-function entry of AttributeNames or RegisterTypes.
pub(super) trait SectionEntry<'a>: Sized {
    fn next(file: &BefFile<'a>, cursor: &mut FunctionCursor) -> Option<DecodeResult<Self>>;
    fn function(&self) -> usize;
    fn range(&self) -> Range<u64>;
}

impl<'a> SectionEntry<'a> for FunctionAttributeNames<'a> {
    fn next(file: &BefFile<'a>, cursor: &mut FunctionCursor) -> Option<DecodeResult<Self>> {
        file.next_attribute_names(cursor)
    }
    fn function(&self) -> usize {
        self.function
    }
    fn range(&self) -> Range<u64> {
        FunctionAttributeNames::range(self)
    }
}

impl<'a> SectionEntry<'a> for FunctionRegisterTypes {
    fn next(file: &BefFile<'a>, cursor: &mut FunctionCursor) -> Option<DecodeResult<Self>> {
        file.next_register_types(cursor)
    }
    fn function(&self) -> usize {
        self.function
    }
    fn range(&self) -> Range<u64> {
        FunctionRegisterTypes::range(self)
    }
}

/// A per-function section read as far as needed so far.
pub(super) struct PerFunction<T> {
    id: SectionId,
    state: Mutex<State<T>>,
}

struct State<T> {
    started: bool,
    cursor: Option<FunctionCursor>,
    /// Entries in section order (increasing function index).
    entries: Vec<Arc<T>>,
    error: Option<DecodeError>,
}

impl<T> PerFunction<T> {
    pub(super) fn new(id: SectionId) -> Self {
        PerFunction {
            id,
            state: Mutex::new(State {
                started: false,
                cursor: None,
                entries: Vec::new(),
                error: None,
            }),
        }
    }
}

impl<'a, T: SectionEntry<'a>> PerFunction<T> {
    fn lock(&self, file: &BefFile<'a>) -> MutexGuard<'_, State<T>> {
        // A panic while holding the lock leaves consistent state behind.
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if !state.started {
            state.started = true;
            match file.function_cursor(self.id) {
                None => {}
                Some(Ok(cursor)) => state.cursor = Some(cursor),
                Some(Err(e)) => state.error = Some(e),
            }
        }
        state
    }

    /// Reads entries until `done` says the last one read is enough or the
    /// section ends.
    fn advance(state: &mut State<T>, file: &BefFile<'a>, done: impl Fn(&T) -> bool) {
        while !state.entries.last().is_some_and(|e| done(e)) {
            let Some(cursor) = state.cursor.as_mut() else {
                return;
            };
            match T::next(file, cursor) {
                Some(Ok(entry)) => state.entries.push(Arc::new(entry)),
                Some(Err(e)) => {
                    state.error = Some(e);
                    state.cursor = None;
                }
                None => state.cursor = None,
            }
        }
    }

    /// The entry of function `function`, reading up to it.
    pub(super) fn get(&self, file: &BefFile<'a>, function: usize) -> Option<Arc<T>> {
        let mut state = self.lock(file);
        Self::advance(&mut state, file, |e| e.function() >= function);
        let i = state
            .entries
            .binary_search_by_key(&function, |e| e.function())
            .ok()?;
        Some(state.entries[i].clone())
    }

    /// The entry whose bytes hold absolute offset `at`, reading up to it.
    pub(super) fn containing(&self, file: &BefFile<'a>, at: usize) -> Option<Arc<T>> {
        let mut state = self.lock(file);
        Self::advance(&mut state, file, |e| e.range().end as usize > at);
        let i = state
            .entries
            .partition_point(|e| e.range().start as usize <= at);
        let entry = &state.entries[i.checked_sub(1)?];
        (entry.range().end as usize > at).then(|| entry.clone())
    }

    /// Why the section could not be read to its end (reads all of it).
    pub(super) fn error(&self, file: &BefFile<'a>) -> Option<DecodeError> {
        let mut state = self.lock(file);
        Self::advance(&mut state, file, |_| false);
        state.error.clone()
    }
}
