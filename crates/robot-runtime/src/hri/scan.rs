//! A scanner for the common shape of a ROS4HRI JSON message and of its `data` text, read in
//! one pass without serde_json's parser:
//!
//! - the message: an object whose keys are fields of the message ([`HriIntent::FIELDS`]),
//!   each at most once; values strings, plain numbers, `true`/`false`/`null`, and `data`
//!   also a flat object;
//! - `data` (inline or text): a flat object of strings, plain numbers and literals;
//! - strings: keys without escapes, values with at most the one-letter escapes (`\"`, `\\`,
//!   `\/`, `\b`, `\f`, `\n`, `\r`, `\t`), no control characters;
//! - numbers: integers of at most 18 digits, decimals of at most 15 digits without an
//!   exponent (the forms whose value is exactly what serde_json computes: see
//!   `Scanner::number`).
//!
//! Anything else (an unknown or repeated message key, `\u` escapes, nesting, a number of
//! another form, any error) is not read here: the scanner answers `None` and the caller
//! reads the text with serde_json ([`super::read`]), so every error, normalization and
//! warning stays what that reader reports. What the scanner reads, it reads as that reader
//! does (held to it by the proptests below).
//!
//! [`HriIntent::FIELDS`]: super::HriIntent::FIELDS

#[cfg(doc)]
use super::read::SpareRoles;
use super::read::{FieldIn, MessageIn, RoleIn, RolesIn};
use serde_json::Value;
use std::borrow::Cow;

/// The message's fields, or `None` when the text is not of the common shape.
#[cfg(test)]
pub(super) fn message(text: &str) -> Option<MessageIn<'_>> {
    let mut message = MessageIn::default();
    message_into(text, &mut message, Vec::new()).map(|()| message)
}

/// [`message`] into `message` (empty on entry), read where the caller keeps it: the
/// message's fields are not moved out of a return value. On `None`, `message` holds what
/// was read before the text left the shape, and is to be dropped.
///
/// `spare` is the vector `data`'s roles are read onto (see [`SpareRoles`]).
pub(super) fn message_into<'a>(
    text: &'a str,
    message: &mut MessageIn<'a>,
    spare: Vec<RoleIn<'a>>,
) -> Option<()> {
    let mut s = Scanner::onto(text, spare);
    s.open()?;
    if !s.close_if_empty() {
        loop {
            let (slot, data) = match s.field_key()? {
                Field::Intent => (&mut message.intent, false),
                Field::Data => (&mut message.data, true),
                Field::Source => (&mut message.source, false),
                Field::Modality => (&mut message.modality, false),
                Field::Priority => (&mut message.priority, false),
                Field::Confidence => (&mut message.confidence, false),
                Field::Action => (&mut message.action, false),
            };
            if slot.is_some() {
                return None;
            }
            // Written where the message keeps it (a field returned by value and moved in
            // is copied with wide loads of what was just written narrowly: a stall each).
            let slot = slot.insert(PLACEHOLDER);
            if data {
                s.data_value_into(slot)?;
            } else {
                s.value_into(slot)?;
            }
            if s.next_or_close()? {
                break;
            }
        }
    }
    s.end()
}

/// The roles of `data` text, or `None` when the text is not a flat object of the common
/// shape.
pub(super) fn roles(text: &str) -> Option<RolesIn<'_>> {
    roles_onto(text, Vec::new())
}

/// [`roles`], read onto `spare` (see [`SpareRoles`]).
pub(super) fn roles_onto<'a>(text: &'a str, spare: Vec<RoleIn<'a>>) -> Option<RolesIn<'a>> {
    let mut s = Scanner::onto(text, spare);
    let roles = s.flat_object()?;
    s.end()?;
    Some(roles)
}

/// A position in the text; every method answers `None` as soon as the text leaves the
/// shape. The short path ([`super::common`]) reads a message's fields with it too.
pub(super) struct Scanner<'a> {
    text: &'a str,
    at: usize,
    /// The vector the next roles are read onto (empty; taken by the first object read).
    spare: Vec<RoleIn<'a>>,
}

