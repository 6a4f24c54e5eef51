//! What `fabric verify` reads of OS10: its replies into the OS-neutral values of
//! [`crate::verify::observed`] ([`read`]).

pub mod read;
