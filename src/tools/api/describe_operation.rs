//! `describe_operation`: one operation of the catalog whole: its parameters (name, where, type,
//! required, enum), body fields and a sample body, the shape of its answer, how Mattermost pages it and
//! how `call_operation` pages it, the undocumented parameters `overrides/parameters/` declares for it,
//! the permissions the spec names, and the offered tools that already cover it. Read from the compiled
//! catalog: no Mattermost request.

use super::{OPERATION, how_paged};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::operations::{BODY, Entry};
use crate::tool::call::Covering;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use mattermost_spec::catalog::TypeInfo;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

pub(crate) const TOOL: Tool = Tool {
    name: "describe_operation",
    title: "Describe a Mattermost API operation",
    description: "One operation whole: its parameters (name, in, type, required, enum), body fields and a sample, \
                  its answer, how it pages, undocumented parameters, the permissions it needs and the tools \
                  that already cover it.",
    toolset: Toolset::Api,
    args: &[OPERATION],
    answer: Answer::One,
    hints: READS,
    asks: Asks::Never,
    calls: &[],
    code: crate::one!(run => Described),
};

#[derive(Deserialize)]
struct Args {
    operation: String,
}

/// A path, query or header parameter.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ParamInfo {
    pub(crate) name: String,
    /// `path`, `query` or `header`.
    #[serde(rename = "in")]
    pub(crate) location: String,
    /// The type in words (`an integer (int64) from 0`).
    #[serde(rename = "type")]
    pub(crate) ty: String,
    pub(crate) required: bool,
    #[serde(rename = "enum", default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) enum_values: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) default: Option<Value>,
    /// The file of `overrides/parameters/` that declares it, when the spec does not document it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) undocumented: Option<String>,
}

/// The request body: its media type, type, top-level fields and a minimal sample.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct BodyInfo {
    pub(crate) media: String,
    pub(crate) required: bool,
    #[serde(rename = "type")]
    pub(crate) ty: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) fields: Vec<ParamInfo>,
    /// A minimal body the schema accepts (required fields, placeholder values).
    pub(crate) sample: Value,
}

/// How the operation pages, and how `call_operation` pages it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct PagingInfo {
    pub(crate) kind: String,
    /// Its paging parameters (`page`, `per_page`, `body.cursor`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) params: Vec<String>,
    /// What is known to be odd about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
    /// How call_operation pages its answer.
    pub(crate) call_operation: String,
}

/// Where an `outside` operation makes Mattermost reach.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Reaches {
    /// The parameters that hold the address (`url`, `body.site_url`, `body`).
    pub(crate) params: Vec<String>,
    /// What Mattermost does with it, from its source.
    pub(crate) how: String,
}

/// One operation, described.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Described {
    pub(crate) operation: String,
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) tags: Vec<String>,
    /// `read`, `write` or `outside` (a write, an outside one included, asks the person first and needs
    /// writes allowed).
    pub(crate) access: String,
    /// Why it is classed so.
    pub(crate) access_rule: String,
    /// For an `outside` operation: the parameters holding the address Mattermost reaches, and what it
    /// does with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reaches: Option<Reaches>,
    /// It needs a system administrator.
    pub(crate) admin_only: bool,
    /// The permissions the spec names: `required`, and `conditional` (alternatives, conditions).
    pub(crate) permissions: Value,
    pub(crate) params: Vec<ParamInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) body: Option<BodyInfo>,
    /// The success answer: `kind` (object, array, scalar, binary, no_content, ...), its `schema`, the
    /// statuses.
    pub(crate) answer: Value,
    pub(crate) paging: PagingInfo,
    /// Tools of this server that already do it: prefer them.
    pub(crate) covered_by: Vec<String>,
    /// call_operation's `params` for it, with placeholders for what you must fill in.
    pub(crate) example: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) since: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) deprecated: bool,
    /// Why call_operation cannot send it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) not_callable: Option<String>,
}

