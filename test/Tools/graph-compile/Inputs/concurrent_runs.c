/*===- concurrent_runs.c - One loaded model, run from many threads --------===*\
|*                                                                            *|
|* A model's buffers live in an arena that the code allocates once; a run     *|
|* that finds it taken by another thread allocates its own. This program      *|
|* computes each of a few inputs' outputs alone, counting the allocations     *|
|* the model makes (none when every buffer is in the arena), then runs the    *|
|* model from several threads at once on those inputs and counts the outputs  *|
|* that differ in any bit, and the runs that allocated an arena of their own. *|
|* Usage: concurrent_runs THREADS RUNS_PER_THREAD                             *|
|* (for a model of one float32 input and one float32 output).                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "model.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUM_INPUTS 8

/* The allocation function the model calls (ModelABI.h). */
extern void *(*graph_model_hook_malloc)(size_t);
static long numMallocs;
static void *countingMalloc(size_t size) {
  __atomic_fetch_add(&numMallocs, 1, __ATOMIC_RELAXED);
  return malloc(size);
}

static float inputs[NUM_INPUTS][GRAPH_MODEL_INPUT_0_NUM_ELEMENTS];
static float expected[NUM_INPUTS][GRAPH_MODEL_OUTPUT_0_NUM_ELEMENTS];
static int runsPerThread;

struct Worker {
  int index;
  long mismatches;
};

static void *work(void *arg) {
  struct Worker *worker = arg;
  static __thread float output[GRAPH_MODEL_OUTPUT_0_NUM_ELEMENTS];
  for (int run = 0; run < runsPerThread; ++run) {
    int which = (worker->index + run) % NUM_INPUTS;
    const void *in[] = {inputs[which]};
    void *out[] = {output};
    graph_model_run(in, out);
    if (memcmp(output, expected[which], sizeof(output)) != 0)
      ++worker->mismatches;
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int numThreads = atoi(argv[1]);
  runsPerThread = atoi(argv[2]);
  unsigned state = 12345;
  for (int i = 0; i < NUM_INPUTS; ++i)
    for (long j = 0; j < GRAPH_MODEL_INPUT_0_NUM_ELEMENTS; ++j) {
      state = state * 1103515245u + 12345u;
      inputs[i][j] = (float)((state >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
  for (int i = 0; i < NUM_INPUTS; ++i) {
    const void *in[] = {inputs[i]};
    void *out[] = {expected[i]};
    graph_model_run(in, out);
  }

  /* Alone, a run allocates nothing: every buffer is in the arena. */
  graph_model_hook_malloc = countingMalloc;
  for (int i = 0; i < NUM_INPUTS; ++i) {
    const void *in[] = {inputs[i]};
    void *out[] = {expected[i]};
    graph_model_run(in, out);
  }
  printf("allocations in %d runs alone: %ld\n", NUM_INPUTS, numMallocs);

  pthread_t threads[64];
  struct Worker workers[64];
  if (numThreads < 1 || numThreads > 64)
    return 2;
  for (int t = 0; t < numThreads; ++t) {
    workers[t].index = t;
    workers[t].mismatches = 0;
    pthread_create(&threads[t], NULL, work, &workers[t]);
  }
  long mismatches = 0;
  numMallocs = 0;
  for (int t = 0; t < numThreads; ++t) {
    pthread_join(threads[t], NULL);
    mismatches += workers[t].mismatches;
  }
  printf("%d threads x %d runs: %ld mismatches, %ld runs with an arena of "
         "their own\n",
         numThreads, runsPerThread, mismatches, numMallocs);
  return mismatches != 0;
}
