//! Host runtime primitives: AsyncValue, work queues, host allocators and the
//! host context (issue 4).
