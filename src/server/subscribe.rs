//! Subscriptions, in both protocol forms, over the person's watcher (`crate::live`):
//!
//! - 2025-11-25 (stdio, and HTTP sessions): `resources/subscribe` and `resources/unsubscribe`; each
//!   session has one task that forwards its person's updates of the URIs it subscribed to as
//!   `notifications/resources/updated`, and `notifications/resources/list_changed` when the person's
//!   channels change. The task ends, dropping the session's watches, when the session's transport
//!   closes or the person's watcher ends.
//! - 2026-07-28: `subscriptions/listen`, whose filter names the URIs (and whether the resource list
//!   is wanted); the stream lasts until the client cancels it, the person's watcher ends, or the
//!   server stops.
//!
//! Before anything is watched the person's access is checked as the person: a channel by their
//! membership (Mattermost sends a channel's events to its members only), a thread by its root
//! post's channel. An update carries the URI only.

use super::state::Server;
use crate::context::Ctx;
use crate::error::About;
use crate::live::sessions::{self, Guards, Sessions};
use crate::live::{Person, Update, Watchable, Watcher};
use crate::mattermost::MmError;
use crate::mattermost::call::CallScope;
use rmcp::model::{ResourceUpdatedNotificationParam, SubscriptionFilter};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, Peer, RoleServer};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

/// How often a session's forwarder looks whether its transport closed.
const CLOSED_CHECK: Duration = Duration::from_secs(15);

/// The session a request belongs to: its `Mcp-Session-Id` over HTTP, the one session over stdio.
fn session_of(rcx: &RequestContext<RoleServer>) -> String {
    rcx.extensions
        .get::<http::request::Parts>()
        .and_then(|p| p.headers.get("mcp-session-id"))
        .and_then(|v| v.to_str().ok())
        .map(|s| format!("http:{s}"))
        .unwrap_or_else(|| "stdio".to_string())
}

impl Server {
    fn person(&self, cx: Arc<Ctx>) -> Result<Person, ErrorData> {
        match &self.live {
            Some(live) => Ok(Person {
                live: live.clone(),
                cx,
            }),
            None => Err(ErrorData::method_not_found::<
                rmcp::model::SubscribeRequestMethod,
            >()),
        }
    }

    /// `resources/subscribe`.
    pub(super) async fn subscribe_uri(
        &self,
        uri: &str,
        rcx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let person = self.person(self.people.of(rcx)?)?;
        let what = Watchable::parse(uri).map_err(|e| refused(uri, e))?;
        let watcher = person.watcher().await.map_err(|e| refused(uri, e))?;
        let (channel, root) = access(&watcher, &what, self.budget).await?;
        let session = session_of(rcx);
        let guards = self.subscriptions.guards_or_start(&session, |guards| {
            tokio::spawn(forward(
                rcx.peer.clone(),
                watcher.clone(),
                guards,
                self.subscriptions.clone(),
                session.clone(),
            ))
            .abort_handle()
        });
        if sessions::guards(&guards).contains_key(uri) {
            return Ok(());
        }
        let guard = watcher
            .watch(what, channel, root)
            .map_err(|e| refused(uri, e))?;
        sessions::guards(&guards).insert(uri.to_string(), guard);
        Ok(())
    }

    /// `resources/unsubscribe`: the watch ends (unsubscribing what was not subscribed is no error).
    pub(super) fn unsubscribe_uri(&self, uri: &str, rcx: &RequestContext<RoleServer>) {
        self.subscriptions.unwatch(&session_of(rcx), uri);
    }

    /// `subscriptions/listen`: runs one stream until it is cancelled, the person's watcher ends or
    /// the server stops.
    pub(super) async fn listen_stream(
        &self,
        context: SubscriptionContext,
    ) -> Result<(), ErrorData> {
        let rcx = context.request_context();
        let person = self.person(self.people.of(rcx)?)?;
        let accepted = context.accepted().clone();
        let uris = accepted.resource_subscriptions.clone().unwrap_or_default();
        let watcher = person
            .watcher()
            .await
            .map_err(|e| refused(uris.first().map(String::as_str).unwrap_or(""), e))?;
        let mut guards = Vec::new();
        for uri in &uris {
            let what = Watchable::parse(uri).map_err(|e| refused(uri, e))?;
            let (channel, root) = access(&watcher, &what, self.budget).await?;
            guards.push(
                watcher
                    .watch(what, channel, root)
                    .map_err(|e| refused(uri, e))?,
            );
        }
        let lists = accepted.resources_list_changed == Some(true);
        let mut updates = watcher.updates();
        let stopping = person.live.stopping().clone();
        let sink = context.sink().clone();
        loop {
            tokio::select! {
                () = context.cancelled() => break,
                () = watcher.ended() => break,
                () = stopping.cancelled() => break,
                got = updates.recv() => match got {
                    Ok(Update::Resource(uri)) if uris.contains(&uri) => {
                        if sink.notify_resource_updated(uri).await.is_err() {
                            break;
                        }
                    }
                    Ok(Update::ListChanged) if lists => {
                        if sink.notify_resource_list_changed().await.is_err() {
                            break;
                        }
                    }
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                },
            }
        }
        drop(guards);
        Ok(())
    }
}

