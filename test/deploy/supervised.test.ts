import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The supervised shapes shipped in deploy/ cannot run here (no systemd as PID 1, no Docker
 * daemon): checked as far as they can be. The unit file is parsed, its required keys checked, and
 * verified by `systemd-analyze verify` where that is installed; the Dockerfile is parsed and its
 * user, health check and command checked.
 */
const ENVIRONMENT = [
  'PORT',
  'HOST',
  'REDIS_URL',
  'TRUST_PROXY',
  'KEYS_DB',
  'SNAPSHOTS_DIR',
  'LOG_LEVEL',
  'METRICS_PORT',
  'SHUTDOWN_DRAIN_MS',
  'SHUTDOWN_GRACE_MS',
];
const startScript = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
/** The Node flags `npm start` runs the server with (heap bounds, V8 settings): a supervised shim runs with the same. */
const startFlags = startScript.split(/\s+/).filter((t) => t.startsWith('--') && t !== '--import');

/** systemd's unit syntax: sections of Key=Value lines; a key may repeat (Environment=). */
function parseUnit(text: string): Map<string, [string, string][]> {
  const sections = new Map<string, [string, string][]>();
  let current: [string, string][] | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) {
      current = [];
      sections.set(section[1]!, current);
      continue;
    }
    const eq = line.indexOf('=');
    expect(eq, line).toBeGreaterThan(0);
    expect(current, `${line} outside a section`).not.toBeNull();
    current!.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return sections;
}

describe('deploy/esg-shim@.service', () => {
  const text = readFileSync('deploy/esg-shim@.service', 'utf8');
  const unit = parseUnit(text);
  const service = unit.get('Service')!;
  const one = (key: string) => {
    const values = service.filter(([k]) => k === key).map(([, v]) => v);
    expect(values, key).toHaveLength(1);
    return values[0]!;
  };

  it('restarts on failure, and sends SIGTERM to the server itself', () => {
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    expect(one('Restart')).toBe('on-failure');
    expect(one('KillSignal')).toBe('SIGTERM');
    expect(one('KillMode')).toBe('mixed');
    // Node is the main process: no npm, no shell in between to swallow the signal.
    const exec = one('ExecStart').split(/\s+/);
    expect(exec[0]).toMatch(/^\/\S*\/node$/);
    expect(exec).toContain('server/index.ts');
    expect(exec.filter((t) => ['npm', 'npx', 'sh', 'bash', '&&', ';', 'exec'].includes(t))).toEqual([]);
    expect(exec[exec.indexOf('tsx') - 1], 'tsx only as a loader, not a runner').toBe('--import');
    for (const flag of startFlags) expect(exec, `the flags of npm start: ${startScript}`).toContain(flag);
    const ms = (name: string) => Number(service.find(([k, v]) => k === 'Environment' && v.startsWith(`${name}=`))![1].split('=')[1]);
    expect(Number(one('TimeoutStopSec')) * 1000).toBeGreaterThan(ms('SHUTDOWN_DRAIN_MS') + ms('SHUTDOWN_GRACE_MS'));
    expect(one('User')).not.toBe('root');
  });

  it('sets and documents every setting of the shim', () => {
    const set = service.filter(([k]) => k === 'Environment').map(([, v]) => v.split('=')[0]);
    const header = text
      .split('\n')
      .filter((l) => l.startsWith('#'))
      .join('\n');
    for (const name of ENVIRONMENT) {
      expect(set, name).toContain(name);
      expect(header, `${name} documented`).toMatch(new RegExp(`#\\s+${name}\\s`));
    }
    expect(service.find(([k, v]) => k === 'Environment' && v.startsWith('PORT='))![1]).toBe('PORT=%i');
    expect(service.find(([k, v]) => k === 'Environment' && v.startsWith('HOST='))![1]).toBe('HOST=127.0.0.1');
  });

  const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find(existsSync);
  it.skipIf(!analyze)('passes systemd-analyze verify as an instance', () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-unit-'));
    try {
      // Verified as instance 8081; the node binary is this machine's where it is not at /usr/bin/node.
      const unitText = existsSync('/usr/bin/node') ? text : text.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `);
      const file = join(dir, 'esg-shim@8081.service');
      writeFileSync(file, unitText);
      const r = spawnSync(analyze!, ['verify', file], { encoding: 'utf8', timeout: 30_000 });
      expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/esg-nginx.service', () => {
  const text = readFileSync('deploy/esg-nginx.service', 'utf8');
  const service = parseUnit(text).get('Service')!;
  const get = (key: string) => service.filter(([k]) => k === key).map(([, v]) => v);

  it('runs the generated config in the foreground, not as root, and stops gracefully', () => {
    expect(get('ExecStart')).toHaveLength(1);
    expect(get('ExecStart')[0]).toMatch(/^\/usr\/sbin\/nginx -c \S+ -g "daemon off;"$/);
    expect(get('User')[0]).toBe('esg');
    expect(get('KillSignal')).toEqual(['SIGQUIT']);
    expect(get('Restart')).toEqual(['on-failure']);
  });

  const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find(existsSync);
  it.skipIf(!analyze || !existsSync('/usr/sbin/nginx'))('passes systemd-analyze verify', () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-unit-'));
    try {
      writeFileSync(join(dir, 'esg-nginx.service'), text);
      const r = spawnSync(analyze!, ['verify', join(dir, 'esg-nginx.service')], { encoding: 'utf8', timeout: 30_000 });
      expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/Dockerfile', () => {
  // One instruction per logical line (continuations joined), comments dropped.
  const instructions = readFileSync('deploy/Dockerfile', 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => ({ op: l.split(/\s+/)[0]!.toUpperCase(), args: l.slice(l.indexOf(' ') + 1).trim() }));
  const finalStage = instructions.slice(instructions.map((i) => i.op).lastIndexOf('FROM'));

  it('runs on node 20 as a non-root user, node directly as PID 1', () => {
    expect(finalStage[0]!.args).toMatch(/^node:20[-.\w]*$/);
    const users = finalStage.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const cmd = finalStage.filter((i) => i.op === 'CMD');
    expect(cmd).toHaveLength(1);
    expect(finalStage.some((i) => i.op === 'ENTRYPOINT')).toBe(false);
    // The exec form: no shell between docker and node, so `docker stop`'s SIGTERM reaches the server.
    const argv = JSON.parse(cmd[0]!.args) as string[];
    expect(argv[0]).toBe('node');
    expect(argv).toContain('server/index.ts');
    for (const flag of startFlags) expect(argv).toContain(flag);
    expect(finalStage.find((i) => i.op === 'STOPSIGNAL')?.args ?? 'SIGTERM').toBe('SIGTERM');
  });

  it("checks its health on /healthz, and sets the shim's settings", () => {
    const health = finalStage.filter((i) => i.op === 'HEALTHCHECK');
    expect(health).toHaveLength(1);
    expect(health[0]!.args).toMatch(/CMD .*\/healthz/);
    const env = finalStage
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    for (const name of ['PORT', 'HOST', 'SNAPSHOTS_DIR', 'KEYS_DB', 'LOG_LEVEL', 'METRICS_PORT', 'SHUTDOWN_DRAIN_MS', 'SHUTDOWN_GRACE_MS'])
      expect(env, name).toMatch(new RegExp(`\\b${name}=`));
    // What the server imports lives in src/ and server/: the image copies those (and what tsx reads).
    const copied = finalStage
      .filter((i) => i.op === 'COPY')
      .map((i) => i.args)
      .join(' ');
    for (const path of ['src', 'server', 'package.json', 'tsconfig.json', 'node_modules']) expect(copied, path).toContain(path);
  });
});
