"""The language server's protocol edge cases, driven by pytest-lsp's client.

Run by tests/server.rs (`cargo test --test server`), which builds the server
and names it in BACKEND_LINT_BIN. Each test works on a copy of fixture/.
"""

import asyncio
import json
import os
import pathlib
import shutil

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

BIN = os.environ.get("BACKEND_LINT_BIN", "backend-lint")
FIXTURE = pathlib.Path(__file__).parent / "fixture"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "server"]))
async def client(lsp_client: LanguageClient):
    yield
    # Each test shuts the server down itself when it checks that.
    if lsp_client.error is None and not getattr(lsp_client, "shut", False):
        await lsp_client.shutdown_session()


@pytest.fixture
def crate(tmp_path):
    root = tmp_path / "crate"
    shutil.copytree(FIXTURE, root)
    return root


async def start(client, root, **capabilities):
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(**capabilities),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="crate")],
        )
    )


def open_doc(client, path):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="rust", version=1, text=path.read_text()
            )
        )
    )


def raw(client, *messages):
    """Write JSON-RPC messages as they are (pygls types its messages), in
    one write; a future for the response to each request."""
    futures = []
    data = b""
    for m in messages:
        body = json.dumps({"jsonrpc": "2.0", **m}).encode()
        data += b"Content-Length: %d\r\n\r\n" % len(body) + body
        if "id" in m:
            future = asyncio.get_running_loop().create_future()
            client.protocol._request_futures[m["id"]] = future
            futures.append(future)
    client.protocol.writer.write(data)
    return futures


def utf16(s):
    return len(s.encode("utf-16-le")) // 2


