//! The stdio transport: one JSON-RPC message a line, read by a task of its own and checked by
//! [`crate::jsonrpc::read`] before rmcp sees it. A line that is not a message is answered at once with
//! its JSON-RPC error (-32700 or -32600, with the request's id or `"id": null`), and a line over
//! [`MAX_LINE`] bytes is skipped to its end and answered with an error carrying the id found in it
//! (rmcp's own stdio transport ignores the first and drops the second, so such a request is never
//! answered). The session goes on after either.

use crate::jsonrpc::{IdScanner, Malformed};
use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, mpsc};

/// The longest line read as a message: rmcp's own limit for a stdio message (16 MiB).
pub(crate) const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// The messages read ahead of the server.
const QUEUED: usize = 16;

/// The transport over a reader (stdin) and a writer (stdout).
pub(crate) struct Lines<W> {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    out: Arc<Mutex<Option<W>>>,
}

impl<W: AsyncWrite + Unpin + Send + 'static> Lines<W> {
    /// Starts reading `input`, a line at a time, at most `max` bytes a line.
    pub(crate) fn new<R: AsyncRead + Unpin + Send + 'static>(
        input: R,
        output: W,
        max: usize,
    ) -> Self {
        let out = Arc::new(Mutex::new(Some(output)));
        let (tx, incoming) = mpsc::channel(QUEUED);
        tokio::spawn(read_lines(BufReader::new(input), max, tx, out.clone()));
        Lines { incoming, out }
    }
}

/// Writes one message and its newline, then flushes.
async fn write_line<W: AsyncWrite + Unpin>(
    out: &Mutex<Option<W>>,
    line: Vec<u8>,
) -> std::io::Result<()> {
    let mut guard = out.lock().await;
    let Some(w) = guard.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    w.write_all(&line).await?;
    w.write_all(b"\n").await?;
    w.flush().await
}

/// What one line turned out to be.
enum Line {
    /// A whole line, within the limit.
    Whole(Vec<u8>),
    /// A line over the limit, skipped to its end; the id found in it.
    Over(usize, Option<serde_json::Value>),
    End,
}

/// Reads up to the next newline, keeping at most `max` bytes; past that, only scans for the id.
async fn next_line<R: AsyncRead + Unpin>(input: &mut BufReader<R>, max: usize) -> Line {
    let mut line = Vec::new();
    let mut over: Option<(usize, IdScanner)> = None;
    loop {
        let available = match input.fill_buf().await {
            Ok(a) => a,
            Err(e) => {
                crate::log::warn(&format!("stdin could not be read: {e}"));
                return Line::End;
            }
        };
        if available.is_empty() {
            // End of input: a last line without its newline is still a message.
            return match over {
                Some((len, scanner)) => Line::Over(len, scanner.id()),
                None if line.is_empty() => Line::End,
                None => Line::Whole(line),
            };
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        match over.as_mut() {
            Some((len, scanner)) => {
                *len += chunk.len();
                scanner.feed(chunk);
            }
            None if line.len() + chunk.len() > max => {
                let mut scanner = IdScanner::default();
                scanner.feed(&line);
                scanner.feed(chunk);
                over = Some((line.len() + chunk.len(), scanner));
                line = Vec::new();
            }
            None => line.extend_from_slice(chunk),
        }
        let consumed = newline.map_or(available.len(), |at| at + 1);
        input.consume(consumed);
        if newline.is_some() {
            return match over {
                Some((len, scanner)) => Line::Over(len, scanner.id()),
                None => Line::Whole(line),
            };
        }
    }
}

/// The reading task: every line, checked, to the server or answered here; ends at the end of input
/// (the server then sees the end of its session).
async fn read_lines<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(
    mut input: BufReader<R>,
    max: usize,
    to_server: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    out: Arc<Mutex<Option<W>>>,
) {
    loop {
        let refused = match next_line(&mut input, max).await {
            Line::End => return,
            Line::Over(len, id) => Malformed::oversized(len, max, id),
            Line::Whole(bytes) => {
                let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match crate::jsonrpc::read(bytes) {
                    Ok(Some(message)) => {
                        if to_server.send(message).await.is_err() {
                            return;
                        }
                        continue;
                    }
                    Ok(None) => continue,
                    Err(refused) => refused,
                }
            }
        };
        crate::log::info(&format!(
            "answered a malformed message with {}: {}",
            refused.code, refused.message
        ));
        if write_line(&out, refused.to_json().to_string().into_bytes())
            .await
            .is_err()
        {
            return;
        }
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Transport<RoleServer> for Lines<W> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        async move {
            let line = serde_json::to_vec(&item)?;
            write_line(&out, line).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        if let Some(mut w) = self.out.lock().await.take() {
            w.flush().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use tokio::io::AsyncReadExt;

    /// Feeds `input` through the transport with a limit of `max`; the messages the server receives and
    /// the lines answered directly.
    async fn run(input: &[u8], max: usize) -> (Vec<Value>, Vec<Value>) {
        let (out_w, mut out_r) = tokio::io::duplex(1 << 20);
        let mut t = Lines::new(std::io::Cursor::new(input.to_vec()), out_w, max);
        let mut received = Vec::new();
        while let Some(m) = t.receive().await {
            received.push(serde_json::to_value(m).unwrap_or_default());
        }
        t.close().await.ok();
        drop(t);
        let mut text = String::new();
        out_r.read_to_string(&mut text).await.ok();
        let answered = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_default())
            .collect();
        (received, answered)
    }

    #[tokio::test]
    async fn bad_lines_are_answered_and_the_next_message_still_arrives() {
        let input = b"not json\n\n{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"ping\"}\r\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}";
        let (received, answered) = run(input, 1 << 20).await;
        assert_eq!(received.len(), 1, "{received:?}");
        assert_eq!(received[0]["id"], json!(3));
        assert_eq!(answered.len(), 2, "{answered:?}");
        assert_eq!(answered[0]["error"]["code"], json!(-32700));
        assert_eq!(answered[0]["id"], Value::Null);
        assert_eq!(answered[1]["error"]["code"], json!(-32600));
        assert_eq!(answered[1]["id"], json!(2));
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_answered_with_its_id_and_reading_goes_on() {
        let big = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{{\"name\":\"x\",\"arguments\":{{\"a\":\"{}\"}}}},\"id\":77}}\n",
            "y".repeat(5000)
        );
        let input = format!("{big}{{\"jsonrpc\":\"2.0\",\"id\":78,\"method\":\"ping\"}}\n");
        let (received, answered) = run(input.as_bytes(), 1000).await;
        assert_eq!(received.len(), 1);
        assert_eq!(received[0]["id"], json!(78));
        assert_eq!(answered.len(), 1, "{answered:?}");
        assert_eq!(answered[0]["id"], json!(77));
        assert_eq!(answered[0]["error"]["code"], json!(-32600));
        let message = answered[0]["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("1000 bytes"), "{message}");
    }
}
