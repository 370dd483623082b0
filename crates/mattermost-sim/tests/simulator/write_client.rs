//! Client calls the write tests need beyond `common.rs`: PUT, DELETE, a raw POST with a content
//! type, multipart uploads, and a few shorthands (create a post, read one back).

use serde_json::{Value, json};

use crate::common::*;

impl Client {
    fn url(&self, path: &str) -> String {
        format!("{}/api/v4{path}", self.base)
    }

    fn with_auth(&self, rb: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.token {
            Some(t) => rb.header("Authorization", format!("Bearer {t}")),
            None => rb,
        }
    }

    async fn run(rb: reqwest::RequestBuilder) -> Resp {
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

    pub async fn put(&self, path: &str, body: &Value) -> Resp {
        Self::run(self.with_auth(self.http.put(self.url(path))).json(body)).await
    }

    pub async fn delete(&self, path: &str) -> Resp {
        Self::run(self.with_auth(self.http.delete(self.url(path)))).await
    }

    pub async fn post_bytes(&self, path: &str, content_type: &str, body: Vec<u8>) -> Resp {
        Self::run(
            self.with_auth(self.http.post(self.url(path)))
                .header("Content-Type", content_type)
                .body(body),
        )
        .await
    }

    /// POST /posts with a JSON body; the response.
    pub async fn create_post(&self, body: Value) -> Resp {
        self.post("/posts", &body).await
    }

    /// POST /posts `{channel_id, message}`; the new post's id (panics unless 201).
    pub async fn say(&self, channel: &str, message: &str) -> String {
        let r = self
            .create_post(json!({"channel_id": channel, "message": message}))
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
        r.json()["id"].as_str().unwrap().to_string()
    }

    /// GET /posts/{id} (the post, or the error).
    pub async fn post_json(&self, id: &str) -> Resp {
        self.get(&format!("/posts/{id}")).await
    }
}

/// One part of a multipart body: field name, file name (none: a form value), bytes.
pub type FormPart<'a> = (&'a str, Option<&'a str>, &'a [u8]);

/// A `multipart/form-data` body of these parts; (content type, body).
pub fn multipart(parts: &[FormPart]) -> (String, Vec<u8>) {
    let boundary = "sim-boundary-7MA4YWxkTrZu0gW";
    let mut body = Vec::new();
    for (name, filename, data) in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match filename {
            Some(f) => body.extend_from_slice(
                format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                )
                .as_bytes(),
            ),
            None => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
            ),
        }
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// The posts of a channel, newest first, as `{id → post}` plus the order.
pub async fn channel_posts(c: &Client, channel: &str) -> (Vec<String>, Value) {
    let r = c.get(&format!("/channels/{channel}/posts")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = r.json();
    (strings(&v["order"]), v["posts"].clone())
}
