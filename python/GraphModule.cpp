//===- GraphModule.cpp - The graph_compiler Python extension --------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph_compiler._graph: a loaded model over the C API (graph-c/Runtime.h)
// that runs on NumPy arrays. The Python side (graph_compiler/__init__.py)
// gives it ONNX Runtime's InferenceSession shape. A model with symbolic
// input dimensions runs as its specialization for the shapes of the feeds,
// which the C API compiles on first use and keeps.
//
// A run checks every feed before it starts (names, element types, shapes),
// reads a C-contiguous input of the right type in place, allocates the
// outputs as NumPy arrays and runs with the GIL released: the compiled code
// is reentrant (a run that finds the model's arena taken allocates its own),
// so several Python threads may run one model at once.
//
//===----------------------------------------------------------------------===//

#include "CompilerModule.h"

#include "graph-c/Runtime.h"
#include "graph/Runtime/Tensor.h"
#include "graph/Runtime/Threads.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// An error of the model or of the feeds, raised as graph_compiler.Error.
py::object errorType;

[[noreturn]] void raise(const std::string &message) {
  PyErr_SetString(errorType.ptr(), message.c_str());
  throw py::error_already_set();
}

/// NumPy's dtype for an element type (bool a byte). NumPy has no bfloat16:
/// such a tensor is fed and returned as float32 (storageDType: its bits).
py::dtype getDType(GraphElementType type) {
  if (type == GraphElementTypeBF16)
    return py::dtype("float32");
  return py::dtype(std::string(graphElementTypeGetName(type)));
}

/// The dtype of the buffers the compiled model reads and writes.
py::dtype getStorageDType(GraphElementType type) {
  if (type == GraphElementTypeBF16)
    return py::dtype("uint16");
  return getDType(type);
}

/// ONNX Runtime's name of a type that NumPy's name does not give, or None.
py::object getONNXType(GraphElementType type) {
  if (type == GraphElementTypeBF16)
    return py::str("tensor(bfloat16)");
  return py::none();
}

/// A C-contiguous float32 array's values rounded to bfloat16 bits.
py::array toBFloat16(const py::array &values) {
  py::array bits(
      py::dtype("uint16"),
      std::vector<py::ssize_t>(values.shape(), values.shape() + values.ndim()));
  const float *from = static_cast<const float *>(values.data());
  auto *to = static_cast<uint16_t *>(bits.mutable_data());
  for (py::ssize_t i = 0; i < values.size(); ++i)
    to[i] = mlir::graph::runtime::toBFloat16Bits(from[i]);
  return bits;
}

/// The float32 values of a C-contiguous array of bfloat16 bits.
py::array fromBFloat16(const py::array &bits) {
  py::array values(
      py::dtype("float32"),
      std::vector<py::ssize_t>(bits.shape(), bits.shape() + bits.ndim()));
  const auto *from = static_cast<const uint16_t *>(bits.data());
  auto *to = static_cast<float *>(values.mutable_data());
  for (py::ssize_t i = 0; i < bits.size(); ++i)
    to[i] = mlir::graph::runtime::fromBFloat16Bits(from[i]);
  return values;
}

std::string describeShape(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

/// An input or output; for a model with symbolic dimensions, as declared:
/// -1 where `symbols` names the dimension, and no shape when unranked.
struct TensorInfo {
  std::string name;
  GraphElementType elementType;
  bool ranked = true;
  std::vector<int64_t> shape;
  std::vector<std::string> symbols;

  /// The shape as Python shows it: `[1, 3]`, `['N', 3]`.
  std::string describe() const {
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i)
      text += (i ? ", " : "") + (shape[i] < 0 ? "'" + symbols[i] + "'"
                                              : std::to_string(shape[i]));
    return text + "]";
  }
  py::object getShape() const {
    if (!ranked)
      return py::none();
    py::list dims;
    for (size_t i = 0; i < shape.size(); ++i)
      dims.append(shape[i] < 0 ? py::object(py::str(symbols[i]))
                               : py::object(py::int_(shape[i])));
    return dims;
  }
};

