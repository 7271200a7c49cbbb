// RUN: graph-opt %s --split-input-file --graph-approximate-math | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-math-to-libm \
// RUN: | FileCheck %s --check-prefix=LIBM

// f32 exp, erf and tanh, scalars and vectors alike, become polynomials (so
// that a value does not depend on whether its loop was vectorized); f64
// stays for libm.

// CHECK-LABEL: func.func @exp_erf
// CHECK-NOT:     math.exp {{.*}} : f32
// CHECK-NOT:     math.exp {{.*}} : vector<16xf32>
// CHECK-NOT:     math.erf
// CHECK:         math.fma
// CHECK:         math.floor
// CHECK:         arith.bitcast {{.*}} : i32 to f32
// CHECK:         arith.bitcast {{.*}} : vector<16xi32> to vector<16xf32>
// CHECK:         math.exp {{.*}} : f64
// CHECK-NOT:     math.tanh
// CHECK:         return
func.func @exp_erf(%s: f32, %v: vector<16xf32>, %d: f64)
    -> (f32, vector<16xf32>, vector<16xf32>, f64) {
  %0 = math.exp %s : f32
  %1 = math.exp %v : vector<16xf32>
  %2 = math.erf %v : vector<16xf32>
  %3 = math.exp %d : f64
  return %0, %1, %2, %3 : f32, vector<16xf32>, vector<16xf32>, f64
}

// -----

// tanh: x + x^3 P(x^2) below |x| = 0.625, 1 - 2 / (exp(2|x|) + 1) with the
// sign of x above; the exp approximated too. f64 stays for libm.

// CHECK-LABEL: func.func @tanh_approximation
// CHECK:         %[[ABS:.*]] = math.absf %arg0 : vector<16xf32>
// CHECK:         arith.mulf %arg0, %arg0 : vector<16xf32>
// CHECK:         %[[SMALL:.*]] = math.fma %{{.*}}, %arg0, %arg0 : vector<16xf32>
// CHECK:         %[[TWICE:.*]] = arith.addf %[[ABS]], %[[ABS]] : vector<16xf32>
// CHECK-NOT:     math.exp {{.*}} : vector<16xf32>
// CHECK:         arith.divf
// CHECK:         %[[LARGE:.*]] = math.copysign %{{.*}}, %arg0 : vector<16xf32>
// CHECK:         %[[THRESHOLD:.*]] = arith.constant dense<6.250000e-01> : vector<16xf32>
// CHECK:         %[[IS_SMALL:.*]] = arith.cmpf olt, %[[ABS]], %[[THRESHOLD]] : vector<16xf32>
// CHECK:         %[[V:.*]] = arith.select %[[IS_SMALL]], %[[SMALL]], %[[LARGE]]
// CHECK:         arith.cmpf olt, {{.*}} : f32
// CHECK:         math.tanh %arg2 : f64
// CHECK:         return %[[V]],
func.func @tanh_approximation(%v: vector<16xf32>, %s: f32, %d: f64) -> (vector<16xf32>, f32, f64) {
  %0 = math.tanh %v : vector<16xf32>
  %1 = math.tanh %s : f32
  %2 = math.tanh %d : f64
  return %0, %1, %2 : vector<16xf32>, f32, f64
}

// -----

// Transcendental functions go to libm, vectors lane by lane; correctly
// rounded ops, scalars and vectors, stay for LLVM's intrinsics (one
// instruction where the target has it).

// LIBM-DAG: func.func private @tanhf(f32) -> f32
// LIBM-NOT: func.func private @floorf
// LIBM-LABEL: func.func @libm
// LIBM:         call @tanhf
// LIBM:         math.floor {{.*}} : f32
// LIBM:         math.floor {{.*}} : vector<8xf32>
// LIBM:         math.sqrt {{.*}} : vector<8xf32>
// LIBM-NOT:     math.tanh
func.func @libm(%s: f32, %v: vector<8xf32>)
    -> (f32, f32, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %0 = math.tanh %s : f32
  %1 = math.floor %s : f32
  %2 = math.floor %v : vector<8xf32>
  %3 = math.sqrt %v : vector<8xf32>
  %4 = math.tanh %v : vector<8xf32>
  return %0, %1, %2, %3, %4 : f32, f32, vector<8xf32>, vector<8xf32>, vector<8xf32>
}
