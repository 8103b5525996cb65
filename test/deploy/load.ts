/** One request of a paced load, as the client saw it. */
export interface Outcome {
  path: string;
  /** 0 when the request failed without an answer (reset, refused, timed out). */
  status: number;
  text: string;
  error?: string;
  requestId: string | null;
  /** performance.now() when it was sent. */
  sentAt: number;
}

/**
 * A fixed load: `rate` requests a second, evenly spaced, cycling through `paths`, each sent on
 * time whatever the others are doing, until `until()` says stop (checked before each) or
 * `maxSeconds` have passed; resolves when every answer is in. Each request times out after 10 s.
 * With `keepBodies: false` the bodies are read but not kept (`text` is '').
 */
export async function paced(
  base: string,
  paths: string[],
  o: { rate: number; headers?: Record<string, string>; until: () => boolean; maxSeconds: number; keepBodies?: boolean },
): Promise<Outcome[]> {
  const gap = 1000 / o.rate;
  const start = performance.now();
  const pending: Promise<Outcome>[] = [];
  for (let i = 0; ; i++) {
    const due = start + i * gap;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (o.until() || performance.now() - start > o.maxSeconds * 1000) break;
    const path = paths[i % paths.length]!;
    const sentAt = performance.now();
    pending.push(
      fetch(base + path, { headers: o.headers, signal: AbortSignal.timeout(10_000) }).then(
        async (res) => {
          // A long load keeps its outcomes, not their bodies (`keepBodies: false`): read and dropped.
          const text = o.keepBodies === false ? (await res.arrayBuffer(), '') : await res.text();
          return { path, status: res.status, text, requestId: res.headers.get('x-request-id'), sentAt };
        },
        (e: Error) => ({
          path,
          status: 0,
          text: '',
          error: `${e.name}: ${e.message}${e.cause ? ` (${String((e.cause as Error).message ?? e.cause)})` : ''}`,
          requestId: null,
          sentAt,
        }),
      ),
    );
  }
  return Promise.all(pending);
}
