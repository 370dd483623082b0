//! The catalog: every operation of the repaired spec (the generated client's operations, and the
//! multipart ones it leaves out), classified at build time for the operation gateway.
//!
//! For each operation: its name, method, path and tags; whether it reads or writes ([`Access`], by the
//! rule in [`access`]); how Mattermost pages it ([`PagingKind`], by the rules in [`paging`]); the
//! permissions its description named (read at strip time, see [`crate::strip::facts`]); its
//! parameters with their types, enums, defaults and bounds (undocumented ones marked with their
//! evidence file); its body (media type, top-level fields, a minimal sample built from the schema);
//! and the shape of its answer. The build writes it as JSON beside the client; the binary parses it
//! once into these types.

use crate::document::{METHODS, resolve};
use crate::overrides::Overrides;
use crate::repairs::Excluded;
use crate::strip::{PERMISSIONS, SINCE};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Every classified operation, by id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    /// The release the client was generated from (`11.6.0-dev`, or `unpinned`).
    pub release: String,
    /// Sorted by id.
    pub operations: Vec<Entry>,
}

/// Whether calling an operation only reads or may change something, as [`access`] classes it (the
/// gateway asks before a write).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Changes nothing: a GET or HEAD (but [`WRITING_GETS`]), a search or lookup POST, or one of
    /// [`READ_ONLY_POSTS`].
    Read,
    /// May change something: every other method, and the exceptions above.
    Write,
}

/// How Mattermost pages an operation's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PagingKind {
    /// Not a list.
    None,
    /// `page` (from 0) and `per_page` (or `perPage`, `logs_per_page`), in the query or the body.
    PagePerPage,
    /// `before` and `after` (post or thread ids), usually beside `page`/`per_page`.
    BeforeAfter,
    /// `since` (milliseconds): what changed since a time.
    Since,
    /// An opaque continuation: `cursor` (or `after` with no `before`) and a `limit`/`per_page`.
    CursorField,
    /// Keyset paging on named fields: `fromPost`/`fromCreateAt` (threads), `from_id`/`from_column_value`.
    Keyset,
    /// One page of at most `limit` items, and no way to ask for the next.
    LimitOnly,
    /// A list answered whole (an array, or a known list wrapper) with no paging parameter.
    WholeList,
    /// `page` counts items, not pages (saved posts).
    Offset,
}

impl PagingKind {
    /// Every kind, in declaration order (for tests that go through each).
    pub const ALL: [PagingKind; 9] = [
        PagingKind::None,
        PagingKind::PagePerPage,
        PagingKind::BeforeAfter,
        PagingKind::Since,
        PagingKind::CursorField,
        PagingKind::Keyset,
        PagingKind::LimitOnly,
        PagingKind::WholeList,
        PagingKind::Offset,
    ];

    /// The snake_case name serde writes for it (`page_per_page`), as the catalog and the tools show
    /// it.
    pub fn as_str(self) -> &'static str {
        match self {
            PagingKind::None => "none",
            PagingKind::PagePerPage => "page_per_page",
            PagingKind::BeforeAfter => "before_after",
            PagingKind::Since => "since",
            PagingKind::CursorField => "cursor_field",
            PagingKind::Keyset => "keyset",
            PagingKind::LimitOnly => "limit_only",
            PagingKind::WholeList => "whole_list",
            PagingKind::Offset => "offset",
        }
    }
}

/// How an operation's answer is paged, derived by [`paging`] from its parameters and answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Paging {
    /// The main way to page it.
    pub kind: PagingKind,
    /// Every paging parameter it takes (`page`, `per_page`, `body.cursor`, ...).
    pub params: Vec<String>,
    /// Every way it can be paged, the main one first.
    pub modes: Vec<PagingKind>,
    /// What is known to be odd about it (from the project's study of the server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The permissions an operation's description named (see [`crate::strip::facts`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Permissions {
    /// Named with no alternative: the caller needs them.
    pub required: Vec<String>,
    /// Named as an alternative or in a condition.
    pub conditional: Vec<String>,
    /// Needs a system administrator (`manage_system` or a `sysconsole_*` permission is required).
    pub system_admin: bool,
}

/// A parameter or field's type, as the spec gives it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TypeInfo {
    /// `string`, `integer`, `number`, `boolean`, `array`, `object` or `any`.
    #[serde(rename = "type")]
    pub ty: String,
    /// The spec's `format` (`int64`, `date-time`, `binary`, ...); `None` when it gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The component schema it refers to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// For an array: its items' type (`string`, `integer/int64`, a component name, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<String>,
    /// The only values the spec's `enum` allows, as JSON; empty when any value of the type is
    /// allowed.
    #[serde(default, rename = "enum", skip_serializing_if = "Vec::is_empty")]
    pub enum_values: Vec<Value>,
    /// The value the server assumes when the parameter or field is left out, per the spec; `None`
    /// when the spec names none (which does not mean the server has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// The spec's inclusive lower bound (an integer or a number, kept as JSON); `None` when
    /// unbounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Value>,
    /// The spec's inclusive upper bound (an integer or a number, kept as JSON); `None` when
    /// unbounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Value>,
    /// The spec marks the schema `nullable`: `null` is a valid value besides the type.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) nullable: bool,
}

impl TypeInfo {
    /// `an integer (int64) from 0`, `one of "a", "b"`, `an array of string`, ...
    pub fn describe(&self) -> String {
        if !self.enum_values.is_empty() {
            let values: Vec<String> = self.enum_values.iter().map(Value::to_string).collect();
            return format!("one of {}", values.join(", "));
        }
        let mut s = match self.ty.as_str() {
            "string" => "a string".to_string(),
            "integer" => "an integer".to_string(),
            "number" => "a number".to_string(),
            "boolean" => "a boolean (true or false)".to_string(),
            "array" => format!(
                "an array of {}",
                self.items.as_deref().unwrap_or("any value")
            ),
            "object" => match &self.schema {
                Some(name) => format!("a JSON object ({name})"),
                None => "a JSON object".to_string(),
            },
            _ => "any JSON value".to_string(),
        };
        if let Some(f) = &self.format {
            s.push_str(&format!(" ({f})"));
        }
        match (&self.minimum, &self.maximum) {
            (Some(lo), Some(hi)) => s.push_str(&format!(" from {lo} to {hi}")),
            (Some(lo), None) => s.push_str(&format!(" from {lo}")),
            (None, Some(hi)) => s.push_str(&format!(" up to {hi}")),
            _ => {}
        }
        s
    }
}

