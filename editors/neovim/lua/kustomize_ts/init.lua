-- kustomize-ts's language server (`kustomize-ts lsp --stdio`) in Neovim 0.7 and later: started for
-- YAML buffers, one server a repository, and :KustomizePreview, the rendered output of the
-- current file's root in a read-only buffer beside it. See docs/editor.md#neovim.
local M = {}

-- The server's preview request and notification (editors/vscode/src/protocol.ts names them too).
local PREVIEW_REQUEST = 'kustomize/preview'
local PREVIEW_CHANGED = 'kustomize/previewChanged'

local options = {
  cmd = { 'kustomize-ts', 'lsp', '--stdio' },
  -- what the server reads (workspace/configuration, section `kustomize`; docs/editor.md#settings):
  -- allow = { plugins, exec, helm, starlark, network }, kubernetesVersion, schemas, strict,
  -- ignoreMissingSchemas, validate, crdMerge, loadRestrictor, exclude, kustomizeVersion. An empty
  -- dictionary, not a list, when none is set: Lua's `{}` would reach the server as `[]`.
  settings = { kustomize = vim.empty_dict() },
}

-- the server's client id for each buffer it is attached to
local attached = {}
-- for each root previewed: the file it was asked for (asked again after an edit), its buffer, and
-- where the value on each line of the output was written (by 0-based line)
local previews = {}

-- The workspace of a file: the repository it is in (a base and its overlays share one server),
-- else its directory. The nearest `.git` says where the repository is: a directory, or in a
-- worktree a file.
local function root_dir(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local root = ''
  for _, git in ipairs({ vim.fn.finddir('.git', dir .. ';'), vim.fn.findfile('.git', dir .. ';') }) do
    if git ~= '' then
      local parent = vim.fn.fnamemodify((vim.fn.fnamemodify(git, ':p'):gsub('/$', '')), ':h')
      if #parent > #root then root = parent end
    end
  end
  return root ~= '' and root or dir
end

local function show(buf, text)
  vim.api.nvim_buf_set_option(buf, 'modifiable', true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, '\n', { trimempty = true }))
  vim.api.nvim_buf_set_option(buf, 'modifiable', false)
end

local function commented(text)
  return '# ' .. (text:gsub('\n', '\n# '))
end

-- where the value on each line of the output was written, by 0-based line
local function origins_of(result)
  local origins = {}
  for _, origin in ipairs(result.origins or {}) do origins[origin.outputLine] = origin end
  return origins
end

-- Shows the server's answer in the root's preview: the output, with its origins; or, while an
-- edit breaks the build, why (the preview stays open and follows the edit that mends it).
local function show_result(previewed, result)
  previewed.origins = origins_of(result)
  if result.error then
    local e = result.error
    local at = vim.uri_to_fname(e.uri) .. ':' .. (e.range.start.line + 1) .. ':' .. (e.range.start.character + 1)
    show(previewed.buf, '# kustomize-ts could not render ' .. result.root .. ':\n' .. commented(e.code .. ': ' .. e.message) .. '\n# at ' .. at)
    return
  end
  show(previewed.buf, result.yaml)
end

-- Renders `root` again into its preview; a failed request says why, in the buffer, as comments.
local function render(client, root)
  local previewed = previews[root]
  client.request(PREVIEW_REQUEST, { uri = previewed.source, root = root }, function(err, result)
    if err then
      show(previewed.buf, '# kustomize-ts could not render ' .. root .. ':\n' .. commented(err.message))
    else
      show_result(previewed, result)
    end
  end)
end

-- In a preview (`gd`): goes to where the value on the cursor's line was written, in the window
-- before. The origins are asked for again: an edit that changes no output (which the server does
-- not tell) may still move the lines.
function M.goto_source()
  local buf = vim.api.nvim_get_current_buf()
  for root, previewed in pairs(previews) do
    if previewed.buf == buf then
      local client = vim.lsp.get_client_by_id(previewed.client)
      local response = client and client.request_sync(PREVIEW_REQUEST, { uri = previewed.source, root = root }, 5000, buf)
      if response and response.result and response.result.yaml then previewed.origins = origins_of(response.result) end
      local origin = previewed.origins[vim.api.nvim_win_get_cursor(0)[1] - 1]
      if not origin then return end
      vim.cmd('wincmd p')
      vim.cmd('edit ' .. vim.fn.fnameescape(vim.uri_to_fname(origin.uri)))
      vim.api.nvim_win_set_cursor(0, { origin.line + 1, origin.character })
      return
    end
  end
end

local function preview_buffer(root)
  local name = 'kustomize-preview://' .. root
  local buf = vim.fn.bufnr(name)
  if buf ~= -1 then return buf end
  buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, name)
  vim.api.nvim_buf_set_option(buf, 'filetype', 'yaml')
  vim.api.nvim_buf_set_option(buf, 'bufhidden', 'hide')
  vim.api.nvim_buf_set_option(buf, 'modifiable', false)
  vim.api.nvim_buf_set_keymap(buf, 'n', 'gd', "<cmd>lua require('kustomize_ts').goto_source()<CR>", { noremap = true, silent = true })
  return buf
