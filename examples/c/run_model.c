/*===- run_model.c - Run a model compiled ahead of time, from C -----------===*\
|*                                                                            *|
|* Build a model with graph-compile, then this program against it:            *|
|*                                                                            *|
|*   graph-compile model.onnx -o model.so --header model.h                    *|
|*   cc -I. run_model.c model.so -Wl,-rpath,'$ORIGIN' -o run_model            *|
|*   ./run_model input0.npy input1.npy ...                                    *|
|*                                                                            *|
|* It reads one .npy file per input (C order, the input's element type and    *|
|* shape, as model.h gives them), calls graph_model_run and prints every      *|
|* output as `name: shape`, then its values, one innermost row per line.      *|
|* Nothing here but the C library: the model is the shared library (or link   *|
|* model.o the same way).                                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NumPy's type string of an element type, little-endian. */
static const char *npyDescr(const char *dtype) {
  static const char *const table[][2] = {
      {"float16", "<f2"}, {"float32", "<f4"}, {"float64", "<f8"},
      {"int8", "|i1"},    {"int16", "<i2"},   {"int32", "<i4"},
      {"int64", "<i8"},   {"uint8", "|u1"},   {"uint16", "<u2"},
      {"uint32", "<u4"},  {"uint64", "<u8"},  {"bool", "|b1"}};
  for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i)
    if (!strcmp(table[i][0], dtype))
      return table[i][1];
  return "?";
}

/* Reads input `index` from the .npy file at `path` into a new buffer, after
 * checking its type string, order and shape against the model's. */
static void *readInput(const char *path, int index) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "run_model: cannot open '%s'\n", path);
    return NULL;
  }
  unsigned char magic[10];
  char header[4096];
  size_t headerLength = 0;
  int ok = fread(magic, 1, 8, file) == 8 && !memcmp(magic, "\x93NUMPY", 6);
  if (ok && magic[6] == 1) {
    ok = fread(magic + 8, 1, 2, file) == 2;
    headerLength = magic[8] | (size_t)magic[9] << 8;
  } else if (ok && (magic[6] == 2 || magic[6] == 3)) {
    unsigned char length[4];
    ok = fread(length, 1, 4, file) == 4;
    headerLength = length[0] | (size_t)length[1] << 8 |
                   (size_t)length[2] << 16 | (size_t)length[3] << 24;
  } else {
    ok = 0;
  }
  ok = ok && headerLength < sizeof(header) &&
       fread(header, 1, headerLength, file) == headerLength;
  if (!ok) {
    fprintf(stderr, "run_model: '%s' is not a .npy file\n", path);
    fclose(file);
    return NULL;
  }
  header[headerLength] = 0;

  /* The expected header's fields, as NumPy writes them. */
  char descr[64], shape[512];
  snprintf(descr, sizeof(descr), "'descr': '%s'",
           npyDescr(graph_model_input_dtypes[index]));
  int length = snprintf(shape, sizeof(shape), "'shape': (");
  for (int d = 0; d < graph_model_input_ranks[index]; ++d)
    length +=
        snprintf(shape + length, sizeof(shape) - length, d ? ", %lld" : "%lld",
                 (long long)graph_model_input_shapes[index][d]);
  snprintf(shape + length, sizeof(shape) - length,
           graph_model_input_ranks[index] == 1 ? ",)" : ")");
  if (!strstr(header, descr) || !strstr(header, "'fortran_order': False") ||
      !strstr(header, shape)) {
    fprintf(stderr,
            "run_model: '%s' is not input %d ('%s'): expected %s, %s, C "
            "order; it has %s\n",
            path, index, graph_model_input_names[index], descr, shape, header);
    fclose(file);
    return NULL;
  }
  size_t bytes = (size_t)graph_model_input_bytes[index];
  void *data = malloc(bytes ? bytes : 1);
  if (!data || fread(data, 1, bytes, file) != bytes) {
    fprintf(stderr, "run_model: '%s' is shorter than its shape says\n", path);
    free(data);
    data = NULL;
  }
  fclose(file);
  return data;
}

/* Element `i` of output `index`, printed as graph-run prints it. */
static void printElement(const void *data, int index, int64_t i) {
  const char *dtype = graph_model_output_dtypes[index];
  if (!strcmp(dtype, "float32"))
    printf("%.9g", ((const float *)data)[i]);
  else if (!strcmp(dtype, "float64"))
    printf("%.17g", ((const double *)data)[i]);
  else if (!strcmp(dtype, "int64"))
    printf("%lld", (long long)((const int64_t *)data)[i]);
  else if (!strcmp(dtype, "int32"))
    printf("%d", (int)((const int32_t *)data)[i]);
  else if (!strcmp(dtype, "uint8") || !strcmp(dtype, "bool"))
    printf("%u", (unsigned)((const uint8_t *)data)[i]);
  else
    printf("?");
}

int main(int argc, char **argv) {
  if (argc != 1 + GRAPH_MODEL_NUM_INPUTS) {
    fprintf(stderr, "usage: %s", argv[0]);
    for (int i = 0; i < GRAPH_MODEL_NUM_INPUTS; ++i)
      fprintf(stderr, " %s.npy", graph_model_input_names[i]);
    fprintf(stderr, "\n");
    return 1;
  }
  void *inputs[GRAPH_MODEL_NUM_INPUTS + 1];
  void *outputs[GRAPH_MODEL_NUM_OUTPUTS + 1];
  for (int i = 0; i < GRAPH_MODEL_NUM_INPUTS; ++i)
    if (!(inputs[i] = readInput(argv[1 + i], i)))
      return 1;
  for (int i = 0; i < GRAPH_MODEL_NUM_OUTPUTS; ++i) {
    size_t bytes = (size_t)graph_model_output_bytes[i];
    if (!(outputs[i] = malloc(bytes ? bytes : 1)))
      return 1;
  }

  if (graph_model_run((const void *const *)inputs, outputs) != 0) {
    fprintf(stderr, "run_model: the model failed\n");
    return 1;
  }

  for (int o = 0; o < GRAPH_MODEL_NUM_OUTPUTS; ++o) {
    int rank = graph_model_output_ranks[o];
    const int64_t *shape = graph_model_output_shapes[o];
    printf("%s: (", graph_model_output_names[o]);
    for (int d = 0; d < rank; ++d)
      printf(d ? ", %lld" : "%lld", (long long)shape[d]);
    printf(rank == 1 ? ",)\n" : ")\n");
    int64_t row = rank ? shape[rank - 1] : 1;
    for (int64_t i = 0; row && i < graph_model_output_num_elements[o]; ++i) {
      printElement(outputs[o], o, i);
      printf((i + 1) % row ? " " : "\n");
    }
  }
  for (int i = 0; i < GRAPH_MODEL_NUM_INPUTS; ++i)
    free(inputs[i]);
  for (int i = 0; i < GRAPH_MODEL_NUM_OUTPUTS; ++i)
    free(outputs[i]);
  return 0;
}
