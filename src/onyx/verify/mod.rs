//! What `fabric verify` reads of Onyx: its replies, in the captures' layouts, into the
//! OS-neutral values of [`crate::verify::observed`]: the `| json-print` ones ([`json`]) and
//! the text ones ([`text`]).

pub mod json;
pub mod text;

#[cfg(test)]
mod tests;
