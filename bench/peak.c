/* peak.c - what one core of this host can do, measured, not from a data sheet.
 *
 *   cc -O2 -o peak bench/peak.c && taskset -c 0 ./peak [--mib N] [--passes P]
 *
 * (bench/kernels.py builds and runs it itself.) One binary serves every x86
 * host: each kernel is compiled for its ISA with __attribute__((target(...)))
 * and chosen at run time with __builtin_cpu_supports.
 *
 * - f32 FMA peak of one core per ISA level the CPU has: independent FMA
 *   chains (acc = acc * a + b), 24 zmm accumulators for AVX-512 (32
 *   registers), 12 ymm for AVX2+FMA (16 registers), enough to cover FMA
 *   latency (4-5 cycles) x throughput (2 per cycle). GFLOP/s counts 2 flops
 *   per FMA lane. Without FMA ("avx": ymm, "sse": xmm) one multiply and one
 *   add per lane and step, on their own chains, also 2 flops.
 * - The core's clock, estimated from a chain of dependent integer adds (one
 *   cycle each), and so the flops per cycle of each level (64 for two
 *   512-bit FMA units, 32 for one or for two 256-bit ones).
 * - The bandwidth of a streaming read by one thread: a sum reduction with
 *   vector loads (the widest the CPU has) over a buffer much larger than
 *   the last-level cache (--mib, default 512 MiB), best of --passes; and the
 *   same over a 16 MiB buffer (in L3 on most server CPUs, not in L2).
 *
 * Every time is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), best of
 * several repetitions: on a machine shared with other jobs, the time slices
 * the thread did not run are not counted. Pin it to one core from the caller
 * (taskset -c 0).
 *
 * Prints one JSON line:
 *   {"cpu": "...", "ghz_est": g, "fma_gflops": {"avx512": x, "avx2": y},
 *    "nofma_gflops": {"avx": u, "sse": v}, "flops_per_cycle": {...},
 *    "read_gbs": z, "read_gbs_16mib": w, "read_mib": 512}
 */
#define _GNU_SOURCE
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Keeps a result alive without a store the compiler could drop. */
static volatile float sink;

#define REP4(X) X(0) X(1) X(2) X(3)
#define REP8(X) REP4(X) X(4) X(5) X(6) X(7)
#define REP6(X) REP4(X) X(4) X(5)
#define REP12(X) REP8(X) X(8) X(9) X(10) X(11)
#define REP24(X) REP12(X) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) \
    X(20) X(21) X(22) X(23)

/* ---- AVX-512: 24 independent zmm FMA chains ----------------------------- */

__attribute__((target("avx512f"), noinline)) static void
fma_avx512(long iters) {
  __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-6f);
#define DECL(i) __m512 c##i = _mm512_set1_ps((float)(i));
  REP24(DECL)
#undef DECL
  for (long n = 0; n < iters; ++n) {
#define STEP(i) c##i = _mm512_fmadd_ps(c##i, a, b);
    REP24(STEP)
#undef STEP
    /* Keep the loop from being collapsed or vectorized away. */
    __asm__ volatile("" : "+v"(c0), "+v"(c1), "+v"(c2), "+v"(c3));
  }
  __m512 s = c0;
#define SUM(i) s = _mm512_add_ps(s, c##i);
  REP24(SUM)
#undef SUM
  sink = _mm512_reduce_add_ps(s);
}
#define AVX512_FLOPS_PER_ITER (24.0 * 16 * 2)

/* ---- AVX2+FMA: 12 independent ymm FMA chains ----------------------------- */

__attribute__((target("avx2,fma"), noinline)) static void fma_avx2(long iters) {
  __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-6f);
#define DECL(i) __m256 c##i = _mm256_set1_ps((float)(i));
  REP12(DECL)
#undef DECL
  for (long n = 0; n < iters; ++n) {
#define STEP(i) c##i = _mm256_fmadd_ps(c##i, a, b);
    REP12(STEP)
#undef STEP
    __asm__ volatile("" : "+x"(c0), "+x"(c1), "+x"(c2), "+x"(c3));
  }
  __m256 s = c0;
#define SUM(i) s = _mm256_add_ps(s, c##i);
  REP12(SUM)
#undef SUM
  float out[8];
  _mm256_storeu_ps(out, s);
  sink = out[0] + out[7];
}
#define AVX2_FLOPS_PER_ITER (12.0 * 8 * 2)

/* ---- AVX without FMA: 6 multiply chains and 6 add chains (ymm; 16 registers) ------------ */

__attribute__((target("avx"), noinline)) static void nofma_avx(long iters) {
  __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-6f);
#define DECL(i) __m256 m##i = _mm256_set1_ps(1.0f + (i)), s##i = _mm256_set1_ps((float)(i));
  REP6(DECL)
#undef DECL
  for (long n = 0; n < iters; ++n) {
#define STEP(i) m##i = _mm256_mul_ps(m##i, a); s##i = _mm256_add_ps(s##i, b);
    REP6(STEP)
#undef STEP
    __asm__ volatile("" : "+x"(m0), "+x"(s0), "+x"(m1), "+x"(s1));
  }
  __m256 t = m0;
