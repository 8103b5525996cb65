/**
 * The greedy client of issue 41 in a process of its own, so that its 2,000 sockets do not slow the
 * test process that times the other client's requests:
 *   node --import tsx test/helpers/unread-client.ts PORT PATH COUNT FROM_ADDRESS
 * Prints `ready` once started (starting costs a second of CPU, kept out of the measured time); on a
 * line `go` on its stdin, opens COUNT connections from FROM_ADDRESS (50 every 100 ms: 4 s for 2,000), each sending
 * one GET of PATH and reading nothing, then prints `opened`. When its stdin closes, it reads the
 * first status line of each, prints them counted as JSON (`{"200":6,"429":1994}`), closes every
 * connection and exits. It exits by itself after 60 s whatever happens.
 */
import { firstStatuses, openUnread } from './unread-downloads.js';

const [port, path, count, from] = process.argv.slice(2);
setTimeout(() => process.exit(3), 60_000).unref();
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8');
await new Promise<void>((resolve) => process.stdin.on('data', (c: string) => c.includes('go') && resolve()));
const sockets = await openUnread(Number(port), path!, Number(count), { from, perBatch: 50, pauseMs: 100 });
process.stdout.write('opened\n');
process.stdin.on('end', async () => {
  const statuses = await firstStatuses(sockets);
  process.stdout.write(`${JSON.stringify(statuses)}\n`);
  for (const s of sockets) s.destroy();
  process.exit(0);
});