impl<'a> Scanner<'a> {
    /// A scanner of `text` whose first roles are read onto `spare` (empty).
    pub(super) fn onto(text: &'a str, spare: Vec<RoleIn<'a>>) -> Scanner<'a> {
        Scanner { text, at: 0, spare }
    }

    /// Roles to read onto [`Scanner::spare`].
    #[inline]
    fn new_roles(&mut self) -> RolesIn<'a> {
        RolesIn::onto(std::mem::take(&mut self.spare))
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips JSON's blanks (space, tab, line feed, carriage return).
    fn blanks(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// `byte` after blanks.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.blanks();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    pub(super) fn open(&mut self) -> Option<()> {
        self.expect(b'{')
    }

    /// True (and past it) when the object closes right away.
    pub(super) fn close_if_empty(&mut self) -> bool {
        self.blanks();
        let empty = self.peek() == Some(b'}');
        if empty {
            self.at += 1;
        }
        empty
    }

    /// After an entry: `false` past a comma (another entry follows), `true` past the
    /// closing brace.
    pub(super) fn next_or_close(&mut self) -> Option<bool> {
        self.blanks();
        let closed = match self.peek()? {
            b',' => false,
            b'}' => true,
            _ => return None,
        };
        self.at += 1;
        Some(closed)
    }

    /// Only blanks left.
    pub(super) fn end(&mut self) -> Option<()> {
        self.blanks();
        (self.at == self.text.len()).then_some(())
    }

    /// A key naming a field of the message, written without escapes, and the colon after
    /// it: the field. `None` for any other key (read by serde_json's reader, which reports
    /// it). The names are compared where they stand in the text, each against its own
    /// bytes with its closing quote: no run is scanned for the key's end, and no string is
    /// matched against seven.
    #[inline]
    pub(super) fn field_key(&mut self) -> Option<Field> {
        self.expect(b'"')?;
        let rest = self.text.as_bytes().get(self.at..)?;
        // Each arm compares a constant number of bytes: wide loads, no call.
        let (field, len) = match *rest.first()? {
            b'i' if rest.starts_with(b"intent\"") => (Field::Intent, 7),
            b'd' if rest.starts_with(b"data\"") => (Field::Data, 5),
            b's' if rest.starts_with(b"source\"") => (Field::Source, 7),
            b'm' if rest.starts_with(b"modality\"") => (Field::Modality, 9),
            b'p' if rest.starts_with(b"priority\"") => (Field::Priority, 9),
            b'c' if rest.starts_with(b"confidence\"") => (Field::Confidence, 11),
            b'a' if rest.starts_with(b"action\"") => (Field::Action, 7),
            _ => return None,
        };
        self.at += len;
        self.expect(b':')?;
        Some(field)
    }

    /// A key without escapes and the colon after it.
    fn key(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        let end = plain_run(self.text.as_bytes(), start);
        if self.text.as_bytes().get(end) != Some(&b'"') {
            return None;
        }
        let key = self.text.get(start..end)?;
        self.at = end + 1;
        self.expect(b':')?;
        Some(key)
    }

    /// A string after its opening quote, written into `slot` as [`FieldIn::Str`]: borrowed
    /// when it holds no escapes. Each path writes the slot itself: joined, the two paths'
    /// strings would meet in a temporary, copied into the slot with wide loads of what was
    /// just written narrowly (a stall per string, measured).
    #[inline(always)]
    fn string_into(&mut self, slot: &mut FieldIn<'a>) -> Option<()> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let end = plain_run(bytes, start);
        if bytes.get(end) == Some(&b'"') {
            let s = self.text.get(start..end)?;
            self.at = end + 1;
            put(slot, FieldIn::Str(Cow::Borrowed(s)));
            return Some(());
        }
        self.at = end;
        let owned = self.escaped_string(start)?;
        put(slot, FieldIn::Str(Cow::Owned(owned)));
        Some(())
    }

    /// [`Scanner::string_into`] past its plain run (at a backslash, a control byte or the
    /// end): the text so far, then each piece unescaped.
    #[inline(never)]
    fn escaped_string(&mut self, start: usize) -> Option<String> {
        let bytes = self.text.as_bytes();
        if *bytes.get(self.at)? != b'\\' {
            return None;
        }
        let mut owned = String::from(self.text.get(start..self.at)?);
        let mut piece = self.at;
        loop {
            match *bytes.get(self.at)? {
                b'"' => {
                    owned.push_str(self.text.get(piece..self.at)?);
                    self.at += 1;
                    return Some(owned);
                }
                b'\\' => {
                    owned.push_str(self.text.get(piece..self.at)?);
                    let c = match *bytes.get(self.at + 1)? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\x08',
                        b'f' => '\x0c',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        _ => return None,
                    };
                    owned.push(c);
                    self.at += 2;
                    piece = self.at;
                }
                0..=0x1f => return None,
                _ => self.at += 1,
            }
        }
    }

    /// A string written without escapes, after blanks: its text, borrowed.
    pub(super) fn plain_string_value(&mut self) -> Option<&'a str> {
        self.blanks();
        if self.peek()? != b'"' {
            return None;
        }
        self.plain_string()
    }

    /// A string after its opening quote, written without escapes: its text, borrowed.
    fn plain_string(&mut self) -> Option<&'a str> {
        let start = self.at + 1;
        let bytes = self.text.as_bytes();
        let end = plain_run(bytes, start);
        if bytes.get(end) != Some(&b'"') {
            return None;
        }
        let text = self.text.get(start..end)?;
        self.at = end + 1;
        Some(text)
    }

    /// [`Scanner::plain_string_value`], or `null` (`Some(None)`), after blanks.
    pub(super) fn plain_string_or_null(&mut self) -> Option<Option<&'a str>> {
        self.blanks();
        match self.peek()? {
            b'"' => self.plain_string().map(Some),
            b'n' => self.literal("null", ()).map(|()| None),
            _ => None,
        }
    }

    /// A plain number or a literal, after blanks.
    pub(super) fn scalar_value(&mut self) -> Option<Value> {
        self.blanks();
        self.scalar()
    }

    /// An integer from 0 to 255 written plainly (`0`, or one to three digits without a
    /// leading zero) and ending there, after blanks: what a message's `priority` usually
    /// is, read without valuing a JSON number. `None`, the position unmoved but for the
    /// blanks, for any other text ([`Scanner::scalar_value`] reads it).
    pub(super) fn byte_integer(&mut self) -> Option<u8> {
        self.blanks();
        let rest = self.text.as_bytes().get(self.at..)?;
        let mut value: u32 = 0;
        let mut digits = 0;
        while let Some(&d @ b'0'..=b'9') = rest.get(digits) {
            if digits == 3 {
                return None;
            }
            value = value * 10 + u32::from(d - b'0');
            digits += 1;
        }
        let leading_zero = digits > 1 && rest[0] == b'0';
        if digits == 0 || leading_zero || matches!(rest.get(digits), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let value = u8::try_from(value).ok()?;
        self.at += digits;
        Some(value)
    }

    /// The message's `data` as the short path takes it: a flat object (inline), a string
    /// holding one (the canonical form), or blank (a string of blanks written without
    /// escapes, or `null`); `None` for anything else.
    pub(super) fn common_data(&mut self) -> Option<DataIn<'a>> {
        self.blanks();
        match self.peek()? {
            b'{' => {
                let mut roles = self.new_roles();
                self.flat_object_into(&mut roles)?;
                Some(DataIn::Inline(roles))
            }
            b'"' => {
                let start = self.at + 1;
                self.at = start;
                if let Some(roles) = self.quoted_object() {
                    return Some(DataIn::Text(roles));
                }
                self.at = start - 1;
                let text = self.plain_string()?;
                text.trim().is_empty().then_some(DataIn::Blank)
            }
            _ => matches!(self.scalar()?, Value::Null).then_some(DataIn::Blank),
        }
    }

    /// A string, a plain number or a literal, after blanks, written into `slot` (where the
    /// caller keeps it).
    fn value_into(&mut self, slot: &mut FieldIn<'a>) -> Option<()> {
        self.blanks();
        if self.peek()? == b'"' {
            self.at += 1;
            return self.string_into(slot);
        }
        self.scalar_into(slot)
    }

    /// A plain number or a literal, written into `slot`.
    fn scalar_into(&mut self, slot: &mut FieldIn<'a>) -> Option<()> {
        let value = self.scalar()?;
        put(slot, FieldIn::Other(Cow::Owned(value)));
        Some(())
    }

    /// A plain number or a literal.
    fn scalar(&mut self) -> Option<Value> {
        match self.peek()? {
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal("true", Value::Bool(true)),
            b'f' => self.literal("false", Value::Bool(false)),
            b'n' => self.literal("null", Value::Null),
            _ => None,
        }
    }

    /// The message's `data`, written into `slot`: a flat object (its roles) or any
    /// [`Scanner::value_into`].
    fn data_value_into(&mut self, slot: &mut FieldIn<'a>) -> Option<()> {
        self.blanks();
        match self.peek()? {
            b'{' => {
                let roles = self.new_roles();
                put(slot, FieldIn::Roles(roles));
                let FieldIn::Roles(roles) = slot else {
                    return None;
                };
                self.flat_object_into(roles)
            }
            b'"' => {
                // The canonical form: a string holding the object. Its roles are read from
                // the text as it is (quotes escaped), without unescaping it first; a string
                // of another shape is read as any string.
                let start = self.at + 1;
                self.at = start;
                if let Some(roles) = self.quoted_object() {
                    let raw = self.text.get(start..self.at - 1)?;
                    put(slot, FieldIn::TextRoles { raw, roles });
                    return Some(());
                }
                self.at = start;
                self.string_into(slot)
            }
            _ => self.value_into(slot),
        }
    }

    /// Inside a string, after its opening quote: a flat object written with its quotes
    /// escaped (`{\"goal\": \"kitchen\", \"level\": 2}`), then the string's closing
    /// quote; the roles, as [`RolesIn::parse`] reads them from the string's value. Keys and
    /// values are borrowed from the text. `None` (the position then undefined) for any
    /// other escape, a blank other than a space (written escaped in a string), or any other
    /// shape: the caller reads the string as a string.
    fn quoted_object(&mut self) -> Option<RolesIn<'a>> {
        self.spaces();
        if self.peek()? != b'{' {
            return None;
        }
        self.at += 1;
        let mut roles = self.new_roles();
        self.spaces();
        if self.peek()? == b'}' {
            self.at += 1;
        } else {
            let entries = roles.read_into();
            entries.reserve(4);
            loop {
                self.spaces();
                let key = self.quoted_run()?;
                self.spaces();
                if self.peek()? != b':' {
                    return None;
                }
                self.at += 1;
                self.spaces();
                crate::hint::push_in_place(entries, || {
                    RoleIn::new(Cow::Borrowed(key), PLACEHOLDER)
                });
                let slot = &mut entries.last_mut()?.value;
                if self.peek()? == b'\\' {
                    put(slot, FieldIn::Str(Cow::Borrowed(self.quoted_run()?)));
                } else {
                    self.scalar_into(slot)?;
                }
                self.spaces();
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
            roles.settle();
        }
        self.spaces();
        if self.peek()? != b'"' {
            return None;
        }
        self.at += 1;
        Some(roles)
    }

    /// Inside a string: `\"`, a run without escapes, `\"`; the run.
    fn quoted_run(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        if bytes.get(self.at..self.at + 2)? != b"\\\"" {
            return None;
        }
        let start = self.at + 2;
        let end = plain_run(bytes, start);
        if bytes.get(end..end + 2)? != b"\\\"" {
            return None;
        }
        let run = self.text.get(start..end)?;
        self.at = end + 2;
        Some(run)
    }

    /// Skips spaces (inside a string, the only blank written as it is).
    fn spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.at += 1;
        }
    }

    /// An object of strings, plain numbers and literals: its entries as [`RolesIn`] holds
    /// them (sorted, the last of a repeated key).
    fn flat_object(&mut self) -> Option<RolesIn<'a>> {
        let mut roles = self.new_roles();
        self.flat_object_into(&mut roles)?;
        Some(roles)
    }

    /// [`Scanner::flat_object`] into `roles` (empty on entry), each value written where the
    /// entry keeps it.
    fn flat_object_into(&mut self, roles: &mut RolesIn<'a>) -> Option<()> {
        self.open()?;
        if self.close_if_empty() {
            return Some(());
        }
        let entries = roles.read_into();
        // Room for the roles of any standard intent without growing.
        entries.reserve(4);
        loop {
            let key = self.key()?;
            // Built in its slot: the role's byte, written in a value built aside, would be
            // read back by the copy's wider loads (a stall on every role).
            crate::hint::push_in_place(entries, || RoleIn::new(Cow::Borrowed(key), PLACEHOLDER));
            let slot = &mut entries.last_mut()?.value;
            self.value_into(slot)?;
            if self.next_or_close()? {
                break;
            }
        }
        roles.settle();
        Some(())
    }

    fn literal<T>(&mut self, word: &str, value: T) -> Option<T> {
        let rest = self.text.get(self.at..)?;
        rest.starts_with(word).then(|| {
            self.at += word.len();
            value
        })
    }

    /// A plain number, valued as serde_json values it:
    ///
    /// - an integer `[-](0|[1-9][0-9]*)` of at most 18 digits (no overflow): a
    ///   non-negative one is a `u64`, a negative one an `i64`, and `-0` the float `-0.0`
    ///   (serde_json's `parse_number`);
    /// - a decimal `[-]int.frac` of at most 15 digits in all and no exponent: its digits
    ///   as one integer `m < 10^15 < 2^53` (exact as an `f64`) divided by `10^k`
    ///   (`k <= 15`, exact as an `f64`): one correctly rounded division, which is the
    ///   value of the decimal correctly rounded. That is both what serde_json's default
    ///   reader computes (`m as f64 / POW10[k]`) and what its `float_roundtrip` reader
    ///   (correctly rounded) gives.
    ///
    /// Any other form (an exponent, more digits, a leading zero before a digit, a sign
    /// alone) is left to serde_json.
    fn number(&mut self) -> Option<Value> {
        let bytes = self.text.as_bytes();
        let negative = bytes.get(self.at) == Some(&b'-');
        if negative {
            self.at += 1;
        }
        let digits_start = self.at;
        let mut m: u64 = 0;
        let mut digits = 0usize;
        while let Some(&c @ b'0'..=b'9') = bytes.get(self.at) {
            if digits == 18 {
                return None;
            }
            m = m * 10 + u64::from(c - b'0');
            digits += 1;
            self.at += 1;
        }
        if digits == 0 || (digits > 1 && bytes[digits_start] == b'0') {
            return None;
        }
        let mut fraction = 0usize;
        if bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            while let Some(&c @ b'0'..=b'9') = bytes.get(self.at) {
                if digits >= 15 {
                    return None;
                }
                m = m * 10 + u64::from(c - b'0');
                digits += 1;
                fraction += 1;
                self.at += 1;
            }
            if fraction == 0 {
                return None;
            }
        }
        if let Some(b'e' | b'E') = bytes.get(self.at) {
            return None;
        }
        Some(if fraction > 0 {
            let f = m as f64 / POW10[fraction];
            Value::from(if negative { -f } else { f })
        } else if !negative {
            Value::from(m)
        } else if m == 0 {
            Value::from(-0.0f64)
        } else {
            Value::from(-(m as i64))
        })
    }
}

