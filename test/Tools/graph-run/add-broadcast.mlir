// Broadcasting add with inputs given by name, by position (`argN`, `N`) and
// as files in argument order; both outputs checked against NumPy.
// RUN: rm -rf %t && mkdir %t
// RUN: %python -c "import numpy as np; r = np.random.RandomState(2); np.save('%t/a.npy', r.uniform(-1, 1, (2, 3, 4)).astype(np.float32)); np.save('%t/b.npy', r.uniform(-1, 1, (3, 1)).astype(np.float32))"

// RUN: graph-run -O0 %s --input lhs=%t/a.npy --input rhs=%t/b.npy --output %t/s0.npy --output %t/r0.npy
// RUN: %python %S/Inputs/check_npy.py %t/s0.npy "a + b" a=%t/a.npy b=%t/b.npy
// RUN: %python %S/Inputs/check_npy.py %t/r0.npy "np.maximum(a + b, 0)" a=%t/a.npy b=%t/b.npy

// RUN: graph-run -O3 %s --input rhs=%t/b.npy --input lhs=%t/a.npy --output relu=%t/r3.npy --output sum=%t/s3.npy
// RUN: %python %S/Inputs/check_npy.py %t/s3.npy "a + b" a=%t/a.npy b=%t/b.npy
// RUN: %python %S/Inputs/check_npy.py %t/r3.npy "np.maximum(a + b, 0)" a=%t/a.npy b=%t/b.npy

// RUN: graph-run %s --input arg1=%t/b.npy --input 0=%t/a.npy --output 1=%t/r-pos.npy
// RUN: %python %S/Inputs/check_npy.py %t/r-pos.npy "np.maximum(a + b, 0)" a=%t/a.npy b=%t/b.npy
// RUN: graph-run %s %t/a.npy %t/b.npy --output result0=%t/s-pos.npy
// RUN: %python %S/Inputs/check_npy.py %t/s-pos.npy "a + b" a=%t/a.npy b=%t/b.npy

// Every way of naming the inputs gives the same bytes.
// RUN: cmp %t/s0.npy %t/s3.npy
// RUN: cmp %t/s0.npy %t/s-pos.npy
// RUN: cmp %t/r0.npy %t/r-pos.npy

func.func @main(%a: tensor<2x3x4xf32> {graph.name = "lhs"},
                %b: tensor<3x1xf32> {graph.name = "rhs"})
    -> (tensor<2x3x4xf32> {graph.name = "sum"},
        tensor<2x3x4xf32> {graph.name = "relu"}) {
  %s = graph.add %a, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %r = graph.relu %s : tensor<2x3x4xf32>
  return %s, %r : tensor<2x3x4xf32>, tensor<2x3x4xf32>
}
