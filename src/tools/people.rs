//! People: who the server acts as.

use crate::context::{Ctx, Input, Output};
use crate::error::ToolError;
use crate::mattermost::send;
use crate::time::rfc3339;
use serde_json::{Value, json};

pub async fn get_me(cx: &Ctx, _input: Input) -> Result<Output, ToolError> {
    let answer = send(cx.mm.api.get_user("me"))
        .await
        .map_err(|e| cx.fail(e, "user", "me"))?;
    let version = answer
        .headers()
        .get("x-version-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let u = answer.into_inner();
    if let (Some(id), Some(name)) = (&u.id, &u.username) {
        cx.learn_username(id, name);
    }
    let timezone = u.timezone.as_ref().map(|tz| {
        let automatic = tz.use_automatic_timezone.as_deref() == Some("true");
        let zone = if automatic {
            tz.automatic_timezone.clone()
        } else {
            tz.manual_timezone.clone()
        };
        json!(zone.filter(|z| !z.is_empty()))
    });
    let mut out = json!({
        "id": u.id,
        "username": u.username,
        "first_name": u.first_name,
        "last_name": u.last_name,
        "nickname": u.nickname,
        "email": u.email,
        "roles": u.roles.as_deref().map(|r| r.split_whitespace().collect::<Vec<_>>()).unwrap_or_default(),
        "locale": u.locale,
        "timezone": timezone.unwrap_or(Value::Null),
        "is_bot": u.is_bot.unwrap_or(false),
        "created": u.create_at.map(rfc3339),
        "mattermost_url": cx.mm.url,
    });
    if let (Some(v), Some(obj)) = (version, out.as_object_mut()) {
        let release: Vec<&str> = v.split('.').take(3).collect();
        obj.insert("mattermost_version".into(), json!(release.join(".")));
        obj.insert("mattermost_version_id".into(), json!(v));
    }
    Ok(Output::One(out))
}