/// `data` as the short path takes it ([`Scanner::common_data`]).
pub(super) enum DataIn<'a> {
    /// A string of blanks, or `null`: the empty object.
    Blank,
    /// An object, written inline.
    Inline(RolesIn<'a>),
    /// A string holding an object, read from the text as [`FieldIn::TextRoles`] is.
    Text(RolesIn<'a>),
}

/// A field of the message ([`HriIntent::FIELDS`](super::HriIntent::FIELDS)), as a key names it.
#[derive(Clone, Copy)]
pub(super) enum Field {
    Intent,
    Data,
    Source,
    Modality,
    Priority,
    Confidence,
    Action,
}

/// What a field's slot holds before its value is read into it: nothing to free.
const PLACEHOLDER: FieldIn<'static> = FieldIn::Str(Cow::Borrowed(""));

/// Puts `value` in `slot`, which holds the [`PLACEHOLDER`]. The placeholder owns nothing,
/// so it is forgotten rather than dropped: the slot is a reference, and dropping what it
/// held would be a call to the field's drop glue for each value read.
#[inline]
fn put<'a>(slot: &mut FieldIn<'a>, value: FieldIn<'a>) {
    debug_assert!(matches!(slot, FieldIn::Str(Cow::Borrowed(""))));
    std::mem::forget(std::mem::replace(slot, value));
}

