//! A web client: the catalog of services refuses a second service of one
//! name (its `insert` is learned as a registration), while a request's
//! headers are a plain map where a later `insert` overrides a default.

pub mod catalog;
pub mod request;
pub mod response;
pub mod types;
