//! The dispatcher generated beside the client: one function per operation that builds progenitor's
//! request builder from JSON parameters, and a `match` from each operation's id to its function.
//!
//! What progenitor named things is read from the generated code itself, not guessed: the client
//! method that returns each builder, each builder's fields and the type each setter takes, the path
//! parameters in the order `send` puts them in the URL, the query parameters by the wire name `send`
//! gives them, and the type `send` answers. An operation whose parameters cannot all be matched to its
//! builder this way gets an arm that says why it cannot be called, and a build warning.

use mattermost_spec::catalog::{AnswerKind, Catalog, Entry};
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::quote;
use std::collections::BTreeMap;

/// What the generated code says about one operation.
struct Generated {
    method: String,
    /// Setter name -> the type it takes (`V: TryInto<T>`).
    setters: BTreeMap<String, syn::Type>,
    /// Builder fields, the client reference excepted.
    fields: Vec<String>,
    /// Path parameters' field names, in URL order.
    path: Vec<String>,
    /// Query wire name -> field name.
    query: BTreeMap<String, String>,
    /// `T` of `ResponseValue<T>`.
    ok: syn::Type,
    /// `E` of `Error<E>`.
    err: syn::Type,
}

/// The result: the generated Rust, the catalog with client methods filled in, and what could not be
/// generated.
pub struct Output {
    pub code: String,
    pub catalog: Catalog,
    pub not_generated: Vec<String>,
}

