//! A resolver's symbols with their roles kept as bit flags: seeing a name
//! again adds its role to the symbol's flags, and only a parameter declared
//! twice is an error (which no call below does).
use std::collections::HashMap;

#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags(u8);

impl Flags {
    pub const PARAM: Flags = Flags(1);
    pub const LOCAL: Flags = Flags(2);
    pub const USE: Flags = Flags(4);

    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn insert(&mut self, other: Flags) {
        self.0 |= other.0;
    }
}

#[derive(Default)]
pub struct Symbol {
    flags: Flags,
}

#[derive(Debug)]
pub struct ResolveError(pub String);

#[derive(Default)]
pub struct Table {
    symbols: HashMap<String, Symbol>,
    order: Vec<String>,
}

impl Table {
    pub fn register_symbol(&mut self, name: &str, role: Flags) -> Result<(), ResolveError> {
        let symbol = self.symbols.entry(name.to_string()).or_default();
        if role == Flags::PARAM && symbol.flags.contains(Flags::PARAM) {
            return Err(ResolveError(format!("duplicate argument {name}")));
        }
        symbol.flags.insert(role);
        self.order.push(name.to_string());
        Ok(())
    }
}

/// A class body: its type parameters are assigned, then read.
pub fn class_scope(table: &mut Table) -> Result<(), ResolveError> {
    table.register_symbol(".type_params", Flags::LOCAL)?;
    table.register_symbol(".type_params", Flags::USE)?;
    table.register_symbol("self", Flags::PARAM)?;
    table.register_symbol("self", Flags::USE)?;
    Ok(())
}