/// Owns a model handle.
class Handle {
public:
  explicit Handle(GraphModel model = {nullptr}) : model(model) {}
  Handle(Handle &&other) : model(other.model) { other.model = {nullptr}; }
  Handle &operator=(Handle &&other) {
    std::swap(model, other.model);
    return *this;
  }
  ~Handle() { graphModelDestroy(model); }
  GraphModel get() const { return model; }

private:
  GraphModel model;
};

std::vector<TensorInfo> collect(GraphModel model, bool outputs) {
  std::vector<TensorInfo> infos;
  intptr_t count =
      outputs ? graphModelGetNumOutputs(model) : graphModelGetNumInputs(model);
  for (intptr_t i = 0; i < count; ++i) {
    GraphTensorInfo info;
    (outputs ? graphModelGetOutput : graphModelGetInput)(model, i, &info);
    TensorInfo &tensor = infos.emplace_back();
    tensor.name = info.name;
    tensor.elementType = info.elementType;
    tensor.ranked = info.rank >= 0;
    for (intptr_t d = 0; d < info.rank; ++d) {
      tensor.shape.push_back(info.shape[d]);
      const char *symbol = (outputs ? graphModelGetOutputSymbol
                                    : graphModelGetInputSymbol)(model, i, d);
      tensor.symbols.push_back(symbol ? symbol : "");
    }
  }
  return infos;
}

class Model {
public:
  Model(const std::string &path, int optLevel,
        std::optional<std::string> targetCpu,
        std::optional<std::string> targetFeatures,
        std::optional<std::string> inputShapes, bool useCache,
        std::optional<std::string> cacheDirectory, int threads,
        int maxSpecializations)
      : threads(threads) {
    if (threads < 0)
      raise("threads must be a positive count or None, got " +
            std::to_string(threads));
    if (maxSpecializations < 1)
      raise("max_specializations must be a positive count, got " +
            std::to_string(maxSpecializations));
    GraphCompileOptions options = graphCompileOptionsGetDefault();
    options.optLevel = optLevel;
    options.targetCpu = targetCpu ? targetCpu->c_str() : nullptr;
    options.targetFeatures = targetFeatures ? targetFeatures->c_str() : nullptr;
    options.inputShapes = inputShapes ? inputShapes->c_str() : nullptr;
    options.useCache = useCache;
    options.cacheDirectory = cacheDirectory ? cacheDirectory->c_str() : nullptr;
    options.maxSpecializations = maxSpecializations;
    GraphModel loaded;
    {
      // Compiling takes seconds: other Python threads go on meanwhile.
      py::gil_scoped_release release;
      loaded = graphModelLoad(path.c_str(), &options);
    }
    if (graphModelIsNull(loaded))
      raise(graphGetLastError());
    model = Handle(loaded);
    symbolic = graphModelHasSymbolicShapes(loaded);
    inputs = collect(loaded, /*outputs=*/false);
    outputs = collect(loaded, /*outputs=*/true);
  }

  static py::list describe(const std::vector<TensorInfo> &infos) {
    py::list list;
    for (const TensorInfo &info : infos)
      list.append(py::make_tuple(info.name, info.getShape(),
                                 getDType(info.elementType),
                                 getONNXType(info.elementType)));
    return list;
  }
  py::list getInputs() const { return describe(inputs); }
  py::list getOutputs() const { return describe(outputs); }
  bool isSymbolic() const { return symbolic; }

  double getLoadMillis() const {
    if (!symbolic)
      return graphModelGetLoadMillis(model.get());
    GraphModel latest;
    if (!graphModelGetSpecialization(model.get(), 0, &latest))
      return 0;
    Handle held(latest);
    return graphModelGetLoadMillis(held.get());
  }

  /// The input shapes of the specializations held, the most recently used
  /// first.
  py::list getSpecializations() const {
    py::list list;
    for (intptr_t i = 0, e = graphModelGetNumSpecializations(model.get());
         i < e; ++i) {
      GraphModel specialization;
      if (!graphModelGetSpecialization(model.get(), i, &specialization))
        break;
      Handle held(specialization);
      py::list shapes;
      for (const TensorInfo &input : collect(held.get(), /*outputs=*/false))
        shapes.append(py::cast(input.shape));
      list.append(shapes);
    }
    return list;
  }

