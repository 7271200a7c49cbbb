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
batch ``N``, a sequence length) runs on any shape: the session compiles a
specialization for each set of input shapes it is called with (on first
use, through the compile cache) and keeps the ``max_specializations`` most
recently used. Its ``get_inputs()`` give the symbols as strings (``["N", 3,
224, 224]``), as ONNX Runtime's do; a symbol that two inputs share must have
one value. ``input_shapes`` (``{"x": [1, 3, 224, 224]}``, graph-run's
``--input-shape``) fixes the shapes once instead.
"""

import collections
import threading

from . import _graph

Error = _graph.Error

__all__ = ["InferenceSession", "NodeArg", "Error", "available_cores"]

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
    """An input or output: ``name``, ``shape`` (a list of ints), ``dtype``
    (NumPy's) and ``type`` (ONNX Runtime's name of it, ``tensor(float)``)."""

    def __init__(self, name, shape, dtype):
        self.name = name
        self.shape = list(shape)
        self.dtype = dtype
        self.type = _ONNX_TYPES.get(dtype.name, "tensor(%s)" % dtype.name)

    def __repr__(self):
        return "NodeArg(name=%r, type=%r, shape=%r)" % (
            self.name, self.type, self.shape)


def _onnx_signature(path):
    """The inputs and outputs of an ONNX model as (name, dims, dtype) with
    dims ints or, where symbolic or unknown, strings; None when the file
    cannot be read as one (the compiler then says why)."""
    try:
        import onnx
        from onnx import helper
        model = onnx.load(path, load_external_data=False)
    except Exception:
        return None
    import numpy as np
    graph = model.graph
    initializers = {t.name for t in graph.initializer}

    def describe(value):
        tensor = value.type.tensor_type
        dims = []
        for d, dim in enumerate(tensor.shape.dim):
            if dim.HasField("dim_value") and dim.dim_value > 0:
                dims.append(int(dim.dim_value))
            else:
                dims.append(dim.dim_param or "%s_dim%d" % (value.name, d))
        if hasattr(helper, "tensor_dtype_to_np_dtype"):
            dtype = np.dtype(helper.tensor_dtype_to_np_dtype(tensor.elem_type))
        else:  # onnx before 1.13 (Debian 12 has 1.12)
            dtype = np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[tensor.elem_type])
        return value.name, dims, dtype

    inputs = [describe(v) for v in graph.input if v.name not in initializers]
    outputs = [describe(v) for v in graph.output]
    return inputs, outputs


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
        self._load = lambda shapes: _graph.Model(
            path, opt_level=opt_level, target_cpu=target_cpu,
            target_features=target_features,
            input_shapes=self._shapes_option(shapes), use_cache=use_cache,
            cache_dir=None if cache_dir is None else str(cache_dir),
            threads=threads or 0)
        self._max_specializations = max_specializations
        self._specializations = collections.OrderedDict()
        self._lock = threading.Lock()
        signature = None
        if not input_shapes and path.endswith(".onnx"):
            signature = _onnx_signature(path)
        if signature and any(isinstance(d, str) for _, dims, _ in signature[0]
                             for d in dims):
            # Symbolic: one specialization per set of input shapes, made on
            # first use.
            self._model = None
            self._inputs = [NodeArg(*i) for i in signature[0]]
            self._outputs = [NodeArg(*o) for o in signature[1]]
            return
        self._model = self._load(input_shapes)
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
        cache or a library (for a symbolic model, the latest
        specialization's)."""
        if self._model is not None:
            return self._model.load_millis()
        with self._lock:
            if not self._specializations:
                return 0.0
            return next(reversed(self._specializations.values())).load_millis()

    def _specialization(self, input_feed):
        """The model compiled for the shapes of `input_feed`'s arrays."""
        import numpy as np
        bound = {}
        shapes = {}
        for arg in self._inputs:
            if arg.name not in input_feed:
                raise Error("missing input '%s' (%s %s)" % (
                    arg.name, arg.dtype.name, arg.shape))
            shape = list(np.shape(input_feed[arg.name]))
            if len(shape) != len(arg.shape):
                raise Error("input '%s' has shape %s; the model expects %s"
                            % (arg.name, shape, arg.shape))
            for dim, size in zip(arg.shape, shape):
                if isinstance(dim, str):
                    seen = bound.setdefault(dim, (size, arg.name))
                    if seen[0] != size:
                        raise Error(
                            "dimension '%s' is %d in input '%s' and %d in "
                            "input '%s'" % (dim, seen[0], seen[1], size,
                                            arg.name))
                elif dim != size:
                    raise Error("input '%s' has shape %s; the model expects %s"
                                % (arg.name, shape, arg.shape))
            shapes[arg.name] = shape
        key = tuple(tuple(shapes[arg.name]) for arg in self._inputs)
        with self._lock:
            model = self._specializations.get(key)
            if model is not None:
                self._specializations.move_to_end(key)
                return model
        model = self._load(shapes)
        with self._lock:
            self._specializations[key] = model
            self._specializations.move_to_end(key)
            while len(self._specializations) > self._max_specializations:
                self._specializations.popitem(last=False)
        return model

    def specializations(self):
        """The input shapes of the specializations the session holds, least
        recently used first (empty for a model of static shapes)."""
        with self._lock:
            return [list(map(list, key)) for key in self._specializations]

    def run(self, output_names, input_feed, run_options=None):
        """The outputs named in ``output_names`` (every output for None), in
        that order, computed from ``input_feed`` (input name -> array)."""
        if not isinstance(input_feed, dict):
            raise Error("input_feed must be a dict of input name -> array")
        if output_names is not None:
            output_names = list(output_names)
        model = self._model
        if model is None:
            unknown = [n for n in input_feed
                       if n not in {a.name for a in self._inputs}]
            if unknown:
                raise Error("unknown input '%s'; the model's inputs are %s" % (
                    unknown[0], ", ".join("'%s'" % a.name
                                          for a in self._inputs)))
            model = self._specialization(input_feed)
        return model.run(output_names, input_feed)
