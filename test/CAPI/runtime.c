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

/* Runs the specialization of the model at `path` (y = relu(x), x of shape
   [batch, 3, 4, 4]) for a batch of `batch`; -1 on a failure, else the number
   of elements that differ from relu computed here. */
static int runRelu(GraphModel model, int64_t batch) {
  intptr_t rank = 4;
  int64_t shape[4] = {batch, 3, 4, 4};
  const int64_t *shapes[1] = {shape};
  GraphModel specialized = graphModelSpecialize(model, &rank, shapes, NULL);
  if (graphModelIsNull(specialized)) {
    printf("specialize %lld: %s\n", (long long)batch, graphGetLastError());
    return -1;
  }
  GraphTensorInfo out;
  graphModelGetOutput(specialized, 0, &out);
  int64_t n = batch * 48;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  for (int64_t i = 0; i < n; ++i)
    x[i] = (float)((i * 7) % 11) - 5.0f;
  const void *inputs[1] = {x};
  void *outputs[1] = {y};
  int wrong = -1;
  if (out.numElements == n && graphModelRun(specialized, inputs, outputs)) {
    wrong = 0;
    for (int64_t i = 0; i < n; ++i)
      wrong += y[i] != (x[i] > 0 ? x[i] : 0.0f);
  }
  free(x);
  free(y);
  graphModelDestroy(specialized);
  return wrong;
}

/* A model with a symbolic batch: declared shapes, one specialization per
   batch, the errors. */
static int testSymbolic(const char *path, const char *cacheDirectory) {
  GraphCompileOptions options = graphCompileOptionsGetDefault();
  options.cacheDirectory = cacheDirectory;
  options.maxSpecializations = 2;
  GraphModel model = graphModelLoad(path, &options);
  if (graphModelIsNull(model)) {
    printf("symbolic load failed: %s\n", graphGetLastError());
    return 1;
  }
  GraphTensorInfo info;
  graphModelGetInput(model, 0, &info);
  printf("symbolic: %d, input %s [%lld, %lld, %lld, %lld] %lld elements, "
         "dim 0 '%s', dim 1 %s\n",
         graphModelHasSymbolicShapes(model), info.name,
         (long long)info.shape[0], (long long)info.shape[1],
         (long long)info.shape[2], (long long)info.shape[3],
         (long long)info.numElements, graphModelGetInputSymbol(model, 0, 0),
         graphModelGetInputSymbol(model, 0, 1) ? "named" : "a number");
  bool ran = graphModelRun(model, NULL, NULL);
  printf("run unspecialized: %d: %s\n", ran, graphGetLastError());
  printf("batch 2 wrong: %d\n", runRelu(model, 2));
  printf("batch 5 wrong: %d\n", runRelu(model, 5));
  printf("batch 2 again wrong: %d\n", runRelu(model, 2));
  printf("batch 1 wrong: %d\n", runRelu(model, 1));
  printf("held: %lld\n", (long long)graphModelGetNumSpecializations(model));
  for (intptr_t i = 0; i < graphModelGetNumSpecializations(model); ++i) {
    GraphModel held;
    graphModelGetSpecialization(model, i, &held);
    graphModelGetInput(held, 0, &info);
    printf("held %lld: batch %lld\n", (long long)i, (long long)info.shape[0]);
    graphModelDestroy(held);
  }

  intptr_t rank = 2;
  int64_t shape[4] = {2, 3, 4, 5};
  const int64_t *shapes[1] = {shape};
  GraphModel bad = graphModelSpecialize(model, &rank, shapes, NULL);
  printf("bad rank: null %d: %s\n", graphModelIsNull(bad), graphGetLastError());
  rank = 4;
  bad = graphModelSpecialize(model, &rank, shapes, NULL);
  printf("bad dim: null %d: %s\n", graphModelIsNull(bad), graphGetLastError());

  /* A specialization outlives the model it came from. */
  int64_t batch3[4] = {3, 3, 4, 4};
  shapes[0] = batch3;
  GraphModel kept = graphModelSpecialize(model, &rank, shapes, NULL);
  graphModelDestroy(model);
  float x[144], y[144];
  for (int i = 0; i < 144; ++i)
    x[i] = i % 2 ? 1.5f : -1.5f;
  const void *inputs[1] = {x};
  void *outputs[1] = {y};
  ran = graphModelRun(kept, inputs, outputs);
  printf("kept runs: %d, y[0] %g y[1] %g\n", ran, y[0], y[1]);
  graphModelDestroy(kept);
  return 0;
}

/* NonZero of a [3, 5] input: an output of run-time size, [2, 15] at most.
 * The buffer has exactly the bound's size (the sanitizers catch a write
 * past it); the shape after the run and its elements at the front. */
static int testRunTimeSize(const char *path) {
  GraphCompileOptions options = graphCompileOptionsGetDefault();
  options.useCache = false;
  GraphModel model = graphModelLoad(path, &options);
  if (graphModelIsNull(model)) {
    printf("nonzero load failed: %s\n", graphGetLastError());
    return 1;
  }
  GraphTensorInfo out;
  graphModelGetOutput(model, 0, &out);
  printf("nonzero: %ld outputs, %s [%lld, %lld] run-time %d, output 1 %d\n",
         (long)graphModelGetNumOutputs(model), out.name,
         (long long)out.shape[0], (long long)out.shape[1],
         graphModelOutputHasRunTimeShape(model, 0),
         graphModelGetOutput(model, 1, &out));
  static const float x[15] = {0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4};
  graphModelGetOutput(model, 0, &out);
  int64_t *indices = malloc((size_t)out.byteSize);
  int64_t shape[2] = {-1, -1};
  const void *inputs[1] = {x};
  void *outputs[1] = {indices};
  int64_t *shapes[1] = {shape};
  bool ran = graphModelRunShaped(model, inputs, outputs, shapes);
  printf("nonzero ran %d: [%lld, %lld]:", ran, (long long)shape[0],
         (long long)shape[1]);
  for (int64_t i = 0; ran && i < shape[0] * shape[1]; ++i)
    printf(" %lld", (long long)indices[i]);
  printf("\n");
  /* graphModelRun without the shapes writes the same. */
  memset(indices, 0xff, (size_t)out.byteSize);
  ran = graphModelRun(model, inputs, outputs);
  printf("nonzero plain run %d: %lld %lld %lld\n", ran, (long long)indices[0],
         (long long)indices[3], (long long)indices[7]);
  free(indices);
  graphModelDestroy(model);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 6) {
    fprintf(stderr, "usage: graph-capi-test MODEL.mlir LIBRARY.so CACHE "
                    "[SYMBOLIC.onnx [NONZERO.onnx]]\n");
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
  if (argc > 4 && testSymbolic(argv[4], argv[3]))
    return 1;
  if (argc > 5)
    return testRunTimeSize(argv[5]);
  return 0;
}