  /// Runs the model on `feeds` (name -> array) and returns the outputs
  /// named in `names` (all of them for None), in that order.
  py::list run(std::optional<std::vector<std::string>> names, py::dict feeds) {
    std::vector<std::optional<py::array>> inputArrays(inputs.size());
    for (auto item : feeds) {
      std::string name = py::str(item.first);
      size_t index = findInput(name);
      if (index == inputs.size())
        raise("unknown input '" + name + "'; the model's inputs are " +
              listNames(inputs));
      const TensorInfo &info = inputs[index];
      py::dtype expected = getDType(info.elementType);
      py::array array = py::array::ensure(item.second);
      if (!array)
        raise("input '" + name + "' is not an array");
      if (!array.dtype().equal(expected))
        raise("input '" + name + "' has element type " +
              std::string(py::str(array.dtype())) + "; the model expects " +
              std::string(py::str(expected)));
      std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
      if (!fits(info, shape))
        raise("input '" + name + "' has shape " + describeShape(shape) +
              "; the model expects " + info.describe());
      // In place when C-contiguous; a contiguous copy otherwise.
      inputArrays[index] =
          py::array::ensure(array, py::array::c_style | py::array::forcecast);
      if (info.elementType == GraphElementTypeBF16)
        inputArrays[index] = toBFloat16(*inputArrays[index]);
    }
    for (size_t i = 0; i < inputs.size(); ++i)
      if (!inputArrays[i])
        raise("missing input '" + inputs[i].name + "' (" +
              std::string(py::str(getDType(inputs[i].elementType))) + " " +
              inputs[i].describe() + ")");

    std::vector<size_t> wanted;
    if (names) {
      for (const std::string &name : *names) {
        size_t index = 0;
        while (index < outputs.size() && outputs[index].name != name)
          ++index;
        if (index == outputs.size())
          raise("unknown output '" + name + "'; the model's outputs are " +
                listNames(outputs));
        wanted.push_back(index);
      }
    } else {
      for (size_t i = 0; i < outputs.size(); ++i)
        wanted.push_back(i);
    }

    // A model with symbolic dimensions runs as its specialization for these
    // shapes (compiled on first use, with the GIL released meanwhile).
    Handle specialization;
    GraphModel runnable = model.get();
    std::vector<TensorInfo> runOutputs;
    if (symbolic) {
      std::vector<intptr_t> ranks;
      std::vector<const int64_t *> shapes;
      std::vector<const void *> data;
      for (const std::optional<py::array> &array : inputArrays) {
        ranks.push_back(array->ndim());
        shapes.push_back(reinterpret_cast<const int64_t *>(array->shape()));
        data.push_back(array->data());
      }
      static_assert(sizeof(py::ssize_t) == sizeof(int64_t),
                    "NumPy's shapes are read as int64_t");
      GraphModel specialized;
      {
        py::gil_scoped_release release;
        specialized = graphModelSpecialize(model.get(), ranks.data(),
                                           shapes.data(), data.data());
      }
      if (graphModelIsNull(specialized))
        raise(graphGetLastError());
      specialization = Handle(specialized);
      runnable = specialized;
      runOutputs = collect(specialized, /*outputs=*/true);
    }
    const std::vector<TensorInfo> &outputInfos =
        symbolic ? runOutputs : outputs;

    std::vector<py::array> outputArrays;
    std::vector<const void *> inputPointers;
    std::vector<void *> outputPointers;
    for (const std::optional<py::array> &array : inputArrays)
      inputPointers.push_back(array->data());
    // Each output's shape after the run: an output of run-time size
    // (NonZero's indices) gets a buffer of its bound and a smaller shape.
    std::vector<std::vector<int64_t>> runShapes;
    std::vector<int64_t *> runShapePointers;
    for (const TensorInfo &info : outputInfos) {
      outputArrays.emplace_back(getStorageDType(info.elementType), info.shape);
      outputPointers.push_back(outputArrays.back().mutable_data());
      runShapes.emplace_back(info.shape.size());
    }
    for (std::vector<int64_t> &shape : runShapes)
      runShapePointers.push_back(shape.data());
    bool ok;
    {
      py::gil_scoped_release release;
      // The thread count is the calling thread's (OpenMP's per-thread
      // setting): sessions with different counts may run side by side.
      if (threads > 0)
        mlir::graph::runtime::setNumThreads(threads);
      ok = graphModelRunShaped(runnable, inputPointers.data(),
                               outputPointers.data(), runShapePointers.data());
    }
    if (!ok)
      raise(graphGetLastError());
    py::list results;
    for (size_t index : wanted) {
      py::array array = outputArrays[index];
      if (runShapes[index] != outputInfos[index].shape) {
        // The elements of the true shape are at the front of the buffer.
        int64_t count = 1;
        for (int64_t dim : runShapes[index])
          count *= dim;
        py::array flat = array.attr("reshape")(-1);
        array = py::array(flat[py::slice(0, count, 1)])
                    .attr("reshape")(py::cast(runShapes[index]))
                    .attr("copy")();
      }
      if (outputInfos[index].elementType == GraphElementTypeBF16)
        array = fromBFloat16(array);
      results.append(array);
    }
    return results;
  }

private:
  /// Whether `shape` has the rank and the fixed dimensions of `info` (the
  /// session checks that each symbol has one value).
  static bool fits(const TensorInfo &info, const std::vector<int64_t> &shape) {
    if (!info.ranked)
      return true;
    if (shape.size() != info.shape.size())
      return false;
    for (size_t i = 0; i < shape.size(); ++i)
      if (info.shape[i] >= 0 && info.shape[i] != shape[i])
        return false;
    return true;
  }
  size_t findInput(const std::string &name) const {
    size_t index = 0;
    while (index < inputs.size() && inputs[index].name != name)
      ++index;
    return index;
  }
  static std::string listNames(const std::vector<TensorInfo> &infos) {
    std::string text;
    for (const TensorInfo &info : infos)
      text += (text.empty() ? "'" : ", '") + info.name + "'";
    return text.empty() ? "none" : text;
  }

