//! What the workspace's tests share, in one place: where the repository's
//! `corpus/` is ([`corpus`]), a global allocator that counts bytes so that
//! a test can bound what a call allocates ([`counting`]), running a binary
//! under time and memory bounds ([`measured`], Unix only), the check that
//! output is safe to show on a terminal ([`terminal`]), and the check that
//! a tool echoes nothing of a file it refused ([`echo`]).

pub mod corpus;
pub mod counting;
pub mod echo;
#[cfg(unix)]
pub mod measured;
pub mod terminal;
