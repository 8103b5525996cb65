/*
 * What the machine itself allows (bench/stall-probe.ts starts one per core, together): a loop that
 * reads the monotonic clock for SECONDS and reports the gaps between reads, the times its thread
 * was off its core. On a quiet machine they are the floor under any server's latency tail: when
 * every core is busy, the kernel's own work takes a thread's core for as long as these gaps.
 *
 * usage: stall-probe SECONDS    prints {"maxGapMs","over5ms","over10ms"}
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 0;
  if (!(seconds > 0)) { fprintf(stderr, "usage: stall-probe SECONDS\n"); return 2; }
  double start = now_ms(), last = start, max = 0;
  long over5 = 0, over10 = 0;
  for (;;) {
    double t = now_ms(), gap = t - last;
    if (gap > max) max = gap;
    if (gap > 5) over5++;
    if (gap > 10) over10++;
    last = t;
    if (t - start > seconds * 1000) break;
  }
  printf("{\"maxGapMs\":%.3f,\"over5ms\":%ld,\"over10ms\":%ld}\n", max, over5, over10);
  return 0;
}
