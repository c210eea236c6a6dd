import type { Ctx, SystemCaller } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import { parseCommandLine, UsageError, wantsJson } from './args.js';
import { argField, commandHelp, commands, findCommand, usageLine, type Command } from './commands.js';
import type { Printed } from './output.js';

// `crm`: the operators' admin CLI. One run = one command on the service's own database
// (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR, reused when the server already runs it),
// migrated first if need be.
//
// Output contract
//   --json     stdout holds exactly one JSON object, and nothing else, whatever happens:
//              the command's result, or on failure {"error": {"code", "message", "field"?}}.
//              stderr stays empty.
//   otherwise  a short human form on stdout; on failure a message on stderr.
// Exit status
//   0  done
//   1  refused by the service (invalid value, unknown key or workspace, limit reached):
//      code is the domain's (invalid_request, not_found, email_taken, server_key_limit, …)
//   2  a command line the CLI cannot read (unknown command or flag, missing flag or argument,
//      on|off or a part name mistyped): code "usage"; checked before the database is opened
//   3  failed (database unreachable, bad CRM_SECRET_KEY, …): code "failed"
// A refused or unreadable command changes nothing: the domain checks everything before writing.

export interface Io {
  out(text: string): Promise<void>;
  err(text: string): Promise<void>;
  env: NodeJS.ProcessEnv;
}

export const EXIT = { ok: 0, refused: 1, usage: 2, failed: 3 } as const;

export function usage(): string {
  return [
    "crm: the operators' admin CLI",
    '',
    'Usage:',
    ...commands.map((c) => `  ${usageLine(c)}`),
    '  crm help | crm --help | crm <group> <command> --help',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(17)} ${c.summary}`),
    '',
    'With --json a command prints exactly one JSON object on stdout: its result, or',
    '{"error": {"code", "message", "field"?}} when it fails.',
    'Exit status: 0 done; 1 refused (nothing changed); 2 bad command line (nothing changed); 3 failed.',
    '',
    "Database: DATABASE_URL, else the embedded PostgreSQL in DATA_DIR (default: the project's .data,",
    'as for npm start), reused if the server runs on it. Pending migrations are applied first.',
    'CRM_SECRET_KEY as for the server (else the key kept in the data folder).',
  ].join('\n');
}

type Parsed = { help: string } | { action: (ctx: Ctx<SystemCaller>) => Promise<Printed> };

function parse(argv: string[]): Parsed {
  const [group, verb] = argv;
  if (group === undefined) throw new UsageError('no command given');
  if (group === 'help' || group === '--help' || group === '-h') return { help: usage() };
  if (group.startsWith('-')) throw new UsageError(`give a command before any flag, not "${group}"`);
  // A command of one word (crm token): its arguments follow at once.
  const single = findCommand(group);
  if (single) return parseCommand(single, argv.slice(1));
  const verbs = commands.filter((c) => c.name.startsWith(`${group} `)).map((c) => c.name.split(' ')[1]);
  if (!verbs.length)
    throw new UsageError(
      `unknown command "${group}"; the commands are ${[...new Set(commands.map((c) => c.name.split(' ')[0]))].join(', ')}`,
    );
  if (verb === '--help' || verb === '-h')
    return {
      help: commands
        .filter((c) => c.name.startsWith(`${group} `))
        .map(commandHelp)
        .join('\n\n'),
    };
  if (verb === undefined || verb.startsWith('-')) throw new UsageError(`"crm ${group}" needs one of: ${verbs.join(', ')}`);
  const command = findCommand(`${group} ${verb}`);
  if (!command) throw new UsageError(`unknown command "${group} ${verb}"; "crm ${group}" has ${verbs.join(', ')}`);
  return parseCommand(command, argv.slice(2));
}

function parseCommand(command: Command, argv: string[]): Parsed {
  const { values, positionals } = parseCommandLine(command.name, argv, command.options);
  if (values.help) return { help: commandHelp(command) };
  command.args.forEach((arg, i) => {
    if (positionals[i] === undefined) throw new UsageError(`missing ${arg}`, argField(arg), command.name);
  });
  if (positionals.length > command.args.length)
    throw new UsageError(`unexpected argument "${positionals[command.args.length]}"`, undefined, command.name);
  for (const [name, spec] of Object.entries(command.options))
    if (spec.required && values[name] === undefined) throw new UsageError(`missing --${name}`, name, command.name);
  try {
    return { action: command.prepare(values, positionals) };
  } catch (err) {
    if (err instanceof UsageError && !err.command) throw new UsageError(err.message, err.field, command.name);
    throw err;
  }
}

/** Runs one command line; never throws; returns the exit status. */
export async function run(argv: string[], io: Io): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parse(argv);
    if ('help' in parsed) {
      await io.out(json ? `${JSON.stringify({ usage: parsed.help })}\n` : `${parsed.help}\n`);
      return EXIT.ok;
    }
    // Loaded only now: help and bad command lines answer without the database drivers. A command
    // runs on services of its own (services.ts): pg alone, never Prisma's client nor the server's.
    const [{ bootWith }, { openCliServices }, { readConfig }, { systemContext }] = await Promise.all([
      import('../boot.js'),
      import('./services.js'),
      import('../config.js'),
      import('../domain/context.js'),
    ]);
    const config = readConfig(io.env);
    const { location, svc } = await bootWith(config, (url, secretKey) => openCliServices({ config, url, secretKey }));
    let printed: Printed;
    try {
      printed = await parsed.action(systemContext(svc, 'operator'));
    } finally {
      await svc.close().catch(() => {});
      await location.embedded?.stop();
    }
    await io.out(json ? `${JSON.stringify(printed.json)}\n` : `${printed.text}\n`);
    return EXIT.ok;
  } catch (err) {
    const { status, error } = describe(err);
    if (json) await io.out(`${JSON.stringify({ error })}\n`);
    else {
      const hint = err instanceof UsageError ? `\nRun "crm ${err.command ? `${err.command} ` : ''}--help" for usage.` : '';
      await io.err(`crm: ${error.message}${hint}\n`);
    }
    return status;
  }
}

/** A domain field (webOrigins.3, ownerEmail) by the flag an operator typed (web-origins.3, owner-email). */
const FLAG_OF: Record<string, string> = { messengerOn: 'parts', helpOn: 'parts', inappOn: 'parts', workspaceId: 'workspace' };

export function flagOf(field: string): string {
  const [head = '', ...rest] = field.split('.');
  const flag = FLAG_OF[head] ?? head.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return [flag, ...rest].join('.');
}

function describe(err: unknown): { status: number; error: { code: string; message: string; field?: string } } {
  if (err instanceof UsageError)
    return { status: EXIT.usage, error: { code: 'usage', message: err.message, ...(err.field ? { field: err.field } : {}) } };
  if (err instanceof DomainError) {
    const fields = err.errors.map((e) => ({ field: flagOf(e.field), message: e.message }));
    const message = err.code === 'invalid_request' && fields.length ? fields.map((e) => `${e.field}: ${e.message}`).join('; ') : err.detail;
    return { status: EXIT.refused, error: { code: err.code, message, ...(fields[0] ? { field: fields[0].field } : {}) } };
  }
  return { status: EXIT.failed, error: { code: 'failed', message: (err instanceof Error ? err.message : String(err)).trim() } };
}
