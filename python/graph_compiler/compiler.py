"""The compiler side of graph_compiler: what the tools do, from Python.

    import graph_compiler.compiler as gcc
    gcc.compile("model.onnx", "model.so", header="model.h")  # graph-compile
    text = gcc.optimize("model.mlir", opt_level=2)           # graph-opt --graph-optimize
    figures = gcc.report("model.onnx")                       # graph-report's JSON, a dict
    gcc.visualize("model.onnx", "steps.html")                # graph-viz

Each function calls the same library code as its tool (graph/Driver/
Driver.h), so it makes the same files and text. A model is a path to an
``.onnx`` file (imported, with ``input_shapes`` fixing symbolic dimensions)
or to MLIR text or bytecode; ``optimize`` and ``report`` also take MLIR text
itself. Every failure raises ``graph_compiler.Error`` carrying the message
the tool would print: the compiler's diagnostic for a bad model, or what is
wrong with an argument. The GIL is released while the compiler works.
"""

import collections
import json
import os

from ._graph import _compiler
from ._graph import Error

__all__ = ["compile", "optimize", "report", "visualize", "Step", "Error"]

Step = collections.namedtuple("Step", ["title", "ops", "report"])
Step.__doc__ = """A step of visualize's page: ``title`` (``input`` or the
pass), ``ops`` (how many ops the graph has then) and ``report`` (graph-report's
figures of it, a dict)."""


def _check_opt_level(opt_level):
    if (isinstance(opt_level, bool) or not isinstance(opt_level, int)
            or not 0 <= opt_level <= 3):
        raise Error("opt_level must be 0, 1, 2 or 3, got %r" % (opt_level,))


def _check_optional_str(name, value):
    if value is not None and not isinstance(value, str):
        raise Error("%s must be a string or None, got %r" % (name, value))
    return value or ""


def _path(name, value):
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise Error("%s must be a path, got %r" % (name, value))
    return value


def _model_path(model):
    path = _path("model", model)
    if not os.path.isfile(path):
        raise Error("cannot read '%s': no such file" % path)
    return path


def _model_path_or_text(model):
    """(path, None) for a model file, (None, text) for MLIR text: a string
    that names no file and holds a brace or a line break."""
    if isinstance(model, str) and not os.path.isfile(model) and (
            "{" in model or "\n" in model):
        return None, model
    return _model_path(model), None


def _shape_specs(input_shapes, path):
    """graph-compile's --input-shape values for ``{name: shape}``."""
    if input_shapes is None:
        return []
    if not isinstance(input_shapes, dict):
        raise Error("input_shapes must be a dict of input name -> shape, got %r"
                    % (input_shapes,))
    if input_shapes and not (path or "").lower().endswith(".onnx"):
        raise Error("input_shapes applies to .onnx models only")
    specs = []
    for name, shape in input_shapes.items():
        try:
            dims = [int(d) for d in shape]
        except (TypeError, ValueError):
            dims = None
        if not isinstance(name, str) or not dims or any(d < 1 for d in dims):
            raise Error("input_shapes['%s'] must be a list of positive sizes, "
                        "got %r" % (name, shape))
        specs.append("%s=%s" % (name, "x".join(str(d) for d in dims)))
    return specs


def _shape_sets(input_shapes, path):
    """graph-compile's --input-shape values for one ``{name: shape}`` or a
    list of them (each set names its inputs anew)."""
    if isinstance(input_shapes, (list, tuple)):
        if not input_shapes:
            raise Error("input_shapes is an empty list")
        specs = []
        for shapes in input_shapes:
            if not shapes:
                raise Error("input_shapes holds an empty set of shapes")
            specs.extend(_shape_specs(shapes, path))
        return specs
    return _shape_specs(input_shapes, path)


