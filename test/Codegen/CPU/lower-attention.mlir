// RUN: graph-opt %s --graph-lower-attention="target-cpu=skylake-avx512" | FileCheck %s --check-prefix=AVX512
// RUN: graph-opt %s --graph-lower-attention="target-cpu=haswell" | FileCheck %s --check-prefix=AVX2

// graph.attention becomes an scf.forall over (heads, blocks of query rows)
// whose keys are taken two vectors at a time with an online softmax: no
// tensor of the scores' shape, 3 x 197 x 197, is ever made. With AVX-512,
// blocks of 4 rows (49 blocks, then one row at a time for the last), 32 keys
// a step (6 steps, then 5 keys); with AVX2 16 keys a step (12 steps, then
// 5), and also 4 rows, whose accumulators 16 registers cannot hold: they
// live in the block's output tile, and the product by v takes two vectors
// of each row at a time (a loop over the keys, four a step). The whole blocks are software-pipelined: the first
// block's scores and softmax step before the loop; in the loop a block's
// scores, then the product by v of the block before (its keys, key0 - 32),
// then the block's softmax step; the last block's product by v after it.
// The row maxima are selects on `ogt` (x86's maxps), halved lane by lane.

// AVX512-LABEL: func.func @attention
// AVX512-NOT:     tensor<3x197x197
// AVX512:         tensor.collapse_shape
// AVX512:         scf.forall (%{{.*}}, %{{.*}}) in (3, 49)
// AVX512:           tensor.extract_slice {{.*}} [1, 4, 64]
// AVX512:           scf.for %{{.*}} = %c0{{.*}} to %c64
// AVX512:             vector.transfer_read {{.*}} : tensor<3x64x197xf32>, vector<16xf32>
// AVX512-NOT:       vector.reduction <maximumf>
// AVX512:           arith.cmpf ogt
// AVX512:           vector.extract_strided_slice {{.*}} {offsets = [8], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
// AVX512:           math.exp {{.*}} : vector<16xf32>
// AVX512:           %[[SECOND:.*]] = arith.addi %c0{{.*}}, %c32
// AVX512:           scf.for %[[KEY0:.*]] = %[[SECOND]] to %c192{{.*}} step %c32
// AVX512:             scf.for %{{.*}} = %c0{{.*}} to %c64
// AVX512:               vector.transfer_read {{.*}} : tensor<3x64x197xf32>, vector<16xf32>
// AVX512:             %[[PREVIOUS:.*]] = arith.subi %[[KEY0]], %c32
// AVX512:             %[[KEY:.*]] = arith.addi %[[PREVIOUS]], %c0
// AVX512:             vector.transfer_read %{{.*}}[%{{.*}}, %[[KEY]], %c0{{.*}}]{{.*}} : tensor<3x197x64xf32>, vector<16xf32>
// AVX512:             vector.fma
// AVX512:             math.exp {{.*}} : vector<16xf32>
// AVX512:             scf.yield
// AVX512:           %[[LAST:.*]] = arith.subi %c192{{.*}}, %c32
// AVX512:           arith.addi %[[LAST]], %c0
// AVX512:           vector.fma
// AVX512:         scf.forall (%{{.*}}, %{{.*}}) in (3, 1)
// AVX512-NOT:     tensor<3x197x197
// AVX512:         tensor.expand_shape

// AVX2-LABEL: func.func @attention
// AVX2:           scf.forall (%{{.*}}, %{{.*}}) in (3, 49)
// AVX2:             %[[TILE:.*]] = tensor.extract_slice {{.*}} [1, 4, 64]
// AVX2:             vector.transfer_write %{{.*}}, %[[TILE]][%c0{{.*}}, %c0{{.*}}, %c0{{.*}}] {{.*}} : vector<8xf32>, tensor<1x4x64xf32>
// AVX2:             scf.for %{{.*}} = %c0{{.*}} to %c64
// AVX2:               vector.transfer_read {{.*}} : tensor<3x64x197xf32>, vector<8xf32>
// AVX2:             scf.for %{{.*}} = %{{.*}} to %c192{{.*}} step %c16{{.*}} iter_args({{.*}}) -> ({{.*}}tensor<1x4x64xf32>)
// AVX2:               scf.for %{{.*}} = %c0{{.*}} to %c64
// AVX2:               vector.transfer_read {{.*}} : tensor<1x4x64xf32>, vector<8xf32>
// AVX2:               scf.for %{{.*}} = %c0{{.*}} to %c16{{.*}} step %c4{{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2-COUNT-8:         vector.fma
// AVX2:               vector.transfer_write {{.*}} : vector<8xf32>, tensor<1x4x64xf32>
// AVX2:               math.exp {{.*}} : vector<8xf32>
// AVX2:           scf.forall (%{{.*}}, %{{.*}}) in (3, 1)
func.func @attention(%q: tensor<1x3x197x64xf32>, %k: tensor<1x3x64x197xf32>,
                     %v: tensor<1x3x197x64xf32>, %m: tensor<1x1x197x197xf32>)
    -> tensor<1x3x197x64xf32> {
  %0 = graph.attention %q, %k, %v mask %m {scale = 0.125 : f32}
      : (tensor<1x3x197x64xf32>, tensor<1x3x64x197xf32>, tensor<1x3x197x64xf32>, tensor<1x1x197x197xf32>) -> tensor<1x3x197x64xf32>
  return %0 : tensor<1x3x197x64xf32>
}
