/**
 * The two clients of the unread-downloads scenario, each in a small process of its own: the test process (a
 * vitest worker with the whole project loaded) neither slows the greedy client's 2,000 sockets nor
 * adds its own pauses to the other client's timings.
 *
 *   node --import tsx test/helpers/unread-client.ts unread PORT PATH COUNT FROM
 *   node --import tsx test/helpers/unread-client.ts timed PORT FROM RATE SECONDS WARM_SECONDS PATH…
 *
 * Each prints `ready` once started (starting costs a second of CPU, kept out of what is measured)
 * and waits for a line `go` on its stdin. `unread` then opens COUNT connections from FROM (50 every
 * 100 ms: 4 s for 2,000), each sending one GET of PATH and reading nothing, and prints `opened`;
 * when its stdin closes it reads each connection's first status line, prints them counted as JSON
 * (`{"200":6,"429":1994}`), closes them all and exits. `timed` sends WARM_SECONDS of requests
 * unmeasured, prints `warm`, then RATE a second for SECONDS, cycling through the paths, and prints
 * each one's status and time as JSON, and exits. Both exit by themselves after 60 s.
 */
import { firstStatuses, openUnread, timedLoad } from './unread-downloads.js';

const [mode, port, ...rest] = process.argv.slice(2);
setTimeout(() => process.exit(3), 60_000).unref();
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8');
await new Promise<void>((resolve) => process.stdin.on('data', (c: string) => c.includes('go') && resolve()));

if (mode === 'unread') {
  const [path, count, from] = rest;
  const sockets = await openUnread(Number(port), path!, Number(count), { from, perBatch: 50, pauseMs: 100 });
  process.stdout.write('opened\n');
  process.stdin.on('end', async () => {
    const statuses = await firstStatuses(sockets);
    process.stdout.write(`${JSON.stringify(statuses)}\n`);
    for (const s of sockets) s.destroy();
    process.exit(0);
  });
} else if (mode === 'timed') {
  const [from, rate, seconds, warm, ...paths] = rest;
  await timedLoad(Number(port), paths, { rate: Number(rate), seconds: Number(warm), from });
  process.stdout.write('warm\n');
  const times = await timedLoad(Number(port), paths, { rate: Number(rate), seconds: Number(seconds), from });
  process.stdout.write(`${JSON.stringify(times)}\n`);
  process.exit(0);
} else {
  process.stderr.write(`unread-client: unknown mode ${mode}\n`);
  process.exit(2);
}
