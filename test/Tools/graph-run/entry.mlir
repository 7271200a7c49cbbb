// --entry picks the function to run (default @main); the others in the
// module are compiled along but not called.
// RUN: rm -rf %t && mkdir %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([-2, 0.5, 3], np.float32))"
// RUN: graph-run %s %t/x.npy | FileCheck %s --check-prefix=MAIN
// RUN: graph-run %s %t/x.npy --entry main | FileCheck %s --check-prefix=MAIN
// RUN: graph-run %s %t/x.npy --entry negate -O0 | FileCheck %s --check-prefix=NEGATE
// RUN: graph-run %s %t/x.npy --entry negate -O3 | FileCheck %s --check-prefix=NEGATE

// MAIN:      result0: (3,)
// MAIN-NEXT: 0 0.5 3
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = graph.relu %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

// NEGATE:      negated: (3,)
// NEGATE-NEXT: 2 -0.5 -3
func.func @negate(%x: tensor<3xf32>) -> (tensor<3xf32> {graph.name = "negated"}) {
  %m = graph.constant dense<-1.0> : tensor<3xf32>
  %y = graph.mul %x, %m : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
