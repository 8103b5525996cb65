/** Progress lines for long build steps, on stderr so stdout stays for results. */
export interface Progress {
  step(message: string): void;
}

export function stderrProgress(label: string, now: () => number = Date.now): Progress {
  const start = now();
  return {
    step(message) {
      const seconds = ((now() - start) / 1000).toFixed(1);
      process.stderr.write(`[${label} ${seconds}s] ${message}\n`);
    },
  };
}

export const silentProgress: Progress = { step() {} };