fn type_words(t: &TypeInfo) -> String {
    let mut s = t.describe();
    if let Some(name) = t.schema.as_deref().filter(|_| t.ty != "object") {
        s.push_str(&format!(" ({name})"));
    }
    s
}

fn undocumented_file(u: &Option<mattermost_spec::catalog::Undocumented>) -> Option<String> {
    u.as_ref().map(|u| {
        format!(
            "overrides/parameters/{} (server source: {})",
            u.file, u.source
        )
    })
}

/// A placeholder for a value you must fill in: `<channel_id>`, or the type's sample.
fn placeholder(name: &str, t: &TypeInfo) -> Value {
    if let Some(first) = t.enum_values.first() {
        return first.clone();
    }
    match t.ty.as_str() {
        "integer" | "number" => t.default.clone().unwrap_or(json!(0)),
        "boolean" => t.default.clone().unwrap_or(json!(false)),
        _ => json!(format!("<{name}>")),
    }
}

/// `call_operation`'s params for `e`: every required parameter, and the sample body.
pub(crate) fn example(e: &Entry) -> Value {
    let mut params = Map::new();
    for p in e.params.iter().filter(|p| p.required) {
        params.insert(p.name.clone(), placeholder(&p.name, &p.schema));
    }
    if let Some(b) = &e.body {
        params.insert(BODY.into(), b.sample.clone());
    }
    json!({"operation": e.id, "params": params})
}

/// An operation, described.
pub(crate) fn describe(e: &Entry, covering: &Covering) -> Described {
    let params = e
        .params
        .iter()
        .map(|p| ParamInfo {
            name: p.name.clone(),
            location: p.location.clone(),
            ty: type_words(&p.schema),
            required: p.required,
            enum_values: p.schema.enum_values.clone(),
            default: p.schema.default.clone(),
            undocumented: undocumented_file(&p.undocumented),
        })
        .collect();
    let body = e.body.as_ref().map(|b| BodyInfo {
        media: b.media.clone(),
        required: b.required,
        ty: type_words(&b.schema),
        fields: b
            .fields
            .iter()
            .map(|f| ParamInfo {
                name: f.name.clone(),
                location: "body".into(),
                ty: type_words(&f.schema),
                required: f.required,
                enum_values: f.schema.enum_values.clone(),
                default: f.schema.default.clone(),
                undocumented: undocumented_file(&f.undocumented),
            })
            .collect(),
        sample: b.sample.clone(),
    });
    let mut permissions = Map::new();
    if !e.permissions.required.is_empty() {
        permissions.insert("required".into(), json!(e.permissions.required));
    }
    if !e.permissions.conditional.is_empty() {
        permissions.insert("conditional".into(), json!(e.permissions.conditional));
    }
    Described {
        operation: e.id.clone(),
        method: e.method.clone(),
        path: e.path.clone(),
        tags: e.tags.clone(),
        access: super::access_word(e).into(),
        access_rule: e.access_rule.clone(),
        reaches: e.outside.as_ref().map(|o| Reaches {
            params: o.params.clone(),
            how: o.how.clone(),
        }),
        admin_only: super::admin_only(e),
        permissions: Value::Object(permissions),
        params,
        body,
        answer: serde_json::to_value(&e.answer).unwrap_or(Value::Null),
        paging: PagingInfo {
            kind: e.paging.kind.as_str().into(),
            params: e.paging.params.clone(),
            note: e.paging.note.clone(),
            call_operation: how_paged(e),
        },
        covered_by: covering.of(&e.id).into_iter().map(str::to_string).collect(),
        example: example(e),
        since: e.since.clone(),
        deprecated: e.deprecated,
        not_callable: e.not_callable.clone(),
    }
}

async fn run(_cx: &Ctx, input: Input<Args>) -> Result<Described, ToolError> {
    let e = super::entry(&input.args.operation)?;
    Ok(describe(e, &input.call.covering))
}
