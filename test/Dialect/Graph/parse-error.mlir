// Bad input makes graph-opt fail with exit code 1 and a diagnostic, whether
// the text does not parse or the IR does not verify.
// RUN: not graph-opt %s 2>&1 | FileCheck %s
// RUN: %python -c "import subprocess, sys; sys.exit(subprocess.run(['graph-opt', '%s'], capture_output=True).returncode != 1)"
// RUN: not graph-opt %S/Inputs/invalid-shape.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: %python -c "import subprocess, sys; sys.exit(subprocess.run(['graph-opt', '%S/Inputs/invalid-shape.mlir'], capture_output=True).returncode != 1)"

// CHECK: parse-error.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
func.func @missing_type(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.relu %x
  return %0 : tensor<2xf32>
}

// VERIFY: invalid-shape.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'graph.matmul' op operand 'a' dim 1 (K = 3) must equal operand 'b' dim 0 (4)
