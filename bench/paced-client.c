/*
 * The bench's paced load (compiled and started by paced.ts): an open-loop load at a fixed rate, at a
 * fraction of the CPU per request of the Node client it replaced. Request i is due at
 * start + i / rate and is written then, whatever earlier requests are doing; its latency counts from
 * when it was due (no coordinated omission). On two cores shared with the shim, the generator's own
 * CPU is taken from the server it measures: Node's loop, parser and GC cost about as much per
 * request as the shim's answer, and profiles of the shim under that load showed its main thread
 * waiting for a core (bench/results.md). One thread, epoll, a timerfd for the due times.
 *
 * RATE 0 is a closed loop instead (saturation): every connection sends its next request as soon as
 * its answer is in, for SECONDS, latency counted from the sending; the answers completed in that
 * time make the req/s. autocannon, parsing every answer in JavaScript on the same two cores, was
 * itself the limit for the larger answers (POST /batch), and its GC pauses were in its p99.
 *
 * usage: paced-client HOST PORT RATE SECONDS CONNECTIONS REQUESTS_FILE
 * REQUESTS_FILE: each request's bytes as sent, preceded by their length in decimal and a newline.
 * prints one JSON object: {"rps","p50","p99","errors","non2xx","statuses"} (latencies in ms).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct { char *bytes; size_t len; } request_t;

enum { CLOSED, CONNECTING, IDLE, BUSY };

typedef struct {
  int fd, state;
  double due;          /* when the request in flight was due (ms, monotonic) */
  size_t req;          /* which request is in flight */
  size_t written;      /* bytes of it written so far */
  char *buf; size_t len, cap;
} conn_t;

static request_t *requests; static size_t nrequests;
static conn_t *conns; static int nconns;
static struct sockaddr_in addr;
static int ep;
static double *latencies; static size_t nlat, latcap;
/* Closed loop (RATE 0): no due times; connections resend until end_ms; `counted` answers came by then. */
static int closed_loop; static double end_ms; static long counted;
static long total, sent, finished, errors, non2xx;
static long statuses[600];
/* Requests due while every connection is busy wait here, in order, their wait counted. */
static long *waitq; static long wq_head, wq_tail;
static double start_ms, interval_ms;

static double now_ms(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void die(const char *what) { perror(what); exit(2); }

static void load_requests(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) die(path);
  size_t cap = 16;
  requests = malloc(cap * sizeof *requests);
  size_t len;
  while (fscanf(f, "%zu", &len) == 1) {
    if (fgetc(f) != '\n') { fprintf(stderr, "paced-client: %s: a length must end with a newline\n", path); exit(2); }
    if (nrequests == cap) requests = realloc(requests, (cap *= 2) * sizeof *requests);
    char *b = malloc(len);
    if (fread(b, 1, len, f) != len) { fprintf(stderr, "paced-client: %s: a request shorter than its length\n", path); exit(2); }
    requests[nrequests++] = (request_t){ b, len };
  }
  fclose(f);
  if (nrequests == 0) { fprintf(stderr, "paced-client: %s holds no request\n", path); exit(2); }
}

static void watch(conn_t *c, uint32_t events, int op) {
  struct epoll_event e = { .events = events, .data.ptr = c };
  if (epoll_ctl(ep, op, c->fd, &e) < 0) die("epoll_ctl");
}

/* Writes what is left of the request in flight; waits for EPOLLOUT when the socket is full. */
static int flush(conn_t *c) {
  request_t *r = &requests[c->req % nrequests];
  while (c->written < r->len) {
    ssize_t n = write(c->fd, r->bytes + c->written, r->len - c->written);
    if (n > 0) { c->written += n; continue; }
    if (n < 0 && errno == EAGAIN) { watch(c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD); return 0; }
    return -1;
  }
  watch(c, EPOLLIN, EPOLL_CTL_MOD);
  return 0;
}

static void close_conn(conn_t *c);

