// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @cond_not_bool(%c: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.if' op operand 'cond' must be a bool tensor of one element, but it is 'tensor<i32>'}}
  %r = graph.if %c : tensor<i32> -> tensor<4xf32> {
    graph.yield %x : tensor<4xf32>
  } else {
    graph.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @cond_two_elements(%c: tensor<2xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.if' op operand 'cond' must be a bool tensor of one element, but it is 'tensor<2xi1>'}}
  %r = graph.if %c : tensor<2xi1> -> tensor<4xf32> {
    graph.yield %x : tensor<4xf32>
  } else {
    graph.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_type(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.if' op region 'else' yields ('tensor<3xf32>'), but the results are ('tensor<4xf32>')}}
  %r = graph.if %c : tensor<i1> -> tensor<4xf32> {
    graph.yield %x : tensor<4xf32>
  } else {
    graph.yield %y : tensor<3xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_count(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.if' op region 'then' yields ('tensor<4xf32>', 'tensor<4xf32>'), but the results are ('tensor<4xf32>')}}
  %r = graph.if %c : tensor<i1> -> tensor<4xf32> {
    graph.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  } else {
    graph.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @no_terminator(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.if' op region 'then' must end in 'graph.yield'}}
  %r = "graph.if"(%c) ({
    %a = graph.relu %x : tensor<4xf32>
  }, {
    graph.yield %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @yield_outside(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.yield' op expects parent op to be one of 'graph.fused, graph.if, graph.loop'}}
  graph.yield %x : tensor<4xf32>
}
