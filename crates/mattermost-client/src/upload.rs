//! `UploadFile` (`POST /api/v4/files`), written by hand beside the generated client: its body is
//! `multipart/form-data`, which progenitor cannot generate (the operation is left out of generation,
//! see `mattermost_spec::repairs::drop_multipart`). The request is built here and sent through the
//! generated client's own hooks ([`ClientHooks::pre`], `exec`, `post` with the operation
//! `upload_file`), so it carries the person's token, is counted, is refused when the running tool does
//! not declare `UploadFile`, is never retried blindly, and fails the way every other request does.

use super::errors::MmError;
use super::generated::{Client, types};
use progenitor_client::{ClientHooks, ClientInfo, Error, OperationInfo};
use reqwest::header::{CONTENT_TYPE, HeaderValue};
use serde::Deserialize;

/// The operation, as the generated client's hooks name operations.
pub const OPERATION: &str = "upload_file";

/// The operations written by hand beside the generated client (left out of generation, so not in the
/// repaired spec's surface), by their operationId in the spec.
pub const HAND_WRITTEN: &[&str] = &["UploadFile"];

/// One file to upload: its name and bytes.
pub struct Upload {
    /// The file name Mattermost stores and shows (in the request, quotes and backslashes become `_`
    /// and control characters are dropped).
    pub name: String,
    /// The file's content, sent as it is.
    pub bytes: Vec<u8>,
}

/// What Mattermost answers: the stored files, in the order sent.
#[derive(Deserialize)]
struct Uploaded {
    #[serde(default)]
    file_infos: Option<Vec<types::FileInfo>>,
}

/// A file name as a multipart `filename` parameter: quotes, backslashes and line breaks cannot pass.
fn quoted(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .map(|c| if c == '"' || c == '\\' { '_' } else { c })
        .collect()
}

/// The multipart body: one `files` part per file, after the channel is named in the query (the server
/// reads the channel before the files).
fn body(boundary: &str, files: &[Upload]) -> Vec<u8> {
    let mut out = Vec::new();
    for f in files {
        out.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        out.extend_from_slice(
            format!(
                "Content-Disposition: form-data; name=\"files\"; filename=\"{}\"\r\n",
                quoted(&f.name)
            )
            .as_bytes(),
        );
        out.extend_from_slice(b"Content-Type: application/octet-stream\r\n\r\n");
        out.extend_from_slice(&f.bytes);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    out
}

/// Uploads `files` to `channel_id` in one request, as the running call's person. Answers the stored
/// files in the order sent.
pub async fn upload_files(
    api: &Client,
    channel_id: &str,
    files: &[Upload],
    boundary: &str,
) -> Result<Vec<types::FileInfo>, MmError> {
    let info = OperationInfo {
        operation_id: OPERATION,
    };
    let url = format!("{}/api/v4/files", api.baseurl());
    let content_type = HeaderValue::from_str(&format!("multipart/form-data; boundary={boundary}"))
        .map_err(|_| MmError::Refused("internal error: a multipart boundary".into()))?;
    let mut request = api
        .client()
        .post(url)
        .query(&[("channel_id", channel_id)])
        .header(CONTENT_TYPE, content_type)
        .header(
            reqwest::header::ACCEPT,
            HeaderValue::from_static("application/json"),
        )
        .body(body(boundary, files))
        .build()
        .map_err(|e| MmError::Refused(format!("the upload request could not be built: {e}")))?;
    let sent: Result<reqwest::Response, Error<types::AppError>> = async {
        api.pre(&mut request, &info).await?;
        let result = api.exec(request, &info).await;
        api.post(&result, &info).await?;
        Ok(result?)
    }
    .await;
    let response = match sent {
        Ok(r) => r,
        Err(e) => return Err(MmError::from_client(e).await),
    };
    if response.status().as_u16() != 201 {
        return Err(MmError::from_client(Error::UnexpectedResponse(response)).await);
    }
    let bytes = response.bytes().await.map_err(|e| MmError::Unreachable {
        detail: "the answer to the upload broke off".into(),
        timeout: e.is_timeout(),
    })?;
    let uploaded: Uploaded =
        serde_json::from_slice(&bytes).map_err(|e| MmError::NotMattermost {
            status: 201,
            content_type: "application/json".into(),
            detail: format!("the upload's answer is not the expected JSON ({e})"),
        })?;
    Ok(uploaded.file_infos.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_holds_each_file_as_a_files_part_with_a_safe_name() {
        let files = [
            Upload {
                name: "a\"b\r\n.txt".into(),
                bytes: b"one".to_vec(),
            },
            Upload {
                name: "c.bin".into(),
                bytes: vec![0, 1, 2],
            },
        ];
        let b = body("XyZ", &files);
        let text = String::from_utf8_lossy(&b);
        assert_eq!(text.matches("name=\"files\"").count(), 2);
        assert!(text.contains("filename=\"a_b.txt\""), "{text}");
        assert!(text.ends_with("--XyZ--\r\n"));
        assert!(b.windows(3).any(|w| w == [0, 1, 2]));
    }
}