static void send_on(conn_t *c, long i, double due) {
  c->state = BUSY; c->due = due; c->req = i; c->written = 0; c->len = 0;
  if (flush(c) < 0) close_conn(c);
}

/* A non-blocking socket without Nagle's delay, connecting to the server: 0 done, -1 under way (EINPROGRESS), -2 failed. */
static int start_connect(conn_t *c) {
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (c->fd < 0) die("socket");
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(c->fd, (struct sockaddr *)&addr, sizeof addr) == 0) return 0;
  return errno == EINPROGRESS ? -1 : -2;
}

static void open_conn(conn_t *c, long i, double due) {
  int r = start_connect(c);
  c->state = CONNECTING; c->due = due; c->req = i; c->written = 0; c->len = 0;
  watch(c, EPOLLOUT, EPOLL_CTL_ADD);
  if (r == 0) { c->state = BUSY; if (flush(c) < 0) close_conn(c); }
  else if (r == -2) close_conn(c);
}

static void settle(int ok, int status, double due) {
  finished++;
  if (!ok) { errors++; return; }
  double now = now_ms();
  if (nlat == latcap) latencies = realloc(latencies, (latcap *= 2) * sizeof *latencies);
  latencies[nlat++] = now - due;
  if (closed_loop && now <= end_ms) counted++;
  if (status < 200 || status >= 300) { non2xx++; if (status >= 0 && status < 600) statuses[status]++; }
}

/* A connection free again: the oldest waiting request goes out on it, or it idles. */
static void release(conn_t *c) {
  if (closed_loop) {
    double now = now_ms();
    if (now < end_ms) send_on(c, sent++, now);
    else c->state = IDLE;
    return;
  }
  if (wq_head < wq_tail) { long i = waitq[wq_head++]; send_on(c, i, start_ms + i * interval_ms); }
  else c->state = IDLE;
}

/* A connection the server closed or broke: its request in flight (if any) failed; the next waiting request opens anew. */
static void close_conn(conn_t *c) {
  if (c->state == BUSY || c->state == CONNECTING) settle(0, 0, c->due);
  epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  c->fd = -1; c->state = CLOSED;
  if (closed_loop) return; /* the main loop opens it again (not from here: a refused connect would recurse) */
  if (wq_head < wq_tail) { long i = waitq[wq_head++]; open_conn(c, i, start_ms + i * interval_ms); }
}

/*
 * Where the response at the start of the buffer ends, or 0 while incomplete; its status. Handles
 * Content-Length and chunked bodies (the shim streams evidence packs), which is all the shim sends.
 */
static size_t response_end(conn_t *c, int *status) {
  char *b = c->buf; size_t n = c->len;
  char *head_end = memmem(b, n, "\r\n\r\n", 4);
  if (!head_end) return 0;
  size_t body = head_end - b + 4;
  *status = n >= 12 ? atoi(b + 9) : 0;
  /* Header names are matched case-insensitively on whole lines. */
  long length = -1; int chunked = 0;
  /* head_end is the status line's or a header's own CRLF, so every line's end is found before it or at it. */
  for (char *eol = memmem(b, body, "\r\n", 2); eol < head_end;) {
    char *name = eol + 2;
    eol = memmem(name, head_end + 2 - name, "\r\n", 2);
    if (strncasecmp(name, "content-length:", 15) == 0) length = strtol(name + 15, NULL, 10);
    else if (strncasecmp(name, "transfer-encoding:", 18) == 0) chunked = memmem(name, eol - name, "chunked", 7) != NULL;
  }
  if (length >= 0) return body + length <= n ? body + length : 0;
  if (!chunked) return body; /* 204, 304 */
  size_t at = body;
  for (;;) {
    char *eol = memmem(b + at, n - at, "\r\n", 2);
    if (!eol) return 0;
    size_t size = strtoul(b + at, NULL, 16);
    if (size == 0) return (size_t)(eol - b) + 4 <= n ? (size_t)(eol - b) + 4 : 0; /* no trailers from the shim */
    at = (size_t)(eol - b) + 2 + size + 2;
    if (at > n) return 0;
  }
}