/// An undocumented parameter's declaration in `overrides/parameters/`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Undocumented {
    /// `overrides/parameters/<file>.yaml`.
    pub file: String,
    /// The server source that reads it.
    pub source: String,
}

/// A path, query or header parameter of an operation (the path item's shared parameters and the
/// operation's own, `$ref`s resolved; an operation's own replaces a shared one of the same name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// As the spec spells it and the server reads it (`per_page`, `channel_id`).
    pub name: String,
    /// `path`, `query` or `header`.
    #[serde(rename = "in")]
    pub location: String,
    /// Always true for a path parameter; otherwise the spec's `required` (false when absent).
    pub required: bool,
    /// Its type, from the parameter's `schema` (`any` when it has none).
    #[serde(flatten)]
    pub schema: TypeInfo,
    /// Set when the spec lacks the parameter and `overrides/parameters/` declares it; `None` for
    /// the spec's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undocumented: Option<Undocumented>,
}

/// A top-level field of an object request body (collected through `$ref` and `allOf`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// The JSON property name.
    pub name: String,
    /// Listed in the body schema's `required` (in any of its `allOf` parts).
    pub required: bool,
    /// The property's type.
    #[serde(flatten)]
    pub schema: TypeInfo,
    /// Set when the spec lacks the field and `overrides/parameters/` declares it (location `body`);
    /// `None` for the spec's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undocumented: Option<Undocumented>,
}

/// An operation's request body, from its `requestBody` (the first media type it lists).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Body {
    /// The media type the body is sent as (`application/json`, `multipart/form-data`, ...).
    pub media: String,
    /// The spec's `requestBody.required` (false when absent).
    pub required: bool,
    /// The body's own type: an object (with `fields`), an array (with `schema.items`), ...
    #[serde(flatten)]
    pub schema: TypeInfo,
    /// An object body's top-level fields (through `$ref` and `allOf`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    /// A minimal body the schema accepts: the required fields, recursively, with placeholder values.
    pub sample: Value,
}

/// The shape of an operation's success answer, from the first 2xx response the spec documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    /// A JSON object (`schema` names it when it is a component).
    Object,
    /// A JSON array (`schema` names its items' component).
    Array,
    /// A JSON string, number or boolean.
    Scalar,
    /// JSON of no declared shape.
    Any,
    /// No body.
    NoContent,
    /// Bytes (a file, an image, plain text): `media` says which.
    Binary,
    /// The spec documents no success answer: whatever the server sends (the generated client reads it
    /// as bytes; the dispatcher gives JSON when the server says it is JSON).
    Undeclared,
}

/// What an operation answers on success, from the first 2xx response the spec documents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// Its shape.
    pub kind: AnswerKind,
    /// The component schema of an object answer, or of an array answer's items (`Post`,
    /// `PostList`); `None` for an inline schema, a scalar, bytes or no body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// The JSON media type it is read as, or for [`AnswerKind::Binary`] the first media type the
    /// spec lists; `None` for [`AnswerKind::NoContent`] and [`AnswerKind::Undeclared`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media: Option<String>,
    /// The documented success statuses.
    pub statuses: Vec<String>,
}

/// One operation of the catalog: everything the gateway needs to describe, check and call it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The operationId (deduplicated: `SearchFiles2`).
    pub id: String,
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path template, `/api/v4/channels/{channel_id}/posts`.
    pub path: String,
    /// The spec's tags (`posts`, `channels`, ...), which group operations by subject.
    pub tags: Vec<String>,
    /// Whether it only reads or may write ([`access`]).
    pub access: Access,
    /// Why it is classed a read or a write.
    pub access_rule: String,
    /// When the operation makes Mattermost connect, send or send a browser to an address given in the
    /// call: which parameters hold it, and what Mattermost does with it ([`REACHES_OUTSIDE`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<Outside>,
    /// How its answer is paged ([`paging`]); [`PagingKind::None`] for a write.
    pub paging: Paging,
    /// The permissions its description names (empty when it names none).
    pub permissions: Permissions,
    /// The minimum server version its description named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// The spec marks it `deprecated`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
    /// Path, query and header parameters, in the spec's order.
    pub params: Vec<Param>,
    /// Its request body; `None` when it takes none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Body>,
    /// What it answers on success.
    pub answer: Answer,
    /// Why the dispatcher cannot call it, when it cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_callable: Option<String>,
    /// The repair file that adds the operation, when the spec lacks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added_by: Option<String>,
    /// The generated client's method (set by the build from the generated code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_method: Option<String>,
}

impl Entry {
    /// Whether the dispatcher can call it: false for the multipart operations the generated client
    /// leaves out (see [`Entry::not_callable`]).
    pub fn callable(&self) -> bool {
        self.not_callable.is_none()
    }

    /// Its path, query or header parameter of that exact name, whatever its location.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }
}