/// The filter a listen stream is accepted with: the URIs that can be watched, and the resource
/// list when asked (a URI that cannot be watched is left out, and named in the acknowledgement by
/// its absence).
pub(super) fn accepted_filter(requested: &SubscriptionFilter) -> SubscriptionFilter {
    let mut accepted = SubscriptionFilter::new();
    accepted.resources_list_changed = requested.resources_list_changed;
    accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
        uris.iter()
            .filter(|u| Watchable::parse(u).is_ok())
            .cloned()
            .collect()
    });
    accepted
}

fn refused(uri: &str, why: String) -> ErrorData {
    ErrorData::invalid_params(why, Some(json!({"uri": uri})))
}

/// Checks, as the person, that they may hear of `what`; answers its channel and (for a thread) its
/// root post.
async fn access(
    watcher: &Watcher,
    what: &Watchable,
    budget: Duration,
) -> Result<(Option<String>, Option<String>), ErrorData> {
    let cx = watcher.cx().clone();
    let me = watcher.me().to_string();
    let uri = what.uri();
    let channel = match what {
        Watchable::Inbox => return Ok((None, None)),
        Watchable::Channel(id) => id.clone(),
        Watchable::Thread(id) => {
            let scope = Arc::new(CallScope::new(
                "subscribe",
                cx.token().clone(),
                ["GetPost"],
                budget,
            ));
            let c = cx.clone();
            let post_id = id.clone();
            let post = scope
                .run(async move { c.send(c.api().get_post().post_id(&post_id).send()).await })
                .await
                .map_err(|e| not_readable(&uri, "post", id, e))?
                .into_inner();
            let root = post
                .root_id
                .clone()
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| id.clone());
            let channel = post.channel_id.clone().unwrap_or_default();
            member(&cx, &me, &channel, &uri, budget).await?;
            return Ok((Some(channel), Some(root)));
        }
    };
    member(&cx, &me, &channel, &uri, budget).await?;
    Ok((Some(channel), None))
}

async fn member(
    cx: &Arc<Ctx>,
    me: &str,
    channel: &str,
    uri: &str,
    budget: Duration,
) -> Result<(), ErrorData> {
    let scope = Arc::new(CallScope::new(
        "subscribe",
        cx.token().clone(),
        ["GetChannelMember"],
        budget,
    ));
    let c = cx.clone();
    let (ch, who) = (channel.to_string(), me.to_string());
    scope
        .run(async move {
            c.send(
                c.api()
                    .get_channel_member()
                    .channel_id(&ch)
                    .user_id(&who)
                    .send(),
            )
            .await
        })
        .await
        .map(|_| ())
        .map_err(|e| not_readable(uri, "channel", channel, e))
}

fn not_readable(uri: &str, what: &str, id: &str, e: MmError) -> ErrorData {
    match e {
        MmError::Api {
            status: 403 | 404, ..
        } => ErrorData::invalid_params(
            format!(
                "{uri} cannot be watched: you are not a member of that {what}'s channel, or it does not exist \
                 ({what} {id}). Mattermost tells a channel's events to its members only: join the channel \
                 (join_channel) and subscribe again, or read it with read_channel."
            ),
            Some(json!({"uri": uri})),
        ),
        other => ErrorData::internal_error(
            format!(
                "{uri} could not be checked with Mattermost, so it is not watched: {}",
                other.about(what, id, "").message
            ),
            Some(json!({"uri": uri})),
        ),
    }
}

/// Forwards a session's updates until its transport closes or the watcher ends; then drops its
/// watches.
async fn forward(
    peer: Peer<RoleServer>,
    watcher: Arc<Watcher>,
    guards: Guards,
    all: Arc<Sessions>,
    session: String,
) {
    let mut updates = watcher.updates();
    let mut check = tokio::time::interval(CLOSED_CHECK);
    loop {
        tokio::select! {
            () = watcher.ended() => break,
            _ = check.tick() => {
                if peer.is_transport_closed() {
                    break;
                }
            }
            got = updates.recv() => match got {
                Ok(Update::Resource(uri)) => {
                    if !sessions::guards(&guards).contains_key(&uri) {
                        continue;
                    }
                    if peer
                        .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
                Ok(Update::ListChanged) => {
                    if peer.notify_resource_list_changed().await.is_err() {
                        break;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            },
        }
    }
    sessions::guards(&guards).clear();
    all.end(&session);
}
