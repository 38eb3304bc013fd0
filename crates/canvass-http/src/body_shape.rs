//! Whether a request body type must be a JSON object. serde's derive reads a struct from an array too (its fields
//! by position), so `["Positional"]` would make a category named "Positional". [`expects_object`] asks the type
//! itself, once per call, which JSON shape it reads (a probe deserializer records the first thing the type asks
//! for), and the body extractor refuses an array or a scalar where a struct or map is expected. Bodies that are
//! arrays (a survey's logic) or that accept any JSON are left alone.

use serde::de::{self, DeserializeOwned, Visitor};
use serde::forward_to_deserialize_any;

/// Whether `T` is read from a JSON object (a struct or a map).
pub fn expects_object<T: DeserializeOwned>() -> bool {
    let mut probe = Probe { asked: Asked::Other };
    let _ = T::deserialize(&mut probe);
    probe.asked == Asked::Object
}

/// Whether a JSON text (already known to be valid) is an object: its first non-blank byte is `{`.
pub fn is_object(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

#[derive(Debug, PartialEq, Eq)]
enum Asked {
    Object,
    Other,
}

struct Probe {
    asked: Asked,
}

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("probe")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Stop
    }
}

impl<'de> de::Deserializer<'de> for &mut Probe {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        self.asked = Asked::Object;
        Err(Stop)
    }

    fn deserialize_map<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.asked = Asked::Object;
        Err(Stop)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct seq tuple tuple_struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Named {
        name: String,
    }

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Wrapper(Named);

    #[test]
    fn structs_and_maps_are_objects_and_lists_are_not() {
        assert!(expects_object::<Named>());
        assert!(expects_object::<Wrapper>());
        assert!(expects_object::<BTreeMap<String, i64>>());
        assert!(!expects_object::<Vec<Named>>());
        assert!(!expects_object::<serde_json::Value>());
        assert!(!expects_object::<String>());
    }

    #[test]
    fn only_a_leading_brace_is_an_object() {
        assert!(is_object(b" \n{\"a\":1}"));
        for other in [&b"[1]"[..], b"\"x\"", b"7", b"true", b"null"] {
            assert!(!is_object(other));
        }
    }
}