/// An operation's name folded to compare spellings: `GetPostsForChannel`, `get_posts_for_channel` and
/// `getpostsforchannel` are one name.
pub fn key(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

impl Catalog {
    /// The operation of exactly this id (case-sensitive, by binary search over the sorted list);
    /// see [`Catalog::resolve`] for other spellings.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.operations
            .binary_search_by(|e| e.id.as_str().cmp(id))
            .ok()
            .map(|i| &self.operations[i])
    }

    /// The operation a name means: its id exactly, or any spelling of it ([`key`]).
    pub fn resolve(&self, name: &str) -> Option<&Entry> {
        self.get(name).or_else(|| {
            let k = key(name.trim());
            self.operations.iter().find(|e| key(&e.id) == k)
        })
    }

    /// Up to five operation ids that look like `name`: those whose folded name contains it or is
    /// contained in it, then those sharing the most leading characters.
    pub fn suggest(&self, name: &str) -> Vec<&str> {
        let k = key(name);
        if k.is_empty() {
            return Vec::new();
        }
        let mut scored: Vec<(usize, &str)> = self
            .operations
            .iter()
            .map(|e| {
                let ek = key(&e.id);
                let common = ek
                    .chars()
                    .zip(k.chars())
                    .take_while(|(a, b)| a == b)
                    .count();
                let score = if ek.contains(&k) || k.contains(&ek) {
                    1000 + common
                } else {
                    common
                };
                (score, e.id.as_str())
            })
            .filter(|(score, _)| *score >= 4)
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        scored.into_iter().take(5).map(|(_, id)| id).collect()
    }
}

/// Read-only POSTs whose path does not end in a lookup word, each with why it only reads.
pub const READ_ONLY_POSTS: &[(&str, &str)] = &[
    (
        "GetUsersByGroupChannelIds",
        "looks up the members of group channels by id",
    ),
    (
        "CheckUserMfa",
        "asks whether a login id needs multi-factor authentication",
    ),
    ("GetLoginType", "asks which login type a user has"),
    ("GetBulkReactions", "looks up the reactions of posts by id"),
    (
        "GetPostsForReporting",
        "a cursor-paged read of a channel's posts",
    ),
    (
        "GetAncillaryPermissionsPost",
        "looks up the permissions that come with others",
    ),
    ("CheckIntegrity", "checks the database, changes nothing"),
    (
        "CheckAccessControlPolicyExpression",
        "checks an expression's syntax",
    ),
    (
        "ValidateExpressionAgainstRequester",
        "evaluates an expression for the caller",
    ),
    (
        "TestAccessControlPolicyExpression",
        "lists the users an expression matches",
    ),
    ("GetCELVisualAST", "parses an expression"),
];

/// GETs that change something, each with what.
pub const WRITING_GETS: &[(&str, &str)] = &[
    (
        "UpdateAccessControlPolicyActiveStatus",
        "activates or deactivates an access control policy",
    ),
    (
        "RevealPost",
        "reveals a burn-on-read post to the caller, which starts its timer",
    ),
];

/// How an operation reaches outside Mattermost: the parameters that hold the address (`url`, a query
/// parameter; `body.site_url`, a body field; `body`, the whole body) and what Mattermost does with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outside {
    /// The parameters that hold the address, as the gateway names them (`url`, `body.site_url`,
    /// `body`).
    pub params: Vec<String>,
    /// What Mattermost does with the address, in a few words (the question shows it).
    pub how: String,
}

/// Operations that make Mattermost itself connect, send, or send a browser, to an address given in the
/// call: the parameters holding it, and what the server does, from its source (the 11.6 tree of
/// `mattermost/mattermost`, `server/channels/`). A model steered by text it read could otherwise carry
/// what it read to a host of its choosing through Mattermost, so each is classed a write (refused
/// without writes allowed, asked first, never retried) and the question shows the address. Found from
/// the spec's parameters ([`ADDRESS_WORDS`]; [`STAYS_INSIDE`] names those that only look like
/// addresses) and the server's handlers.
pub const REACHES_OUTSIDE: &[(&str, &[&str], &str)] = &[
    (
        "GetRedirectLocation",
        &["url"],
        "api4/system.go getRedirectLocation: the server sends HEAD to the url and answers its Location",
    ),
    (
        "GetSamlMetadataFromIdp",
        &["body.saml_metadata_url"],
        "app/saml.go GetSamlMetadataFromIdp: the server fetches the url",
    ),
    (
        "InstallPluginFromUrl",
        &["plugin_download_url"],
        "api4/plugin.go installPluginFromURL: the server downloads the url (DownloadFromURL)",
    ),
    (
        "TestSiteURL",
        &["body.site_url"],
        "app/admin.go TestSiteURL: the server GETs <site_url>/api/v4/system/ping",
    ),
    (
        "TestEmail",
        &["body"],
        "app/admin.go TestEmail: the server sends a mail through the SMTP server the body's EmailSettings name",
    ),
    (
        "TestS3Connection",
        &["body"],
        "api4/system.go testS3 -> app/file.go TestFileStoreConnectionWithConfig: the server connects to the \
         S3 endpoint the body's FileSettings name, with its credentials",
    ),
    (
        "TestLdapConnection",
        &["body.LdapServer"],
        "api4/ldap.go testLdapConnection -> app/ldap.go TestLdapConnection: the server connects to the LDAP \
         server given",
    ),
    (
        "TestLdapDiagnostics",
        &["body.LdapServer"],
        "api4/ldap.go testLdapDiagnostics: the server connects to the LDAP server given",
    ),
    (
        "ValidateOutgoingOAuthConnection",
        &["body.oauth_token_url"],
        "api4/outgoing_oauth_connection.go validateOutgoingOAuthConnectionCredentials: the server sends \
         the credentials to the token url (RetrieveTokenForConnection)",
    ),
    (
        "CreateOutgoingOAuthConnection",
        &["body.oauth_token_url"],
        "app/command.go: a command or webhook using the connection makes the server send its credentials \
         to the token url",
    ),
    (
        "UpdateOutgoingOAuthConnection",
        &["body.oauth_token_url"],
        "app/command.go: a command or webhook using the connection makes the server send its credentials \
         to the token url",
    ),
    (
        "CreateOutgoingWebhook",
        &["body.callback_urls"],
        "app/webhook.go TriggerWebhook: each post matching the trigger is sent by the server to the callback urls",
    ),
    (
        "CreateCommand",
        &["body.url"],
        "app/command.go DoCommandRequest: each use of the command is sent by the server to the url, with its \
         channel, user and text",
    ),
    (
        "UpdateCommand",
        &["body.url"],
        "app/command.go DoCommandRequest: each use of the command is sent by the server to the url",
    ),
    (
        "SubmitInteractiveDialog",
        &["body.url"],
        "app/integration_action.go SubmitInteractiveDialog: the server POSTs the submission to the url \
         (DoActionRequest)",
    ),
    (
        "LookupInteractiveDialog",
        &["body.url"],
        "app/integration_action.go LookupInteractiveDialog: the server POSTs the lookup to the url \
         (DoActionRequest)",
    ),
    (
        "OpenInteractiveDialog",
        &["body.url"],
        "app/integration_action.go OpenInteractiveDialog: the dialog's answers are sent to the url when \
         the person submits it",
    ),
    (
        "CreateOAuthApp",
        &["body.callback_urls"],
        "app/oauth.go: the app's authorization codes are sent (browsers redirected) to the callback urls",
    ),
    (
        "UpdateOAuthApp",
        &["body.callback_urls"],
        "app/oauth.go: the app's authorization codes are sent (browsers redirected) to the callback urls",
    ),
    (
        "RegisterOAuthClient",
        &["body.redirect_uris"],
        "api4/oauth.go registerOAuthClient: the client's authorization codes are sent (browsers redirected) \
         to the redirect uris",
    ),
    (
        "InviteGuestsToTeam",
        &["body.emails", "body.message"],
        "app/team.go InviteGuestsToChannelsGracefully: the server mails the message to the addresses given",
    ),
    (
        "InviteUsersToTeam",
        &["body"],
        "app/team.go InviteNewUsersToTeam: the server mails an invitation to the addresses given",
    ),
    (
        "UpdateConfig",
        &["body"],
        "api4/config.go updateConfig: the configuration names the servers Mattermost connects to (SMTP, \
         push notifications, file storage, image proxy, plugins' marketplace)",
    ),
    (
        "PatchConfig",
        &["body"],
        "api4/config.go patchConfig: the configuration names the servers Mattermost connects to",
    ),
];

