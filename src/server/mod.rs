//! `backend-lint server`: a language server over stdio (`lsp-server` and
//! `lsp-types`, rust-analyzer's crates: synchronous, one thread reading,
//! one writing, the analysis on rayon's threads as in `check`).
//!
//! An editor runs it beside rust-analyzer. On `initialize` it discovers
//! the packages of the workspace folders as `check --workspace` does and
//! analyses them; each change of an open document re-analyses its package
//! with the unsaved text (`Input::text`), the other files read from disk,
//! after a short pause in the typing ([`DEBOUNCE`]), and publishes the
//! files whose diagnostics changed (a duplicate appears and disappears in
//! the other file too). The packages of open documents are analysed first;
//! the others while the client sends nothing ([`Server::idle`]), so that a
//! large workspace does not keep the open files waiting. A saved
//! configuration or manifest, or files changed on disk, make it discover
//! again. Docs: docs/editors.md.

// `lsp_types::WorkspaceEdit` maps `Uri`s, whose parsed form caches its
// parts in cells: clippy's warning is about the protocol's own type, and
// no URI here changes once made.
#![allow(clippy::mutable_key_type)]

mod actions;
mod convert;
mod workspace;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crossbeam_channel::{RecvTimeoutError, TryRecvError};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;

use workspace::{Document, Workspace};

/// How long the server waits after a change for the next one before it
/// analyses: a burst of edits (a paste, fast typing, a rename) costs one
/// analysis.
pub const DEBOUNCE: Duration = Duration::from_millis(10);

/// Serve on stdin and stdout until the client says `exit`; the exit code:
/// 0 after `shutdown`, 1 otherwise (as the protocol asks).
pub fn stdio() -> u8 {
    let (connection, io) = Connection::stdio();
    let code = serve(&connection);
    drop(connection);
    if let Err(e) = io.join() {
        eprintln!("backend-lint server: {e}");
    }
    code
}

