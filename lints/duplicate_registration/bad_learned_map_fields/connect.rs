use crate::catalog::{Catalog, Duplicate};

pub fn connect(catalog: &mut Catalog) -> Result<(), Duplicate> {
    catalog.insert("auth", 8080)?;
    catalog.insert("billing", 8081)?;
    catalog.insert("auth", 8443)?; //~ duplicate_registration
    Ok(())
}