/// The words that make a parameter or body field look like an address (a URL, a host, a server);
/// each operation with one is in [`REACHES_OUTSIDE`] or [`STAYS_INSIDE`] (a test holds that).
pub const ADDRESS_WORDS: &[&str] = &[
    "url", "uri", "redirect", "callback", "host", "server", "endpoint", "address", "domain",
    "link", "site",
];

/// Parameters that look like addresses but make Mattermost reach nothing outside, each with why.
pub const STAYS_INSIDE: &[(&str, &str, &str)] = &[
    (
        "CreateChannelBookmark",
        "body.link_url",
        "stored and shown; people's apps open it, the server does not",
    ),
    (
        "UpdateChannelBookmark",
        "body.link_url",
        "stored and shown; people's apps open it, the server does not",
    ),
    (
        "CreateChannelBookmark",
        "body.image_url",
        "an image people's apps show",
    ),
    (
        "UpdateChannelBookmark",
        "body.image_url",
        "an image people's apps show",
    ),
    (
        "TestLdapConnection",
        "body.ConnectionSecurity",
        "the TLS mode for the server in LdapServer",
    ),
    (
        "TestLdapDiagnostics",
        "body.ConnectionSecurity",
        "the TLS mode for the server in LdapServer",
    ),
    (
        "CreateIncomingWebhook",
        "body.icon_url",
        "an icon people's apps show",
    ),
    (
        "UpdateIncomingWebhook",
        "body.icon_url",
        "an icon people's apps show",
    ),
    (
        "UpdateCommand",
        "body.icon_url",
        "an icon people's apps show",
    ),
    (
        "CreateOAuthApp",
        "body.icon_url",
        "an icon people's apps show",
    ),
    (
        "UpdateOAuthApp",
        "body.icon_url",
        "an icon people's apps show",
    ),
    (
        "RegisterOAuthClient",
        "body.client_uri",
        "the client's home page, shown on the consent page",
    ),
    (
        "GenerateSupportPacket",
        "basic_server_logs",
        "a flag: which logs go in the packet",
    ),
    (
        "GetMarketplacePlugins",
        "server_version",
        "a version filter; the marketplace Mattermost asks is its configured one, not the call's",
    ),
    ("GetPing", "get_server_status", "a flag"),
    ("Login", "body.magic_link_token", "a token, not an address"),
    (
        "InviteGuestsToTeam",
        "guest_magic_link",
        "a flag: invite by magic link",
    ),
    (
        "LookupInteractiveDialog",
        "body.callback_id",
        "an id handed back to the integration",
    ),
    (
        "SubmitInteractiveDialog",
        "body.callback_id",
        "an id handed back to the integration",
    ),
    (
        "UpdateCloudCustomerAddress",
        "body",
        "a postal address for billing",
    ),
    (
        "UpdateTeam",
        "body.allowed_domains",
        "email domains allowed to join",
    ),
];

/// The outside reach of an operation, when it has one ([`REACHES_OUTSIDE`]).
pub fn reaches_outside(id: &str) -> Option<Outside> {
    REACHES_OUTSIDE
        .iter()
        .find(|(op, _, _)| *op == id)
        .map(|(_, params, how)| Outside {
            params: params.iter().map(|p| p.to_string()).collect(),
            how: how.to_string(),
        })
}

/// The parameters and body fields of an entry whose names look like addresses ([`ADDRESS_WORDS`]),
/// as the gateway names them (`url`, `body.site_url`; `body` for a body whose schema is named so).
pub fn address_like(e: &Entry) -> Vec<String> {
    let looks = |name: &str| {
        let lower = name.to_ascii_lowercase();
        ADDRESS_WORDS.iter().any(|w| lower.contains(w))
    };
    let mut out: Vec<String> = e
        .params
        .iter()
        .filter(|p| looks(&p.name))
        .map(|p| p.name.clone())
        .collect();
    if let Some(b) = &e.body {
        out.extend(
            b.fields
                .iter()
                .filter(|f| looks(&f.name))
                .map(|f| format!("body.{}", f.name)),
        );
        if b.schema.schema.as_deref().is_some_and(looks) {
            out.push("body".into());
        }
    }
    out
}

