import { pino } from 'pino';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { systemClock } from '../kernel/clock.ts';
import { createModules } from '../modules.ts';
import { runAdmin } from './cli.ts';

// `npm run admin -- <command>`: the back office on the server's own configuration and database, through the same
// composition root as the server (server/modules.ts): the same services and use cases, the same job queue to
// enqueue into (a CLI process never works it). With the embedded PGlite, stop the server first (one process owns
// its data directory); PostgreSQL has no such limit.

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    return runAdmin(argv, { db: undefined as never, clock: systemClock, horizonDays: 0, io });
  }
  const config = loadConfig();
  const database = await openDatabase(config.database, { timeouts: config.databaseTimeouts });
  try {
    await migrateToLatest(database.db, { vatRate: config.company.vatRate });
    // Warnings and errors of the services go to stderr; stdout is the command's output.
    const log = pino({ level: 'warn' }, pino.destination(2));
    const modules = await createModules(config, database, systemClock, { log, manualJobs: false });
    try {
      return await runAdmin(argv, {
        db: modules.db,
        clock: systemClock,
        horizonDays: config.slotHorizonDays,
        io,
        lockProvider: modules.lockProvider,
        payments: modules.payments,
        publicUrl: config.publicUrl,
        operatorLocale: config.operator.locale,
        allowPlainHttp: !config.isProduction,
        modules,
      });
    } finally {
      await modules.stop();
    }
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
