// graph-run prints each output as `name: shape`, then its values one
// innermost row per line with 9 significant digits; the same at every -O
// level. The input's values are written out here, so the expected relu is
// read off them (1e-3 in float32 prints as 0.00100000005).
// RUN: rm -rf %t && mkdir %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[-1, 2.5, 0], [3, -0.5, 1e-3]], np.float32))"
// RUN: graph-run %s %t/x.npy | FileCheck %s
// RUN: graph-run -O0 %s %t/x.npy | FileCheck %s
// RUN: graph-run -O1 %s %t/x.npy | FileCheck %s
// RUN: graph-run -O2 %s %t/x.npy | FileCheck %s
// RUN: graph-run -O3 %s %t/x.npy | FileCheck %s

// CHECK:      y: (2, 3)
// CHECK-NEXT: 0 2.5 0
// CHECK-NEXT: 3 0 0.00100000005
// CHECK-NOT:  {{.}}

// A larger input against NumPy, at -O0 and -O3.
// RUN: %python -c "import numpy as np; np.save('%t/big.npy', np.random.RandomState(1).uniform(-4, 4, (2, 3)).astype(np.float32))"
// RUN: graph-run -O0 %s %t/big.npy --output %t/y0.npy
// RUN: graph-run -O3 %s %t/big.npy --output %t/y3.npy
// RUN: %python %S/Inputs/check_npy.py %t/y0.npy "np.maximum(x, 0)" x=%t/big.npy
// RUN: %python %S/Inputs/check_npy.py %t/y3.npy "np.maximum(x, 0)" x=%t/big.npy

func.func @main(%x: tensor<2x3xf32> {graph.name = "x"})
    -> (tensor<2x3xf32> {graph.name = "y"}) {
  %y = graph.relu %x : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