/// The last path segments that make a POST a search or a lookup.
pub const LOOKUP_SEGMENTS: &[&str] = &["search", "ids", "usernames", "autocomplete", "names"];

/// Reads or writes, and why: an operation that reaches outside Mattermost ([`REACHES_OUTSIDE`]) writes
/// whatever its method; GET and HEAD read (but for [`WRITING_GETS`]); a POST reads when its path ends
/// in a search or lookup word ([`LOOKUP_SEGMENTS`]) or it is one of [`READ_ONLY_POSTS`]; anything else
/// writes (including the `Test*` POSTs, which send mail or notifications or connect out).
pub fn access(id: &str, method: &str, path: &str) -> (Access, String) {
    if let Some(o) = reaches_outside(id) {
        return (
            Access::Write,
            format!(
                "exception: it reaches outside Mattermost, to the address in {} ({}), so it is asked like a write",
                o.params.join(", "),
                o.how
            ),
        );
    }
    let method = method.to_ascii_uppercase();
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    match method.as_str() {
        "GET" | "HEAD" => match WRITING_GETS.iter().find(|(op, _)| *op == id) {
            Some((_, why)) => (
                Access::Write,
                format!("exception: a {method} that writes ({why})"),
            ),
            None => (Access::Read, method.clone()),
        },
        "POST" if LOOKUP_SEGMENTS.contains(&last) => (
            Access::Read,
            format!("POST search or lookup (the path ends in /{last})"),
        ),
        "POST" => match READ_ONLY_POSTS.iter().find(|(op, _)| *op == id) {
            Some((_, why)) => (Access::Read, format!("exception: a read-only POST ({why})")),
            None => (Access::Write, "POST".into()),
        },
        other => (Access::Write, other.to_string()),
    }
}

/// What the project knows to be odd about an operation's paging (README "How lists are paged"; the
/// simulator follows it). The kind given here replaces the derived one.
pub const PAGING_QUIRKS: &[(&str, Option<PagingKind>, &str)] = &[
    (
        "GetFlaggedPostsForUser",
        Some(PagingKind::Offset),
        "page counts posts, not pages, and pages come back short mid-list: read until a page is empty",
    ),
    (
        "GetPostsForChannel",
        None,
        "before/after compare create_at strictly, with no tiebreak; since answers at most 1000 changed posts",
    ),
    (
        "GetUserThreads",
        None,
        "before/after (undocumented) page by last reply time; page is ignored then",
    ),
    (
        "SearchPosts",
        None,
        "answers page 0 only: at most the 100 newest matches; narrow with date terms",
    ),
    (
        "SearchPostsInAllTeams",
        None,
        "answers page 0 only: at most the 100 newest matches; narrow with date terms",
    ),
    (
        "SearchFiles",
        None,
        "answers page 0 only: at most the 100 newest matches; narrow with date terms",
    ),
    (
        "SearchFiles2",
        None,
        "answers page 0 only: at most the 100 newest matches; narrow with date terms",
    ),
];

/// Answers that are lists though they are objects: a list and its metadata.
pub const LIST_WRAPPERS: &[&str] = &[
    "PostList",
    "PostListWithSearchMatches",
    "UserThreads",
    "ChannelListWithTeamData",
    "FileInfoList",
    "ChannelsWithCount",
    "AccessControlPoliciesWithCount",
    "RetentionPolicyForTeamList",
    "RetentionPolicyForChannelList",
];

/// The paging kind from an operation's parameters and answer; first match wins:
/// 1. a cursor: `cursor`, `cursor_id`, or `after` without `before` -> [`PagingKind::CursorField`];
/// 2. `fromPost`/`fromCreateAt`/`fromUpdateAt` or `from_id`/`from_column_value` -> [`PagingKind::Keyset`];
/// 3. `before` and `after` -> [`PagingKind::BeforeAfter`];
/// 4. `page` with `per_page`, `perPage` or `logs_per_page` -> [`PagingKind::PagePerPage`];
/// 5. a lookup POST whose body is an array (ids, names) -> [`PagingKind::WholeList`]: as long as the input;
/// 6. `since` with a list answer -> [`PagingKind::Since`];
/// 7. `limit`, `per_page`, `limit_before`/`limit_after` alone -> [`PagingKind::LimitOnly`];
/// 8. an array or a list wrapper ([`LIST_WRAPPERS`]) -> [`PagingKind::WholeList`];
/// 9. otherwise [`PagingKind::None`].
///
/// Then [`PAGING_QUIRKS`] may replace the kind and add a note. Parameters are query parameters or
/// top-level body fields (`body.<name>`). A write is never paged: what it answers is what it did.
pub fn paging(
    id: &str,
    access: Access,
    params: &[Param],
    body: Option<&Body>,
    answer: &Answer,
    lookup_post: bool,
) -> Paging {
    if access == Access::Write {
        return Paging {
            kind: PagingKind::None,
            params: Vec::new(),
            modes: Vec::new(),
            note: None,
        };
    }
    let mut names: Vec<(String, String)> = params
        .iter()
        .filter(|p| p.location == "query")
        .map(|p| (p.name.clone(), p.name.clone()))
        .collect();
    if let Some(b) = body {
        names.extend(
            b.fields
                .iter()
                .map(|f| (f.name.clone(), format!("body.{}", f.name))),
        );
    }
    let has = |n: &str| names.iter().any(|(name, _)| name == n);
    let list = answer.kind == AnswerKind::Array
        || answer
            .schema
            .as_deref()
            .is_some_and(|s| answer.kind == AnswerKind::Object && LIST_WRAPPERS.contains(&s));
    let array_body = body.is_some_and(|b| b.schema.ty == "array");

    let cursor = has("cursor") || has("cursor_id") || (has("after") && !has("before"));
    let keyset = [
        "fromPost",
        "fromCreateAt",
        "fromUpdateAt",
        "from_id",
        "from_column_value",
    ]
    .iter()
    .any(|n| has(n));
    let before_after = has("before") && has("after");
    let page = has("page") && (has("per_page") || has("perPage") || has("logs_per_page"));
    let since = has("since") && list;
    let limit = [
        "limit",
        "per_page",
        "perPage",
        "limit_before",
        "limit_after",
    ]
    .iter()
    .any(|n| has(n));

    let mut modes = Vec::new();
    for (on, kind) in [
        (cursor, PagingKind::CursorField),
        (keyset, PagingKind::Keyset),
        (before_after, PagingKind::BeforeAfter),
        (page, PagingKind::PagePerPage),
        (lookup_post && array_body, PagingKind::WholeList),
        (since, PagingKind::Since),
        (limit && !cursor && !page, PagingKind::LimitOnly),
        (list, PagingKind::WholeList),
    ] {
        if on && !modes.contains(&kind) {
            modes.push(kind);
        }
    }
    let mut kind = modes.first().copied().unwrap_or(PagingKind::None);
    let mut note = None;
    if let Some((_, replace, why)) = PAGING_QUIRKS.iter().find(|(op, _, _)| *op == id) {
        if let Some(k) = replace {
            kind = *k;
            modes.retain(|m| m != k);
            modes.insert(0, *k);
        }
        note = Some(why.to_string());
    }
    if kind == PagingKind::None {
        modes.clear();
    }
    const PAGING_NAMES: &[&str] = &[
        "page",
        "per_page",
        "perPage",
        "logs_per_page",
        "before",
        "after",
        "since",
        "cursor",
        "cursor_id",
        "limit",
        "limit_before",
        "limit_after",
        "fromPost",
        "fromCreateAt",
        "fromUpdateAt",
        "from_id",
        "from_column_value",
        "direction",
    ];
    let params = if kind == PagingKind::None {
        Vec::new()
    } else {
        names
            .iter()
            .filter(|(n, _)| PAGING_NAMES.contains(&n.as_str()))
            .map(|(_, shown)| shown.clone())
            .collect()
    };
    Paging {
        kind,
        params,
        modes,
        note,
    }
}

