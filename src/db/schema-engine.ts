import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';

// Prisma's own migration engine, compiled to wasm, driven through the pg driver adapter, so
// migrations run offline without the native engine the CLI would download.

const require = createRequire(import.meta.url);
let loaded: Promise<void> | undefined;

function loadWasm(): Promise<void> {
  loaded ??= (async () => {
    (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m: string) => console.error('PANIC', m) };
    const wasmPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg').replace(/\.js$/, '.wasm');
    const module = new WebAssembly.Module(await readFile(wasmPath));
    const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return loaded;
}

export type SchemaEngine = bg.SchemaEngine;

/** An engine bound to one database (it connects even for datamodel-only diffs). `close` frees its connections. */
export async function openSchemaEngine(
  files: { path: string; content: string }[],
  url: string,
): Promise<{ engine: SchemaEngine; close(): Promise<void> }> {
  await loadWasm();
  const factory = new PrismaPg(pgConfig(url));
  const opened: { dispose(): Promise<void> }[] = [];
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = wholeScripts(readCharColumns(await connect()));
    opened.push(adapter);
    return adapter;
  };
  const engine = await bg.SchemaEngine.new(
    { datamodels: files.map((f) => [f.path, f.content]) },
    () => {},
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  return {
    engine,
    async close() {
      engine.free();
      await Promise.all(opened.map((a) => a.dispose().catch(() => {})));
    },
  };
}

function pgConfig(url: string) {
  const u = new URL(url);
  return {
    host: decodeURIComponent(u.hostname),
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
    allowExitOnIdle: true,
  };
}

type Adapter = {
  client: { query(sql: string): Promise<unknown> };
  onError(error: unknown): never;
  executeScript(script: string): Promise<void>;
};

/**
 * adapter-pg splits a migration script on every `;`, which breaks function bodies and comments.
 * PostgreSQL runs a multi-statement script whole (and atomically) through the simple protocol.
 */
function wholeScripts<T extends object>(adapter: T): T {
  const a = adapter as unknown as Adapter;
  a.executeScript = async (script: string) => {
    try {
      await a.client.query(script);
    } catch (error) {
      a.onError(error);
    }
  };
  return adapter;
}

type Queryable = {
  performIO(query: unknown): Promise<{ fields: { dataTypeID: number }[]; rows: unknown[] }>;
  queryRaw(query: unknown): Promise<{ columnTypes: number[]; rows: unknown[] }>;
};
const CHAR_OID = 18;
const TEXT_OID = 25;
const CHARACTER_COLUMN = 6; // ColumnTypeEnum.Character
const patched = new WeakSet<object>();
const charColumns = new WeakMap<object, number[]>();

/**
 * adapter-pg 7.10.0 cannot map PostgreSQL's one-byte `"char"` type (OID 18), which the engine's
 * catalog queries return (pg_constraint.contype and others) and read as a Character column.
 * Patched once on the queryable's prototype, which the adapter and its transactions share:
 * the column passes the adapter as text, then is announced as Character.
 */
function readCharColumns<T extends object>(adapter: T): T {
  let proto: object | null = Object.getPrototypeOf(adapter);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'performIO')) proto = Object.getPrototypeOf(proto);
  if (!proto || patched.has(proto)) return adapter;
  const target = proto as Queryable;
  const { performIO, queryRaw } = target;
  target.performIO = async function (this: Queryable, query: unknown) {
    const result = await performIO.call(this, query);
    const chars: number[] = [];
    result.fields.forEach((field, i) => {
      if (field.dataTypeID === CHAR_OID) {
        field.dataTypeID = TEXT_OID;
        chars.push(i);
      }
    });
    if (chars.length) charColumns.set(result.rows, chars);
    return result;
  };
  target.queryRaw = async function (this: Queryable, query: unknown) {
    const result = await queryRaw.call(this, query);
    for (const i of charColumns.get(result.rows) ?? []) result.columnTypes[i] = CHARACTER_COLUMN;
    return result;
  };
  patched.add(proto);
  return adapter;
}
