//! The serde adapters that build a payload: the collected slots or entries presented to the
//! union's generated `Deserialize` as its CLAD-JSON object (or positional sequence), minus
//! the text.

use super::*;

pub(super) fn conflict(field: &str, first: &str, second: &str) -> Fail {
    Box::new(if first == second {
        TranslateError::DuplicateParameter {
            name: second.to_owned(),
        }
    } else {
        TranslateError::RenameConflict {
            field: field.to_owned(),
            first: first.to_owned(),
            second: second.to_owned(),
        }
    })
}

pub(super) struct ParamsSeed<'c, 'a, 's, 'de> {
    pub(super) c: &'c mut Collector<'a, 's, 'de>,
}

impl<'de> DeserializeSeed<'de> for ParamsSeed<'_, '_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl ParamsSeed<'_, '_, '_, '_> {
    pub(super) fn not_object<E: de::Error>(self, found: &'static str) -> Result<(), E> {
        self.c.error = Some(Box::new(TranslateError::ParametersNotObject { found }));
        Err(E::custom("parameters are not an object"))
    }
}

impl<'de> Visitor<'de> for ParamsSeed<'_, '_, '_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.not_object("a bool")
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.not_object("a string")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.not_object("an array")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let plan = match self.c.plan(&key) {
                Ok(plan) => plan,
                Err(e) => {
                    self.c.error = Some(e);
                    return Err(de::Error::custom("rejected parameter"));
                }
            };
            match plan {
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
                Some(plan) => {
                    let value = map.next_value::<ParamValue<'de>>()?;
                    if let Err(e) = self.c.accept(key, plan, value) {
                        self.c.error = Some(e);
                        return Err(de::Error::custom("rejected parameter"));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Presents `{"type": tag, field: value, ...}` to a generated union's `Deserialize`.
pub(crate) struct PayloadMap<I> {
    /// `None`: present the payload structure's fields alone (no `"type"` key).
    pub(super) tag: Option<&'static str>,
    pub(super) entries: I,
}

impl<'de, I> Deserializer<'de> for PayloadMap<I>
where
    I: Iterator<Item = (Cow<'de, str>, ParamValue<'de>)>,
{
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(PayloadMapAccess {
            tag: self.tag,
            entries: self.entries,
            value: None,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

pub(super) struct PayloadMapAccess<'de, I> {
    /// The tag name, until the `"type"` key has been produced.
    pub(super) tag: Option<&'static str>,
    pub(super) entries: I,
    pub(super) value: Option<ParamValue<'de>>,
}

impl<'de, I> MapAccess<'de> for PayloadMapAccess<'de, I>
where
    I: Iterator<Item = (Cow<'de, str>, ParamValue<'de>)>,
{
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if let Some(tag) = self.tag.take() {
            self.value = Some(ParamValue::Str(Cow::Borrowed(tag)));
            return seed
                .deserialize(ParamValue::Str(Cow::Borrowed("type")))
                .map(Some);
        }
        match self.entries.next() {
            Some((field, value)) => {
                self.value = Some(value);
                seed.deserialize(ParamValue::Str(field)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(v) => seed.deserialize(v),
            None => Err(de::Error::custom("value requested before key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.entries
            .size_hint()
            .1
            .map(|n| n + usize::from(self.tag.is_some()))
    }
}

/// Presents `["<tag>", field0, field1, ...]` (every field, in declaration order) to a
/// generated union's `Deserialize`: serde's internally tagged enums take the tag from the
/// first element and derived structs read fields by position. Same mapping as the object
/// form, without key buffering and field-name matching.
pub(crate) struct PayloadSeq<I> {
    /// `None`: present the payload structure's fields alone (no leading tag).
    pub(super) tag: Option<&'static str>,
    pub(super) items: I,
}

impl<'de, I> Deserializer<'de> for PayloadSeq<I>
where
    I: Iterator<Item = ParamValue<'de>>,
{
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(PayloadSeqAccess {
            tag: self.tag,
            items: self.items,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

pub(super) struct PayloadSeqAccess<I> {
    pub(super) tag: Option<&'static str>,
    pub(super) items: I,
}

impl<'de, I> de::SeqAccess<'de> for PayloadSeqAccess<I>
where
    I: Iterator<Item = ParamValue<'de>>,
{
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if let Some(tag) = self.tag.take() {
            return seed
                .deserialize(ParamValue::Str(Cow::Borrowed(tag)))
                .map(Some);
        }
        match self.items.next() {
            Some(v) => seed.deserialize(v).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.items
            .size_hint()
            .1
            .map(|n| n + usize::from(self.tag.is_some()))
    }
}

/// Builds `U` from the object form.
pub(crate) fn build_map<'de, U: Deserialize<'de>>(
    tag: &'static str,
    entries: impl Iterator<Item = (Cow<'de, str>, ParamValue<'de>)>,
) -> Result<U, Error> {
    U::deserialize(PayloadMap {
        tag: Some(tag),
        entries,
    })
}

/// Builds `U` from the positional form (every field, in order).
#[inline(always)]
pub(crate) fn build_seq<'de, U: Deserialize<'de>>(
    tag: &'static str,
    items: impl Iterator<Item = ParamValue<'de>>,
) -> Result<U, Error> {
    U::deserialize(PayloadSeq {
        tag: Some(tag),
        items,
    })
}

/// Every field in declaration order: the slot's value when it is filled (and `keep` is
/// `None` or its index), else the field's default.
#[inline(always)]
pub(super) fn positional_items<'a>(
    slots: &'a [Option<Slot<'_>>],
    defaults: impl Iterator<Item = &'a serde_json::Value>,
    keep: Option<usize>,
) -> impl Iterator<Item = ParamValue<'a>> {
    slots
        .iter()
        .zip(defaults)
        .enumerate()
        .map(move |(i, (s, d))| match s {
            Some(s) if keep.is_none_or(|k| k == i) => s.value.view(),
            _ => ParamValue::JsonRef(d),
        })
}

/// The fast build for the common case: member `tag` built positionally through the
/// generated [`CladUnion::deserialize_struct_member`], returned as that function returns
/// it, so a caller that keeps the value (the component's pending slot) moves the union
/// from there into place, not through layers of results.
///
/// `None` when this route does not apply (shape not positional, or the union does not
/// provide `deserialize_struct_member`); then, and on `Some(Err(_))`, use
/// [`build_slots`], which tries the other routes and names the field to blame. On
/// success the value is the one `build_slots` returns: it takes this route first, with
/// the same sequence of values.
#[inline(always)]
pub(crate) fn build_direct<U: CladUnion + serde::de::DeserializeOwned>(
    tag: U::Tag,
    shape: &Shape,
    slots: &[Option<Slot<'_>>],
) -> Option<Result<U, Error>> {
    if !shape.positional {
        return None;
    }
    let defaults = shape.defaults.as_ref()?;
    let fields = SlotFields { slots, defaults };
    U::deserialize_struct_member(tag, &fields)
}

/// The payload structure's fields as a sequence, every field in declaration order: the
/// slot's value when filled, else the field's default (what [`PayloadSeq`] over
/// [`positional_items`] presents, with `tag: None` and `keep: None`).
///
/// Handed to the payload's `Deserialize` by reference. Its sequence state is two words
/// (the slots and the defaults), small enough to stay in registers while the derived code
/// reads field after field; the iterator-based [`PayloadSeq`] keeps a dozen words in
/// memory, which the derived code reads back right after they were written.
pub(super) struct SlotFields<'a, 'p> {
    pub(super) slots: &'a [Option<Slot<'p>>],
    pub(super) defaults: &'a [serde_json::Value],
}

// The deserializer lifetime is the borrow of the `SlotFields`: values are presented as
// views into it (`ParamValue::view`), like `build_slots` does.
impl<'de, 'p> Deserializer<'de> for &'de SlotFields<'de, 'p> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(SlotFieldsAccess {
            fields: self,
            next: 0,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

pub(super) struct SlotFieldsAccess<'a, 'p> {
    pub(super) fields: &'a SlotFields<'a, 'p>,
    /// Index of the next field.
    pub(super) next: usize,
}

impl SlotFieldsAccess<'_, '_> {
    /// Number of fields presented (as many as `zip` over slots and defaults gives).
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.fields.slots.len().min(self.fields.defaults.len())
    }
}

impl<'de> de::SeqAccess<'de> for SlotFieldsAccess<'de, '_> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let i = self.next;
        if i >= self.len() {
            return Ok(None);
        }
        self.next += 1;
        let value = match &self.fields.slots[i] {
            Some(s) => s.value.view(),
            None => ParamValue::JsonRef(&self.fields.defaults[i]),
        };
        seed.deserialize(value).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len() - self.next)
    }
}

/// Builds a member of known shape from its slots: positionally (missing fields get their
/// default values) when the shape allows it, else as an object of the filled fields. On
/// failure, blames the first filled field that fails on its own.
///
/// Structure members go straight to the payload structure's `Deserialize` through
/// [`CladUnion::deserialize_struct_member`] (generated); other members, and unions that do
/// not provide it, go through the union's internally tagged `Deserialize`.
#[inline(always)]
pub(crate) fn build_slots<U: CladUnion + serde::de::DeserializeOwned>(
    tag: U::Tag,
    shape: &Shape,
    slots: &[Option<Slot<'_>>],
) -> Result<U, (Option<String>, Error)> {
    let tag_name = U::tag_name(tag);
    let only = |keep: Option<usize>| -> Result<U, Error> {
        let filled = |i: usize| keep.is_none_or(|k| k == i);
        let seq = || positional_items(slots, shape.defaults.iter().flatten(), keep);
        let map = || {
            slots
                .iter()
                .zip(&shape.fields)
                .enumerate()
                .filter_map(move |(i, (s, f))| {
                    let s = s.as_ref().filter(|_| filled(i))?;
                    Some((Cow::Borrowed(*f), s.value.view()))
                })
        };
        let positional = shape.defaults.is_some() && shape.positional;
        let direct = if positional {
            U::deserialize_struct_member(
                tag,
                PayloadSeq {
                    tag: None,
                    items: seq(),
                },
            )
        } else {
            U::deserialize_struct_member(
                tag,
                PayloadMap {
                    tag: None,
                    entries: map(),
                },
            )
        };
        match direct {
            Some(built) => built,
            None if positional => build_seq(tag_name, seq()),
            None => build_map(tag_name, map()),
        }
    };
    only(None).map_err(|err| {
        let field = (0..slots.len())
            .find(|&i| slots[i].is_some() && only(Some(i)).is_err())
            .map(|i| shape.fields[i].to_owned());
        (field, err)
    })
}

/// Builds a member of unknown shape from named entries.
pub(crate) fn build_entries<U: serde::de::DeserializeOwned>(
    tag: &'static str,
    entries: &[Entry<'_>],
) -> Result<U, (Option<String>, Error)> {
    fn view<'a>(e: &'a Entry<'_>) -> (Cow<'a, str>, ParamValue<'a>) {
        (Cow::Borrowed(e.field.as_ref()), e.value.view())
    }
    build_map::<U>(tag, entries.iter().map(view)).map_err(|err| {
        let field = entries
            .iter()
            .find(|e| build_map::<U>(tag, std::iter::once(view(e))).is_err())
            .map(|e| e.field.to_string());
        (field, err)
    })
}
