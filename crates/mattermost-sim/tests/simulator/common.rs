//! Shared helpers: a small fixture world and a thin HTTP client.

use mattermost_sim::{ChannelKind, Sim, World};
use serde_json::Value;

/// A base time for posts (2023-11-14T22:13:20Z).
pub const T0: i64 = 1_700_000_000_000;

pub struct Fixture {
    pub world: World,
    pub team: String,
    pub other_team: String,
    pub alice: String,
    pub bob: String,
    pub carol: String,
    pub town: String,
    pub private: String,
}

/// A reqwest client builder, with the process's TLS provider installed first: built together with the
/// server's crates (`cargo test --workspace`), reqwest carries no provider of its own and would refuse
/// to build a client without one.
pub fn http_client() -> reqwest::ClientBuilder {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    reqwest::Client::builder()
}

/// Team "acme" (open) with alice, bob, carol; "town-square" (all three) and private "secret"
/// (alice and bob); invite-only team "hidden" with alice only.
pub fn fixture() -> Fixture {
    let mut w = World::new(7);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let carol = w.user("carol");
    let team = w.team("acme", "Acme", true);
    let other_team = w.team("hidden", "Hidden", false);
    let town = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    let private = w.channel(&team, "secret", "Secret", ChannelKind::Private);
    for u in [&alice, &bob, &carol] {
        w.add_to_team(&team, u);
        w.join(&town, u);
    }
    w.join(&private, &alice);
    w.join(&private, &bob);
    w.add_to_team(&other_team, &alice);
    Fixture {
        world: w,
        team,
        other_team,
        alice,
        bob,
        carol,
        town,
        private,
    }
}

pub struct Resp {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|s| s.to_string())
    }

    /// The `order` of a PostList.
    pub fn order(&self) -> Vec<String> {
        strings(&self.json()["order"])
    }

    /// The `id` of an AppError body.
    pub fn error_id(&self) -> String {
        self.json()["id"].as_str().unwrap_or("").to_string()
    }
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Ids of an array of objects.
pub fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["id"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub token: Option<String>,
}

impl Client {
    pub fn new(sim: &Sim, user: &str) -> Client {
        Client {
            http: http_client().build().expect("an HTTP client"),
            base: sim.url(),
            token: Some(sim.token(user)),
        }
    }

    pub fn anonymous(sim: &Sim) -> Client {
        Client {
            http: http_client().build().expect("an HTTP client"),
            base: sim.url(),
            token: None,
        }
    }

    fn auth(&self, rb: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.token {
            Some(t) => rb.header("Authorization", format!("Bearer {t}")),
            None => rb,
        }
    }

    async fn send(rb: reqwest::RequestBuilder) -> Resp {
        let r = rb.send().await.expect("request failed");
        let status = r.status().as_u16();
        let headers = r.headers().clone();
        let text = r.text().await.unwrap_or_default();
        Resp {
            status,
            headers,
            text,
        }
    }

    /// GET `/api/v4` + `path` (which may carry a query string).
    pub async fn get(&self, path: &str) -> Resp {
        Self::send(self.auth(self.http.get(format!("{}/api/v4{path}", self.base)))).await
    }

    pub async fn get_with(&self, path: &str, header: (&str, &str)) -> Resp {
        Self::send(
            self.auth(self.http.get(format!("{}/api/v4{path}", self.base)))
                .header(header.0, header.1),
        )
        .await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Resp {
        Self::send(
            self.auth(self.http.post(format!("{}/api/v4{path}", self.base)))
                .json(body),
        )
        .await
    }

    pub async fn post_raw(&self, path: &str, content_type: &str, body: &str) -> Resp {
        Self::send(
            self.auth(self.http.post(format!("{}/api/v4{path}", self.base)))
                .header("Content-Type", content_type)
                .body(body.to_string()),
        )
        .await
    }
}

/// Start a simulator on `world` and a client for `user`.
pub async fn start(world: World, user: &str) -> (Sim, Client) {
    let sim = Sim::start(world).await.expect("sim starts");
    let c = Client::new(&sim, user);
    (sim, c)
}