static void on_readable(conn_t *c) {
  for (;;) {
    if (c->cap - c->len < 65536) c->buf = realloc(c->buf, c->cap = c->cap * 2 + 65536);
    ssize_t n = read(c->fd, c->buf + c->len, c->cap - c->len);
    if (n > 0) { c->len += n; continue; }
    if (n < 0 && errno == EAGAIN) break;
    close_conn(c); /* EOF or error */
    return;
  }
  int status = 0;
  if (c->state == BUSY && response_end(c, &status)) { settle(1, status, c->due); release(c); }
}

/*
 * Every connection opened before the clock starts: the figures are those of a steady load over
 * CONNECTIONS keep-alive connections. Opened as requests came due, the first 50 requests of a run
 * waited on 50 TCP handshakes and the shim's set-up of each socket (up to 104 ms here), which is
 * not what a server under steady load does. A connection that fails here opens again when needed.
 */
static void preconnect(void) {
  double until = now_ms() + 5000;
  int pending = 0;
  for (int k = 0; k < nconns; k++) {
    conn_t *c = &conns[k];
    int r = start_connect(c);
    if (r == 0) { c->state = IDLE; watch(c, EPOLLIN, EPOLL_CTL_ADD); continue; }
    if (r == -2) { close(c->fd); c->fd = -1; continue; }
    c->state = CONNECTING;
    watch(c, EPOLLOUT, EPOLL_CTL_ADD);
    pending++;
  }
  struct epoll_event events[256];
  while (pending > 0 && now_ms() < until) {
    int n = epoll_wait(ep, events, 256, 100);
    for (int k = 0; k < n; k++) {
      conn_t *c = events[k].data.ptr;
      if (!c || c->state != CONNECTING) continue;
      int err = 0; socklen_t l = sizeof err;
      getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
      pending--;
      if (err || (events[k].events & (EPOLLERR | EPOLLHUP))) { epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL); close(c->fd); c->fd = -1; c->state = CLOSED; continue; }
      c->state = IDLE;
      watch(c, EPOLLIN, EPOLL_CTL_MOD);
    }
  }
  for (int k = 0; k < nconns; k++) if (conns[k].state == CONNECTING) { epoll_ctl(ep, EPOLL_CTL_DEL, conns[k].fd, NULL); close(conns[k].fd); conns[k].fd = -1; conns[k].state = CLOSED; }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double pct(double p) {
  size_t i = (size_t)(p / 100 * nlat);
  return latencies[i < nlat ? i : nlat - 1];
}

