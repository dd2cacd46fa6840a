use crate::names::{DefinedTwice, NameMap, Strings};

pub type HostFunc = fn(&[u64]) -> u64;

pub enum Definition {
    Func(HostFunc),
    Type(u32),
}

#[derive(Default)]
pub struct Linker {
    strings: Strings,
    map: NameMap<Definition>,
    allow_shadowing: bool,
}

impl Linker {
    /// Redefining a name becomes allowed.
    pub fn allow_shadowing(&mut self, allow: bool) -> &mut Self {
        self.allow_shadowing = allow;
        self
    }

    pub fn root(&mut self) -> LinkerInstance<'_> {
        LinkerInstance {
            strings: &mut self.strings,
            map: &mut self.map,
            allow_shadowing: self.allow_shadowing,
        }
    }

    pub fn instance(&mut self, _name: &str) -> Result<LinkerInstance<'_>, DefinedTwice> {
        Ok(self.root())
    }

    /// Opens the instance `name`, defining it when it is not yet: opening
    /// it again is allowed (wasmtime's `into_instance`).
    pub fn open_instance(&mut self, name: &str) -> Result<(), DefinedTwice> {
        let atom = self.strings.intern(name);
        match self.map.raw_get(atom) {
            Some(Definition::Type(_)) => {}
            _ => {
                self.root().insert(name, Definition::Type(0))?;
            }
        }
        Ok(())
    }
}

pub struct LinkerInstance<'a> {
    strings: &'a mut Strings,
    map: &'a mut NameMap<Definition>,
    allow_shadowing: bool,
}

impl LinkerInstance<'_> {
    pub fn func_wrap(&mut self, name: &str, func: HostFunc) -> Result<(), DefinedTwice> {
        self.insert(name, Definition::Func(func))?;
        Ok(())
    }

    pub fn insert(&mut self, name: &str, item: Definition) -> Result<usize, DefinedTwice> {
        self.map.insert(name, self.strings, self.allow_shadowing, item)
    }
}

/// Types are never shadowed; prelude types always may be.
#[derive(Default)]
pub struct TypeScope {
    strings: Strings,
    types: NameMap<Definition>,
}

impl TypeScope {
    pub fn define_type(&mut self, name: &str, size: u32) -> Result<usize, DefinedTwice> {
        self.types.insert(name, &mut self.strings, false, Definition::Type(size))
    }

    pub fn prelude_type(&mut self, name: &str, size: u32) -> Result<usize, DefinedTwice> {
        self.types.insert(name, &mut self.strings, true, Definition::Type(size))
    }
}
