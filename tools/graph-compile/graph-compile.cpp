//===- graph-compile.cpp - Compile a graph model ahead of time ------------===//
//
// graph-compile FILE.mlir|FILE.onnx -o model.so|model.o [--header model.h]
//               [-O0..-O3] [--target-cpu NAME] [--target-features +f,-g]
//               [--input-shape NAME=AxBxC] [--entry NAME] [--timing]
//
// Compiles the model as graph-run does (the same passes, target machine and
// LLVM pipeline, lib/Runtime/Compile.cpp) and writes the machine code as a
// shared library that depends on nothing but the C library and libm, or as
// an object file, with the C entry point of ModelABI.h. `--header` writes a
// C header declaring it and describing every input and output.
//
//===----------------------------------------------------------------------===//

#include "graph/Conversion/Passes.h"
#include "graph/Runtime/Compile.h"
#include "graph/Runtime/CompiledModel.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/ModelABI.h"
#include "graph/Target/ONNX/ImportONNX.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir::graph::runtime;
namespace cl = llvm::cl;

static cl::OptionCategory category("graph-compile options");

static cl::opt<std::string> modelFile(cl::Positional, cl::Required,
                                      cl::desc("<model.mlir|model.onnx>"),
                                      cl::cat(category));

static cl::opt<std::string>
    outputFile("o", cl::Required,
               cl::desc("The output: a shared library (.so) or an object "
                        "file (.o)"),
               cl::value_desc("model.so|model.o"), cl::cat(category));

static cl::opt<std::string>
    headerFile("header",
               cl::desc("Also write a C header declaring the entry point "
                        "and describing the inputs and outputs"),
               cl::value_desc("model.h"), cl::cat(category));

static cl::opt<unsigned>
    optLevel("O",
             cl::desc("graph-optimize opt-level: -O0, -O1, -O2 or -O3 "
                      "(default -O3)"),
             cl::Prefix, cl::value_desc("0|1|2|3"), cl::init(3),
             cl::cat(category));

static cl::opt<std::string>
    targetCpu("target-cpu",
              cl::desc("The CPU to generate code for, an LLVM CPU name "
                       "(default: this host's)"),
              cl::value_desc("NAME"), cl::cat(category));

static cl::opt<std::string> targetFeatures(
    "target-features",
    cl::desc("CPU features to add or remove, LLVM's names: +avx2,-avx512f"),
    cl::value_desc("+f,-g"), cl::cat(category));

static cl::opt<int> maxThreads(
    "max-threads",
    cl::desc("The most threads the library's fused tile loops run on: each "
             "gets a slot of per-thread scratch (default 8)"),
    cl::value_desc("N"), cl::init(0), cl::cat(category));

static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("For an .onnx model: the shape of an input, NAME=AxBxC "
             "(repeatable, or comma-separated)"),
    cl::value_desc("NAME=AxBxC"), cl::cat(category));

static cl::opt<std::string> entry("entry",
                                  cl::desc("The function to compile (default "
                                           "main)"),
                                  cl::value_desc("NAME"), cl::init("main"),
                                  cl::cat(category));

static cl::opt<bool> timing("timing",
                            cl::desc("Print where the compile time goes"),
                            cl::init(false), cl::cat(category));

static cl::opt<std::string> loweringPipeline(
    "lowering-pipeline",
    cl::desc("Debugging aid: a textual pass pipeline that replaces "
             "graph-lower-to-llvm"),
    cl::Hidden, cl::init(""), cl::cat(category));

static llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "graph-compile");
}

/// Writes `contents` to `path` through a temporary file renamed into place.
static llvm::Error writeFileAtomically(llvm::StringRef path,
                                       llvm::StringRef contents) {
  llvm::SmallString<256> temporary;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temporary))
    return makeError("cannot write '" + path + "': " + ec.message());
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << contents;
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    llvm::sys::fs::remove(temporary);
    return makeError("cannot write '" + path + "': " + message);
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return makeError("cannot write '" + path + "': " + ec.message());
  }
  return llvm::Error::success();
}

