/* Runs a library of several specializations (relu of x: [batch, 3, 4, 4])
   through its header's graph_model_run_shaped, for each batch given on the
   command line, and checks every output against relu computed here. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  for (int a = 1; a < argc; ++a) {
    int64_t batch = atoll(argv[a]);
    int64_t shape[4] = {batch, 3, 4, 4};
    const int64_t *shapes[1] = {shape};
    int64_t n = batch * 48;
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
    for (int64_t i = 0; i < n; ++i)
      x[i] = (float)(i % 7) - 3.0f;
    const void *inputs[1] = {x};
    void *outputs[1] = {y};
    int status = graph_model_run_shaped(shapes, inputs, outputs);
    int wrong = 0;
    for (int64_t i = 0; status == 0 && i < n; ++i)
      wrong += y[i] != (x[i] > 0 ? x[i] : 0.0f);
    printf("batch %lld: status %d, wrong %d\n", (long long)batch, status,
           wrong);
    free(x);
    free(y);
  }
  return 0;
}