#define SUM(i) t = _mm256_add_ps(t, _mm256_add_ps(m##i, s##i));
  REP6(SUM)
#undef SUM
  float out[8];
  _mm256_storeu_ps(out, t);
  sink = out[0] + out[7];
}
#define AVX_FLOPS_PER_ITER (6.0 * 8 * 2)

/* ---- SSE: the same on xmm ------------------------------------------------ */

__attribute__((target("sse2"), noinline)) static void nofma_sse(long iters) {
  __m128 a = _mm_set1_ps(0.999999f), b = _mm_set1_ps(1e-6f);
#define DECL(i) __m128 m##i = _mm_set1_ps(1.0f + (i)), s##i = _mm_set1_ps((float)(i));
  REP6(DECL)
#undef DECL
  for (long n = 0; n < iters; ++n) {
#define STEP(i) m##i = _mm_mul_ps(m##i, a); s##i = _mm_add_ps(s##i, b);
    REP6(STEP)
#undef STEP
    __asm__ volatile("" : "+x"(m0), "+x"(s0), "+x"(m1), "+x"(s1));
  }
  __m128 t = m0;
#define SUM(i) t = _mm_add_ps(t, _mm_add_ps(m##i, s##i));
  REP6(SUM)
#undef SUM
  float out[4];
  _mm_storeu_ps(out, t);
  sink = out[0] + out[3];
}
#define SSE_FLOPS_PER_ITER (6.0 * 4 * 2)

/* ---- The clock: dependent integer adds, one cycle each ------------------- */

static void add_chain(long iters) {
  uint64_t x = 0, one = 1;
  __asm__ volatile("" : "+r"(one));
  for (long n = 0; n < iters; ++n) {
    /* Register operands: some cores (Golden Cove) fold dependent adds of an
       immediate at rename, several per cycle. */
#define ADD(i) __asm__ volatile("add %1, %0" : "+r"(x) : "r"(one));
    REP24(ADD) REP24(ADD) REP24(ADD) REP24(ADD)
#undef ADD
  }
  sink = (float)x;
}
#define ADD_CYCLES_PER_ITER 96.0

/* Best rate (work units per second) of KERNEL over REPS repetitions of ITERS
   iterations, after a warm-up (the core's wide-vector frequency license). */
static double best_rate(void (*kernel)(long), long iters, int reps, double work) {
  kernel(iters);
  double best = 0;
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
    kernel(iters);
    double dt = now() - t0;
    if (dt > 0 && work / dt > best)
      best = work / dt;
  }
  return best;
}

/* ---- Streaming read ------------------------------------------------------ */

__attribute__((target("avx512f"), noinline)) static float
read_avx512(const float *p, size_t n) {
  __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  for (size_t i = 0; i < n; i += 64) {
    s0 = _mm512_add_ps(s0, _mm512_load_ps(p + i));
    s1 = _mm512_add_ps(s1, _mm512_load_ps(p + i + 16));
    s2 = _mm512_add_ps(s2, _mm512_load_ps(p + i + 32));
    s3 = _mm512_add_ps(s3, _mm512_load_ps(p + i + 48));
  }
  return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1),
                                            _mm512_add_ps(s2, s3)));
}

__attribute__((target("avx2"), noinline)) static float
read_avx2(const float *p, size_t n) {
  __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  for (size_t i = 0; i < n; i += 32) {
    s0 = _mm256_add_ps(s0, _mm256_load_ps(p + i));
    s1 = _mm256_add_ps(s1, _mm256_load_ps(p + i + 8));
    s2 = _mm256_add_ps(s2, _mm256_load_ps(p + i + 16));
    s3 = _mm256_add_ps(s3, _mm256_load_ps(p + i + 24));
  }
  float out[8];
  _mm256_storeu_ps(out, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
  return out[0] + out[1] + out[2] + out[3] + out[4] + out[5] + out[6] + out[7];
}

__attribute__((target("sse2"), noinline)) static float
read_sse(const float *p, size_t n) {
  __m128 s0 = _mm_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  for (size_t i = 0; i < n; i += 16) {
    s0 = _mm_add_ps(s0, _mm_load_ps(p + i));
    s1 = _mm_add_ps(s1, _mm_load_ps(p + i + 4));
    s2 = _mm_add_ps(s2, _mm_load_ps(p + i + 8));
    s3 = _mm_add_ps(s3, _mm_load_ps(p + i + 12));
  }
  float out[4];
  _mm_storeu_ps(out, _mm_add_ps(_mm_add_ps(s0, s1), _mm_add_ps(s2, s3)));
  return out[0] + out[1] + out[2] + out[3];
}

/* GB/s of the best of PASSES sums over BYTES (a multiple of 256). */
static double read_bandwidth(size_t bytes, int passes) {
  float *p = NULL;
  if (posix_memalign((void **)&p, 2 << 20, bytes) != 0) {
    fprintf(stderr, "peak: cannot allocate %zu bytes\n", bytes);
    exit(1);
  }
  madvise(p, bytes, MADV_HUGEPAGE);  /* fewer TLB misses; a hint only */
  size_t n = bytes / sizeof(float);
  for (size_t i = 0; i < n; ++i)     /* touch every page, nonzero values */
    p[i] = (float)(i & 1023) * 1e-3f;
  float (*sum)(const float *, size_t) =
      __builtin_cpu_supports("avx512f") ? read_avx512
      : __builtin_cpu_supports("avx2")  ? read_avx2
                                        : read_sse;
  double best = 0;
  sink = sum(p, n);                  /* warm-up */
  for (int r = 0; r < passes; ++r) {
    double t0 = now();
    sink = sum(p, n);
    double dt = now() - t0;
    if (dt > 0 && bytes / dt > best)
      best = bytes / dt;
  }
  free(p);
  return best / 1e9;
}

static void cpu_name(char *out, size_t size) {
  snprintf(out, size, "?");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) == 0) {
      char *v = strchr(line, ':');
      if (v) {
        v += 1 + (v[1] == ' ');
        v[strcspn(v, "\n")] = 0;
        /* No quotes or backslashes in the JSON string. */
        for (char *c = v; *c; ++c)
          if (*c == '"' || *c == '\\')
            *c = '\'';
        snprintf(out, size, "%s", v);
      }
      break;
    }
  }
  fclose(f);
}

