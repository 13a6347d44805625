-- Headless neovim (0.7+) end-to-end check of jcg-lsp, run by server/nvim_test.go.
-- It opens a Java file, starts the server with vim.lsp.start_client (0.7 has no
-- vim.lsp.start), waits for the server's jcg/status "ready" notification, then asks
-- for a hover and for the incoming calls of the method at JCG_LINE:JCG_CHAR (an LSP
-- position) and writes the answers to JCG_OUT, one "KEY value" line each.
local out = assert(os.getenv('JCG_OUT'))
local root = assert(os.getenv('JCG_ROOT'))
local line = tonumber(os.getenv('JCG_LINE'))
local char = tonumber(os.getenv('JCG_CHAR'))

local function write(s)
  local f = assert(io.open(out, 'a'))
  f:write(s:gsub('\n', ' ') .. '\n')
  f:close()
end

local function finish(msg)
  write(msg)
  vim.schedule(function() vim.cmd('qall!') end)
end

local started = false

local function run(client, bufnr)
  if started then return end
  started = true
  local pos = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line, character = char },
  }
  for _, m in ipairs({ 'textDocument/hover', 'textDocument/prepareCallHierarchy', 'callHierarchy/incomingCalls' }) do
    if not client.supports_method(m) then
      return finish('FAIL server does not support ' .. m)
    end
  end
  client.request('textDocument/hover', pos, function(err, result)
    if err or not result then return finish('FAIL hover: ' .. vim.inspect(err)) end
    write('HOVER ' .. result.contents.value)
    client.request('textDocument/prepareCallHierarchy', pos, function(err2, items)
      if err2 or not items or #items == 0 then return finish('FAIL prepare: ' .. vim.inspect(err2)) end
      write('ITEM ' .. items[1].name .. ' | ' .. (items[1].detail or ''))
      client.request('callHierarchy/incomingCalls', { item = items[1] }, function(err3, calls)
        if err3 or not calls then return finish('FAIL incoming: ' .. vim.inspect(err3)) end
        for _, c in ipairs(calls) do
          if c.from.detail and c.from.detail:match('^app%.') then
            write('INCOMING ' .. c.from.name .. ' | ' .. c.from.detail)
          end
        end
        finish('DONE')
      end, bufnr)
    end, bufnr)
  end, bufnr)
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'java',
  callback = function(args)
    local bufnr = args.buf
    local id = vim.lsp.start_client({
      name = 'jcg-lsp',
      cmd = { assert(os.getenv('JCG_LSP')), '--stdio', '--log', assert(os.getenv('JCG_LOG')) },
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = 'workspace' } },
      init_options = { level = 'correct-string' },
      handlers = {
        ['jcg/status'] = function(_, result, ctx)
          if result.state == 'ready' then
            run(vim.lsp.get_client_by_id(ctx.client_id), bufnr)
          elseif result.state == 'failed' then
            finish('FAIL build: ' .. (result.message or '?'))
          end
        end,
      },
      on_exit = function(code) if not started then finish('FAIL server exited with ' .. code) end end,
    })
    if not id then return finish('FAIL start_client') end
    vim.lsp.buf_attach_client(bufnr, id)
  end,
})

vim.defer_fn(function() finish('FAIL timeout') end, tonumber(os.getenv('JCG_TIMEOUT_MS') or '240000'))