def change(client, path, version, line, start, end, text):
    """Replace characters start..end (UTF-16) of `line` with `text`."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=line, character=start),
                        end=types.Position(line=line, character=end),
                    ),
                    text=text,
                )
            ],
        )
    )


async def until(client, predicate, what):
    """Wait for diagnostics until `predicate()` holds (20 s at most).

    Polls what pytest-lsp has recorded (`client.diagnostics`): a
    `wait_for_notification` cut short by a timeout leaves a cancelled
    future that the next notification fails to resolve, which ends the
    client's reader (seen under CI's load)."""
    for _ in range(800):
        if predicate():
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"timed out waiting for {what}: {client.diagnostics}")


def codes(client, path):
    return sorted(d.code for d in client.diagnostics.get(path.as_uri(), []))


def registration_line(text, name):
    lines = text.splitlines()
    at = next(i for i, l in enumerate(lines) if f'register_backend("{name}"' in l)
    col = lines[at].index(f'"{name}"') + 1
    return at, col


@pytest.mark.asyncio
async def test_findings_have_code_docs_source_severity_and_utf16_positions(client, crate):
    await start(client, crate)
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    [d] = client.diagnostics[lib.as_uri()]
    assert d.code == "non_canonical_platform_literal"
    assert d.source == "backend-lint"
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.code_description.href.endswith("/lints/non_canonical_platform_literal/README.md")
    # The line has CJK and an emoji before the literal: UTF-16 columns.
    lines = lib.read_text().splitlines()
    line = next(i for i, l in enumerate(lines) if '"CUDA"' in l)
    before = lines[line][: lines[line].index('"CUDA"')]
    assert d.range.start == types.Position(line=line, character=utf16(before))
    assert d.range.end == types.Position(line=line, character=utf16(before) + 6)
    # Neither bytes nor characters would give that column.
    assert utf16(before) not in (len(before.encode()), len(before))


@pytest.mark.asyncio
async def test_a_duplicate_appears_and_disappears_in_the_other_file(client, crate):
    await start(client, crate)
    lib, other = crate / "src" / "lib.rs", crate / "src" / "other.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    assert codes(client, other) == []
    line, col = registration_line(lib.read_text(), "tpu")
    change(client, lib, 2, line, col, col + 3, "cpu")
    await until(client, lambda: codes(client, other) == ["duplicate_registration"], "the duplicate")
    [d] = client.diagnostics[other.as_uri()]
    [related] = d.related_information
    assert related.location.uri == lib.as_uri()
    assert related.location.range.start == types.Position(line=line, character=col - 1)
    change(client, lib, 3, line, col, col + 3, "tpu")
    await until(client, lambda: codes(client, other) == [], "the duplicate to go")


@pytest.mark.asyncio
async def test_unused_suppression_is_tagged_unnecessary(client, crate):
    await start(client, crate)
    other = crate / "src" / "other.rs"
    open_doc(client, other)
    change(client, other, 2, 0, 0, 0, "// backend-lint: allow-file(duplicate_registration)\n")
    await until(client, lambda: codes(client, other) == ["unused_suppression"], "the warning")
    [d] = client.diagnostics[other.as_uri()]
    assert list(d.tags) == [types.DiagnosticTag.Unnecessary]
    assert d.severity == types.DiagnosticSeverity.Warning


async def actions(client, path, line, only=None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            range=types.Range(
                start=types.Position(line=line, character=0),
                end=types.Position(line=line, character=200),
            ),
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )


@pytest.mark.asyncio
async def test_code_actions_fix_suppress_and_fix_all(client, crate):
    await start(client, crate)
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    line = client.diagnostics[lib.as_uri()][0].range.start.line
    found = await actions(client, lib, line)
    titles = [a.title for a in found]
    fix = next(a for a in found if "cuda" in a.title)
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    [edit] = fix.edit.changes[lib.as_uri()]
    assert edit.new_text == '"cuda"'
    suppress = next(a for a in found if a.title.startswith("Suppress"))
    [edit] = suppress.edit.changes[lib.as_uri()]
    assert "// backend-lint: allow(non_canonical_platform_literal) -- reason: TODO" in edit.new_text
    assert edit.range.start == types.Position(line=line, character=0)
    assert any(a.kind == "source.fixAll.backend-lint" for a in found), titles
    # Asked for fix-all only (on save), that one alone.
    [fix_all] = await actions(client, lib, 0, only=[types.CodeActionKind.SourceFixAll])
    assert fix_all.kind == "source.fixAll.backend-lint"
    assert [e.new_text for e in fix_all.edit.changes[lib.as_uri()]] == ['"cuda"']


@pytest.mark.asyncio
async def test_unsafe_fixes_are_marked_and_not_in_fix_all(client, crate):
    await start(client, crate)
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    other = crate / "src" / "other.rs"
    open_doc(client, other)
    # A raw platform compared: wrapping it in the canonicalizer may change
    # behaviour, an unsafe fix.
    change(client, other, 2, 1, 0, 0, "pub fn g(d: &crate::D) -> bool { d.platform() == \"cuda\" }\n")
    await until(
        client, lambda: codes(client, other) == ["uncanonicalized_platform_comparison"], "the finding"
    )
    found = await actions(client, other, 1)
    unsafe = [a for a in found if "unsafe" in a.title]
    assert unsafe and not any(a.is_preferred for a in unsafe)
    assert not any(a.kind == "source.fixAll.backend-lint" for a in found)


@pytest.mark.asyncio
async def test_hover_shows_the_explanation(client, crate):
    await start(client, crate)
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    d = client.diagnostics[lib.as_uri()][0]
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=lib.as_uri()),
            position=types.Position(line=d.range.start.line, character=d.range.start.character + 2),
        )
    )
    assert "non_canonical_platform_literal" in hover.contents.value
    assert "## What it does" in hover.contents.value or "What it does" in hover.contents.value
    nothing = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=lib.as_uri()),
            position=types.Position(line=0, character=0),
        )
    )
    assert nothing is None


@pytest.mark.asyncio
async def test_invalid_params_and_unknown_methods_get_errors(client, crate):
    await start(client, crate)
    [bad, unknown] = raw(
        client,
        {"id": "bad", "method": "textDocument/hover", "params": {"nonsense": 1}},
        {"id": "unknown", "method": "backend-lint/nothing", "params": {}},
    )
    with pytest.raises(Exception) as error:
        await asyncio.wait_for(bad, 10)
    assert "invalid params" in str(error.value), error.value
    with pytest.raises(Exception) as error:
        await asyncio.wait_for(unknown, 10)
    assert "has no method" in str(error.value), error.value
    # A notification with bad params is logged; the server goes on.
    raw(client, {"method": "textDocument/didOpen", "params": {"textDocument": 7}})
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")


@pytest.mark.asyncio
async def test_a_file_that_does_not_parse_keeps_the_others_last_diagnostics(client, crate):
    await start(client, crate)
    lib, other = crate / "src" / "lib.rs", crate / "src" / "other.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    line, col = registration_line(lib.read_text(), "tpu")
    change(client, lib, 2, line, col, col + 3, "cpu")
    await until(client, lambda: codes(client, other) == ["duplicate_registration"], "the duplicate")
    # Half-typed: `fn x(` does not parse.
    change(client, lib, 3, 0, 0, 0, "fn x(\n")
    await until(
        client,
        lambda: any("could not parse" in d.message for d in client.diagnostics[lib.as_uri()]),
        "the parse error",
    )
    assert codes(client, other) == ["duplicate_registration"]
    # Fixed again: findings as before, positions from the new text.
    change(client, lib, 4, 0, 0, 1, "")
    change(client, lib, 5, 0, 0, 5, "// x")
    await until(client, lambda: codes(client, lib) == ["non_canonical_platform_literal"], "findings")


@pytest.mark.asyncio
async def test_a_panic_in_an_analysis_is_logged_and_the_server_lives_on(client, crate):
    await start(client, crate)
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    change(client, lib, 2, 0, 0, 0, "// backend-lint-test: panic\n")
    for _ in range(100):
        if any("panicked" in m.message for m in client.log_messages):
            break
        await asyncio.sleep(0.05)
    assert any("panicked" in m.message for m in client.log_messages), client.log_messages
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=lib.as_uri(), version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=lib.read_text())],
        )
    )
    line, col = registration_line(lib.read_text(), "tpu")
    change(client, lib, 4, line, col, col + 3, "cpu")
    other = crate / "src" / "other.rs"
    await until(client, lambda: codes(client, other) == ["duplicate_registration"], "the duplicate")


@pytest.mark.asyncio
async def test_a_file_outside_the_workspace(client, crate, tmp_path):
    await start(client, crate)
    loose = tmp_path / "loose.rs"
    loose.write_text(
        "fn canonicalize_platform(p: &str) -> String { p.to_lowercase() }\n"
        'fn f(p: &str) -> bool { canonicalize_platform(p) == "CUDA" }\n'
    )
    open_doc(client, loose)
    await until(client, lambda: codes(client, loose), "the loose file's diagnostics")
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=loose.as_uri()))
    )
    await until(client, lambda: not codes(client, loose), "the loose file cleared")
    # A buffer that is no file: nothing, and no error.
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri="untitled:Untitled-1", language_id="rust", version=1, text="fn (("
            )
        )
    )
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")


@pytest.mark.asyncio
async def test_configuration_and_files_changed_on_disk_are_read_again(client, crate):
    await start(client, crate)
    lib, other = crate / "src" / "lib.rs", crate / "src" / "other.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    (crate / "backend-lint.toml").write_text('[lints]\nnon_canonical_platform_literal = "allow"\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=(crate / "backend-lint.toml").as_uri(), type=types.FileChangeType.Created)]
        )
    )
    await until(client, lambda: codes(client, lib) == [], "the lint allowed")
    # A `git checkout` rewrites other.rs: it registers "tpu" too.
    lib_text = lib.read_text()
    other.write_text(other.read_text().replace('"cpu"', '"tpu"'))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=other.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await until(client, lambda: codes(client, other) == ["duplicate_registration"], "the duplicate")
    # A broken configuration, saved: shown on the file itself.
    toml = crate / "backend-lint.toml"
    toml.write_text("[lints]\nno_such_lint = \"deny\"\n")
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=toml.as_uri()))
    )
    await until(client, lambda: client.diagnostics.get(toml.as_uri()), "the configuration's error")
    assert lib_text == lib.read_text()


@pytest.mark.asyncio
async def test_cancelled_requests_and_shutdown(client, crate):
    await start(client, crate)
    # A cancellation of a request the server never had: ignored.
    raw(client, {"method": "$/cancelRequest", "params": {"id": 987654}})
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    # A request and its cancellation in one write, while the server has
    # an analysis to make first: answered as cancelled.
    change(client, lib, 2, 0, 0, 0, "// edited\n")
    position = {"textDocument": {"uri": lib.as_uri()}, "position": {"line": 0, "character": 0}}
    [future] = raw(
        client,
        {"id": "hover-1", "method": "textDocument/hover", "params": position},
        {"method": "$/cancelRequest", "params": {"id": "hover-1"}},
    )
    with pytest.raises(Exception) as error:
        await asyncio.wait_for(future, 10)
    assert "cancelled" in str(error.value), error.value
    params = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=lib.as_uri()),
        position=types.Position(line=0, character=0),
    )
    assert await client.text_document_hover_async(params) is None
    await client.shutdown_async(None)
    with pytest.raises(Exception) as after:
        await client.text_document_hover_async(params)
    assert "shut down" in str(after.value) or "-32600" in str(after.value)
    client.exit(None)
    code = await client._server.wait()
    assert code == 0
    client.shut = True


@pytest.mark.asyncio
async def test_a_file_created_in_the_workspace_after_the_start(client, crate):
    await start(client, crate)
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    extra = crate / "src" / "extra.rs"
    extra.write_text('pub fn f(p: &str) -> bool { crate::canonicalize_platform(p) == "ROCM" }\n')
    open_doc(client, extra)
    await until(
        client, lambda: codes(client, extra) == ["non_canonical_platform_literal"], "the new file's finding"
    )


@pytest.mark.asyncio
async def test_the_workspace_chooses_no_toolchain(client, crate):
    # rustup's proxy would obey this file (and try to install it): the
    # server runs cargo metadata pinned, as `check` does.
    (crate / "rust-toolchain.toml").write_text('[toolchain]\nchannel = "nightly-1999-01-01"\n')
    await start(client, crate)
    lib = crate / "src" / "lib.rs"
    open_doc(client, lib)
    await until(client, lambda: codes(client, lib), "lib.rs's findings")
    errors = [m.message for m in client.log_messages if m.message.startswith("error")]
    assert errors == []
