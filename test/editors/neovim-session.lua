-- What test/editors/neovim.test.ts has Neovim do, headless, as a user of editors/neovim would:
-- open a file of a kustomization, wait for the server's diagnostics, ask for hover and
-- definition, open :KustomizePreview, edit and save the file, wait for the preview to follow.
-- The session ($KUSTOMIZE_TS_NVIM_SESSION, JSON) says where things are; what Neovim saw goes to
-- its `out` file, as JSON, for the test to assert.
local session = vim.fn.json_decode(os.getenv('KUSTOMIZE_TS_NVIM_SESSION'))
local TIMEOUT = 20000

local function wait(what, condition)
  if not vim.wait(TIMEOUT, condition, 20) then error('timed out waiting for ' .. what) end
end

local function preview_buffer()
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(buf):match('^kustomize%-preview://') then return buf end
  end
end

local function text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
end

local function request(buf, method, position)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = position }
  local responses, err = vim.lsp.buf_request_sync(buf, method, params, TIMEOUT)
  if not responses then error(method .. ': ' .. tostring(err)) end
  local _, response = next(responses)
  if response.error then error(method .. ": " .. response.error.message) end
  return response.result
end

local function run()
  vim.opt.runtimepath:append(session.plugin)
  require('kustomize_ts').setup({ cmd = session.cmd })

  vim.cmd('edit ' .. vim.fn.fnameescape(session.file))
  local buf = vim.api.nvim_get_current_buf()
  wait('diagnostics', function() return #vim.diagnostic.get(buf) > 0 end)
  local diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(diagnostics, { line = d.lnum, col = d.col, severity = d.severity, message = d.message, source = d.source })
  end
  local clients = vim.tbl_values(vim.lsp.buf_get_clients(buf))
  local result = {
    filetype = vim.bo[buf].filetype,
    clients = #clients,
    root_dir = clients[1].config.root_dir,
    diagnostics = diagnostics,
    hover = request(buf, 'textDocument/hover', session.hover),
  }
  -- a server without definitions fails this alone: the test says so, after checking the rest
  local found, definition = pcall(request, buf, 'textDocument/definition', session.definition)
  result[found and 'definition' or 'definition_error'] = definition

  vim.cmd('KustomizePreview')
  wait('the preview', function()
    local preview = preview_buffer()
    return preview ~= nil and text(preview) ~= '\n'
  end)
  local preview = preview_buffer()
  result.preview = {
    text = text(preview),
    shown = vim.fn.bufwinid(preview) ~= -1,
    modifiable = vim.bo[preview].modifiable,
    filetype = vim.bo[preview].filetype,
    focus_stayed = vim.api.nvim_get_current_buf() == buf,
  }

  -- `gd` on a line of the preview: where its value was written
  vim.api.nvim_set_current_win(vim.fn.bufwinid(preview))
  vim.api.nvim_win_set_cursor(0, { vim.fn.index(vim.api.nvim_buf_get_lines(preview, 0, -1, false), session.source) + 1, 4 })
  vim.cmd('normal gd')
  local cursor = vim.api.nvim_win_get_cursor(0)
  result.source = { file = vim.api.nvim_buf_get_name(0), line = cursor[1] - 1, col = cursor[2] }
  vim.api.nvim_set_current_buf(buf)

  vim.api.nvim_buf_set_lines(buf, session.edit.line, session.edit.line + 1, false, { session.edit.text })
  vim.cmd('write')
  wait('the preview to follow the edit', function() return text(preview) ~= result.preview.text end)
  result.preview_after_edit = text(preview)
  return result
end

local ok, result = xpcall(run, debug.traceback)
local out = io.open(session.out, 'w')
out:write(vim.fn.json_encode(ok and result or { error = result }))
out:close()
vim.cmd(ok and 'qall!' or 'cquit!')
