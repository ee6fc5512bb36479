// The real, keyless MCP servers of the compatibility matrix, as installed by compat/package.json.
// Each set-up is one server over one transport: `argv` after `node`, the package-relative entry
// first; HTTP set-ups name how the port is passed, the endpoint's path and host (127.0.0.1 unless
// said). `calls` are the only
// tools the kit may call (harmless ones: no network, nothing written outside a temp dir).
// `{dir}` is a temp directory with hello.txt in it, `{port}` a free port.

/**
 * What `npm run matrix -- <key>` names a server by: its id without the parenthesised note, since
 * npm passes the arguments of a script to the shell unquoted (parentheses and spaces would break it).
 */
export const serverKey = (server) => server.id.split(' (')[0]

const pkg = (name) => `node_modules/${name}`

export const SERVERS = [
  {
    id: 'server-everything',
    package: '@modelcontextprotocol/server-everything',
    stdio: { argv: [`${pkg('@modelcontextprotocol/server-everything')}/dist/index.js`, 'stdio'] },
    http: { argv: [`${pkg('@modelcontextprotocol/server-everything')}/dist/index.js`, 'streamableHttp'], env: { PORT: '{port}' }, path: '/mcp' },
    calls: [
      { name: 'echo', arguments: { message: 'hello' } },
      // A task tool: in memory, no network; it lets the tasks checks run (about 4 s a task).
      { name: 'simulate-research-query', arguments: { topic: 'conformance' } },
    ],
  },
  {
    id: 'server-filesystem',
    package: '@modelcontextprotocol/server-filesystem',
    stdio: { argv: [`${pkg('@modelcontextprotocol/server-filesystem')}/dist/index.js`, '{dir}'] },
    calls: [{ name: 'read_text_file', arguments: { path: '{dir}/hello.txt' } }],
  },
  {
    id: 'server-memory',
    package: '@modelcontextprotocol/server-memory',
    stdio: { argv: [`${pkg('@modelcontextprotocol/server-memory')}/dist/index.js`], env: { MEMORY_FILE_PATH: '{dir}/memory.jsonl' } },
    calls: [{ name: 'read_graph', arguments: {} }],
  },
  {
    id: 'server-sequential-thinking',
    package: '@modelcontextprotocol/server-sequential-thinking',
    stdio: { argv: [`${pkg('@modelcontextprotocol/server-sequential-thinking')}/dist/index.js`] },
    calls: [{ name: 'sequentialthinking', arguments: { thought: 'one step', nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 } }],
  },
  {
    id: 'server-github (no token)',
    package: '@modelcontextprotocol/server-github',
    stdio: { argv: [`${pkg('@modelcontextprotocol/server-github')}/dist/index.js`] },
  },
  {
    id: 'mcp-hello-world',
    package: 'mcp-hello-world',
    stdio: { argv: [`${pkg('mcp-hello-world')}/build/stdio.js`] },
    calls: [{ name: 'echo', arguments: { message: 'conformance' } }],
  },
  {
    id: '@eslint/mcp',
    package: '@eslint/mcp',
    stdio: { argv: [`${pkg('@eslint/mcp')}/src/mcp-cli.js`] },
  },
  {
    id: '@upstash/context7-mcp (no key)',
    package: '@upstash/context7-mcp',
    stdio: { argv: [`${pkg('@upstash/context7-mcp')}/dist/index.js`] },
    http: { argv: [`${pkg('@upstash/context7-mcp')}/dist/index.js`, '--transport', 'http', '--port', '{port}'], path: '/mcp' },
  },
  {
    id: '@antv/mcp-server-chart',
    package: '@antv/mcp-server-chart',
    stdio: { argv: [`${pkg('@antv/mcp-server-chart')}/build/index.js`] },
    http: { argv: [`${pkg('@antv/mcp-server-chart')}/build/index.js`, '--transport', 'streamable', '--host', '127.0.0.1', '--port', '{port}'], path: '/mcp' },
  },
  {
    id: '@playwright/mcp',
    package: '@playwright/mcp',
    stdio: { argv: [`${pkg('@playwright/mcp')}/cli.js`, '--headless'] },
    // It serves only requests whose Host is the name it was bound to.
    http: { argv: [`${pkg('@playwright/mcp')}/cli.js`, '--headless', '--host', 'localhost', '--port', '{port}'], host: 'localhost', path: '/mcp' },
  },
  {
    id: 'chrome-devtools-mcp',
    package: 'chrome-devtools-mcp',
    stdio: { argv: [`${pkg('chrome-devtools-mcp')}/build/src/bin/chrome-devtools-mcp.js`] },
  },
  {
    id: '@cyanheads/git-mcp-server',
    package: '@cyanheads/git-mcp-server',
    stdio: { argv: [`${pkg('@cyanheads/git-mcp-server')}/dist/index.js`] },
    http: { argv: [`${pkg('@cyanheads/git-mcp-server')}/dist/index.js`], env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_HOST: '127.0.0.1', MCP_HTTP_PORT: '{port}' }, path: '/mcp' },
  },
]
