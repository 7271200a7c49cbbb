/*===- run_only.c - The run-only C API from a C program -------------------===*\
|*                                                                            *|
|* run_only LIBRARY.so TWO_SHAPE_RELU.so MODEL.onnx OBJECT.o                  *|
|*                                                                            *|
|* Linked against libGraphRuntimeC.so alone: loads a library made by          *|
|* graph-compile and describes it; loads a library of two specializations of *|
|* a ReLU (batch N of N x 3 x 4 x 4), runs each batch it holds and checks the *|
|* outputs against max(x, 0) computed here; then the errors: a batch it does  *|
|* not hold, a model to compile, an object file.                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "graph-c/Runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static GraphModel load(const char *path) {
  GraphCompileOptions options = graphCompileOptionsGetDefault();
  return graphModelLoad(path, &options);
}

static void describe(GraphModel model) {
  for (intptr_t i = 0; i < graphModelGetNumInputs(model); ++i) {
    GraphTensorInfo info;
    graphModelGetInput(model, i, &info);
    printf("input %ld: %s %s rank %ld\n", (long)i, info.name,
           graphElementTypeGetName(info.elementType), (long)info.rank);
  }
  for (intptr_t i = 0; i < graphModelGetNumOutputs(model); ++i) {
    GraphTensorInfo info;
    graphModelGetOutput(model, i, &info);
    printf("output %ld: %s %s rank %ld\n", (long)i, info.name,
           graphElementTypeGetName(info.elementType), (long)info.rank);
  }
}

/* Runs batch `n` of the ReLU; the number of wrong outputs, or -1. */
static int runBatch(GraphModel relu, int64_t n) {
  const int64_t shape[4] = {n, 3, 4, 4};
  const int64_t *shapes[1] = {shape};
  const intptr_t ranks[1] = {4};
  GraphModel model = graphModelSpecialize(relu, ranks, shapes, NULL);
  if (graphModelIsNull(model)) {
    printf("batch %ld: %s\n", (long)n, graphGetLastError());
    return -1;
  }
  size_t count = (size_t)n * 3 * 4 * 4;
  float *x = malloc(count * sizeof(float));
  float *y = malloc(count * sizeof(float));
  for (size_t i = 0; i < count; ++i)
    x[i] = (float)sin((double)i * 0.7) * 3.0f;
  const void *inputs[1] = {x};
  void *outputs[1] = {y};
  int wrong = -1;
  if (graphModelRun(model, inputs, outputs)) {
    wrong = 0;
    for (size_t i = 0; i < count; ++i)
      wrong += y[i] != (x[i] > 0.0f ? x[i] : 0.0f);
  }
  printf("batch %ld: ran, %d wrong of %zu\n", (long)n, wrong, count);
  free(x);
  free(y);
  graphModelDestroy(model);
  return wrong;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: run_only LIBRARY.so RELU.so MODEL.onnx OBJECT.o\n");
    return 2;
  }
  GraphModel library = load(argv[1]);
  if (graphModelIsNull(library)) {
    printf("library: %s\n", graphGetLastError());
    return 1;
  }
  printf("library: symbolic %d\n", graphModelHasSymbolicShapes(library));
  describe(library);
  graphModelDestroy(library);

  GraphModel relu = load(argv[2]);
  if (graphModelIsNull(relu)) {
    printf("relu: %s\n", graphGetLastError());
    return 1;
  }
  printf("relu: symbolic %d, input dimension 0 is '%s'\n",
         graphModelHasSymbolicShapes(relu),
         graphModelGetInputSymbol(relu, 0, 0));
  int failed = runBatch(relu, 2) != 0;
  failed |= runBatch(relu, 5) != 0;
  failed |= runBatch(relu, 3) != -1;
  graphModelDestroy(relu);

  for (int i = 3; i < 5; ++i) {
    GraphModel model = load(argv[i]);
    printf("%s: %s\n", i == 3 ? "onnx" : "object",
           graphModelIsNull(model) ? graphGetLastError() : "loaded");
    failed |= !graphModelIsNull(model);
    graphModelDestroy(model);
  }
  printf("%s\n", failed ? "FAILED" : "done");
  return failed;
}
