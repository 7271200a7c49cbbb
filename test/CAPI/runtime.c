/*===- runtime.c - The C API from C ---------------------------------------===*\
|*                                                                            *|
|* graph-capi-test MODEL.mlir LIBRARY.so CACHE_DIR                            *|
|*                                                                            *|
|* The dialect handle and the passes: loads the graph dialect into a context  *|
|* through its handle, parses the model and runs graph-optimize by name.      *|
|* The runtime: loads the model with the JIT, through the compile cache and   *|
|* as the shared library graph-compile made of it, describes its tensors,     *|
|* runs all three on the same inputs and checks that they agree bit for bit;  *|
|* then the errors.                                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "graph-c/Runtime.h"
#include "graph-c/Dialects.h"

#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static int testDialect(const char *path) {
  MlirContext context = mlirContextCreate();
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), context);
  MlirDialect graph =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__graph__(), context);
  MlirStringRef ns = mlirDialectGetNamespace(graph);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  FILE *file = fopen(path, "rb");
  if (!file)
    return 1;
  static char source[1 << 16];
  size_t size = fread(source, 1, sizeof(source) - 1, file);
  fclose(file);
  source[size] = 0;
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module))
    return 1;

  mlirRegisterGraphPasses();
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString("builtin.module"));
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString("builtin.module(graph-optimize)"),
      printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed))
    return 1;
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 1;
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}

static void describe(GraphModel model) {
  for (intptr_t i = 0; i < graphModelGetNumInputs(model); ++i) {
    GraphTensorInfo info;
    graphModelGetInput(model, i, &info);
    printf("input %ld: %s %s [", (long)i, info.name,
           graphElementTypeGetName(info.elementType));
    for (intptr_t d = 0; d < info.rank; ++d)
      printf(d ? ", %lld" : "%lld", (long long)info.shape[d]);
    printf("] %lld bytes\n", (long long)info.byteSize);
  }
  for (intptr_t i = 0; i < graphModelGetNumOutputs(model); ++i) {
    GraphTensorInfo info;
    graphModelGetOutput(model, i, &info);
    printf("output %ld: %s %s rank %ld, %lld elements\n", (long)i, info.name,
           graphElementTypeGetName(info.elementType), (long)info.rank,
           (long long)info.numElements);
  }
}

/// Runs `model` on inputs 0.01 * (k % 100) + 0.25 and returns the first
/// output (float32), malloc'ed.
static float *run(GraphModel model) {
  intptr_t numInputs = graphModelGetNumInputs(model);
  void *inputs[16];
  for (intptr_t i = 0; i < numInputs; ++i) {
    GraphTensorInfo info;
    graphModelGetInput(model, i, &info);
    float *data = aligned_alloc(64, ((size_t)info.byteSize + 63) / 64 * 64);
    for (int64_t k = 0; k < info.numElements; ++k)
      data[k] = 0.01f * (float)(k % 100) + 0.25f;
    inputs[i] = data;
  }
  GraphTensorInfo out;
  graphModelGetOutput(model, 0, &out);
  float *result = aligned_alloc(64, ((size_t)out.byteSize + 63) / 64 * 64);
  void *outputs[1] = {result};
  if (!graphModelRun(model, (const void *const *)inputs, outputs)) {
    printf("run failed: %s\n", graphGetLastError());
    exit(1);
  }
  for (intptr_t i = 0; i < numInputs; ++i)
    free(inputs[i]);
  return result;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: graph-capi-test MODEL.mlir LIBRARY.so CACHE\n");
    return 2;
  }
  if (testDialect(argv[1])) {
    printf("dialect test failed\n");
    return 1;
  }

  GraphCompileOptions options = graphCompileOptionsGetDefault();
  options.useCache = false;
  GraphModel jit = graphModelLoad(argv[1], &options);
  if (graphModelIsNull(jit)) {
    printf("load failed: %s\n", graphGetLastError());
    return 1;
  }
  describe(jit);
  options.useCache = true;
  options.cacheDirectory = argv[3];
  GraphModel cached = graphModelLoad(argv[1], &options);
  GraphModel library = graphModelLoad(argv[2], NULL);
  /* Scratch for one thread: the same bits. */
  options.useCache = false;
  options.maxThreads = 1;
  GraphModel oneThread = graphModelLoad(argv[1], &options);
  if (graphModelIsNull(cached) || graphModelIsNull(library) ||
      graphModelIsNull(oneThread)) {
    printf("load failed: %s\n", graphGetLastError());
    return 1;
  }
  GraphTensorInfo out;
  graphModelGetOutput(jit, 0, &out);
  float *a = run(jit), *b = run(cached), *c = run(library), *d = run(oneThread);
  printf("out[0] = %.9g, out[last] = %.9g\n", a[0], a[out.numElements - 1]);
  printf("jit and cache agree: %s\n",
         memcmp(a, b, (size_t)out.byteSize) ? "no" : "yes");
  printf("jit and library agree: %s\n",
         memcmp(a, c, (size_t)out.byteSize) ? "no" : "yes");
  printf("jit and maxThreads 1 agree: %s\n",
         memcmp(a, d, (size_t)out.byteSize) ? "no" : "yes");
  free(a), free(b), free(c), free(d);
  graphModelDestroy(oneThread);
  graphModelDestroy(jit);
  graphModelDestroy(cached);
  graphModelDestroy(library);

  /* Errors. */
  GraphModel missing = graphModelLoad("no-such-model.mlir", NULL);
  printf("missing: null %d: %s\n", graphModelIsNull(missing),
         graphGetLastError());
  GraphModel bad = graphModelLoad(argv[0], NULL);
  printf("not a model: null %d: %s\n", graphModelIsNull(bad),
         graphGetLastError());
  char badPath[4096];
  snprintf(badPath, sizeof(badPath), "%s.bad.onnx", argv[3]);
  FILE *badFile = fopen(badPath, "wb");
  if (badFile) {
    fputs("not a protobuf", badFile);
    fclose(badFile);
  }
  GraphModel badOnnx = graphModelLoad(badPath, NULL);
  printf("bad onnx: null %d: %s\n", graphModelIsNull(badOnnx),
         graphGetLastError());
  options = graphCompileOptionsGetDefault();
  options.optLevel = 7;
  GraphModel level = graphModelLoad(argv[1], &options);
  printf("bad level: null %d: %s\n", graphModelIsNull(level),
         graphGetLastError());
  options = graphCompileOptionsGetDefault();
  options.maxThreads = -1;
  GraphModel threads = graphModelLoad(argv[1], &options);
  printf("bad maxThreads: null %d: %s\n", graphModelIsNull(threads),
         graphGetLastError());
  bool ran = graphModelRun((GraphModel){NULL}, NULL, NULL);
  printf("run a null model: %d: %s\n", ran, graphGetLastError());
  return 0;
}
