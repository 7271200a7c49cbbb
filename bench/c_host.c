/*===- c_host.c - A model's cost to a plain C host, per run ---------------===*\
|*                                                                            *|
|* graph-run tunes glibc (freed memory is kept), which hides what a model's   *|
|* allocations cost an ordinary process. This host links a shared library    *|
|* from graph-compile with nothing but the C library, runs it RUNS times on   *|
|* one input of zeros and prints, for the runs after the first, the median    *|
|* latency, the minor page faults and the allocations per run. For a model   *|
|* of one input (any element type):                                           *|
|*                                                                            *|
|*   graph-compile model.mlir -o model.so --header model.h                    *|
|*   cc -O2 -I. bench/c_host.c model.so -Wl,-rpath,. -o c_host && ./c_host 50 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

extern void *(*graph_model_hook_malloc)(size_t);
static long numMallocs;
static void *countingMalloc(size_t size) {
  ++numMallocs;
  return malloc(size);
}

static long minorFaults(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 50;
  if (runs < 2)
    runs = 2;
  void *input = calloc(1, GRAPH_MODEL_INPUT_0_BYTES);
  void *outputs[GRAPH_MODEL_NUM_OUTPUTS];
  static const long long outputBytes[] = {GRAPH_MODEL_OUTPUT_0_BYTES};
  for (int i = 0; i < GRAPH_MODEL_NUM_OUTPUTS && i < 1; ++i)
    outputs[i] = calloc(1, outputBytes[i]);
  const void *inputs[] = {input};
  double *millis = malloc(sizeof(double) * runs);
  graph_model_hook_malloc = countingMalloc;
  long faults = 0;
  for (int run = 0; run < runs; ++run) {
    long before = minorFaults();
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    graph_model_run(inputs, outputs);
    clock_gettime(CLOCK_MONOTONIC, &end);
    millis[run] = (end.tv_sec - start.tv_sec) * 1e3 +
                  (end.tv_nsec - start.tv_nsec) / 1e6;
    if (run == 0)
      numMallocs = 0;
    else
      faults += minorFaults() - before;
  }
  qsort(millis + 1, runs - 1, sizeof(double), compareDoubles);
  printf("median %.3f ms, %.1f minor page faults and %.1f allocations per "
         "run (%d runs after the first)\n",
         millis[1 + (runs - 1) / 2], (double)faults / (runs - 1),
         (double)numMallocs / (runs - 1), runs - 1);
  return 0;
}
