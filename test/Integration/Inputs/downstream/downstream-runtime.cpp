//===- downstream-runtime.cpp - A C++ user of the installed runtime -------===//
//
// downstream-runtime MODEL.so MODEL.mlir: loads the library made by
// graph-compile and compiles the model with the JIT through the runtime's C++
// API, runs both on the same inputs and prints whether they agree.
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/CompiledModel.h"
#include "graph/Compiler/ModelLoader.h"
#include "graph/Runtime/SharedLibraryModel.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

static std::vector<TensorBuffer> run(Executable &model) {
  std::vector<TensorBuffer> inputs;
  llvm::SmallVector<const TensorBuffer *> inputPtrs;
  for (const TensorSpec &spec : model.getSignature().inputs) {
    TensorBuffer &buffer = inputs.emplace_back(spec);
    for (auto [k, value] : llvm::enumerate(buffer.values<float>()))
      value = 0.5f + 0.001f * float(k);
  }
  for (const TensorBuffer &buffer : inputs)
    inputPtrs.push_back(&buffer);
  std::vector<TensorBuffer> outputs = llvm::cantFail(model.allocateOutputs());
  llvm::SmallVector<TensorBuffer *> outputPtrs;
  for (TensorBuffer &buffer : outputs)
    outputPtrs.push_back(&buffer);
  model.run(inputPtrs, outputPtrs);
  return outputs;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: downstream-runtime MODEL.so MODEL.mlir\n";
    return 1;
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  mlir::DialectRegistry registry;
  registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);

  llvm::Expected<std::unique_ptr<SharedLibraryModel>> library =
      SharedLibraryModel::load(argv[1]);
  LoadOptions options;
  options.useCache = false;
  mlir::TimingScope noTiming;
  LoadReport report;
  llvm::Expected<std::unique_ptr<Executable>> jit =
      loadModel(context, argv[2], options, noTiming, report);
  if (!library || !jit) {
    printError(library ? jit.takeError() : library.takeError(),
               "downstream-runtime");
    return 1;
  }
  std::vector<TensorBuffer> a = run(**library), b = run(**jit);
  bool agree = std::memcmp(a[0].data(), b[0].data(), a[0].getByteSize()) == 0;
  llvm::outs() << "C++: output '" << (*library)->getSignature().outputs[0].name
               << "', library and JIT " << (agree ? "agree" : "differ") << "\n";
  return 0;
}
