//! Leaves out of the generated client the struct builders nothing uses.
//!
//! With the builder interface, progenitor has typify write a builder (`types::builder::X`: a struct,
//! its `Default`, its setters, `TryFrom<builder::X> for X` and `From<X> for builder::X`) for every
//! struct type of the spec, about 40% of the generated lines. The operation builders use those of their
//! request bodies only (`body: Result<types::builder::CreatePostBody, String>`), and nothing else in
//! the project names `types::builder`; the others were compiled in every build for nothing. A builder
//! names only plain types (`super::X`), never another builder, so those the operations name are all
//! that is kept (with the `X::builder()` constructors of the others gone too).

use std::collections::BTreeSet;
use syn::{Item, Type};

/// Removes from `file`'s `types::builder` every builder that no code outside `types` names, with the
/// `X::builder()` constructors of those removed.
pub fn unused_type_builders(file: &mut syn::File) -> Result<(), String> {
    let used = named_builders(file);
    let types = file
        .items
        .iter_mut()
        .find_map(|item| module(item, "types"))
        .ok_or("the generated client has no `types` module")?;
    let builder = types
        .iter_mut()
        .find_map(|item| module(item, "builder"))
        .ok_or("the generated client has no `types::builder` module")?;
    let mut kept = BTreeSet::new();
    let mut removed = BTreeSet::new();
    builder.retain(|item| match builder_of(item) {
        Some(name) if used.contains(&name) => {
            kept.insert(name);
            true
        }
        Some(name) => {
            removed.insert(name);
            false
        }
        None => true,
    });
    if let Some(missing) = used.iter().find(|name| !kept.contains(*name)) {
        return Err(format!(
            "the operations name `types::builder::{missing}`, which the generated client does not define"
        ));
    }
    // `impl X { pub fn builder() -> builder::X }` of a removed builder goes with it.
    types.retain_mut(|item| match item {
        Item::Impl(i) if i.trait_.is_none() => {
            let of_removed = single(&i.self_ty).is_some_and(|name| removed.contains(&name));
            if of_removed {
                i.items
                    .retain(|f| !matches!(f, syn::ImplItem::Fn(f) if f.sig.ident == "builder"));
            }
            !(of_removed && i.items.is_empty())
        }
        _ => true,
    });
    Ok(())
}

/// The items of `item` when it is the inline module `name`.
fn module<'a>(item: &'a mut Item, name: &str) -> Option<&'a mut Vec<Item>> {
    match item {
        Item::Mod(m) if m.ident == name => m.content.as_mut().map(|(_, items)| items),
        _ => None,
    }
}

/// Every `X` of a `types::builder::X` path outside the `types` module (the operations' builders).
fn named_builders(file: &syn::File) -> BTreeSet<String> {
    let mut text = String::new();
    for item in &file.items {
        if !matches!(item, Item::Mod(m) if m.ident == "types") {
            text.push_str(&quote::quote!(#item).to_string());
        }
    }
    let mut names = BTreeSet::new();
    let mut rest = text.as_str();
    let path = "types :: builder :: ";
    while let Some(at) = rest.find(path) {
        rest = &rest[at + path.len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            names.insert(name);
        }
    }
    names
}

/// The builder an item of `types::builder` belongs to: the struct's name, or the builder an `impl`
/// is for (`impl X`, `impl Default for X`, `impl From<super::X> for X`, `impl TryFrom<X> for super::X`).
fn builder_of(item: &Item) -> Option<String> {
    match item {
        Item::Struct(s) => Some(s.ident.to_string()),
        Item::Impl(i) => single(&i.self_ty).or_else(|| {
            let (trait_path, _) = i.trait_.as_ref()?;
            let last = trait_path.segments.last()?;
            match &last.arguments {
                syn::PathArguments::AngleBracketed(args) => {
                    args.args.iter().find_map(|arg| match arg {
                        syn::GenericArgument::Type(t) => single(t),
                        _ => None,
                    })
                }
                _ => None,
            }
        }),
        _ => None,
    }
}

/// `X` when `ty` is the one-segment path `X`.
fn single(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            Some(p.path.segments[0].ident.to_string())
        }
        _ => None,
    }
}
