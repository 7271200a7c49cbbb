// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @count_not_i64(%m: tensor<i32>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op operand 'maxTripCount' must be an i64 tensor of one element, but it is 'tensor<i32>'}}
  %y, %n = graph.loop %m, %c, %x : tensor<i32>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i32>, %ci: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %ci, %v : tensor<i1>, tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func @cond_two_elements(%m: tensor<i64>, %c: tensor<2xi1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op operand 'cond' must be a bool tensor of one element, but it is 'tensor<2xi1>'}}
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<2xi1>, tensor<2xf32> -> tensor<2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<2xi1>, %v: tensor<2xf32>):
    %b = graph.constant dense<true> : tensor<i1>
    graph.yield %b, %v : tensor<i1>, tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func @no_count(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op has 1 results, but 1 carried values and the iteration count need 2}}
  %y = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %ci, %v : tensor<i1>, tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func @count_type(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op the last result, the iteration count, must be tensor<i64>, but it is 'tensor<1xi64>'}}
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<1xi64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %ci, %v : tensor<i1>, tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func @result_type(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'graph.loop' op result 0 is 'tensor<3xf32>', but the value it carries starts as 'tensor<2xf32>'}}
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<3xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %ci, %v : tensor<i1>, tensor<2xf32>
  }
  return %y : tensor<3xf32>
}

// -----

func.func @arguments(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op the body takes ('tensor<i1>', 'tensor<2xf32>'), but must take the iteration number, the condition and the carried values: ('tensor<i64>', 'tensor<i1>', 'tensor<2xf32>')}}
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<i64> {
  ^bb0(%ci: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %ci, %v : tensor<i1>, tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func @yield_count(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op the body yields 1 values, but must yield the condition, 1 carried values and 0 scan values}}
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %v : tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func @yield_cond(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op the body yields 'tensor<2xf32>' as its condition; it must be a bool tensor of one element}}
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %v, %v : tensor<2xf32>, tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func @yield_carried(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op the body yields 'tensor<4xf32>' as carried value 0, which is 'tensor<2xf32>'}}
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<2xf32>):
    %w = graph.concat %v, %v {axis = 0} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
    graph.yield %ci, %w : tensor<i1>, tensor<4xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func @scan_rows(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'graph.loop' op scan output 0 is 'tensor<3x4xf32>', but stacks 3 rows of 'tensor<2xf32>'}}
  %y, %s, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<3x4xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %ci, %v, %v : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  return %s : tensor<3x4xf32>
}

// -----

func.func @no_yield(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.loop' op the body must end in 'graph.yield'}}
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<2xf32>):
    %w = graph.neg %v : tensor<2xf32>
  }
  return %y : tensor<2xf32>
}
