/** How long something must work without a failure before its outage is over (and said to be). */
export const SETTLE_MS = 1000;

/**
 * One outage, one line when it starts and one when it ends, however it flickers in between. When
 * Redis comes back under load, calls sent while it was away time out beside new ones that succeed,
 * and a restarted Redis refuses commands while it loads its data: counting flipped between failing
 * and working, and a line per flip gave 11 lines in one second. Here an outage starts at the first
 * failure and ends only once nothing has failed for SETTLE_MS; failures meanwhile belong to it.
 */
export class Outage {
  private down = false;
  private startedAt = 0;
  private lastFailureAt = 0;
  private failures = 0;
  private settling: NodeJS.Timeout | undefined;

  constructor(
    private readonly report: {
      /** The first failure: `failures` is 1. */
      started(): void;
      /** Nothing failed for SETTLE_MS: how long it lasted, to the last failure, and how many failures it had. */
      ended(o: { seconds: number; failures: number }): void;
    },
    private readonly settleMs = SETTLE_MS,
  ) {}

  /** Whether an outage is under way (it has not settled yet). */
  get isDown(): boolean {
    return this.down;
  }

  failed(): void {
    this.lastFailureAt = performance.now();
    this.failures++;
    if (this.settling) {
      clearTimeout(this.settling);
      this.settling = undefined;
    }
    if (this.down) return;
    this.down = true;
    this.startedAt = this.lastFailureAt;
    this.failures = 1;
    this.report.started();
  }

  /** Something worked: the outage ends after SETTLE_MS more without a failure. Free when there is none. */
  succeeded(): void {
    if (!this.down || this.settling) return;
    this.settling = setTimeout(() => this.settle(), Math.max(0, this.lastFailureAt + this.settleMs - performance.now()));
    this.settling.unref();
  }

  /** Stops the timer (closing). */
  stop(): void {
    clearTimeout(this.settling);
    this.settling = undefined;
  }

  /** The timer ran out: nothing failed since it was set (a failure clears it). */
  private settle(): void {
    this.settling = undefined;
    this.down = false;
    this.report.ended({ seconds: Math.round((this.lastFailureAt - this.startedAt) / 100) / 10, failures: this.failures });
  }
}
