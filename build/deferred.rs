//! Parts of Mattermost's answers kept as the JSON Mattermost sent until something reads them.
//!
//! Every post Mattermost sends carries its `metadata`: the files' whole descriptions, link previews,
//! images, custom emoji, acknowledgements and priority. The tools show a post from its own fields and
//! its reactions; the rest is read only when one post's files are asked for. Parsed into generated
//! types, those parts were the largest cost of reading a page of posts (half the instructions of
//! parsing a `PostList`). Here their fields become `Deferred<T>` (the client's `deferred` module):
//! the answer is checked to be JSON and kept as Mattermost wrote it, `read()` parses it into the same
//! generated `T` when asked, and writing it back (the operation gateway's answers) gives exactly the
//! JSON that came.

use syn::{Fields, GenericArgument, Item, PathArguments, Type};

/// (struct, field): the fields kept unparsed. Each must exist and be an `Option<T>`, or the build
/// fails, so a spec that renames one is noticed on release day.
pub const DEFERRED: &[(&str, &str)] = &[
    ("PostMetadata", "files"),
    ("PostMetadata", "embeds"),
    ("PostMetadata", "emojis"),
    ("PostMetadata", "images"),
    ("PostMetadata", "acknowledgements"),
    ("PostMetadata", "priority"),
];

/// Rewrites the type of every field in [`DEFERRED`] from `Option<T>` to
/// `Option<crate::deferred::Deferred<T>>`.
pub fn fields(file: &mut syn::File) -> Result<(), String> {
    let types = file
        .items
        .iter_mut()
        .find_map(|item| match item {
            Item::Mod(m) if m.ident == "types" => m.content.as_mut().map(|(_, items)| items),
            _ => None,
        })
        .ok_or("the generated client has no `types` module")?;
    for (name, field) in DEFERRED {
        let strukt = types
            .iter_mut()
            .find_map(|item| match item {
                Item::Struct(s) if s.ident == name => Some(s),
                _ => None,
            })
            .ok_or_else(|| {
                format!("there is no generated struct `{name}` to defer `{field}` of")
            })?;
        let Fields::Named(named) = &mut strukt.fields else {
            return Err(format!("`{name}` has no named fields"));
        };
        let f = named
            .named
            .iter_mut()
            .find(|f| f.ident.as_ref().is_some_and(|i| i == field))
            .ok_or_else(|| format!("`{name}` has no field `{field}` to defer"))?;
        let inner = option_of(&f.ty)
            .ok_or_else(|| {
                format!("`{name}.{field}` is not an `Option<T>`: it cannot be deferred")
            })?
            .clone();
        f.ty = syn::parse_quote!(::std::option::Option<crate::deferred::Deferred<#inner>>);
    }
    Ok(())
}

/// `T` of `Option<T>` (as `::std::option::Option<T>` or `Option<T>`).
fn option_of(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) if args.args.len() == 1 => Some(t),
        _ => None,
    }
}
