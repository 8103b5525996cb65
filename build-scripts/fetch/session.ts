import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AnswerRequest, FetchSession, KeptAnswer } from '../sources/kit/source.js';
import type { ManifestFile } from '../snapshot/sources-manifest.js';
import { checkBody } from './check-body.js';
import { FetchFailure } from '../sources/kit/fetch-failure.js';
import { download, redact, type HttpOptions } from './http.js';

/**
 * The fetcher's side of one source's plan: each request goes out with the shared timeouts, spacing
 * and retries, carrying the cookies the source's earlier answers set (an ASP.NET session); each
 * answer is checked, kept as served under its file name, and entered in the manifest with its URL
 * (never a key), method, the body sent (as the plan records it), status, bytes and sha256.
 */
export class Session implements FetchSession {
  readonly answers: ManifestFile[] = [];
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly sourceId: string,
    private readonly work: string,
    private readonly http: HttpOptions,
    private readonly now: () => Date,
    readonly log: (message: string) => void,
  ) {}

  async request(r: AnswerRequest): Promise<KeptAnswer> {
    const path = join(this.work, r.file);
    const part = `${path}.part`;
    const retrievedAt = this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    const cookie = [...this.cookies.entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    try {
      const d = await download(
        { url: r.url, method: r.method, body: r.body, headers: { ...r.headers, ...(cookie ? { cookie } : {}) } },
        part,
        this.http,
      );
      for (const c of d.cookies) {
        const [pair] = c.split(';');
        const eq = pair!.indexOf('=');
        if (eq > 0) this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
      }
      const records = await checkBody(part, r.expect, d.contentType, r.check);
      renameSync(part, path);
      const recorded = r.recordedBody ?? r.body;
      this.answers.push({
        file: r.file,
        source_id: this.sourceId,
        url: withoutKey(r.url),
        method: r.method,
        ...(recorded !== undefined ? { request_body: redact(recorded, this.http.secrets) } : {}),
        http_status: d.status,
        content_type: d.contentType,
        retrieved_at: retrievedAt,
        bytes: d.bytes,
        sha256: d.sha256,
        records,
      });
      this.log(`${this.sourceId}: ${r.method} ${withoutKey(r.url)} → ${r.file}, ${records} records, ${d.bytes} bytes`);
      return { file: r.file, path, records, sha256: d.sha256 };
    } catch (e) {
      rmSync(part, { force: true });
      const message = redact((e as Error).message ?? String(e), this.http.secrets);
      throw new FetchFailure(
        `${r.method} ${withoutKey(r.url)} (${r.file}): ${message}`,
        e instanceof FetchFailure ? e.status : null,
        e instanceof FetchFailure ? e.kind : null,
      );
    }
  }
}

/** The URL as recorded: never the MOENV key. */
export function withoutKey(url: string): string {
  const u = new URL(url);
  u.searchParams.delete('api_key');
  return u.toString();
}
