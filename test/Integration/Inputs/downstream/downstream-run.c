/*===- downstream-run.c - A C user of the installed package ---------------===*\
|*                                                                            *|
|* downstream-run MODEL.so MODEL.mlir: loads the graph dialect into an MLIR   *|
|* context through its C handle, then runs the model compiled ahead of time   *|
|* and the same model compiled by the JIT, through the runtime's C API, on    *|
|* the same inputs, and prints whether they agree.                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "graph-c/Dialects.h"
#include "graph-c/Runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Runs `model` on inputs 0.5 + 0.001 * k; returns the first output.
static float *run(GraphModel model) {
  void *inputs[16];
  intptr_t numInputs = graphModelGetNumInputs(model);
  for (intptr_t i = 0; i < numInputs; ++i) {
    GraphTensorInfo info;
    graphModelGetInput(model, i, &info);
    float *data = malloc((size_t)info.byteSize);
    for (int64_t k = 0; k < info.numElements; ++k)
      data[k] = 0.5f + 0.001f * (float)k;
    inputs[i] = data;
  }
  GraphTensorInfo out;
  graphModelGetOutput(model, 0, &out);
  float *result = malloc((size_t)out.byteSize);
  void *outputs[1] = {result};
  if (!graphModelRun(model, (const void *const *)inputs, outputs)) {
    fprintf(stderr, "%s\n", graphGetLastError());
    exit(1);
  }
  for (intptr_t i = 0; i < numInputs; ++i)
    free(inputs[i]);
  return result;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: downstream-run MODEL.so MODEL.mlir\n");
    return 1;
  }
  MlirContext context = mlirContextCreate();
  MlirDialect graph =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__graph__(), context);
  MlirStringRef ns = mlirDialectGetNamespace(graph);
  printf("C: dialect %.*s\n", (int)ns.length, ns.data);
  mlirContextDestroy(context);

  GraphModel library = graphModelLoad(argv[1], NULL);
  GraphCompileOptions options = graphCompileOptionsGetDefault();
  options.useCache = false;
  GraphModel jit = graphModelLoad(argv[2], &options);
  if (graphModelIsNull(library) || graphModelIsNull(jit)) {
    fprintf(stderr, "%s\n", graphGetLastError());
    return 1;
  }
  GraphTensorInfo out;
  graphModelGetOutput(library, 0, &out);
  float *a = run(library), *b = run(jit);
  printf("C: output '%s', %lld elements, library and JIT %s\n", out.name,
         (long long)out.numElements,
         memcmp(a, b, (size_t)out.byteSize) ? "differ" : "agree");
  free(a);
  free(b);
  graphModelDestroy(library);
  graphModelDestroy(jit);
  return 0;
}
