// Entry of `crm` (scripts/crm.mjs, or `npm run crm --`). See run.ts for the output contract.
import { run } from './run.js';

// Only the command's result may reach stdout. Whatever a library might print there goes to
// stderr instead; the result is written through the real stdout.
const stdoutWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const writeTo = (write: (chunk: string, cb: (err?: Error | null) => void) => boolean) => (text: string) =>
  new Promise<void>((resolve) => write(text, () => resolve()));

const code = await run(process.argv.slice(2), {
  out: writeTo(stdoutWrite),
  err: writeTo(process.stderr.write.bind(process.stderr)),
  env: process.env,
});
// Exit explicitly: the database drivers and Prisma's engine may keep timers alive.
process.exit(code);
