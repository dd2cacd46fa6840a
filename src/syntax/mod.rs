//! Reading Rust text: the lexer and its SIMD fast path, the bounds on
//! nesting and chains, parsing with `syn`, suppression comments, and the
//! byte-level reading of a rejection's surroundings.

pub mod comments;
pub mod ends;
pub mod lex;
pub mod limits;
pub mod parse;
pub mod rejection;
pub mod simd;
