//! The bounds of what is parsed: syn and the walk recurse once per level of
//! nesting and per link of some chains, so deeper files are refused before
//! a parse could overflow the stack. The runner checks them before parsing
//! (`lex::surely_within`, `lex::nesting`); the fast path's lexer
//! counts against the same bounds.

/// Deeper files are reported as not analysed. No real code comes near; the
/// bound keeps even a debug build well inside the runner's parsing stacks.
pub const MAX_NESTING: usize = 2_000;

/// Longer chains that syn parses by recursion without brackets (`else if`,
/// `a = b = ..`, `****x`, `|x| |y| ..`, `fn() -> fn() -> ..`, method chains)
/// are reported as not analysed. Each overflowed 256 MiB of stack somewhere
/// between 73k and 450k links; no real code comes near this bound.
pub const MAX_CHAIN: usize = 2_000;