end

-- :KustomizePreview: the output of the current file's root, in a split beside it.
function M.preview()
  local source_buf = vim.api.nvim_get_current_buf()
  local client = attached[source_buf] and vim.lsp.get_client_by_id(attached[source_buf])
  if not client then
    vim.notify('kustomize-ts: no language server for this buffer', vim.log.levels.WARN)
    return
  end
  local source = vim.uri_from_bufnr(source_buf)
  client.request(PREVIEW_REQUEST, { uri = source }, function(err, result)
    if err then
      vim.notify('kustomize-ts: no preview: ' .. err.message, vim.log.levels.ERROR)
      return
    end
    local buf = preview_buffer(result.root)
    previews[result.root] = { source = source, buf = buf, client = client.id }
    show_result(previews[result.root], result)
    if vim.fn.bufwinid(buf) == -1 then
      vim.cmd('vsplit')
      vim.api.nvim_win_set_buf(0, buf)
      vim.cmd('wincmd p')
    end
  end, source_buf)
end

local handlers = {
  [PREVIEW_CHANGED] = function(_, params, ctx)
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    for _, root in ipairs(params.roots) do
      local previewed = previews[root]
      if client and previewed and vim.api.nvim_buf_is_valid(previewed.buf) then render(client, root) end
    end
  end,
}

local function config_for(bufnr)
  return {
    name = 'kustomize-ts',
    cmd = options.cmd,
    root_dir = root_dir(vim.api.nvim_buf_get_name(bufnr)),
    settings = options.settings,
    handlers = handlers,
    on_init = function(client)
      -- Neovim 0.7 sends the settings only when asked: the server also hears them at the start
      client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
    end,
    on_attach = function(client, buf)
      attached[buf] = client.id
    end,
  }
end

-- the clients started, by workspace (Neovim 0.7, which has no vim.lsp.start to find them)
local clients = {}

local function attach(bufnr)
  if vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' then return end -- not a file (a preview)
  local config = config_for(bufnr)
  if vim.lsp.start then
    -- Neovim 0.8 and later: starts the client for this workspace, or reuses it
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = clients[config.root_dir]
  if id == nil or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(config)
    clients[config.root_dir] = id
  end
  if id then vim.lsp.buf_attach_client(bufnr, id) end
end

--- Starts the server for YAML buffers. `opts.cmd` replaces the command (a list: the program and
--- its arguments), `opts.settings` is merged into the settings above.
function M.setup(opts)
  opts = opts or {}
  if opts.cmd then options.cmd = opts.cmd end
  if opts.settings then options.settings = vim.tbl_deep_extend('force', options.settings, opts.settings) end
  local group = vim.api.nvim_create_augroup('kustomize_ts', { clear = true })
  -- a file named `Kustomization` says by its name only that it is YAML
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, { group = group, pattern = 'Kustomization', command = 'setfiletype yaml' })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'yaml',
    callback = function(args) attach(args.buf) end,
  })
  vim.api.nvim_create_user_command('KustomizePreview', M.preview, { desc = "the rendered output of this file's root" })
end

return M
