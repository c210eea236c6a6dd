// npm run db:migration:create -- <name> | npm run db:migrate | npm run db:drift
// Runs against DATABASE_URL, or the embedded PostgreSQL in DATA_DIR (started for the while).
import { readConfig } from '../src/config.js';
import { locateDatabase } from '../src/db/connect.js';
import { applyMigrations, checkDrift, createMigration } from '../src/db/migrations.js';

const [command, name] = process.argv.slice(2);
const db = await locateDatabase(readConfig());
let code = 0;
try {
  if (command === 'create') {
    const folder = await createMigration(db.adminUrl, name ?? 'change');
    console.log(folder ? `created prisma/migrations/${folder}/migration.sql` : 'prisma/schema and the migrations agree: nothing to create');
  } else if (command === 'apply') {
    const applied = await applyMigrations(db.url);
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'no pending migration');
  } else if (command === 'drift') {
    const missing = await checkDrift(db.adminUrl);
    if (missing) {
      console.error(`prisma/schema differs from prisma/migrations; a new migration would run:\n${missing}`);
      code = 1;
    } else console.log('no drift: the migrations build exactly what prisma/schema says');
  } else {
    console.error('usage: migrate.ts create <name> | apply | drift');
    code = 2;
  }
} finally {
  await db.embedded?.stop();
}
process.exit(code);