/// The index of the first byte at or after `from` that ends a string's plain run (a quote,
/// a backslash or a control character), or the text's length. Eight bytes at a time: in
/// each word, a byte equal to `"` or `\\` or below 0x20 sets the high bit of its lane in
/// `special` (the zero-byte test `(v - 0x01..) & !v & 0x80..`); lanes above a set one may
/// be set too (a borrow), never lanes below, so the lowest set lane is the first such
/// byte. A byte of 0x80 or more (UTF-8) never sets its lane.
fn plain_run(bytes: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    while let Some(word) = bytes.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let x = u64::from_le_bytes(word);
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        let special = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | x.wrapping_sub(ONES * 0x20) & !x)
            & HIGH;
        if special != 0 {
            return i + (special.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            return i;
        }
        i += 1;
    }
    i
}

/// `10^k` for `k` in 0..=15, each exact as an `f64`.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hri::read::TopIn;
    use proptest::prelude::*;

    /// A field as read, in terms that tell every difference apart: which kind of field, and
    /// the value's debug form (`Number(1)` ≠ `Number(1.0)`, `-0.0` ≠ `0.0`).
    fn field(f: &FieldIn<'_>) -> String {
        let kind = match f {
            FieldIn::Str(_) => "str",
            FieldIn::Other(_) => "other",
            FieldIn::Roles(_) => "roles",
            // A string whose value is an object, its roles read: the string it is (the
            // roles are held to the string's parse by `quoted_data_reads_as_its_string`).
            FieldIn::TextRoles { .. } => "str",
        };
        format!("{kind} {:?}", f.to_value())
    }

    fn roles_of(r: &RolesIn<'_>) -> Vec<(String, String)> {
        r.iter().map(|(k, v)| (k.to_owned(), field(v))).collect()
    }

    fn message_of(m: &MessageIn<'_>) -> Vec<String> {
        let fields = [
            &m.intent,
            &m.data,
            &m.source,
            &m.modality,
            &m.priority,
            &m.confidence,
            &m.action,
        ];
        let mut out: Vec<String> = fields
            .iter()
            .map(|f| f.as_ref().map_or("absent".to_owned(), field))
            .collect();
        out.extend(m.unknown.iter().map(|k| format!("unknown {k}")));
        out
    }

    /// What serde_json's reader makes of a message, in [`message_of`]'s terms.
    fn message_by_serde_json(text: &str) -> Option<Vec<String>> {
        match serde_json::from_str::<TopIn<'_>>(text) {
            Ok(TopIn::Object(m)) => Some(message_of(&m)),
            _ => None,
        }
    }

    const CHARGER: &str = r#"{"intent": "__intent_move_to__", "data": {"goal": "poi_docking"}, "source": "__remote_supervisor__", "modality": "__modality_touchscreen__", "priority": 200}"#;

    #[test]
    fn a_data_string_holding_an_object_is_read_as_its_roles() {
        let canonical = r#"{"intent": "__intent_say__", "data": "{\"object\": \"hello there\", \"recipient\": \"person_1\", \"level\": 2}", "priority": 200}"#;
        let m = message(canonical).expect("scanned");
        let Some(FieldIn::TextRoles { raw, roles }) = &m.data else {
            panic!("not read as roles: {:?}", m.data.as_ref().map(field));
        };
        assert_eq!(
            *raw,
            r#"{\"object\": \"hello there\", \"recipient\": \"person_1\", \"level\": 2}"#
        );
        assert_eq!(
            roles_of(roles),
            [
                ("level".to_owned(), "other Number(2)".to_owned()),
                (
                    "object".to_owned(),
                    "str String(\"hello there\")".to_owned()
                ),
                (
                    "recipient".to_owned(),
                    "str String(\"person_1\")".to_owned()
                ),
            ]
        );
        assert_eq!(Some(message_of(&m)), message_by_serde_json(canonical));
        // Any other escape, a blank written escaped, or no object: read as a string.
        for data in [
            r#""{\"object\": \"a\\nb\"}""#,
            r#""{\n\"goal\": \"kitchen\"}""#,
            r#""{\"goal\": \"kitchen\"} x""#,
            r#""[\"kitchen\"]""#,
            r#""{\"goal\": \"kitchen\"""#,
        ] {
            let text = format!(r#"{{"intent": "__intent_move_to__", "data": {data}}}"#);
            let m = message(&text).expect("scanned");
            assert!(matches!(m.data, Some(FieldIn::Str(_))), "{text}");
            assert_eq!(Some(message_of(&m)), message_by_serde_json(&text), "{text}");
        }
    }

    #[test]
    fn a_byte_integer_is_read_plainly_or_left_where_it_stands() {
        for (text, read) in [
            ("0,", Some(0)),
            (" 7}", Some(7)),
            ("255", Some(255)),
            ("200 ", Some(200)),
            ("256", None),
            ("1000", None),
            ("007", None),
            ("2.5", None),
            ("2e2", None),
            ("-1", None),
            ("x", None),
            ("", None),
        ] {
            let mut s = Scanner::onto(text, Vec::new());
            assert_eq!(s.byte_integer(), read, "{text:?}");
            if read.is_none() {
                // Unmoved but for the blanks: the scalar reader reads what stands there.
                assert_eq!(s.at, text.len() - text.trim_start().len(), "{text:?}");
            }
        }
    }

    #[test]
    fn the_common_shapes_are_scanned() {
        let messages = [
            CHARGER,
            r#"{"intent": "__intent_say__", "data": {"object": "hello there", "recipient": "person_1"}, "source": "person_1", "modality": "__modality_speech__", "confidence": 0.9}"#,
            r#"{"intent":"__intent_move_to__","data":"{\"goal\": \"kitchen\"}","priority":0,"confidence":1}"#,
            r#" { "action" : "MOVE_TO" , "data" : { } , "source" : null , "confidence" : -0.25 } "#,
            "{}",
        ];
        for text in messages {
            let scanned = message(text).map(|m| message_of(&m));
            assert!(scanned.is_some(), "not scanned: {text}");
            assert_eq!(scanned, message_by_serde_json(text), "{text}");
        }
        for text in [
            r#"{"goal": "poi_docking"}"#,
            r#"{"object": "memory_game", "level": 2, "speed": -1.5, "on": true}"#,
            "{ }",
        ] {
            let scanned = roles(text).map(|r| roles_of(&r));
            assert!(scanned.is_some(), "not scanned: {text}");
            let Ok(Ok(expected)) = RolesIn::parse_with_serde_json(text) else {
                panic!("{text}")
            };
            assert_eq!(scanned, Some(roles_of(&expected)), "{text}");
        }
    }

    /// What the scanner leaves to serde_json: whatever it might read otherwise than that
    /// reader, and whatever that reader reports as a problem.
    #[test]
    fn the_unusual_is_left_to_serde_json() {
        let messages = [
            r#"{"intent": "a", "intent": "b"}"#,
            r#"{"priorty": 1}"#,
            r#"{"inte\u006et": "a"}"#,
            r#"{"intent": "\u0041"}"#,
            r#"{"intent": "a\qb"}"#,
            "{\"intent\": \"a\u{1}b\"}",
            r#"{"data": {"goal": {"x": 1}}}"#,
            r#"{"data": {"goal": [1]}}"#,
            r#"{"source": ["a"]}"#,
            r#"{"priority": 1e400}"#,
            r#"{"priority": 1E2}"#,
            r#"{"priority": 01}"#,
            r#"{"priority": -}"#,
            r#"{"priority": 1.}"#,
            r#"{"priority": 1234567890123456789}"#,
            r#"{"confidence": 0.1234567890123456}"#,
            r#"{"confidence": 1234567890123456.5}"#,
            r#"{"intent": "a",}"#,
            r#"{"intent": "a"} x"#,
            r#"{"intent": "a""#,
            r#"{"intent": tru}"#,
            r#"{"intent": "a"}}"#,
            "[1]",
            "",
        ];
        for text in messages {
            assert!(message(text).is_none(), "scanned: {text}");
        }
    }

    /// A string's text: plain, with the escapes the scanner reads, or with what it leaves.
    fn string_text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            4 => "[a-z_ 0-9]{0,5}",
            1 => Just("\\\"".to_owned()),
            1 => Just("\\\\".to_owned()),
            1 => Just("\\n".to_owned()),
            1 => Just("\\/".to_owned()),
            1 => Just("\\u0041".to_owned()),
            1 => Just("\\x".to_owned()),
            1 => Just("\u{1}".to_owned()),
            1 => Just("é".to_owned()),
        ];
        proptest::collection::vec(piece, 0..4).prop_map(|p| format!("\"{}\"", p.concat()))
    }

    fn number_text() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|n| format!("{n:?}")),
            any::<f32>().prop_map(|n| n.to_string()),
            (0u64..1_000_000, 1u32..6).prop_map(|(m, k)| {
                let p = 10u64.pow(k);
                format!("{}.{:0width$}", m / p, m % p, width = k as usize)
            }),
            "-?[0-9]{1,20}(\\.[0-9]{0,18})?([eE][-+]?[0-9]{1,3})?",
            prop_oneof![
                Just("1e400"),
                Just("-0"),
                Just("-0.0"),
                Just("1.0"),
                Just("0.9"),
                Just("-"),
                Just("01"),
                Just(".5"),
            ]
            .prop_map(str::to_owned),
        ]
    }

    fn leaf_text() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => string_text(),
            3 => number_text(),
            1 => prop_oneof![Just("true"), Just("false"), Just("null"), Just("nul"), Just("[]")]
                .prop_map(str::to_owned),
        ]
    }

    fn blank() -> impl Strategy<Value = &'static str> {
        prop_oneof![Just(""), Just(" "), Just("\n\t"), Just("\r "), Just(" x")]
    }

    /// An object of `value`s under `key`s, blanks anywhere between.
    fn object_text(
        key: impl Strategy<Value = String>,
        value: impl Strategy<Value = String>,
    ) -> impl Strategy<Value = String> {
        let entry = (blank(), key, blank(), blank(), value, blank())
            .prop_map(|(a, k, b, c, v, d)| format!("{a}\"{k}\"{b}:{c}{v}{d}"));
        (proptest::collection::vec(entry, 0..6), blank(), blank()).prop_map(|(e, a, b)| {
            let body = if e.is_empty() {
                a.to_owned()
            } else {
                e.join(",")
            };
            format!("{{{body}}}{b}")
        })
    }

    fn role_key() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("goal"),
            Just("object"),
            Just("recipient"),
            Just("a\\u0062"),
            Just("x\\\"y")
        ]
        .prop_map(str::to_owned)
    }

    fn data_text() -> impl Strategy<Value = String> {
        let nested = object_text(role_key(), leaf_text());
        object_text(role_key(), prop_oneof![4 => leaf_text(), 1 => nested])
    }

    fn message_text() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            8 => proptest::sample::select(crate::hri::HriIntent::FIELDS).prop_map(str::to_owned),
            1 => Just("priorty".to_owned()),
            1 => Just("inte\\u006et".to_owned()),
            // A field's name and one letter more or less, or another case: what the
            // scanner compares byte for byte.
            1 => proptest::sample::select(&["intents", "dat", "Source", "modalit", "confidences", "action "][..])
                .prop_map(str::to_owned),
        ];
        let data_as_string =
            data_text().prop_map(|t| serde_json::to_string(&t).unwrap_or_default());
        let value = prop_oneof![
            4 => leaf_text(),
            2 => data_text(),
            1 => data_as_string,
        ];
        object_text(key, value)
    }

    /// The text whole, or cut short anywhere (at a character boundary).
    fn cut(text: String, at: proptest::sample::Index, whole: bool) -> String {
        if whole {
            return text;
        }
        let mut end = at.index(text.len() + 1);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text[..end].to_owned()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// Whatever message the scanner reads, serde_json's reader reads the same: the same
        /// fields, each of the same kind and value.
        #[test]
        fn a_scanned_message_reads_as_through_serde_json(
            text in message_text(),
            at in any::<proptest::sample::Index>(),
            whole in any::<bool>(),
        ) {
            let text = cut(text, at, whole);
            if let Some(scanned) = message(&text) {
                prop_assert_eq!(Some(message_of(&scanned)), message_by_serde_json(&text), "{}", text);
            }
        }

        /// A `data` string holding an object (as the message definition declares `data`),
        /// whole or cut short: when the scanner reads its roles straight from the escaped
        /// text, the string is the one serde_json reads, and the roles are what the string's
        /// own parse gives.
        #[test]
        fn quoted_data_reads_as_its_string(
            data in data_text(),
            at in any::<proptest::sample::Index>(),
            whole in any::<bool>(),
        ) {
            let data = cut(data, at, whole);
            let quoted = serde_json::to_string(&data).unwrap_or_default();
            let text = format!(r#"{{"intent": "__intent_say__", "data": {quoted}}}"#);
            let Some(scanned) = message(&text) else {
                return Ok(());
            };
            if let Some(FieldIn::TextRoles { raw, roles }) = &scanned.data {
                prop_assert_eq!(&super::super::read::unescape_quotes(raw), &data);
                let Ok(Ok(parsed)) = RolesIn::parse(&data) else {
                    return Err(TestCaseError::fail(format!("not an object: {data}")));
                };
                prop_assert_eq!(roles_of(roles), roles_of(&parsed), "{}", text);
            }
        }

        /// Whatever `data` text the scanner reads, serde_json's reader reads as the same
        /// roles.
        #[test]
        fn scanned_data_reads_as_through_serde_json(
            text in data_text(),
            at in any::<proptest::sample::Index>(),
            whole in any::<bool>(),
        ) {
            let text = cut(text, at, whole);
            if let Some(scanned) = roles(&text) {
                let expected = match RolesIn::parse_with_serde_json(&text) {
                    Ok(Ok(r)) => Some(roles_of(&r)),
                    _ => None,
                };
                prop_assert_eq!(Some(roles_of(&scanned)), expected, "{}", text);
            }
        }

        /// Arbitrary text: the scanner never panics.
        #[test]
        fn the_scanner_never_panics(text in "\\PC{0,40}|[{}\":, 0-9.eE\\-a-z\\\\]{0,40}") {
            let _ = message(&text);
            let _ = roles(&text);
        }
    }

    proptest! {
        /// The word-at-a-time run ends where a byte-by-byte look ends it.
        #[test]
        fn plain_run_ends_at_the_first_special_byte(
            bytes in proptest::collection::vec(
                prop_oneof![4 => 0x20u8..0x7f, 1 => Just(b'"'), 1 => Just(b'\\'), 1 => 0u8..0x20, 1 => 0x80u8..=0xff],
                0..40,
            ),
            from in 0usize..40,
        ) {
            let from = from.min(bytes.len());
            let expected = bytes[from..]
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .map_or(bytes.len(), |p| from + p);
            prop_assert_eq!(plain_run(&bytes, from), expected);
        }
    }

    /// The generators reach the scanner often enough for the proptests to mean something.
    #[test]
    fn the_generators_reach_the_scanner() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let (mut messages, mut datas) = (0, 0);
        for _ in 0..512 {
            let m = message_text().new_tree(&mut runner).unwrap().current();
            messages += usize::from(message(&m).is_some());
            let d = data_text().new_tree(&mut runner).unwrap().current();
            datas += usize::from(roles(&d).is_some());
        }
        assert!(messages > 30 && datas > 30, "{messages} {datas}");
    }
}
