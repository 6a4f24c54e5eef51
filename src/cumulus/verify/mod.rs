//! What `fabric verify` reads of a Cumulus switch: NVUE's `-o json` replies (`json`, their
//! shapes in `json::SHAPES`). Not yet behind [`crate::targets::Reads`]: the commands the
//! checks' queries are asked with, and the fabric's QoS as the replies show it, are still to
//! be written (`target::reads` gives Onyx's meanwhile).

pub mod json;
