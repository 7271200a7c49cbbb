"""The graph compiler from Python: compile a model for this CPU and run it.

The API follows ONNX Runtime's, so that switching is one line::

    import graph_compiler as gc
    sess = gc.InferenceSession("model.onnx")          # or .mlir, or .so
    print([(i.name, i.shape, i.type) for i in sess.get_inputs()])
    (y,) = sess.run(None, {"x": x})                   # NumPy arrays

A .onnx or .mlir model is compiled at graph-optimize's ``opt_level`` for the
host CPU (or ``target_cpu``/``target_features``, LLVM's names) through the
compile cache (``cache_dir``, or ``$XDG_CACHE_HOME/graph``, ``~/.cache/graph``):
the second session of a model loads in milliseconds. A shared library made by
graph-compile is loaded after checking that this CPU can run it.

``run`` checks the feeds first (every input given, no unknown name, the
element type and shape the model expects) and raises ``graph_compiler.Error``
naming what is wrong; it reads a C-contiguous input of the right type in
place, without a copy. The GIL is released while the model runs, and one
session may run from several Python threads at once: each run that finds the
model's buffers taken by another gets its own. Each session's ``threads``
(default: every core this process may use) applies to the runs it makes.

An ONNX model whose inputs have symbolic dimensions (``dynamic_axes``: a
batch ``N``, a sequence length) runs on any shape: the session (the C
runtime's, as for graph-run and the C API) compiles a specialization for
each set of input shapes it is called with (on first use, through the
compile cache) and keeps the ``max_specializations`` most recently used. Its ``get_inputs()`` give the symbols as strings (``["N", 3,
224, 224]``), as ONNX Runtime's do; a symbol that two inputs share must have
one value. ``input_shapes`` (``{"x": [1, 3, 224, 224]}``, graph-run's
``--input-shape``) fixes the shapes once instead. An input whose values
decide shapes (a Reshape's ``shape`` given as an input) is specialized on
its values the same way.

The compiler side, as the tools: ``compile(model, "m.so", header=...)``
(graph-compile; ``input_shapes`` may be a list of sets, one specialization
each), ``optimize(model_or_text, opt_level)`` (graph-opt --graph-optimize),
``report(model)`` (graph-report's JSON as a dict), ``visualize(model,
"steps.html")`` (graph-viz); see graph_compiler.compiler.
"""


from . import _graph

Error = _graph.Error

# The compiler side: graph-compile, graph-optimize, graph-report and
# graph-viz as functions (compiler.py).
from .compiler import compile, optimize, report, visualize  # noqa: E402

__all__ = ["InferenceSession", "NodeArg", "Error", "available_cores",
           "compile", "optimize", "report", "visualize"]

# ONNX Runtime's names of the element types, by NumPy's.
_ONNX_TYPES = {
    "float16": "tensor(float16)", "float32": "tensor(float)",
    "float64": "tensor(double)", "int8": "tensor(int8)",
    "int16": "tensor(int16)", "int32": "tensor(int32)",
    "int64": "tensor(int64)", "uint8": "tensor(uint8)",
    "uint16": "tensor(uint16)", "uint32": "tensor(uint32)",
    "uint64": "tensor(uint64)", "bool": "tensor(bool)",
}


def available_cores():
    """The cores this process may run on: the default thread count."""
    return _graph.available_cores()


class NodeArg:
    """An input or output: ``name``, ``shape`` (a list of ints, and of
    strings for symbolic dimensions; None when not declared), ``dtype``
    (NumPy's) and ``type`` (ONNX Runtime's name of it, ``tensor(float)``).
    NumPy has no bfloat16: a ``tensor(bfloat16)`` is fed and returned as
    float32 (rounded to the nearest bfloat16 on the way in)."""

    def __init__(self, name, shape, dtype, onnx_type=None):
        self.name = name
        self.shape = None if shape is None else list(shape)
        self.dtype = dtype
        self.type = onnx_type or _ONNX_TYPES.get(dtype.name,
                                                 "tensor(%s)" % dtype.name)

    def __repr__(self):
        return "NodeArg(name=%r, type=%r, shape=%r)" % (
            self.name, self.type, self.shape)


class InferenceSession:
    """A model loaded for this CPU (see the module's documentation)."""

    def __init__(self, path, opt_level=3, threads=None, target_cpu=None,
                 target_features=None, cache_dir=None, use_cache=True,
                 input_shapes=None, max_specializations=8):
        if not isinstance(opt_level, int) or not 0 <= opt_level <= 3:
            raise Error("opt_level must be 0, 1, 2 or 3, got %r" % (opt_level,))
        if threads is not None and (not isinstance(threads, int)
                                    or threads < 1):
            raise Error("threads must be a positive count or None, got %r"
                        % (threads,))
        if not isinstance(max_specializations, int) or max_specializations < 1:
            raise Error("max_specializations must be a positive count, got %r"
                        % (max_specializations,))
        path = str(path)
        self._model = _graph.Model(
            path, opt_level=opt_level, target_cpu=target_cpu,
            target_features=target_features,
            input_shapes=self._shapes_option(input_shapes),
            use_cache=use_cache,
            cache_dir=None if cache_dir is None else str(cache_dir),
            threads=threads or 0, max_specializations=max_specializations)
        self._inputs = [NodeArg(*i) for i in self._model.inputs()]
        self._outputs = [NodeArg(*o) for o in self._model.outputs()]

    @staticmethod
    def _shapes_option(shapes):
        if not shapes:
            return None
        return ",".join("%s=%s" % (name, "x".join(str(int(d)) for d in shape))
                        for name, shape in shapes.items())

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def load_millis(self):
        """How long the model took to get ready: compile, or load from the
        cache or a library (for a model with symbolic dimensions, the most
        recently used specialization's; 0 before the first run)."""
        return self._model.load_millis()

    def specializations(self):
        """The input shapes of the specializations the session holds, the
        most recently used first (empty for a model of static shapes)."""
        return self._model.specializations()

    def run(self, output_names, input_feed, run_options=None):
        """The outputs named in ``output_names`` (every output for None), in
        that order, computed from ``input_feed`` (input name -> array)."""
        if not isinstance(input_feed, dict):
            raise Error("input_feed must be a dict of input name -> array")
        if output_names is not None:
            output_names = list(output_names)
        return self._model.run(output_names, input_feed)
