//! A reader of SCIP indexes (sourcegraph's `scip.proto`), only the fields the
//! comparison needs: each document's path, position encoding, occurrences and
//! symbol kinds.
//!
//! Hand-written rather than the `scip` crate: that crate brings rust-protobuf
//! 3 (and its runtime, ~40k lines) to decode five messages, of which we read
//! eleven fields. Protobuf's wire format is four rules (varint, fixed 32/64,
//! length-delimited), so the decoder is shorter than the dependency list it
//! replaces, and tests/resolution_oracle.rs holds it to an index written by
//! rust-analyzer itself.

use std::collections::HashMap;
use std::ops::Range;

/// Field numbers and enum values from scip.proto.
mod proto {
    pub const INDEX_DOCUMENTS: u32 = 2;
    pub const DOC_RELATIVE_PATH: u32 = 1;
    pub const DOC_OCCURRENCES: u32 = 2;
    pub const DOC_SYMBOLS: u32 = 3;
    pub const DOC_POSITION_ENCODING: u32 = 6;
    pub const OCC_RANGE: u32 = 1;
    pub const OCC_SYMBOL: u32 = 2;
    pub const OCC_ROLES: u32 = 3;
    pub const SYM_SYMBOL: u32 = 1;
    pub const SYM_KIND: u32 = 5;
    /// `SymbolRole.Definition`.
    pub const ROLE_DEFINITION: i32 = 0x1;
}

/// How a document counts columns (`Document.position_encoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Unspecified: read as UTF-8, which is what rust-analyzer writes.
    Unspecified,
    Utf8,
    Utf16,
    Utf32,
}

#[derive(Debug, Clone, Default)]
pub struct Index {
    pub documents: Vec<Document>,
}

#[derive(Debug, Clone)]
pub struct Document {
    /// Relative to the project root, '/'-separated.
    pub relative_path: String,
    pub encoding: Encoding,
    pub occurrences: Vec<Occurrence>,
    /// `SymbolInformation.kind` of the symbols this document defines.
    pub kinds: HashMap<String, i32>,
}

#[derive(Debug, Clone)]
pub struct Occurrence {
    /// `[line, start, end]` or `[start line, start char, end line, end char]`,
    /// zero-based, columns in the document's encoding.
    pub range: Vec<i32>,
    pub symbol: String,
    pub roles: i32,
}

impl Occurrence {
    pub fn is_definition(&self) -> bool {
        self.roles & proto::ROLE_DEFINITION != 0
    }

    pub fn is_local(&self) -> bool {
        self.symbol.starts_with("local ")
    }
}

/// Decode an `Index` message.
pub fn decode(bytes: &[u8]) -> Result<Index, String> {
    let mut index = Index::default();
    for field in Fields::new(bytes) {
        let (number, value) = field?;
        if number == proto::INDEX_DOCUMENTS {
            index.documents.push(document(value.bytes()?)?);
        }
    }
    Ok(index)
}

fn document(bytes: &[u8]) -> Result<Document, String> {
    let mut doc = Document {
        relative_path: String::new(),
        encoding: Encoding::Unspecified,
        occurrences: Vec::new(),
        kinds: HashMap::new(),
    };
    for field in Fields::new(bytes) {
        let (number, value) = field?;
        match number {
            proto::DOC_RELATIVE_PATH => doc.relative_path = value.string()?,
            proto::DOC_OCCURRENCES => doc.occurrences.push(occurrence(value.bytes()?)?),
            proto::DOC_SYMBOLS => {
                let (symbol, kind) = symbol_information(value.bytes()?)?;
                doc.kinds.insert(symbol, kind);
            }
            proto::DOC_POSITION_ENCODING => {
                doc.encoding = match value.varint()? {
                    0 => Encoding::Unspecified,
                    1 => Encoding::Utf8,
                    2 => Encoding::Utf16,
                    3 => Encoding::Utf32,
                    other => return Err(format!("unknown position encoding {other}")),
                }
            }
            _ => {}
        }
    }
    Ok(doc)
}

fn occurrence(bytes: &[u8]) -> Result<Occurrence, String> {
    let mut occ = Occurrence {
        range: Vec::new(),
        symbol: String::new(),
        roles: 0,
    };
    for field in Fields::new(bytes) {
        let (number, value) = field?;
        match number {
            // Repeated int32: packed (one length-delimited run) or not.
            proto::OCC_RANGE => match value {
                Value::Bytes(run) => {
                    let mut at = 0;
                    while at < run.len() {
                        occ.range.push(varint(run, &mut at)? as i32);
                    }
                }
                other => occ.range.push(other.varint()? as i32),
            },
            proto::OCC_SYMBOL => occ.symbol = value.string()?,
            proto::OCC_ROLES => occ.roles = value.varint()? as i32,
            _ => {}
        }
    }
    if occ.range.len() != 3 && occ.range.len() != 4 {
        return Err(format!(
            "an occurrence of {:?} has a range of {} numbers",
            occ.symbol,
            occ.range.len()
        ));
    }
    Ok(occ)
}