/// The server on one connection.
pub fn serve(connection: &Connection) -> u8 {
    let (id, params) = match connection.initialize_start() {
        Ok(start) => start,
        Err(e) => {
            eprintln!("backend-lint server: {e}");
            return 1;
        }
    };
    let params: lsp::InitializeParams = match serde_json::from_value(params) {
        Ok(p) => p,
        Err(e) => {
            let message = format!("invalid initialize params: {e}");
            let _ = (connection.sender)
                .send(Response::new_err(id, ErrorCode::InvalidParams as i32, message).into());
            return 1;
        }
    };
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": { "name": "backend-lint", "version": env!("CARGO_PKG_VERSION") },
    });
    if let Err(e) = connection.initialize_finish(id, result) {
        eprintln!("backend-lint server: {e}");
        return 1;
    }
    let mut server = Server {
        connection,
        workspace: Workspace::default(),
        dirty: Vec::new(),
        idle: Vec::new(),
        discovered: None,
        deadline: None,
        shut_down: false,
        cancelled: Vec::new(),
        pending: Default::default(),
    };
    server.workspace.folders = folders(&params);
    server.watch_files(&params.capabilities);
    server.rediscover();
    server.run()
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(lsp::PositionEncodingKind::UTF16),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    lsp::CodeActionKind::from(actions::FIX_ALL),
                ]),
                ..Default::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        workspace: Some(lsp::WorkspaceServerCapabilities {
            workspace_folders: Some(lsp::WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(lsp::OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..Default::default()
    }
}

/// The workspace folders, else the root (older clients), else none: then
/// each opened file is analysed with its own package.
fn folders(params: &lsp::InitializeParams) -> Vec<PathBuf> {
    match &params.workspace_folders {
        Some(folders) if !folders.is_empty() => folders
            .iter()
            .filter_map(|f| convert::path_of(&f.uri))
            .collect(),
        #[allow(deprecated)]
        _ => params
            .root_uri
            .iter()
            .filter_map(convert::path_of)
            .collect(),
    }
}

struct Server<'c> {
    connection: &'c Connection,
    workspace: Workspace,
    /// Units to analyse once the typing pauses.
    dirty: Vec<usize>,
    /// Units with no open document still to analyse: one at a time, while
    /// no message waits (a request or a keystroke goes first).
    idle: Vec<usize>,
    /// When the workspace was last discovered, until all of it is
    /// analysed (then logged: how long the whole took).
    discovered: Option<Instant>,
    deadline: Option<Instant>,
    shut_down: bool,
    /// Requests cancelled before they were answered.
    cancelled: Vec<RequestId>,
    /// Messages read but not handled yet.
    pending: std::collections::VecDeque<Message>,
}

impl Server<'_> {
    fn run(&mut self) -> u8 {
        loop {
            let message = match self.pending.pop_front() {
                Some(message) => Ok(message),
                None => match self.deadline {
                    None if !self.idle.is_empty() => match self.connection.receiver.try_recv() {
                        Ok(message) => Ok(message),
                        Err(TryRecvError::Empty) => {
                            self.analyse_idle();
                            continue;
                        }
                        Err(TryRecvError::Disconnected) => Err(RecvTimeoutError::Disconnected),
                    },
                    None => (self.connection.receiver.recv())
                        .map_err(|_| RecvTimeoutError::Disconnected),
                    Some(at) => (self.connection.receiver)
                        .recv_timeout(at.saturating_duration_since(Instant::now())),
                },
            };
            let message = match message {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => {
                    self.flush();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return 1,
            };
            // What has arrived meanwhile is read too: a request cancelled
            // in it is answered as cancelled.
            self.pending.push_front(message);
            self.drain();
            // (A cancellation is taken out of `pending` as it is noted.)
            let Some(message) = self.pending.pop_front() else {
                continue;
            };
            match message {
                Message::Request(request) => self.request(request),
                Message::Notification(n) if n.method == lsp::notification::Exit::METHOD => {
                    return if self.shut_down { 0 } else { 1 };
                }
                Message::Notification(n) => self.guarded(|s| s.notification(n)),
                Message::Response(_) => {}
            }
            self.publish_log();
        }
    }

    /// Move what the client has sent meanwhile to `pending`, noting the
    /// requests it cancels.
    fn drain(&mut self) {
        self.pending.extend(self.connection.receiver.try_iter());
        for message in &self.pending {
            if let Message::Notification(n) = message
                && n.method == lsp::notification::Cancel::METHOD
                && let Ok(p) = serde_json::from_value::<lsp::CancelParams>(n.params.clone())
            {
                let id = match p.id {
                    lsp::NumberOrString::Number(n) => RequestId::from(n),
                    lsp::NumberOrString::String(s) => RequestId::from(s),
                };
                if !self.cancelled.contains(&id) {
                    self.cancelled.push(id);
                }
                // Cancellations of requests answered already are not kept
                // for ever.
                if self.cancelled.len() > 256 {
                    self.cancelled.remove(0);
                }
            }
        }
        self.pending.retain(|m| {
            !matches!(m, Message::Notification(n) if n.method == lsp::notification::Cancel::METHOD)
        });
    }

    /// Whether the client cancelled request `id` (checked again after the
    /// analysis a request waits for).
    fn is_cancelled(&mut self, id: &RequestId) -> bool {
        self.drain();
        match self.cancelled.iter().position(|c| c == id) {
            Some(at) => {
                self.cancelled.remove(at);
                true
            }
            None => false,
        }
    }

    /// Run a handler, a panic in it caught and logged: the server lives on.
    fn guarded(&mut self, f: impl FnOnce(&mut Self)) {
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self)));
        if caught.is_err() {
            self.workspace
                .log
                .push("error: a handler of backend-lint's server panicked; it goes on".into());
        }
    }

    fn send(&self, message: impl Into<Message>) {
        // The client gone, the loop ends at the next receive.
        let _ = self.connection.sender.send(message.into());
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        if self.is_cancelled(&id) {
            self.send(cancelled(id));
            return;
        }
        if self.shut_down {
            let code = ErrorCode::InvalidRequest as i32;
            self.send(Response::new_err(
                id,
                code,
                "the server is shut down".into(),
            ));
            return;
        }
        let mut response = None;
        self.guarded(|s| response = Some(s.handle(request)));
        let response = response.unwrap_or_else(|| {
            let code = ErrorCode::InternalError as i32;
            Response::new_err(id, code, "the request's handler panicked".into())
        });
        self.send(response);
    }

    fn handle(&mut self, request: Request) -> Response {
        let Request { id, method, params } = request;
        fn parse<P: serde::de::DeserializeOwned>(params: serde_json::Value) -> Result<P, String> {
            serde_json::from_value(params).map_err(|e| format!("invalid params: {e}"))
        }
        let invalid = |id, e: String| Response::new_err(id, ErrorCode::InvalidParams as i32, e);
        match method.as_str() {
            lsp::request::Shutdown::METHOD => {
                self.shut_down = true;
                Response::new_ok(id, ())
            }
            lsp::request::CodeActionRequest::METHOD => {
                let p: lsp::CodeActionParams = match parse(params) {
                    Ok(p) => p,
                    Err(e) => return invalid(id, e),
                };
                self.flush();
                self.analyse_path(convert::path_of(&p.text_document.uri).as_deref());
                if self.is_cancelled(&id) {
                    return cancelled(id);
                }
                let uri = p.text_document.uri;
                let result = (convert::path_of(&uri))
                    .and_then(|path| self.workspace.published.get(&path))
                    .map(|file| {
                        actions::code_actions(&uri, file, p.range, p.context.only.as_deref())
                    })
                    .unwrap_or_default();
                Response::new_ok(id, result)
            }
            lsp::request::HoverRequest::METHOD => {
                let p: lsp::HoverParams = match parse(params) {
                    Ok(p) => p,
                    Err(e) => return invalid(id, e),
                };
                self.flush();
                let uri = &p.text_document_position_params.text_document.uri;
                self.analyse_path(convert::path_of(uri).as_deref());
                if self.is_cancelled(&id) {
                    return cancelled(id);
                }
                let at = p.text_document_position_params;
                let result = (convert::path_of(&at.text_document.uri))
                    .and_then(|path| self.workspace.published.get(&path))
                    .and_then(|file| actions::hover(file, at.position));
                Response::new_ok(id, result)
            }
            _ => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("backend-lint's server has no method `{method}`"),
            ),
        }
    }

    fn notification(&mut self, n: Notification) {
        use lsp::notification as note;
        fn parse<P: serde::de::DeserializeOwned>(n: &Notification) -> Option<P> {
            serde_json::from_value(n.params.clone()).ok()
        }
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Some(p) = parse::<lsp::DidOpenTextDocumentParams>(&n) else {
                    return self.bad_params(&n);
                };
                let Some(path) = convert::path_of(&p.text_document.uri) else {
                    return;
                };
                let document = Document {
                    text: p.text_document.text,
                    version: p.text_document.version,
                };
                self.workspace.documents.insert(path.clone(), document);
                let mut unit = self.workspace.ensure_unit(&path);
                // A file of a folder no unit reads may be new: discover again
                // (an excluded or ignored one stays unread).
                let new = path.is_file() && path.extension().is_some_and(|e| e == "rs");
                if unit.is_none() && new && self.workspace.in_folder(&path) {
                    self.rediscover();
                    unit = self.workspace.ensure_unit(&path);
                }
                if let Some(unit) = unit {
                    self.mark(unit, false);
                }
            }
            note::DidChangeTextDocument::METHOD => {
                let Some(p) = parse::<lsp::DidChangeTextDocumentParams>(&n) else {
                    return self.bad_params(&n);
                };
                let Some(path) = convert::path_of(&p.text_document.uri) else {
                    return;
                };
                let Some(document) = self.workspace.documents.get_mut(&path) else {
                    return;
                };
                for change in p.content_changes {
                    apply_change(&mut document.text, change);
                }
                document.version = p.text_document.version;
                if let Some(unit) = self.workspace.ensure_unit(&path) {
                    self.mark(unit, true);
                }
            }
            note::DidCloseTextDocument::METHOD => {
                let Some(p) = parse::<lsp::DidCloseTextDocumentParams>(&n) else {
                    return self.bad_params(&n);
                };
                let Some(path) = convert::path_of(&p.text_document.uri) else {
                    return;
                };
                self.workspace.documents.remove(&path);
                // The file as it is on disk counts again; a file outside the
                // folders is no longer analysed.
                for cleared in self.workspace.drop_loose_units() {
                    self.send(publish(&cleared, Vec::new(), None));
                }
                if let Some(&unit) = self.workspace.unit_of.get(&path) {
                    self.mark(unit, false);
                }
            }
            note::DidSaveTextDocument::METHOD => {
                let Some(p) = parse::<lsp::DidSaveTextDocumentParams>(&n) else {
                    return self.bad_params(&n);
                };
                if let Some(path) = convert::path_of(&p.text_document.uri)
                    && configures(&path)
                {
                    self.rediscover();
                }
            }
            note::DidChangeWatchedFiles::METHOD => {
                let Some(p) = parse::<lsp::DidChangeWatchedFilesParams>(&n) else {
                    return self.bad_params(&n);
                };
                self.files_changed(&p.changes);
            }
            note::DidChangeWorkspaceFolders::METHOD => {
                let Some(p) = parse::<lsp::DidChangeWorkspaceFoldersParams>(&n) else {
                    return self.bad_params(&n);
                };
                let removed: Vec<PathBuf> = p
                    .event
                    .removed
                    .iter()
                    .filter_map(|f| convert::path_of(&f.uri))
                    .collect();
                self.workspace.folders.retain(|f| !removed.contains(f));
                let added = p
                    .event
                    .added
                    .iter()
                    .filter_map(|f| convert::path_of(&f.uri));
                self.workspace.folders.extend(added);
                self.rediscover();
            }
            _ => {}
        }
    }

    /// A notification whose params do not fit: logged (a notification has
    /// no response to carry an error).
    fn bad_params(&mut self, n: &Notification) {
        self.workspace
            .log
            .push(format!("error: invalid params for `{}`, ignored", n.method));
    }

    /// Files changed on disk (a `git checkout`, a formatter): a
    /// configuration, a manifest, or a file created or deleted makes the
    /// server discover again; a changed file re-analyses its package.
    fn files_changed(&mut self, changes: &[lsp::FileEvent]) {
        let mut again = false;
        for change in changes {
            let Some(path) = convert::path_of(&change.uri) else {
                continue;
            };
            let known = self.workspace.unit_of.get(&path).copied();
            match known {
                _ if configures(&path) => again = true,
                Some(unit) if change.typ == lsp::FileChangeType::CHANGED => self.mark(unit, false),
                _ if path.extension().is_some_and(|e| e == "rs") => again = true,
                _ => {}
            }
        }
        if again {
            self.rediscover();
        }
    }

    /// Ask the client to tell of changes on disk, where it can watch files.
    fn watch_files(&self, capabilities: &lsp::ClientCapabilities) {
        let dynamic = (capabilities.workspace.as_ref())
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        if !dynamic {
            return;
        }
        let glob = |p: &str| lsp::FileSystemWatcher {
            glob_pattern: lsp::GlobPattern::String(p.to_string()),
            kind: None,
        };
        let options = lsp::DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![
                glob("**/*.rs"),
                glob("**/Cargo.toml"),
                glob("**/backend-lint.toml"),
                glob("**/.backend-lint.toml"),
            ],
        };
        let params = lsp::RegistrationParams {
            registrations: vec![lsp::Registration {
                id: "backend-lint-watch".into(),
                method: lsp::notification::DidChangeWatchedFiles::METHOD.into(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        let request = Request::new(
            RequestId::from("backend-lint-watch".to_string()),
            lsp::request::RegisterCapability::METHOD.into(),
            params,
        );
        self.send(request);
    }

    /// Analyse `unit` now (`later`: once the typing pauses).
    fn mark(&mut self, unit: usize, later: bool) {
        if !self.dirty.contains(&unit) {
            self.dirty.push(unit);
        }
        let at = Instant::now() + if later { DEBOUNCE } else { Duration::ZERO };
        self.deadline = Some(at);
    }

    /// Analyse what changed in the packages of open documents and publish
    /// the files whose diagnostics did; the other packages are left to
    /// [`Self::idle`].
    fn flush(&mut self) {
        self.deadline = None;
        let dirty = std::mem::take(&mut self.dirty);
        let open = self.workspace.open_units();
        for unit in dirty {
            if open.contains(&unit) {
                self.analyse(unit);
            } else if !self.idle.contains(&unit) {
                self.idle.push(unit);
            }
        }
        self.note_analysed();
        self.publish_log();
    }

    /// Analyse one unit now and publish what changed.
    fn analyse(&mut self, unit: usize) {
        self.idle.retain(|u| *u != unit);
        if unit < self.workspace.units.len() {
            for path in self.workspace.analyse(unit) {
                self.publish_file(&path);
            }
        }
    }

    /// Once nothing waits to be analysed after a discovery, log how long
    /// the whole workspace took.
    fn note_analysed(&mut self) {
        if self.idle.is_empty()
            && let Some(at) = self.discovered.take()
        {
            let files: usize = (self.workspace.units.iter()).map(|u| u.inputs.len()).sum();
            self.workspace.log.push(format!(
                "the workspace analysed: {} packages, {files} files in {:.2} s",
                self.workspace.units.len(),
                at.elapsed().as_secs_f64()
            ));
        }
    }

    /// Analyse the next unit waiting for a pause.
    fn analyse_idle(&mut self) {
        if let Some(&unit) = self.idle.first() {
            self.analyse(unit);
            self.note_analysed();
            self.publish_log();
        }
    }

    /// Analyse the unit of `path` now if it waits in [`Self::idle`]: a
    /// request about a file that is not open.
    fn analyse_path(&mut self, path: Option<&Path>) {
        let unit = path.and_then(|p| self.workspace.unit_of.get(p)).copied();
        if let Some(unit) = unit.filter(|u| self.idle.contains(u)) {
            self.analyse(unit);
        }
    }

    fn publish_file(&self, path: &Path) {
        let diagnostics = (self.workspace.published.get(path))
            .map(|f| f.diagnostics())
            .unwrap_or_default();
        self.send(publish(path, diagnostics, self.workspace.version(path)));
    }

    /// Discover the packages again and analyse everything.
    fn rediscover(&mut self) {
        self.discovered = Some(Instant::now());
        self.idle.clear();
        let before: Vec<PathBuf> = self.workspace.config_errors.keys().cloned().collect();
        self.workspace.discover();
        for path in before {
            if !self.workspace.config_errors.contains_key(&path) {
                self.send(publish(&path, Vec::new(), None));
            }
        }
        for (path, errors) in &self.workspace.config_errors {
            self.send(publish(path, errors.clone(), None));
        }
        // Files whose unit is gone (a file deleted): cleared.
        let gone: Vec<PathBuf> = (self.workspace.published.keys())
            .filter(|p| !self.workspace.unit_of.contains_key(*p))
            .cloned()
            .collect();
        for path in gone {
            self.workspace.published.remove(&path);
            self.send(publish(&path, Vec::new(), None));
        }
        self.dirty = (0..self.workspace.units.len()).collect();
        self.flush();
    }

    /// Send what the workspace logged to the client's log.
    fn publish_log(&mut self) {
        for line in std::mem::take(&mut self.workspace.log) {
            eprintln!("backend-lint server: {line}");
            let typ = match line.starts_with("error") {
                true => lsp::MessageType::ERROR,
                false => lsp::MessageType::INFO,
            };
            let params = lsp::LogMessageParams { typ, message: line };
            self.send(Notification::new(
                lsp::notification::LogMessage::METHOD.into(),
                params,
            ));
        }
    }
}

fn cancelled(id: RequestId) -> Response {
    Response::new_err(id, ErrorCode::RequestCanceled as i32, "cancelled".into())
}

fn publish(path: &Path, diagnostics: Vec<lsp::Diagnostic>, version: Option<i32>) -> Notification {
    let params = lsp::PublishDiagnosticsParams {
        uri: convert::uri_of(path),
        diagnostics,
        version,
    };
    Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), params)
}

/// Whether a change of this file can change which files are analysed, or
/// how: a configuration or a manifest.
fn configures(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    matches!(
        name,
        "Cargo.toml" | "backend-lint.toml" | ".backend-lint.toml"
    )
}

/// Apply one change of an open document: a range replaced (positions in
/// UTF-16, clamped to the text), or the whole text.
fn apply_change(text: &mut String, change: lsp::TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let lines = convert::Lines::new(text);
            let start = lines.offset(range.start);
            let end = lines.offset(range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_changes_use_utf16_positions() {
        let mut text = "let a = \"日😀\"; b\nc\n".to_string();
        // `b` is at UTF-16 column 15 (the emoji counts two).
        let change = lsp::TextDocumentContentChangeEvent {
            range: Some(lsp::Range::new(
                lsp::Position::new(0, 15),
                lsp::Position::new(1, 1),
            )),
            range_length: None,
            text: "x".into(),
        };
        apply_change(&mut text, change);
        assert_eq!(text, "let a = \"日😀\"; x\n");
    }
}