pub fn generate(file: &syn::File, mut catalog: Catalog) -> Result<Output, String> {
    let generated = read_generated(file)?;
    let by_key: BTreeMap<String, &Generated> = generated
        .iter()
        .map(|g| (mattermost_spec::catalog::key(&g.method), g))
        .collect();
    if by_key.len() != generated.len() {
        return Err("two generated client methods fold to the same operation name".into());
    }
    let mut functions = Vec::new();
    let mut arms = Vec::new();
    let mut body_arms = Vec::new();
    let mut not_generated = Vec::new();
    let mut matched = 0usize;
    for entry in &mut catalog.operations {
        let id = entry.id.clone();
        if !entry.callable() {
            continue;
        }
        let Some(g) = by_key.get(&mattermost_spec::catalog::key(&id)) else {
            entry.not_callable = Some(format!(
                "not callable: the generated client has no method for {id}"
            ));
            not_generated.push(format!("{id}: no generated method"));
            continue;
        };
        matched += 1;
        entry.client_method = Some(g.method.clone());
        match function(entry, g) {
            Ok(f) => {
                let name = ident(&format!("op_{}", g.method.trim_start_matches("r#")))?;
                let boxed = ident(&format!("boxed_{}", g.method.trim_start_matches("r#")))?;
                functions.push(f);
                // Each operation's future is made and boxed in a function of its own: made inside
                // the `match`, every arm's future would take its own slot in `dispatch`'s stack frame
                // (unoptimized builds do not share them), some megabytes for 500 operations.
                functions.push(quote! {
                    #[inline(never)]
                    fn #boxed<'a>(
                        client: &'a Client,
                        entry: &'static Entry,
                        params: &'a Params,
                        cap: usize,
                    ) -> Pending<'a> {
                        Box::pin(#name(client, entry, params, cap))
                    }
                });
                arms.push(quote! { #id => Ok(#boxed(client, entry, params, cap)), });
                if entry.body.is_some()
                    && let Some(ty) = g.setters.get("body")
                {
                    body_arms.push(quote! { #id => body_as::<#ty>(entry, params), });
                }
            }
            Err(why) => {
                not_generated.push(format!("{id}: {why}"));
                entry.not_callable = Some(format!("not callable: {why}"));
            }
        }
    }
    if matched != generated.len() {
        let known: Vec<String> = catalog
            .operations
            .iter()
            .map(|e| mattermost_spec::catalog::key(&e.id))
            .collect();
        let orphans: Vec<&str> = generated
            .iter()
            .filter(|g| !known.contains(&mattermost_spec::catalog::key(&g.method)))
            .map(|g| g.method.as_str())
            .collect();
        return Err(format!(
            "generated client methods no catalog entry names: {}",
            orphans.join(", ")
        ));
    }
    for entry in catalog.operations.iter().filter(|e| !e.callable()) {
        let id = &entry.id;
        arms.push(quote! { #id => Err(not_callable(entry)), });
    }
    let ids: Vec<&str> = catalog
        .operations
        .iter()
        .filter(|e| e.callable())
        .map(|e| e.id.as_str())
        .collect();
    let tokens = quote! {
        /// The operations the dispatcher sends, by id.
        pub const CALLABLE: &[&str] = &[#(#ids),*];

        /// The function that sends `entry`'s operation: one arm per operation of the catalog, callable or
        /// not; a name the catalog does not hold is refused.
        pub(super) fn dispatch<'a>(
            client: &'a Client,
            entry: &'static Entry,
            params: &'a Params,
            cap: usize,
        ) -> Result<Pending<'a>, DispatchError> {
            match entry.id.as_str() {
                #(#arms)*
                other => Err(DispatchError::UnknownOperation {
                    operation: other.to_string(),
                    suggestions: Vec::new(),
                }),
            }
        }

        /// The body of `entry`'s operation as the generated client will send it: read into the
        /// operation's body type and written back, so a field the type does not hold is not in it.
        /// `None` without a body.
        pub(super) fn body_as_sent(
            entry: &'static Entry,
            params: &Params,
        ) -> Result<Option<Value>, DispatchError> {
            match entry.id.as_str() {
                #(#body_arms)*
                _ => Ok(None),
            }
        }

        #(#functions)*
    };
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| format!("the generated dispatcher does not parse: {e}"))?;
    Ok(Output {
        code: prettyplease::unparse(&file),
        catalog,
        not_generated,
    })
}

fn function(entry: &Entry, g: &Generated) -> Result<TokenStream, String> {
    let method = ident(&g.method)?;
    let name = ident(&format!("op_{}", g.method.trim_start_matches("r#")))?;
    let mut steps = Vec::new();
    let mut used: Vec<String> = Vec::new();
    let vars: Vec<&str> = entry
        .path
        .split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(v, _)| v))
        .collect();
    if vars.len() != g.path.len() {
        return Err(format!(
            "its path has {} parameters, the generated URL {}",
            vars.len(),
            g.path.len()
        ));
    }
    for p in &entry.params {
        let field = match p.location.as_str() {
            "path" => vars
                .iter()
                .position(|v| *v == p.name)
                .map(|i| g.path[i].clone()),
            "query" => g.query.get(&p.name).cloned(),
            other => {
                return Err(format!(
                    "its {other} parameter `{}` is not generated generically",
                    p.name
                ));
            }
        };
        let Some(field) = field else {
            return Err(format!(
                "its {} parameter `{}` is not in the generated request",
                p.location, p.name
            ));
        };
        let ty = g
            .setters
            .get(&field)
            .ok_or_else(|| format!("the builder has no setter `{field}` for `{}`", p.name))?;
        let setter = ident(&field)?;
        let wire = &p.name;
        steps.push(quote! {
            let b = match take::<#ty>(entry, params, #wire)? {
                Some(v) => b.#setter(v),
                None => b,
            };
        });
        used.push(field);
    }
    if entry.body.is_some() {
        let ty = g
            .setters
            .get("body")
            .ok_or("it has a body, the builder no `body` setter")?;
        steps.push(quote! {
            let b = match take::<#ty>(entry, params, BODY)? {
                Some(v) => b.body(v),
                None => b,
            };
        });
        used.push("body".into());
    }
    let unused: Vec<&String> = g.fields.iter().filter(|f| !used.contains(f)).collect();
    if !unused.is_empty() {
        return Err(format!(
            "the builder has fields the catalog does not name: {unused:?}"
        ));
    }
    let ok = &g.ok;
    let err = &g.err;
    let ok_text = quote!(#ok).to_string().replace(' ', "");
    let reply = if ok_text == "()" {
        if !matches!(entry.answer.kind, AnswerKind::NoContent) {
            return Err(format!(
                "the client answers nothing, the catalog {:?}",
                entry.answer.kind
            ));
        }
        quote! { reply_empty::<#err>(entry, b.send().await).await }
    } else if ok_text.ends_with("ByteStream") {
        if !matches!(
            entry.answer.kind,
            AnswerKind::Binary | AnswerKind::Undeclared
        ) {
            return Err(format!(
                "the client answers bytes, the catalog {:?}",
                entry.answer.kind
            ));
        }
        quote! { reply_bytes::<#err>(entry, b.send().await, cap).await }
    } else {
        quote! { reply_json::<#ok, #err>(entry, b.send().await).await }
    };
    let params = if steps.is_empty() {
        quote!(_params)
    } else {
        quote!(params)
    };
    let cap = if ok_text.ends_with("ByteStream") {
        quote!(cap)
    } else {
        quote!(_cap)
    };
    Ok(quote! {
        async fn #name(
            client: &Client,
            entry: &'static Entry,
            #params: &Params,
            #cap: usize,
        ) -> Result<Answer, DispatchError> {
            let b = client.#method();
            #(#steps)*
            #reply
        }
    })
}

/// An identifier as the generated code spells it (`r#type` included), or why it is not one.
fn ident(name: &str) -> Result<Ident, String> {
    syn::parse_str::<Ident>(name).map_err(|e| format!("`{name}` is not an identifier: {e}"))
}

fn read_generated(file: &syn::File) -> Result<Vec<Generated>, String> {
    // Client methods returning a builder: method name -> builder name.
    let mut methods: BTreeMap<String, String> = BTreeMap::new();
    for item in &file.items {
        let syn::Item::Impl(imp) = item else { continue };
        if imp.trait_.is_some() || !type_is(&imp.self_ty, "Client") {
            continue;
        }
        for it in &imp.items {
            let syn::ImplItem::Fn(f) = it else { continue };
            if let syn::ReturnType::Type(_, ty) = &f.sig.output
                && let Some(b) = builder_name(ty)
            {
                methods.insert(f.sig.ident.to_string(), b);
            }
        }
    }
    let builder_mod = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Mod(m) if m.ident == "builder" => m.content.as_ref(),
            _ => None,
        })
        .ok_or("the generated client has no `mod builder`")?;
    let mut structs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut impls: BTreeMap<String, &syn::ItemImpl> = BTreeMap::new();
    for item in &builder_mod.1 {
        match item {
            syn::Item::Struct(s) => {
                // Every field but the client itself (a reference; `_client` when a parameter is
                // called `client`).
                let fields = s
                    .fields
                    .iter()
                    .filter(|f| !matches!(f.ty, syn::Type::Reference(_)))
                    .filter_map(|f| f.ident.as_ref().map(ToString::to_string))
                    .collect();
                structs.insert(s.ident.to_string(), fields);
            }
            syn::Item::Impl(imp) if imp.trait_.is_none() => {
                if let Some(name) = path_last(&imp.self_ty) {
                    impls.insert(name, imp);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (method, builder) in methods {
        let fields = structs
            .get(&builder)
            .ok_or_else(|| format!("no builder struct {builder}"))?
            .clone();
        let imp = impls
            .get(&builder)
            .ok_or_else(|| format!("no impl of builder {builder}"))?;
        let mut setters = BTreeMap::new();
        let mut send = None;
        for it in &imp.items {
            let syn::ImplItem::Fn(f) = it else { continue };
            let name = f.sig.ident.to_string();
            if name == "send" {
                send = Some(f);
            } else if let Some(ty) = try_into_target(&f.sig) {
                setters.insert(name, ty);
            }
        }
        let send = send.ok_or_else(|| format!("builder {builder} has no send"))?;
        let (ok, err) = send_types(&send.sig.output).ok_or_else(|| {
            format!("{builder}::send does not answer Result<ResponseValue<T>, Error<E>>")
        })?;
        let atoms = flatten(quote!(#send).into_iter().collect());
        let (path, query) = wire_names(&atoms);
        out.push(Generated {
            method,
            setters,
            fields,
            path,
            query,
            ok,
            err,
        });
    }
    Ok(out)
}

fn type_is(ty: &syn::Type, name: &str) -> bool {
    path_last(ty).as_deref() == Some(name)
}

fn path_last(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// `builder::X<'_>` -> `X`.
fn builder_name(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(p) = ty else { return None };
    let segs: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    (segs.len() == 2 && segs[0] == "builder").then(|| segs[1].clone())
}

/// The `T` of a setter's `V: TryInto<T>` bound.
fn try_into_target(sig: &syn::Signature) -> Option<syn::Type> {
    let wc = sig.generics.where_clause.as_ref()?;
    for pred in &wc.predicates {
        let syn::WherePredicate::Type(pt) = pred else {
            continue;
        };
        if !type_is(&pt.bounded_ty, "V") {
            continue;
        }
        for bound in &pt.bounds {
            let syn::TypeParamBound::Trait(tb) = bound else {
                continue;
            };
            let last = tb.path.segments.last()?;
            if last.ident != "TryInto" {
                continue;
            }
            if let syn::PathArguments::AngleBracketed(args) = &last.arguments
                && let Some(syn::GenericArgument::Type(t)) = args.args.first()
            {
                return Some(t.clone());
            }
        }
    }
    None
}

fn generic_args(ty: &syn::Type, outer: &str) -> Option<Vec<syn::Type>> {
    let syn::Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != outer {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    Some(
        args.args
            .iter()
            .filter_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t.clone()),
                _ => None,
            })
            .collect(),
    )
}

/// `Result<ResponseValue<T>, Error<E>>` -> (T, E).
fn send_types(output: &syn::ReturnType) -> Option<(syn::Type, syn::Type)> {
    let syn::ReturnType::Type(_, ty) = output else {
        return None;
    };
    let result = generic_args(ty, "Result")?;
    let ok = generic_args(result.first()?, "ResponseValue")?
        .first()?
        .clone();
    let err = generic_args(result.get(1)?, "Error")?.first()?.clone();
    Some((ok, err))
}

/// Tokens as strings, with each group's delimiters as their own atoms: `encode_path ( & x . to_string ( ) )`.
fn flatten(tokens: Vec<TokenTree>) -> Vec<String> {
    let mut out = Vec::new();
    for t in tokens {
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Brace => ("{", "}"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                out.push(open.to_string());
                out.extend(flatten(g.stream().into_iter().collect()));
                out.push(close.to_string());
            }
            other => out.push(other.to_string()),
        }
    }
    out
}

/// From `send`'s tokens: the fields `encode_path(&field.to_string())` puts in the URL, in order, and
/// `QueryParam::new("wire", &field)`'s wire names.
fn wire_names(atoms: &[String]) -> (Vec<String>, BTreeMap<String, String>) {
    let mut path = Vec::new();
    let mut query = BTreeMap::new();
    for i in 0..atoms.len() {
        let at = |k: usize| atoms.get(i + k).map(String::as_str).unwrap_or("");
        if at(0) == "encode_path"
            && at(1) == "("
            && at(2) == "&"
            && at(4) == "."
            && at(5) == "to_string"
        {
            path.push(at(3).to_string());
        }
        if at(0) == "QueryParam"
            && at(1) == ":"
            && at(2) == ":"
            && at(3) == "new"
            && at(4) == "("
            && at(5).starts_with('"')
            && at(6) == ","
            && at(7) == "&"
        {
            let wire: String = serde_json::from_str(at(5)).unwrap_or_default();
            query.insert(wire, at(8).to_string());
        }
    }
    (path, query)
}