def compile(model, output, opt_level=3, header=None, target_cpu=None,
            target_features=None, input_shapes=None, entry="main",
            max_threads=None):
    """Compiles ``model`` ahead of time as graph-compile does and writes
    ``output``: a shared library (``.so``, which ``InferenceSession`` and C
    programs load; it needs only libc and libm) or an object file (``.o``)
    with the C entry point ``graph_model_run``.

    ``opt_level``: graph-optimize's, 0 to 3. ``header``: also write a C
    header there declaring the entry point and describing every input and
    output. ``target_cpu``/``target_features``: LLVM's names (default: this
    host's). ``input_shapes``: ``{name: [1, 3, 224, 224]}`` for an .onnx
    model's symbolic dimensions, or a list of such dicts: the library then
    holds one specialization per set of shapes, and ``InferenceSession``
    runs the one for the shapes of its feeds. ``entry``: the function to
    compile.
    ``max_threads``: the most threads the library's tile loops run on
    (default 8). Files are written whole or not at all. Returns ``output``.
    """
    path = _model_path(model)
    output = _path("output", output)
    header = None if header is None else _path("header", header)
    _check_opt_level(opt_level)
    if not isinstance(entry, str) or not entry:
        raise Error("entry must be a function name, got %r" % (entry,))
    if max_threads is not None and (isinstance(max_threads, bool)
                                    or not isinstance(max_threads, int)
                                    or max_threads < 1):
        raise Error("max_threads must be a count of at least 1 or None, got "
                    "%r" % (max_threads,))
    _compiler.compile(path, output, header, opt_level,
                      _check_optional_str("target_cpu", target_cpu),
                      _check_optional_str("target_features", target_features),
                      _shape_sets(input_shapes, path), entry, max_threads or 0)
    return output


def optimize(model, opt_level=3, target_cpu=None, target_features=None,
             input_shapes=None):
    """The model after graph-optimize at ``opt_level`` (0: as it is), as MLIR
    text: what ``graph-opt --graph-optimize=opt-level=N`` prints.

    ``model``: a path to a .mlir or .onnx file, or MLIR text.
    ``target_cpu``/``target_features``: the CPU whose micro-kernels
    graph-qdq-to-integer and graph-pack-weights choose and pack the weights
    for (default: this host's).
    ``input_shapes``: ``{name: shape}`` for an .onnx model.
    """
    path, text = _model_path_or_text(model)
    _check_opt_level(opt_level)
    return _compiler.optimize(
        path, text, opt_level, _check_optional_str("target_cpu", target_cpu),
        _check_optional_str("target_features", target_features),
        _shape_specs(input_shapes, path))


def report(model, opt_level=3, target_cpu=None, target_features=None,
           input_shapes=None):
    """graph-report's figures of the model after graph-optimize at
    ``opt_level`` (0: of the model as it is), as the dict of its JSON:
    ``ops`` (op name -> count), ``constants`` (``count``, ``bytes``),
    ``fused`` (group kind -> count), ``intermediate_bytes``,
    ``saving_bytes`` (2 x intermediate_bytes, what fusion keeps off
    memory), ``layout_changes`` and ``packed_weights`` (``count``,
    ``bytes``). Arguments as for ``optimize``.
    """
    path, text = _model_path_or_text(model)
    _check_opt_level(opt_level)
    return json.loads(_compiler.report(
        path, text, opt_level, _check_optional_str("target_cpu", target_cpu),
        _check_optional_str("target_features", target_features),
        _shape_specs(input_shapes, path)))


def visualize(model, output, opt_level=None, pipeline=None, input_shapes=None,
              jobs=None):
    """Writes ``output``, graph-viz's self-contained HTML page stepping
    through the graph before the first pass of graph-optimize (at
    ``opt_level``, default 3) and after each one, laid out by Graphviz
    (which must be installed: ``dot``). ``pipeline``: a pass pipeline to
    show instead, such as ``"graph-fold-constants,graph-eliminate-dead-code"``.
    ``input_shapes``: ``{name: shape}`` for an .onnx model. ``jobs``:
    Graphviz processes at once (default: one per core). An existing page is
    left as it was on failure. Returns the steps, a list of ``Step``.
    """
    path = _model_path(model)
    output = _path("output", output)
    if opt_level is not None:
        _check_opt_level(opt_level)
    if pipeline is not None:
        if not isinstance(pipeline, str) or not pipeline.strip():
            raise Error("pipeline must be a pass pipeline, got %r"
                        % (pipeline,))
        if opt_level is not None:
            raise Error("give either pipeline or opt_level, not both")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)
                             or jobs < 1):
        raise Error("jobs must be a count of at least 1 or None, got %r"
                    % (jobs,))
    steps = _compiler.visualize(path, output, opt_level, pipeline or "",
                                _shape_specs(input_shapes, path), jobs or 0)
    return [Step(title, ops, json.loads(figures))
            for title, ops, figures in steps]
