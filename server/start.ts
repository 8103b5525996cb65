import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { currentSnapshotDir, snapshotsDirFromEnv } from '../src/snapshot/published.js';

/**
 * `npm start`: publishes the demo snapshot when none is published (a fresh clone), then runs the
 * server in this same process, so the signal a supervisor sends (systemd, `docker stop`, npm
 * forwarding its own) reaches the server itself. The start script is `exec node … server/start.ts`:
 * without `exec`, npm's `sh -c` stays between npm and node and dies of the SIGTERM npm forwards,
 * leaving node orphaned and still listening (measured here with Debian's dash).
 *
 * The build runs as a child process (the server imports nothing from build-scripts/), with Node's
 * default heap rather than the server's 160 MB; a signal during the build stops it and exits.
 */
const ensureSnapshot = fileURLToPath(new URL('../build-scripts/cli/ensure-snapshot.ts', import.meta.url));

async function buildDemoIfNothingPublished(): Promise<void> {
  const current = currentSnapshotDir(snapshotsDirFromEnv());
  if (current !== null && existsSync(current)) return;
  const child = spawn(process.execPath, ['--import', 'tsx', ensureSnapshot], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => {
    child.kill(signal);
    process.exitCode = 128 + (constants.signals[signal] ?? 15);
  };
  const onTerm = forward('SIGTERM');
  const onInt = forward('SIGINT');
  process.on('SIGTERM', onTerm).on('SIGINT', onInt);
  const code = await new Promise<number>((resolve) => {
    child.once('exit', (c, signal) => resolve(c ?? 128 + (signal ? (constants.signals[signal] ?? 15) : 1)));
    child.once('error', () => resolve(1));
  });
  process.off('SIGTERM', onTerm).off('SIGINT', onInt);
  if (process.exitCode !== undefined || code !== 0) process.exit(process.exitCode ?? code);
}

await buildDemoIfNothingPublished();
await import('./index.js');
