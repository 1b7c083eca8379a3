//! A thread's events kept as the recording file encodes them (a tag, a
//! zig-zag time delta, the execution and the kind's fields: about 8 bytes
//! an event, where a decoded [`Event`] takes 56), decoded on demand.
//!
//! [`Events`] holds the bytes, either its own or a range of the file read
//! ([`crate::capture::codec::read_owned`] shares one buffer among the
//! threads), with the count and, every [`STRIDE`] events, where an event
//! starts and the time before it, so that [`Events::get`] and
//! [`Events::iter_from`] reach an event by its index in a few steps.
//! Bytes come in only through the codec's per-event decoder (the reader
//! validates a file's events with it) or its encoder, so decoding bytes
//! held here cannot fail; should it, iteration ends rather than panics.

use std::sync::Arc;

use crate::capture::codec::{self, Reader};
use crate::capture::recording::Event;

/// Events between two entries of the index kept for random access.
pub const STRIDE: usize = 64;

/// Where the bytes are.
#[derive(Clone)]
enum Bytes {
    /// Bytes of their own.
    Owned(Vec<u8>),
    /// A range of a buffer shared with other threads (the file read).
    Shared {
        buffer: Arc<Vec<u8>>,
        start: usize,
        end: usize,
    },
}

impl Default for Bytes {
    fn default() -> Self {
        Bytes::Owned(Vec::new())
    }
}

/// Where event `STRIDE × i` starts: its byte offset in the track's bytes
/// and the time of the event before it (0 for the first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    pub(crate) offset: usize,
    pub(crate) previous: u64,
}

/// A thread's events, encoded: see the [module](self) documentation.
#[derive(Clone, Default)]
pub struct Events {
    bytes: Bytes,
    len: usize,
    /// The time of the last event: the next one's delta is from it.
    last_time: u64,
    checkpoints: Vec<Checkpoint>,
}

impl Events {
    /// No events.
    pub fn new() -> Events {
        Events::default()
    }

    /// Events the codec validated in `buffer[start..end]`: `len` of them,
    /// the last at `last_time`, indexed by `checkpoints`.
    pub(crate) fn shared(
        buffer: Arc<Vec<u8>>,
        (start, end): (usize, usize),
        len: usize,
        last_time: u64,
        checkpoints: Vec<Checkpoint>,
    ) -> Events {
        Events {
            bytes: Bytes::Shared { buffer, start, end },
            len,
            last_time,
            checkpoints,
        }
    }

