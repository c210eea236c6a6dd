import { defineConfig } from 'prisma/config';

// The native schema engine is never used (migrations run on the wasm engine, scripts/migrate.ts);
// pointing the CLI at an existing file stops it from downloading one.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/false';

export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
});
