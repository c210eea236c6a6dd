import { parseArgs, type ParseArgsConfig } from 'node:util';

// Argument parsing for `crm`: node:util parseArgs in strict mode, plus the few value shapes the
// commands share (on|off, comma lists). Anything the CLI cannot understand is a UsageError.

/** A command line the CLI cannot understand: exit status 2, code "usage", nothing touched. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The flag (without dashes) or argument the problem is in. */
    readonly field?: string,
    /** The command whose --help to point at, such as "app set". */
    readonly command?: string,
  ) {
    super(message);
  }
}

export type Values = Record<string, string | boolean | undefined>;

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The value's placeholder in the usage text, such as "URL" or "on|off". */
  value?: string;
  required?: boolean;
  help: string;
}

/** Whether the caller asked for JSON: decided before parsing, so even a parse error answers in JSON. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** Strict parse of one command's flags (plus --json and --help) and its positional arguments. */
export function parseCommandLine(
  command: string,
  argv: string[],
  specs: Record<string, OptionSpec>,
): { values: Values; positionals: string[] } {
  const options: NonNullable<ParseArgsConfig['options']> = {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, spec] of Object.entries(specs)) options[name] = { type: spec.type };
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values as Values, positionals };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (!code?.startsWith('ERR_PARSE_ARGS')) throw err;
    const flag = /'(?:-[a-zA-Z], )?--?([\w-]+)/.exec((err as Error).message)?.[1];
    throw new UsageError((err as Error).message, flag, command);
  }
}

export const str = (values: Values, name: string): string | undefined => {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
};

/** `on` or `off`; anything else is refused. */
export function onOff(values: Values, flag: string): boolean | undefined {
  const v = str(values, flag);
  if (v === undefined) return undefined;
  if (v === 'on') return true;
  if (v === 'off') return false;
  throw new UsageError(`--${flag} takes on or off, not "${v}"`, flag);
}

/** A comma-separated list; blanks are dropped, so '' is the empty list. */
export const commaList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