    /// The encoded bytes (the file's encoding of the thread's events).
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Owned(bytes) => bytes,
            Bytes::Shared { buffer, start, end } => &buffer[*start..*end],
        }
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Memory held for the events alone (a shared buffer counts for the
    /// range it lends).
    pub fn heap_bytes(&self) -> usize {
        self.bytes().len() + self.checkpoints.len() * std::mem::size_of::<Checkpoint>()
    }

    /// Appends `event`, encoding it.
    pub fn push(&mut self, event: Event) {
        if let Bytes::Shared { .. } = self.bytes {
            self.bytes = Bytes::Owned(self.bytes().to_vec());
        }
        let Bytes::Owned(bytes) = &mut self.bytes else {
            unreachable!("made owned above")
        };
        if self.len.is_multiple_of(STRIDE) {
            self.checkpoints.push(Checkpoint {
                offset: bytes.len(),
                previous: self.last_time,
            });
        }
        codec::encode_event(bytes, &event, self.last_time);
        self.last_time = event.time;
        self.len += 1;
    }

    /// The events in order, decoded one at a time.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            reader: Reader::new(self.bytes()),
            previous: 0,
            remaining: self.len,
        }
    }

    /// The events from index `first` on.
    pub fn iter_from(&self, first: usize) -> Iter<'_> {
        if first >= self.len {
            return Iter {
                reader: Reader::new(&[]),
                previous: 0,
                remaining: 0,
            };
        }
        let checkpoint = self.checkpoints[first / STRIDE];
        let mut reader = Reader::new(self.bytes());
        reader.seek(checkpoint.offset);
        let mut iter = Iter {
            reader,
            previous: checkpoint.previous,
            remaining: self.len - (first / STRIDE) * STRIDE,
        };
        for _ in 0..first % STRIDE {
            iter.next();
        }
        iter
    }

    /// Event `index`, decoded.
    pub fn get(&self, index: usize) -> Option<Event> {
        self.iter_from(index).next()
    }

    /// The first event.
    pub fn first(&self) -> Option<Event> {
        self.get(0)
    }

    /// The last event.
    pub fn last(&self) -> Option<Event> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// The events decoded into a vector.
    pub fn to_vec(&self) -> Vec<Event> {
        self.iter().collect()
    }

    /// Events `range` of these, as events of their own.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Events {
        let end = range.end.min(self.len);
        let start = range.start.min(end);
        self.iter_from(start).take(end - start).collect()
    }

    /// Keeps the events `keep` accepts, in order (re-encoding them).
    pub fn retain(&mut self, mut keep: impl FnMut(&Event) -> bool) {
        let kept: Events = self.iter().filter(|e| keep(e)).collect();
        *self = kept;
    }
}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Equal when they decode to the same events.
impl PartialEq for Events {
    fn eq(&self, other: &Events) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl From<Vec<Event>> for Events {
    fn from(events: Vec<Event>) -> Events {
        events.into_iter().collect()
    }
}

impl From<&[Event]> for Events {
    fn from(events: &[Event]) -> Events {
        let mut out = Events::new();
        for e in events {
            out.push(e.clone());
        }
        out
    }
}

impl FromIterator<Event> for Events {
    fn from_iter<I: IntoIterator<Item = Event>>(events: I) -> Events {
        let mut out = Events::new();
        out.extend(events);
        out
    }
}

impl Extend<Event> for Events {
    fn extend<I: IntoIterator<Item = Event>>(&mut self, events: I) {
        for e in events {
            self.push(e);
        }
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = Event;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The events of an [`Events`], decoded in order.
#[derive(Clone)]
pub struct Iter<'a> {
    reader: Reader<'a>,
    previous: u64,
    remaining: usize,
}

impl Iter<'_> {
    /// The byte offset of the next event in the track's bytes.
    pub fn offset(&self) -> usize {
        self.reader.at()
    }
}

impl Iterator for Iter<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        if self.remaining == 0 {
            return None;
        }
        match codec::decode_event(&mut self.reader, self.previous) {
            Ok(event) => {
                self.previous = event.time;
                self.remaining -= 1;
                Some(event)
            }
            // Bytes held here were validated: this does not happen, and
            // ends the events rather than the process if it did.
            Err(_) => {
                self.remaining = 0;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::recording::EventKind;

    fn events(n: u64) -> Vec<Event> {
        (0..n)
            .map(|i| Event {
                time: if i % 7 == 3 { i * 10 - 5 } else { i * 10 },
                execution: i % 5,
                kind: match i % 3 {
                    0 => EventKind::KernelStart { kernel: i as u32 },
                    1 => EventKind::KernelEnd {
                        kernel: i as u32,
                        skipped: i % 2 == 0,
                        live_values: (i % 4 == 1).then_some(i),
                    },
                    _ => EventKind::RegisterSet {
                        register: 1,
                        producer: 2,
                        state: crate::capture::recording::ValueState::Concrete,
                        value: (i % 2 == 0).then(|| format!("v{i}").into()),
                    },
                },
            })
            .collect()
    }

    #[test]
    fn every_event_decodes_back_in_order_and_by_index() {
        let decoded = events(300);
        let encoded = Events::from(decoded.clone());
        assert_eq!(encoded.len(), 300);
        assert_eq!(encoded.to_vec(), decoded);
        for (i, e) in decoded.iter().enumerate() {
            assert_eq!(encoded.get(i).as_ref(), Some(e), "event {i}");
            assert_eq!(encoded.iter_from(i).len(), 300 - i);
        }
        assert_eq!(encoded.get(300), None);
        assert_eq!(encoded.last().as_ref(), decoded.last());
        assert_eq!(encoded.slice(70..140).to_vec(), decoded[70..140]);
    }

    #[test]
    fn retain_keeps_the_times() {
        let decoded = events(200);
        let mut encoded = Events::from(decoded.clone());
        encoded.retain(|e| e.execution != 2);
        let kept: Vec<Event> = decoded.into_iter().filter(|e| e.execution != 2).collect();
        assert_eq!(encoded.to_vec(), kept);
    }
}