/// Classifies every operation of `doc` (the repaired spec, multipart operations removed) and of
/// `excluded` (those removed, marked not callable).
pub fn classify(
    doc: &Value,
    excluded: &[Excluded],
    overrides: &Overrides,
    release: &str,
) -> Catalog {
    let mut operations = Vec::new();
    let added: BTreeMap<&str, &str> = overrides
        .repairs
        .iter()
        .filter(|r| r.repair == "add_operation")
        .filter_map(|r| Some((r.operation.as_deref()?, r.file.as_str())))
        .collect();
    let mut visit = |path: &str, item: &Value, only: Option<&str>, not_callable: Option<&str>| {
        let shared = item.get("parameters").and_then(Value::as_array);
        for method in METHODS {
            if only.is_some_and(|m| !m.eq_ignore_ascii_case(method)) {
                continue;
            }
            let Some(op) = item.get(method) else { continue };
            let Some(id) = op.get("operationId").and_then(Value::as_str) else {
                continue;
            };
            let mut entry = entry(doc, overrides, id, method, path, shared, op);
            entry.not_callable = not_callable.map(str::to_string);
            entry.added_by = added.get(id).map(|f| f.to_string());
            operations.push(entry);
        }
    };
    if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
        for (path, item) in paths {
            visit(path, item, None, None);
        }
    }
    for x in excluded {
        let reason = format!(
            "not callable: multipart ({}); it is left out of the generated client",
            x.reason
        );
        visit(&x.path, &x.item, Some(&x.method), Some(&reason));
    }
    operations.sort_by(|a, b| a.id.cmp(&b.id));
    Catalog {
        release: release.to_string(),
        operations,
    }
}