int main(int argc, char **argv) {
  if (argc != 7) { fprintf(stderr, "usage: paced-client HOST PORT RATE SECONDS CONNECTIONS REQUESTS_FILE\n"); return 2; }
  addr.sin_family = AF_INET;
  addr.sin_port = htons(atoi(argv[2]));
  if (inet_pton(AF_INET, argv[1], &addr.sin_addr) != 1) { fprintf(stderr, "paced-client: %s is not an IPv4 address\n", argv[1]); return 2; }
  double rate = atof(argv[3]), seconds = atof(argv[4]);
  nconns = atoi(argv[5]);
  if (!(rate >= 0) || !(seconds > 0) || nconns < 1) { fprintf(stderr, "paced-client: seconds and connections must be positive, rate positive or 0\n"); return 2; }
  load_requests(argv[6]);
  closed_loop = rate == 0;
  total = closed_loop ? 0 : (long)(rate * seconds + 0.5);
  interval_ms = closed_loop ? 0 : 1000.0 / rate;
  latcap = (size_t)total + 1024;
  latencies = malloc(latcap * sizeof *latencies);
  waitq = malloc((total + 1) * sizeof *waitq);
  conns = calloc(nconns, sizeof *conns);
  for (int k = 0; k < nconns; k++) conns[k].fd = -1;
  if ((ep = epoll_create1(EPOLL_CLOEXEC)) < 0) die("epoll_create1");
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (tfd < 0) die("timerfd_create");
  struct epoll_event te = { .events = EPOLLIN, .data.ptr = NULL };
  if (epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &te) < 0) die("epoll_ctl");

  preconnect();
  start_ms = now_ms();
  end_ms = start_ms + seconds * 1000;
  /* A server that stops answering must not hold the run: it ends 30 s after the last request was due. */
  double deadline = end_ms + 30000;
  struct epoll_event events[256];
  while (closed_loop ? (now_ms() < end_ms || finished < sent) : finished < total) {
    double now = now_ms();
    if (now > deadline) break;
    if (closed_loop && now < end_ms) for (int k = 0; k < nconns; k++) {
      if (conns[k].state == CLOSED) open_conn(&conns[k], sent++, now);
      else if (conns[k].state == IDLE) send_on(&conns[k], sent++, now);
    }
    while (!closed_loop && sent < total && start_ms + sent * interval_ms <= now) {
      double due = start_ms + sent * interval_ms;
      conn_t *idle = NULL, *closed = NULL;
      for (int k = 0; k < nconns && !idle; k++) {
        if (conns[k].state == IDLE) idle = &conns[k];
        else if (conns[k].state == CLOSED && !closed) closed = &conns[k];
      }
      if (idle) send_on(idle, sent, due);
      else if (closed) open_conn(closed, sent, due);
      else waitq[wq_tail++] = sent;
      sent++;
    }
    if (!closed_loop && sent < total) {
      double next = start_ms + sent * interval_ms;
      struct itimerspec its = { 0 };
      its.it_value.tv_sec = (time_t)(next / 1000);
      its.it_value.tv_nsec = (long)((next - its.it_value.tv_sec * 1000.0) * 1e6);
      if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0) its.it_value.tv_nsec = 1;
      timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
    }
    int n = epoll_wait(ep, events, 256, closed_loop ? 100 : sent < total ? -1 : 1000);
    if (n < 0 && errno != EINTR) die("epoll_wait");
    for (int k = 0; k < n; k++) {
      conn_t *c = events[k].data.ptr;
      if (!c) { uint64_t x; while (read(tfd, &x, sizeof x) > 0) {} continue; }
      if (c->state == CLOSED) continue;
      if (events[k].events & (EPOLLERR | EPOLLHUP) && !(events[k].events & EPOLLIN)) { close_conn(c); continue; }
      if (c->state == CONNECTING && (events[k].events & EPOLLOUT)) {
        int err = 0; socklen_t l = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
        if (err) { close_conn(c); continue; }
        c->state = BUSY;
        if (flush(c) < 0) close_conn(c);
        continue;
      }
      if (events[k].events & EPOLLOUT && c->state == BUSY) { if (flush(c) < 0) { close_conn(c); continue; } }
      if (events[k].events & EPOLLIN) on_readable(c);
    }
  }
  double elapsed = (now_ms() - start_ms) / 1000;
  if (closed_loop) total = sent;
  errors += total - finished; /* unanswered when the deadline came */
  qsort(latencies, nlat, sizeof *latencies, cmp_double);
  /* No answer at all: null latencies (JSON has no NaN). */
  if (nlat) printf("{\"rps\":%.3f,\"p50\":%.3f,\"p99\":%.3f", closed_loop ? counted / seconds : nlat / elapsed, pct(50), pct(99));
  else printf("{\"rps\":0,\"p50\":null,\"p99\":null");
  printf(",\"errors\":%ld,\"non2xx\":%ld", errors, non2xx);
  if (non2xx) {
    printf(",\"statuses\":{");
    int first = 1;
    for (int s = 0; s < 600; s++) if (statuses[s]) { printf("%s\"%d\":%ld", first ? "" : ",", s, statuses[s]); first = 0; }
    printf("}");
  }
  printf("}\n");
  return 0;
}
