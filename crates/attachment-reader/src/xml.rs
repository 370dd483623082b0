//! Small helpers over quick-xml for the Office readers: attribute values by local name, text and
//! entity references decoded without expanding a document's own entities.
//!
//! quick-xml does not read a DTD, so a document's own entities (the "billion laughs" trick) are never
//! expanded: a reference to one is kept as written.

use quick_xml::XmlVersion;
use quick_xml::events::{BytesRef, BytesStart, BytesText};

/// The value of the attribute whose local name (without prefix) is `name`.
pub(crate) fn attr(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (a.key.local_name().as_ref() == name).then(|| {
            a.normalized_value(XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| a.value.to_string())
        })
    })
}

/// A text node's content (line ends normalized).
pub(crate) fn text(t: &BytesText<'_>) -> String {
    t.xml10_content().into_owned()
}

/// An entity or character reference: a character reference or one of XML's five predefined entities
/// decoded, anything else kept as written.
pub(crate) fn reference(r: &BytesRef<'_>) -> String {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        return c.to_string();
    }
    let name = r.xml10_content();
    match name.as_ref() {
        "amp" => "&".to_string(),
        "lt" => "<".to_string(),
        "gt" => ">".to_string(),
        "quot" => "\"".to_string(),
        "apos" => "'".to_string(),
        other => format!("&{other};"),
    }
}

/// The value of the prefixed attribute whose local name is `name` (`r:id`, not a plain `id`).
pub(crate) fn attr_prefixed(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (a.key.local_name().as_ref() == name && a.key.prefix().is_some())
            .then(|| a.value.to_string())
    })
}