fn symbol_information(bytes: &[u8]) -> Result<(String, i32), String> {
    let (mut symbol, mut kind) = (String::new(), 0);
    for field in Fields::new(bytes) {
        let (number, value) = field?;
        match number {
            proto::SYM_SYMBOL => symbol = value.string()?,
            proto::SYM_KIND => kind = value.varint()? as i32,
            _ => {}
        }
    }
    Ok((symbol, kind))
}

/// One field's value, by wire type.
enum Value<'a> {
    Varint(u64),
    Fixed(u64),
    Bytes(&'a [u8]),
}

impl<'a> Value<'a> {
    fn varint(&self) -> Result<u64, String> {
        match self {
            Value::Varint(v) => Ok(*v),
            _ => Err("expected a varint field".into()),
        }
    }

    fn bytes(&self) -> Result<&'a [u8], String> {
        match self {
            Value::Bytes(b) => Ok(b),
            _ => Err("expected a length-delimited field".into()),
        }
    }

    fn string(&self) -> Result<String, String> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|e| format!("a string field: {e}"))
    }
}

/// The fields of one message, in order.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Fields { bytes, at: 0 }
    }

    fn field(&mut self) -> Result<(u32, Value<'a>), String> {
        let key = varint(self.bytes, &mut self.at)?;
        let number = u32::try_from(key >> 3).map_err(|_| "a field number out of range")?;
        let value = match key & 7 {
            0 => Value::Varint(varint(self.bytes, &mut self.at)?),
            1 => Value::Fixed(u64::from_le_bytes(self.take(8)?.try_into().unwrap())),
            2 => {
                let len = varint(self.bytes, &mut self.at)?;
                let len = usize::try_from(len).map_err(|_| "a length out of range")?;
                Value::Bytes(self.take(len)?)
            }
            5 => Value::Fixed(u32::from_le_bytes(self.take(4)?.try_into().unwrap()).into()),
            wire => return Err(format!("unsupported wire type {wire} (field {number})")),
        };
        Ok((number, value))
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or("a field runs past the end of its message")?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u32, Value<'a>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let field = self.field();
        if field.is_err() {
            // Stop after the first error: the rest cannot be framed.
            self.at = self.bytes.len();
        }
        Some(field)
    }
}

fn varint(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at).ok_or("a varint runs past the end")?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a varint longer than ten bytes".into())
}

/// Byte offsets of the starts of a text's lines.
pub struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The byte offset of (line, column) with the column in `encoding`'s units.
    pub fn offset(&self, line: i32, column: i32, encoding: Encoding) -> Option<usize> {
        let start = *self.starts.get(usize::try_from(line).ok()?)?;
        let column = usize::try_from(column).ok()?;
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |e| start + e);
        let line_text = &self.text[start..end];
        let width = |c: char| match encoding {
            Encoding::Utf8 | Encoding::Unspecified => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        };
        let mut units = 0;
        for (i, c) in line_text.char_indices() {
            if units == column {
                return Some(start + i);
            }
            units += width(c);
            if units > column {
                return None; // inside a character
            }
        }
        (units == column).then_some(end)
    }

    /// The byte range of an occurrence's range, and its (zero-based) line.
    pub fn range(&self, range: &[i32], encoding: Encoding) -> Option<(Range<usize>, usize)> {
        let (l0, c0, l1, c1) = match *range {
            [line, start, end] => (line, start, line, end),
            [l0, c0, l1, c1] => (l0, c0, l1, c1),
            _ => return None,
        };
        let start = self.offset(l0, c0, encoding)?;
        let end = self.offset(l1, c1, encoding)?;
        (start <= end).then_some((start..end, l0 as usize))
    }

    /// The byte offset where a (zero-based) line starts.
    pub fn start(&self, line: usize) -> Option<usize> {
        self.starts.get(line).copied()
    }

    /// The text of a (zero-based) line, without its newline.
    pub fn line(&self, line: usize) -> &'t str {
        let Some(&start) = self.starts.get(line) else {
            return "";
        };
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |e| start + e);
        &self.text[start..end]
    }
}
