import { pino, type DestinationStream, type Level, type Logger as Pino } from 'pino';

/**
 * Structured log lines (JSON, one per line, pino): `level` by name, `time` (ISO, UTC), `pid`,
 * `message`, then the fields. Injected into createApp, the snapshot source and the meter, so tests
 * capture lines (`jsonLogger((line) => lines.push(line))`) or silence them.
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** The pino logger behind the lines; none for a test's plain object. */
  readonly pino?: Pino;
  /**
   * Writes one request line (server/kit/observe.ts), shaped as every other line; absent when `info` is
   * off (LOG_LEVEL=warn) or the logger has no pino behind it, so a request then costs nothing.
   */
  readonly request?: (line: RequestLine, message: string) => void;
  /** Writes out what is still buffered (the process's stderr logger writes asynchronously). */
  flush?(): Promise<void>;
}

/** LOG_LEVEL's values: pino's levels, `silent` for none. Request lines are `info`. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL, default `info`; anything else is an error the caller reports. */
export function logLevelFrom(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info';
  const level = value.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got ${value}`);
  return level as LogLevel;
}

/** ISO time of a line, made once per millisecond (a busy shim writes many lines in one). */
let isoAt = 0;
let iso = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== isoAt) {
    isoAt = now;
    iso = `,"time":"${new Date(now).toISOString()}"`;
  }
  return iso;
}

/** The fields of a request line, in the order they are written. */
export interface RequestLine {
  request_id: string | null;
  method: string | null;
  route: string;
  status: number | null;
  duration_ms: number;
  bytes: number;
  tier: string | null;
  key_id: string | null;
  client: string | null;
  snapshot: string | null;
  /** An MCP request's tool (`POST /mcp` calling a known tool); absent on every other line. */
  tool?: string | undefined;
}

/** Strings that are their own JSON (ids, routes, addresses, tiers): written as they are, between quotes. */
const PLAIN = /^[\w.:/{}\-]*$/;
const str = (v: string | null) => (v === null ? 'null' : PLAIN.test(v) ? `"${v}"` : JSON.stringify(v));
const num = (v: number | null) => (v === null || !Number.isFinite(v) ? 'null' : String(v));

/**
 * A request line written straight to pino's destination, in the shape pino gives every other line
 * (level, time, pid, the fields, message). Every request writes one, and their fields are known:
 * ids, a route pattern, numbers. pino's generic serialiser (a type switch and an escape scan per
 * value) was a visible share of a company-file request's CPU; this costs a fraction of that
 * (docs/operations.md, "Logs"). Strings that are not plain are JSON-escaped, never trusted.
 */
function requestWriter(destination: DestinationStream): (line: RequestLine, message: string) => void {
  const head = `{"level":"info"`;
  const pid = `,"pid":${process.pid}`;
  return (l, message) => {
    destination.write(
      `${head}${isoTime()}${pid},"request_id":${str(l.request_id)},"method":${str(l.method)},"route":${str(l.route)}` +
        `,"status":${num(l.status)},"duration_ms":${num(l.duration_ms)},"bytes":${num(l.bytes)},"tier":${str(l.tier)}` +
        `,"key_id":${str(l.key_id)},"client":${str(l.client)},"snapshot":${str(l.snapshot)}` +
        `${l.tool === undefined ? '' : `,"tool":${str(l.tool)}`},"message":${str(message)}}\n`,
    );
  };
}

/** `written`: called after each event line (start-up, outages, errors), so those are not held back with request lines. */
function wrap(p: Pino, destination: DestinationStream, written?: () => void): Logger {
  const at = (level: Level) => (message: string, fields?: Record<string, unknown>) => {
    p[level](fields ?? {}, message);
    written?.();
  };
  return {
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    pino: p,
    ...(p.isLevelEnabled('info') ? { request: requestWriter(destination) } : {}),
  };
}

/** A pino logger with the lines' shape, writing to `destination`. */
export function pinoLogger(destination: DestinationStream, level: LogLevel = 'info', written?: () => void): Logger {
  const p = pino(
    {
      level,
      messageKey: 'message',
      base: { pid: process.pid },
      timestamp: isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return wrap(p, destination, written);
}

/** JSON lines to `write`, each ending in a newline (default: stderr). Tests pass a function that keeps them. */
export function jsonLogger(write: (line: string) => void = (l) => process.stderr.write(l), level: LogLevel = 'info'): Logger {
  return pinoLogger({ write }, level);
}

/**
 * The process's logger: stderr, written asynchronously (pino's sonic-boom), so a line per request
 * costs no blocking write. Request lines are gathered and written together, at 32 KiB or 20 ms
 * after the first, whichever comes first, rather than a write each (sonic-boom also measures its
 * whole pending buffer at every write). Other lines (start-up, outages, errors) are written at
 * once, with whatever request lines wait. If stderr's reader stalls, at most 8 MiB wait in memory
 * and later lines are dropped rather than growing the heap. Flushed on shutdown and at exit.
 */
export function stderrLogger(level: LogLevel = 'info'): Logger {
  const destination = pino.destination({ dest: 2, sync: false, maxLength: 8 * 1024 * 1024 });
  // Bytes handed to the destination and bytes it wrote (or dropped): equal when nothing is in flight.
  let queued = 0;
  let done = 0;
  const idle: (() => void)[] = [];
  const progress = (bytes: number) => {
    done += bytes;
    if (done >= queued) for (const resolve of idle.splice(0)) resolve();
  };
  destination.on('write', progress);
  destination.on('drop', (data: string) => progress(Buffer.byteLength(data)));
  const lines: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | null = null;
  const writeLines = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (lines.length === 0) return;
    const text = lines.join('');
    lines.length = 0;
    size = 0;
    queued += Buffer.byteLength(text);
    destination.write(text);
  };
  const stream = {
    write(line: string) {
      lines.push(line);
      size += line.length;
      if (size >= 32 * 1024) writeLines();
      else if (!timer) timer = setTimeout(writeLines, 20).unref();
    },
  };
  process.on('exit', () => {
    writeLines();
    try {
      destination.flushSync();
    } catch {
      // not open yet, or already closed: nothing to write
    }
  });
  /** Resolves once every line so far has been written (at most a second: a stalled reader). */
  const flush = () =>
    new Promise<void>((resolve) => {
      writeLines();
      if (done >= queued) return resolve();
      const giveUp = setTimeout(resolve, 1000);
      idle.push(() => {
        clearTimeout(giveUp);
        resolve();
      });
    });
  return { ...pinoLogger(stream, level, writeLines), flush };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