/// Links `object` into the shared library `path` through a temporary file
/// renamed into place.
static llvm::Error writeSharedLibrary(llvm::StringRef path,
                                      llvm::ArrayRef<char> object) {
  llvm::SmallString<256> temporary;
  if (std::error_code ec = llvm::sys::fs::getPotentiallyUniqueFileName(
          path + ".tmp-%%%%%%.so", temporary))
    return makeError("cannot write '" + path + "': " + ec.message());
  if (llvm::Error error = linkObjectIntoSharedLibrary(
          object, temporary, llvm::sys::path::filename(path)))
    return error;
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return makeError("cannot write '" + path + "': " + ec.message());
  }
  return llvm::Error::success();
}

static int compileTool() {
  if (optLevel > 3) {
    error() << "unknown opt-level -O" << optLevel
            << ": use -O0, -O1, -O2 or -O3\n";
    return 1;
  }
  if (maxThreads.getNumOccurrences() && maxThreads < 1) {
    error() << "--max-threads must be a count of at least 1, got " << maxThreads
            << "\n";
    return 1;
  }
  llvm::StringRef extension = llvm::sys::path::extension(outputFile);
  bool sharedLibrary = extension == ".so";
  if (!sharedLibrary && extension != ".o") {
    error() << "the output '" << outputFile
            << "' must end in .so (a shared library) or .o (an object "
               "file)\n";
    return 1;
  }

  mlir::DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  mlir::TimingScope rootTimer = timingManager.getRootScope();

  bool isONNX = llvm::StringRef(modelFile).ends_with_insensitive(".onnx");
  llvm::SourceMgr sourceMgr;
  {
    mlir::TimingScope importTimer =
        rootTimer.nest(isONNX ? "import ONNX" : "read");
    if (llvm::Error error = loadModelFile(modelFile, inputShapes, sourceMgr)) {
      printError(std::move(error), "graph-compile");
      return 1;
    }
  }

  mlir::DialectRegistry registry;
  registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  // Multithreaded: the lowering runs its function passes on the kernels in
  // parallel.
  context.printOpOnDiagnostic(false);
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::optional<mlir::graph::ONNXDiagnosticHandler> onnxDiagnostics;
  if (isONNX)
    onnxDiagnostics.emplace(&context);

  if (!loweringPipeline.empty())
    mlir::graph::registerAllGraphConversionPasses();

  CompileOptions options;
  options.entry = entry;
  options.optLevel = optLevel;
  options.loweringPipeline = loweringPipeline;
  options.targetCpu = targetCpu;
  options.targetFeatures = targetFeatures;
  options.maxThreads = maxThreads;
  ModelMetadata metadata;
  llvm::Expected<llvm::SmallVector<char, 0>> object =
      compileToObject(context, sourceMgr, options, rootTimer, &metadata);
  if (!object) {
    printError(object.takeError(), "graph-compile");
    return 1;
  }

  {
    mlir::TimingScope writeTimer =
        rootTimer.nest(sharedLibrary ? "link and write" : "write");
    llvm::Error written =
        sharedLibrary
            ? writeSharedLibrary(outputFile, *object)
            : writeFileAtomically(
                  outputFile, llvm::StringRef(object->data(), object->size()));
    if (written) {
      printError(std::move(written), "graph-compile");
      return 1;
    }
  }
  if (!headerFile.empty()) {
    if (llvm::Error error = writeFileAtomically(
            headerFile, generateCHeader(metadata, modelFile))) {
      llvm::sys::fs::remove(outputFile);
      printError(std::move(error), "graph-compile");
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "graph-compile: compile a graph model ahead of time into a shared "
      "library or an object file with a C entry point\n\n"
      "  int graph_model_run(const void *const *inputs, void *const "
      "*outputs);\n\n"
      "The code is the code graph-run would run (the same passes and LLVM "
      "pipeline) for the target CPU (default: this host's). Exit code 0 on "
      "success, 1 on any error.\n");
  return compileTool();
}