fn entry(
    doc: &Value,
    overrides: &Overrides,
    id: &str,
    method: &str,
    path: &str,
    shared: Option<&Vec<Value>>,
    op: &Value,
) -> Entry {
    let undocumented = |location: &str, name: &str| {
        overrides
            .parameters
            .iter()
            .find(|p| p.operation == id && p.location == location && p.name == name)
            .map(|p| Undocumented {
                file: p.file.clone(),
                source: p.evidence.source.clone(),
            })
    };
    let mut params: Vec<Param> = Vec::new();
    let own = op.get("parameters").and_then(Value::as_array);
    for p in shared
        .into_iter()
        .flatten()
        .chain(own.into_iter().flatten())
    {
        let p = resolve(doc, p);
        let (Some(name), Some(location)) = (
            p.get("name").and_then(Value::as_str),
            p.get("in").and_then(Value::as_str),
        ) else {
            continue;
        };
        let param = Param {
            name: name.to_string(),
            location: location.to_string(),
            required: location == "path"
                || p.get("required").and_then(Value::as_bool).unwrap_or(false),
            schema: p
                .get("schema")
                .map(|s| type_info(doc, s))
                .unwrap_or_default(),
            undocumented: undocumented(location, name),
        };
        params.retain(|q| !(q.location == param.location && q.name == param.name));
        params.push(param);
    }
    let body = op
        .get("requestBody")
        .map(|b| resolve(doc, b))
        .and_then(|b| {
            let (media, content) = b.get("content")?.as_object()?.iter().next()?;
            let schema = content.get("schema").cloned().unwrap_or(json!({}));
            let required = b.get("required").and_then(Value::as_bool).unwrap_or(false);
            let mut fields = Vec::new();
            let mut required_names = Vec::new();
            collect_fields(doc, &schema, 0, &mut fields, &mut required_names);
            let fields = fields
                .into_iter()
                .map(|(name, s)| Field {
                    required: required_names.contains(&name),
                    undocumented: undocumented("body", &name),
                    schema: type_info(doc, &s),
                    name,
                })
                .collect();
            Some(Body {
                media: media.clone(),
                required,
                schema: type_info(doc, &schema),
                fields,
                sample: sample(doc, &schema, 0),
            })
        });
    let answer = answer(doc, op);
    let lookup_post = method == "post"
        && LOOKUP_SEGMENTS.contains(&path.trim_end_matches('/').rsplit('/').next().unwrap_or(""));
    let (access, access_rule) = access(id, method, path);
    let paging = paging(id, access, &params, body.as_ref(), &answer, lookup_post);
    let facts = op.get(PERMISSIONS);
    let names = |k: &str| -> Vec<String> {
        facts
            .and_then(|f| f.get(k))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    let permissions = Permissions {
        required: names("required"),
        conditional: names("conditional"),
        system_admin: facts
            .and_then(|f| f.get("system_admin"))
            .and_then(Value::as_bool)
            .unwrap_or(false),
    };
    Entry {
        id: id.to_string(),
        method: method.to_ascii_uppercase(),
        path: path.to_string(),
        tags: op
            .get("tags")
            .and_then(Value::as_array)
            .map(|t| {
                t.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
        access,
        access_rule,
        outside: reaches_outside(id),
        paging,
        permissions,
        since: op.get(SINCE).and_then(Value::as_str).map(str::to_string),
        deprecated: op
            .get("deprecated")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        params,
        body,
        answer,
        not_callable: None,
        added_by: None,
        client_method: None,
    }
}

fn answer(doc: &Value, op: &Value) -> Answer {
    let mut statuses = Vec::new();
    let mut first: Option<&Value> = None;
    if let Some(responses) = op.get("responses").and_then(Value::as_object) {
        for (status, r) in responses {
            if status.starts_with('2') {
                statuses.push(status.clone());
                first.get_or_insert(resolve(doc, r));
            }
        }
    }
    if statuses.is_empty() {
        return Answer {
            kind: AnswerKind::Undeclared,
            schema: None,
            media: None,
            statuses,
        };
    }
    let content = first
        .and_then(|r| r.get("content"))
        .and_then(Value::as_object)
        .filter(|c| !c.is_empty());
    let Some(content) = content else {
        return Answer {
            kind: AnswerKind::NoContent,
            schema: None,
            media: None,
            statuses,
        };
    };
    let json_media = content.keys().find(|m| is_json(m)).cloned();
    let Some(media) = json_media else {
        return Answer {
            kind: AnswerKind::Binary,
            schema: None,
            media: content.keys().next().cloned(),
            statuses,
        };
    };
    let schema = content
        .get(&media)
        .and_then(|m| m.get("schema"))
        .cloned()
        .unwrap_or(json!({}));
    let t = type_info(doc, &schema);
    let kind = match t.ty.as_str() {
        "object" => AnswerKind::Object,
        "array" => AnswerKind::Array,
        "string" | "integer" | "number" | "boolean" => AnswerKind::Scalar,
        _ => AnswerKind::Any,
    };
    Answer {
        kind,
        schema: if kind == AnswerKind::Array {
            t.items.filter(|i| is_component_name(i))
        } else {
            t.schema
        },
        media: Some(media),
        statuses,
    }
}

/// A media type the generated client reads as JSON (progenitor's rule); any other is read as bytes.
fn is_json(media: &str) -> bool {
    media == "application/json" || media.starts_with("application/json;")
}

fn is_component_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

fn ref_name(schema: &Value) -> Option<String> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .map(|r| r.rsplit('/').next().unwrap_or(r).to_string())
}

/// A schema's type, following `$ref` for its details and `allOf` for its kind.
pub fn type_info(doc: &Value, schema: &Value) -> TypeInfo {
    let name = ref_name(schema);
    let target = resolve(doc, schema);
    let ty = match target.get("type").and_then(Value::as_str) {
        Some(t) => t.to_string(),
        None if target.get("properties").is_some() || target.get("allOf").is_some() => {
            "object".into()
        }
        None => "any".into(),
    };
    let items = (ty == "array").then(|| {
        target
            .get("items")
            .map(|i| crate::surface::type_name(doc, i))
            .unwrap_or_else(|| "any".into())
    });
    TypeInfo {
        ty,
        format: target
            .get("format")
            .and_then(Value::as_str)
            .map(str::to_string),
        schema: name,
        items,
        enum_values: target
            .get("enum")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
        default: target.get("default").cloned(),
        minimum: target.get("minimum").cloned(),
        maximum: target.get("maximum").cloned(),
        nullable: target
            .get("nullable")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    }
}

fn collect_fields(
    doc: &Value,
    schema: &Value,
    depth: usize,
    fields: &mut Vec<(String, Value)>,
    required: &mut Vec<String>,
) {
    if depth > 6 {
        return;
    }
    let schema = resolve(doc, schema);
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        for part in parts {
            collect_fields(doc, part, depth + 1, fields, required);
        }
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            if !fields.iter().any(|(n, _)| n == name) {
                fields.push((name.clone(), prop.clone()));
            }
        }
    }
    if let Some(req) = schema.get("required").and_then(Value::as_array) {
        required.extend(req.iter().filter_map(Value::as_str).map(str::to_string));
    }
}

/// A 26-character placeholder in the shape of a Mattermost id.
pub const SAMPLE_ID: &str = "x26sampleidxxxxxxxxxxxxxxx";

/// A minimal value `schema` accepts: required fields only (recursively), an enum's first value, a
/// number within its bounds, an array with `minItems` items (one for a top-level array).
pub fn sample(doc: &Value, schema: &Value, depth: usize) -> Value {
    let s = resolve(doc, schema);
    if depth > 8 {
        return Value::Null;
    }
    if let Some(first) = s
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(first) = ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| s.get(*k).and_then(Value::as_array).and_then(|v| v.first()))
    {
        return sample(doc, first, depth + 1);
    }
    let t = type_info(doc, s);
    match t.ty.as_str() {
        "string" => match t.format.as_deref() {
            Some("date-time") => json!("2024-01-01T00:00:00Z"),
            Some("date") => json!("2024-01-01"),
            Some("uuid") => json!("00000000-0000-0000-0000-000000000000"),
            _ => json!(SAMPLE_ID),
        },
        "integer" => json!(number_within(&t).round() as i64),
        "number" => json!(number_within(&t)),
        "boolean" => json!(false),
        "array" => {
            let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let n = if depth == 0 { min.max(1) } else { min };
            let item = s.get("items").cloned().unwrap_or(json!({}));
            Value::Array((0..n).map(|_| sample(doc, &item, depth + 1)).collect())
        }
        "object" => {
            let mut fields = Vec::new();
            let mut required = Vec::new();
            collect_fields(doc, s, 0, &mut fields, &mut required);
            let mut out = Map::new();
            for (name, prop) in fields {
                if required.contains(&name) {
                    out.insert(name, sample(doc, &prop, depth + 1));
                }
            }
            Value::Object(out)
        }
        _ => json!({}),
    }
}

