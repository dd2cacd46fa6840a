//! Reading Rust text: the lexer and its SIMD fast path, the bounds on
//! nesting and chains, parsing with `syn`, and suppression comments.

pub mod comments;
pub mod ends;
pub mod lex;
pub mod limits;
pub mod parse;
pub mod simd;
