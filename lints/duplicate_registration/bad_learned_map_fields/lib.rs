//! The twin of `good_learned_map_fields`: the catalog refuses a second
//! service of one name, and `connect` adds `auth` twice.
//!
//! A web client: the catalog of services refuses a second service of one
//! name (its `insert` is learned as a registration), while a request's
//! headers are a plain map where a later `insert` overrides a default.

pub mod catalog;
pub mod request;
pub mod response;
pub mod types;

pub mod connect;
