-- Neovim as a plain LSP client of `apiwb lsp --stdio` (test/server/neovimCompletion.test.ts): no plugin,
-- no settings sent. Opens the .http file given, asks for completion after `{{`, then (the env file
-- changed meanwhile) opens a second file and asks again; writes the labels and details it got, or the
-- error, as JSON to APIWB_NVIM_OUT and quits. Every wait is bounded (vim.wait on a condition).
local out = os.getenv('APIWB_NVIM_OUT')
local function finish(result)
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qall!')
end

local function completion(bufnr, line, character)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = character } }
  local responses, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, 30000)
  if not responses then error('no completion answer: ' .. tostring(err)) end
  local items = {}
  for _, response in pairs(responses) do
    if response.err then error('completion failed: ' .. vim.inspect(response.err)) end
    local result = response.result or {}
    for _, item in ipairs(result.items or result) do
      table.insert(items, { label = item.label, detail = item.detail or vim.NIL, documentation = item.documentation or vim.NIL })
    end
  end
  return items
end

local ok, err = pcall(function()
  local workspace = os.getenv('APIWB_NVIM_WORKSPACE')
  local initialized = false
  local config = {
    name = 'apiwb',
    cmd = { os.getenv('APIWB_NVIM_NODE'), '--import', 'tsx', 'src/cli/main.ts', 'lsp', '--stdio' },
    cmd_cwd = os.getenv('APIWB_NVIM_ROOT'),
    root_dir = workspace,
    workspace_folders = { { uri = vim.uri_from_fname(workspace), name = 'workspace' } },
    on_init = function() initialized = true end,
  }
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/first.http'))
  local first = vim.api.nvim_get_current_buf()
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config)
  else
    client_id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(first, client_id)
  end
  if not client_id then error('the language server did not start') end
  if not vim.wait(30000, function() return initialized end, 10) then error('the language server did not initialize in 30 s') end
  local before = completion(first, 0, 7)

  -- The env file gains a variable; a document opened afterwards sees it (no file watching in this client).
  local env = assert(io.open(workspace .. '/http-client.env.json', 'w'))
  env:write(os.getenv('APIWB_NVIM_CHANGED_ENV'))
  env:close()
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/second.http'))
  local second = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(second, client_id)
  local after = completion(second, 0, 7)
  finish({ version = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor), before = before, after = after })
end)
if not ok then finish({ error = tostring(err) }) end
