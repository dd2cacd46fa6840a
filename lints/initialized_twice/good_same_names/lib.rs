//! `initialized_twice`: functions of one name in different modules are
//! different functions. Only `paths::resolve` sets the once-only state;
//! `acl::capability::new::command` calls it, `acl::permission::add::command`
//! and `add::command`'s `run` do not reach it again. Analysed as one crate.

pub mod acl;
pub mod add;
pub mod paths;