fn number_within(t: &TypeInfo) -> f64 {
    let lo = t.minimum.as_ref().and_then(Value::as_f64);
    let hi = t.maximum.as_ref().and_then(Value::as_f64);
    let v = lo.map_or(1.0, |l| l.max(1.0));
    match hi {
        Some(h) if v > h => h,
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, location: &str) -> Param {
        Param {
            name: name.into(),
            location: location.into(),
            required: false,
            schema: TypeInfo {
                ty: "integer".into(),
                ..TypeInfo::default()
            },
            undocumented: None,
        }
    }

    fn array_answer() -> Answer {
        Answer {
            kind: AnswerKind::Array,
            schema: Some("User".into()),
            media: Some("application/json".into()),
            statuses: vec!["200".into()],
        }
    }

    #[test]
    fn paging_kinds_follow_the_parameters() {
        let a = array_answer();
        let k = |params: &[Param]| paging("X", Access::Read, params, None, &a, false).kind;
        assert_eq!(
            k(&[p("page", "query"), p("per_page", "query")]),
            PagingKind::PagePerPage
        );
        assert_eq!(
            k(&[
                p("before", "query"),
                p("after", "query"),
                p("page", "query"),
                p("per_page", "query")
            ]),
            PagingKind::BeforeAfter
        );
        assert_eq!(
            k(&[p("after", "query"), p("limit", "query")]),
            PagingKind::CursorField
        );
        assert_eq!(k(&[p("since", "query")]), PagingKind::Since);
        assert_eq!(k(&[p("limit", "query")]), PagingKind::LimitOnly);
        assert_eq!(k(&[]), PagingKind::WholeList);
        let one = Answer {
            kind: AnswerKind::Object,
            schema: Some("User".into()),
            ..a.clone()
        };
        assert_eq!(
            paging("X", Access::Read, &[], None, &one, false).kind,
            PagingKind::None
        );
        assert_eq!(
            paging("X", Access::Write, &[], None, &a, false).kind,
            PagingKind::None
        );
        let q = paging(
            "GetFlaggedPostsForUser",
            Access::Read,
            &[p("page", "query"), p("per_page", "query")],
            None,
            &a,
            false,
        );
        assert_eq!(q.kind, PagingKind::Offset);
        assert!(q.note.is_some());
    }

    #[test]
    fn access_follows_the_method_and_the_exceptions() {
        assert_eq!(
            access("GetUser", "get", "/api/v4/users/{id}").0,
            Access::Read
        );
        assert_eq!(
            access("SearchUsers", "post", "/api/v4/users/search").0,
            Access::Read
        );
        assert_eq!(
            access("GetBulkReactions", "post", "/api/v4/posts/ids/reactions").0,
            Access::Read
        );
        assert_eq!(
            access("CreatePost", "post", "/api/v4/posts").0,
            Access::Write
        );
        assert_eq!(
            access("TestEmail", "post", "/api/v4/email/test").0,
            Access::Write
        );
        assert_eq!(
            access("RevealPost", "get", "/api/v4/posts/{post_id}/reveal").0,
            Access::Write
        );
        assert_eq!(
            access("DeletePost", "delete", "/api/v4/posts/{post_id}").0,
            Access::Write
        );
    }

    #[test]
    fn samples_fill_required_fields_within_bounds() {
        let doc = json!({"components": {"schemas": {"Inner": {"type": "object", "required": ["n"], "properties": {
            "n": {"type": "integer", "minimum": 5}, "skip": {"type": "string"}}}}}});
        let s = json!({"type": "object", "required": ["kind", "inner", "tags", "id"], "properties": {
            "kind": {"type": "string", "enum": ["a", "b"]},
            "inner": {"$ref": "#/components/schemas/Inner"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "id": {"type": "string"},
            "optional": {"type": "boolean"}
        }});
        assert_eq!(
            sample(&doc, &s, 0),
            json!({"kind": "a", "inner": {"n": 5}, "tags": [], "id": SAMPLE_ID})
        );
        assert_eq!(
            sample(
                &doc,
                &json!({"type": "array", "items": {"type": "string"}}),
                0
            ),
            json!([SAMPLE_ID])
        );
    }

    #[test]
    fn names_resolve_in_any_spelling_and_unknown_ones_get_suggestions() {
        let entry = |id: &str| Entry {
            id: id.into(),
            method: "GET".into(),
            path: "/x".into(),
            tags: vec![],
            access: Access::Read,
            access_rule: "GET".into(),
            outside: None,
            paging: Paging {
                kind: PagingKind::None,
                params: vec![],
                modes: vec![],
                note: None,
            },
            permissions: Permissions::default(),
            since: None,
            deprecated: false,
            params: vec![],
            body: None,
            answer: array_answer(),
            not_callable: None,
            added_by: None,
            client_method: None,
        };
        let c = Catalog {
            release: "t".into(),
            operations: vec![entry("GetPostsForChannel"), entry("GetUser")],
        };
        assert_eq!(
            c.resolve("get_posts_for_channel").map(|e| e.id.as_str()),
            Some("GetPostsForChannel")
        );
        assert_eq!(c.resolve("GetUser").map(|e| e.id.as_str()), Some("GetUser"));
        assert!(c.resolve("GetUsers").is_none());
        assert_eq!(c.suggest("GetPosts"), vec!["GetPostsForChannel"]);
    }
}