int main(int argc, char **argv) {
  long mib = 512;
  int passes = 5;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--mib") && i + 1 < argc)
      mib = atol(argv[++i]);
    else if (!strcmp(argv[i], "--passes") && i + 1 < argc)
      passes = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--mib N (default 512)] [--passes P (default 5)]\n",
              argv[0]);
      return 2;
    }
  }
  if (mib < 1 || passes < 1) {
    fprintf(stderr, "peak: --mib and --passes must be positive\n");
    return 2;
  }
  __builtin_cpu_init();
  char cpu[256];
  cpu_name(cpu, sizeof cpu);

  /* Short repetitions, the best counts: ~1 ms each for the FMA kernels
     (200,000 iterations), ~5 ms for the clock (100,000 x 96 cycles). */
  const int reps = 50;
  double hz = best_rate(add_chain, 100000, reps, 100000 * ADD_CYCLES_PER_ITER);

  struct { const char *name; int ok; void (*fn)(long); double per_iter; double gflops; }
  fma[] = {
      {"avx512", __builtin_cpu_supports("avx512f"), fma_avx512, AVX512_FLOPS_PER_ITER, 0},
      {"avx2", __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"), fma_avx2,
       AVX2_FLOPS_PER_ITER, 0},
  },
  nofma[] = {
      {"avx", __builtin_cpu_supports("avx"), nofma_avx, AVX_FLOPS_PER_ITER, 0},
      {"sse", 1, nofma_sse, SSE_FLOPS_PER_ITER, 0},
  };
  for (int k = 0; k < 2; ++k) {
    if (fma[k].ok)
      fma[k].gflops = best_rate(fma[k].fn, 200000, reps, 200000 * fma[k].per_iter) / 1e9;
    if (nofma[k].ok)
      nofma[k].gflops = best_rate(nofma[k].fn, 200000, reps, 200000 * nofma[k].per_iter) / 1e9;
  }
  double dram = read_bandwidth((size_t)mib << 20, passes);
  double l3 = read_bandwidth((size_t)16 << 20, 20 * passes);

  printf("{\"cpu\": \"%s\", \"ghz_est\": %.3f, \"fma_gflops\": {", cpu, hz / 1e9);
  const char *sep = "";
  for (int k = 0; k < 2; ++k)
    if (fma[k].ok) {
      printf("%s\"%s\": %.1f", sep, fma[k].name, fma[k].gflops);
      sep = ", ";
    }
  printf("}, \"nofma_gflops\": {");
  sep = "";
  for (int k = 0; k < 2; ++k)
    if (nofma[k].ok) {
      printf("%s\"%s\": %.1f", sep, nofma[k].name, nofma[k].gflops);
      sep = ", ";
    }
  printf("}, \"flops_per_cycle\": {");
  sep = "";
  for (int k = 0; k < 2; ++k)
    if (fma[k].ok) {
      printf("%s\"%s\": %.1f", sep, fma[k].name, fma[k].gflops * 1e9 / hz);
      sep = ", ";
    }
  for (int k = 0; k < 2; ++k)
    if (nofma[k].ok) {
      printf("%s\"%s\": %.1f", sep, nofma[k].name, nofma[k].gflops * 1e9 / hz);
      sep = ", ";
    }
  printf("}, \"read_gbs\": %.2f, \"read_gbs_16mib\": %.2f, \"read_mib\": %ld}\n", dram, l3,
         mib);
  return 0;
}