  Handle model;
  bool symbolic = false;
  std::vector<TensorInfo> inputs, outputs;
  int threads;
};

} // namespace

PYBIND11_MODULE(_graph, m) {
  m.doc() = "The graph compiler's runtime: load a model and run it on NumPy "
            "arrays";
  errorType = py::reinterpret_borrow<py::object>(
      PyErr_NewException("graph_compiler.Error", PyExc_RuntimeError, nullptr));
  m.attr("Error") = errorType;
  m.def("available_cores", &mlir::graph::runtime::getAvailableCores,
        "The cores this process may run on: the default thread count");

  py::class_<Model>(m, "Model")
      .def(py::init<const std::string &, int, std::optional<std::string>,
                    std::optional<std::string>, std::optional<std::string>,
                    bool, std::optional<std::string>, int, int>(),
           py::arg("path"), py::arg("opt_level") = 3,
           py::arg("target_cpu") = py::none(),
           py::arg("target_features") = py::none(),
           py::arg("input_shapes") = py::none(), py::arg("use_cache") = true,
           py::arg("cache_dir") = py::none(), py::arg("threads") = 0,
           py::arg("max_specializations") = 8)
      .def("inputs", &Model::getInputs,
           "(name, shape, dtype) of each input, in order")
      .def("outputs", &Model::getOutputs,
           "(name, shape, dtype) of each output, in order")
      .def("is_symbolic", &Model::isSymbolic,
           "Whether the inputs have symbolic dimensions")
      .def("specializations", &Model::getSpecializations,
           "The input shapes of the specializations held, the most recently "
           "used first")
      .def("load_millis", &Model::getLoadMillis)
      .def("run", &Model::run, py::arg("output_names"), py::arg("feeds"));

  py::module_ compiler = m.def_submodule("_compiler");
  graph_python::defineCompilerModule(compiler, errorType);
}
