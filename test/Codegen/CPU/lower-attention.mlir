// RUN: graph-opt %s --graph-lower-attention="target-cpu=skylake-avx512" | FileCheck %s --check-prefix=AVX512
// RUN: graph-opt %s --graph-lower-attention="target-cpu=haswell" | FileCheck %s --check-prefix=AVX2

// graph.attention becomes an scf.forall over (heads, blocks of query rows)
// whose keys are taken two vectors at a time with an online softmax: no
// tensor of the scores' shape, 3 x 197 x 197, is ever made. With AVX-512,
// blocks of 4 rows (49 blocks, then one row at a time for the last), 32 keys
// a step (6 steps, then 5 keys); with AVX2 one row, 16 keys a step (12
// steps, then 5).

// AVX512-LABEL: func.func @attention
// AVX512-NOT:     tensor<3x197x197
// AVX512:         tensor.collapse_shape
// AVX512:         scf.forall (%{{.*}}, %{{.*}}) in (3, 49)
// AVX512:           tensor.extract_slice {{.*}} [1, 4, 64]
// AVX512:           scf.for %{{.*}} = %c0{{.*}} to %c192{{.*}} step %c32
// AVX512:             vector.transfer_read {{.*}} : tensor<3x64x197xf32>, vector<16xf32>
// AVX512:             math.exp {{.*}} : vector<16xf32>
// AVX512:             vector.fma
// AVX512:         scf.forall (%{{.*}}, %{{.*}}) in (3, 1)
// AVX512-NOT:     tensor<3x197x197
// AVX512:         tensor.expand_shape

// AVX2-LABEL: func.func @attention
// AVX2:           scf.forall (%{{.*}}, %{{.*}}) in (3, 197)
// AVX2:             tensor.extract_slice {{.*}} [1, 1, 64]
// AVX2:             scf.for %{{.*}} = %c0{{.*}} to %c192{{.*}} step %c16
// AVX2:               vector.transfer_read {{.*}} : tensor<3x64x197xf32>, vector<8xf32>
// AVX2-NOT:       scf.forall (
func.func @attention(%q: tensor<1x3x197x64xf32>, %k: tensor<1x3x64x197xf32>,
                     %v: tensor<1x3x197x64xf32>, %m: tensor<1x1x197x197xf32>)
    -> tensor<1x3x197x64xf32> {
  %0 = graph.attention %q, %k, %v mask %m {scale = 0.125 : f32}
      : (tensor<1x3x197x64xf32>, tensor<1x3x64x197xf32>, tensor<1x3x197x64xf32>, tensor<1x1x197x197xf32>) -> tensor<1x3x197x64xf32>
  return %0 : tensor<1x3x197x64xf32>
}
