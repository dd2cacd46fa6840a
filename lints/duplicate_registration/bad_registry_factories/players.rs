use crate::codecs::Codecs;

fn audio(codecs: &mut Codecs) -> Result<(), String> {
    codecs.install("opus", 1)?;
    codecs.install("aac", 2)
}

/// The table every player starts from.
pub fn standard() -> Result<Codecs, String> {
    let mut codecs = Codecs::new();
    audio(&mut codecs)?;
    codecs.install("h264", 3)?;
    Ok(codecs)
}

pub fn player() -> Result<(), String> {
    let mut codecs = standard()?;
    codecs.install("vp9", 4)?;
    codecs.install("h264", 5)?; //~ duplicate_registration
    codecs.install("opus", 6)?; //~ duplicate_registration
    Ok(())
}

/// Replacing is allowed here: the newer `h264` wins.
pub fn with_override() -> Result<(), String> {
    let mut codecs = standard()?;
    codecs.allow_replace(true);
    codecs.install("h264", 7)?;
    Ok(())
}

/// Two tables: what one holds says nothing of the other.
pub fn two_tables() -> Result<(), String> {
    let mut fresh = Codecs::new();
    fresh.install("h264", 8)?;
    let mut stock = standard()?;
    stock.install("vp8", 9)?;
    Ok(())
}
