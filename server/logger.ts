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
  /**
   * The pino logger behind the lines. Request lines (one per request, server/observe.ts) are written
   * through it; a logger without one (a test's plain object) gets none.
   */
  readonly pino?: Pino;
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

function wrap(p: Pino, flush?: () => Promise<void>): Logger {
  const at = (level: Level) => (message: string, fields?: Record<string, unknown>) => p[level](fields ?? {}, message);
  return { info: at('info'), warn: at('warn'), error: at('error'), pino: p, flush };
}

/** A pino logger with the lines' shape, writing to `destination`. */
export function pinoLogger(destination: DestinationStream, level: LogLevel = 'info'): Logger {
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
  return wrap(p);
}

/** JSON lines to `write`, each ending in a newline (default: stderr). Tests pass a function that keeps them. */
export function jsonLogger(write: (line: string) => void = (l) => process.stderr.write(l), level: LogLevel = 'info'): Logger {
  return pinoLogger({ write }, level);
}

/**
 * The process's logger: stderr, written asynchronously (pino's sonic-boom), the lines of one turn of
 * the event loop in one write, so a line per request costs neither a blocking write nor a write of
 * its own (measured here: a write per line cost a fast-path request 8–10 µs of CPU, a third of the
 * request). If stderr's reader stalls, at most 8 MiB wait in memory and later lines are dropped
 * rather than growing the heap. Flushed on shutdown and at exit.
 */
export function stderrLogger(level: LogLevel = 'info'): Logger {
  const destination = pino.destination({ dest: 2, sync: false, maxLength: 8 * 1024 * 1024 });
  let batch = '';
  let scheduled = false;
  const writeBatch = () => {
    scheduled = false;
    if (batch === '') return;
    const lines = batch;
    batch = '';
    destination.write(lines);
  };
  const stream = {
    write(line: string) {
      batch += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(writeBatch);
      }
    },
  };
  process.on('exit', () => {
    writeBatch();
    try {
      destination.flushSync();
    } catch {
      // not open yet, or already closed: nothing to write
    }
  });
  const logger = pinoLogger(stream, level);
  const flush = () =>
    new Promise<void>((resolve) => {
      writeBatch();
      const timer = setTimeout(resolve, 1000);
      destination.flush(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return { ...logger, flush };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
