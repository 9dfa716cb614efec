import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

// The process entry point: configuration, the app, listening, and a clean stop on SIGINT/SIGTERM
// (no new connections, in-flight requests finish, open connections end, the database closes, the process exits).
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Draining takes up to the keep-alive timeout (6 s), then the jobs in progress get up to 8 s.
    const forceExit = setTimeout(() => {
      app.log.error('shutdown took longer than 20 s; exiting');
      process.exit(1);
    }, 20_000);
    forceExit.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.startBackgroundWork();
  app.log.info(`ready: ${config.publicUrl} (API reference at ${config.publicUrl}/api/docs)`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('The server could not start:', error);
  }
  process.exit(1);
});
