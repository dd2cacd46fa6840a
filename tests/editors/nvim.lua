-- Neovim's built-in LSP client (0.7: vim.lsp.start_client and
-- buf_attach_client) driving `backend-lint server` on a copy of fixture/:
-- run by tests/server.rs as `nvim --headless --clean -u nvim.lua`, with
-- BACKEND_LINT_BIN and FIXTURE_ROOT set. Prints OK, or exits 1 with why.

local bin = os.getenv("BACKEND_LINT_BIN")
local root = os.getenv("FIXTURE_ROOT")
local lib = root .. "/src/lib.rs"
local other = root .. "/src/other.rs"

local function codes(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out, tostring(code))
  end
  table.sort(out)
  return table.concat(out, ",")
end

local function wait_for(what, buf, want)
  local ok = vim.wait(30000, function() return codes(buf) == want end, 20)
  assert(ok, what .. ": wanted [" .. want .. "], got [" .. codes(buf) .. "]")
end

local function test()
  vim.cmd("edit " .. vim.fn.fnameescape(lib))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "backend-lint",
    cmd = { bin, "server" },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = "fixture" } },
  })
  assert(client_id, "the server did not start")
  vim.lsp.buf_attach_client(buf, client_id)

  -- The findings of the crate, on opening it.
  wait_for("lib.rs on opening", buf, "non_canonical_platform_literal")

  -- `init` registers "cpu" too: the duplicate shows in other.rs, not open.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i, line in ipairs(lines) do
    local at = line:find('register_backend("tpu"', 1, true)
    if at then
      local col = line:find('"tpu"', 1, true)
      vim.api.nvim_buf_set_text(buf, i - 1, col, i - 1, col + 3, { "cpu" })
      break
    end
  end
  local other_buf = vim.uri_to_bufnr(vim.uri_from_fname(other))
  wait_for("other.rs after the edit", other_buf, "duplicate_registration")

  -- The preferred quick fix of the finding in lib.rs, applied and written.
  local finding = vim.diagnostic.get(buf)[1]
  local client = vim.lsp.get_client_by_id(client_id)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = {
      start = { line = finding.lnum, character = 0 },
      ["end"] = { line = finding.lnum, character = 200 },
    },
    context = { diagnostics = {} },
  }
  local response = client.request_sync("textDocument/codeAction", params, 30000, buf)
  assert(response and response.result, "no code actions: " .. vim.inspect(response))
  local preferred
  for _, action in ipairs(response.result) do
    if action.isPreferred then
      preferred = action
    end
  end
  assert(preferred, "no preferred action: " .. vim.inspect(response.result))
  vim.lsp.util.apply_workspace_edit(preferred.edit, "utf-16")
  vim.cmd("write")
  local text = table.concat(vim.fn.readfile(lib), "\n")
  assert(text:find('let _s = "日本語 😀"; canonicalize_platform(p) == "cuda" }', 1, true), text)
  assert(text:find('register_backend("cpu", cpu);', 1, true), text)
  wait_for("lib.rs once fixed", buf, "")
  client.stop()
end

local ok, err = pcall(test)
if not ok then
  io.stderr:write("FAIL: " .. tostring(err) .. "\n")
  vim.cmd("cquit 1")
end
io.stdout:write("OK\n")
vim.cmd("qall!")
