//! A cache service whose settings come from the environment as the
//! operator wrote them, normalized where they are read, but not everywhere.
mod eviction;
mod settings;
