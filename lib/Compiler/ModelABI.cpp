//===- ModelABI.cpp - The model ABI added to a lowered module -------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ABI is added to the lowered module in the LLVM dialect, before the
// translation to LLVM IR, so that the JIT and graph-compile translate,
// optimize and generate code for exactly the same module.
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/ModelABI.h"

#include "graph/Runtime/Errors.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdio>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

//===----------------------------------------------------------------------===//
// The ABI in the LLVM dialect
//===----------------------------------------------------------------------===//

/// Checks that the lowered entry function takes one memref per tensor, inputs
/// then outputs, either as expanded descriptors (allocated and aligned
/// pointers, offset, sizes, strides) or as bare pointers, and returns nothing.
/// Sets `barePointers` to the convention found.
static llvm::Error checkLoweredEntry(LLVM::LLVMFuncOp func,
                                     const ModelSignature &signature,
                                     bool &barePointers) {
  LLVM::LLVMFunctionType type = func.getFunctionType();
  ArrayRef<Type> params = type.getParams();
  auto isPtr = [](Type t) { return isa<LLVM::LLVMPointerType>(t); };
  auto isI64 = [](Type t) { return t.isInteger(64); };

  size_t numMemrefs = signature.inputs.size() + signature.outputs.size();
  size_t expanded = 0;
  for (const TensorSpec &spec :
       llvm::concat<const TensorSpec>(signature.inputs, signature.outputs))
    expanded += 3 + 2 * spec.shape.size();

  bool ok = isa<LLVM::LLVMVoidType>(type.getReturnType()) && !type.isVarArg();
  if (ok && params.size() == expanded) {
    barePointers = false;
    size_t pos = 0;
    for (const TensorSpec &spec :
         llvm::concat<const TensorSpec>(signature.inputs, signature.outputs)) {
      ok &= isPtr(params[pos]) && isPtr(params[pos + 1]);
      for (size_t i = 2, e = 3 + 2 * spec.shape.size(); i < e; ++i)
        ok &= isI64(params[pos + i]);
      pos += 3 + 2 * spec.shape.size();
    }
  } else if (ok && params.size() == numMemrefs) {
    barePointers = true;
    ok = llvm::all_of(params, isPtr);
  } else {
    ok = false;
  }
  if (!ok) {
    func.emitError() << "the lowered @" << func.getSymName() << " has type "
                     << type
                     << ", not the calling convention the runtime expects: "
                     << signature.inputs.size() << " input and "
                     << signature.outputs.size()
                     << " output memrefs, returning nothing";
    return makeReportedError();
  }
  return llvm::Error::success();
}

/// Defines graph_model_run: loads each data pointer from the two arrays and
/// calls the entry with a memref for each, the static sizes and C-order
/// strides as constants.
static void buildRunFunction(OpBuilder &builder, Location loc,
                             LLVM::LLVMFuncOp entry,
                             const ModelSignature &signature, bool barePointers,
                             llvm::StringRef name) {
  MLIRContext *context = builder.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto i32Type = builder.getI32Type();
  auto i64Type = builder.getI64Type();
  auto runType =
      LLVM::LLVMFunctionType::get(i32Type, {ptrType, ptrType}, false);
  auto run = LLVM::LLVMFuncOp::create(builder, loc, name, runType);
  Block *body = run.addEntryBlock(builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);

  SmallVector<Value> args;
  auto addMemrefs = [&](Value array, ArrayRef<TensorSpec> specs) {
    for (auto [i, spec] : llvm::enumerate(specs)) {
      Value slot = LLVM::GEPOp::create(builder, loc, ptrType, ptrType, array,
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Value data = LLVM::LoadOp::create(builder, loc, ptrType, slot);
      args.push_back(data);
      if (barePointers)
        continue;
      auto constant = [&](int64_t value) -> Value {
        return LLVM::ConstantOp::create(builder, loc, i64Type, value);
      };
      args.push_back(data);
      args.push_back(constant(0));
      for (int64_t dim : spec.shape)
        args.push_back(constant(dim));
      SmallVector<int64_t> strides(spec.shape.size());
      int64_t stride = 1;
      for (int64_t d = int64_t(spec.shape.size()) - 1; d >= 0; --d) {
        strides[d] = stride;
        stride *= spec.shape[d];
      }
      for (int64_t s : strides)
        args.push_back(constant(s));
    }
  };
  addMemrefs(body->getArgument(0), signature.inputs);
  addMemrefs(body->getArgument(1), signature.outputs);
  LLVM::CallOp::create(builder, loc, entry, args);
  Value zero = LLVM::ConstantOp::create(builder, loc, i32Type, 0);
  LLVM::ReturnOp::create(builder, loc, zero);
}

/// Routes every call of the C allocation function `decl` through the
/// exported pointer graph_model_hook_<name>, initially `decl` itself: the
/// calls go to an internal function that loads the pointer and calls it.
static void hookAllocationFunction(OpBuilder &builder, ModuleOp module,
                                   LLVM::LLVMFuncOp decl, bool shared) {
  MLIRContext *context = builder.getContext();
  Location loc = decl.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  std::string name = decl.getSymName().str();
  std::string hookName = (kModelHookPrefix + name).str();
  std::string callName = ("graph_model_call_" + name);

  LLVM::LLVMFunctionType type = decl.getFunctionType();
  auto call = LLVM::LLVMFuncOp::create(builder, loc, callName, type,
                                       LLVM::Linkage::Internal);
  if (failed(SymbolTable::replaceAllSymbolUses(
          decl, StringAttr::get(context, callName), module)))
    llvm_unreachable("symbol uses of a declaration are always replaceable");

  auto hook = LLVM::GlobalOp::create(
      builder, loc, ptrType,
      /*isConstant=*/false,
      // The specializations of one library share each hook.
      shared ? LLVM::Linkage::Weak : LLVM::Linkage::External, hookName,
      Attribute());
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *init = builder.createBlock(&hook.getInitializerRegion());
    builder.setInsertionPointToStart(init);
    Value address = LLVM::AddressOfOp::create(builder, loc, decl);
    LLVM::ReturnOp::create(builder, loc, address);
  }

  OpBuilder::InsertionGuard guard(builder);
  Block *body = call.addEntryBlock(builder);
  builder.setInsertionPointToStart(body);
  Value hookAddress = LLVM::AddressOfOp::create(builder, loc, hook);
  Value target = LLVM::LoadOp::create(builder, loc, ptrType, hookAddress);
  SmallVector<Value> operands{target};
  llvm::append_range(operands, body->getArguments());
  auto result = LLVM::CallOp::create(builder, loc, type, operands);
  if (isa<LLVM::LLVMVoidType>(type.getReturnType()))
    LLVM::ReturnOp::create(builder, loc, ValueRange());
  else
    LLVM::ReturnOp::create(builder, loc, result.getResult());
}

llvm::Error mlir::graph::compiler::addModelABI(ModuleOp module,
                                               llvm::StringRef entryName,
                                               const ModelMetadata &metadata) {
  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(entryName);
  if (!entry || entry.isExternal())
    return makeError("the lowering left no llvm.func @" + entryName);
  bool barePointers = false;
  if (llvm::Error error =
          checkLoweredEntry(entry, metadata.signature, barePointers))
    return error;

  // Our names are taken: a model defining one of them cannot get the ABI.
  for (Operation &op : module.getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol)
      continue;
    StringRef name = symbol.getName();
    if (name.starts_with("graph_model_")) {
      op.emitError() << "symbol @" << name
                     << " clashes with the compiled model's ABI, which "
                        "reserves the prefix graph_model_";
      return makeReportedError();
    }
  }

  // Everything defined becomes internal: only the ABI is exported.
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal())
      func.setLinkage(LLVM::Linkage::Internal);
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if ((global.getValueOrNull() || !global.getInitializerRegion().empty()) &&
        global.getLinkage() != LLVM::Linkage::Private)
      global.setLinkage(LLVM::Linkage::Internal);

  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  for (llvm::StringRef name : getHookedAllocationFunctions()) {
    auto decl = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (decl && decl.isExternal())
      hookAllocationFunction(builder, module, decl,
                             /*shared=*/metadata.numSpecializations > 1);
  }
  buildRunFunction(builder, loc, entry, metadata.signature, barePointers,
                   getModelRunSymbol(metadata.specialization));

  std::string text = serializeModelMetadata(metadata);
  text.push_back('\0');
  auto textType = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
  LLVM::GlobalOp::create(builder, loc, textType, /*isConstant=*/true,
                         LLVM::Linkage::External,
                         getModelMetadataSymbol(metadata.specialization),
                         builder.getStringAttr(text));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// The C header
//===----------------------------------------------------------------------===//

/// The C type that holds one element.
static llvm::StringRef getCType(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "uint16_t"; // The IEEE half's bits.
  case ElementType::BF16:
    return "uint16_t"; // The upper half of an f32's bits.
  case ElementType::F32:
    return "float";
  case ElementType::F64:
    return "double";
  case ElementType::I8:
    return "int8_t";
  case ElementType::I16:
    return "int16_t";
  case ElementType::I32:
    return "int32_t";
  case ElementType::I64:
    return "int64_t";
  case ElementType::U8:
  case ElementType::Bool:
    return "uint8_t";
  case ElementType::U16:
    return "uint16_t";
  case ElementType::U32:
    return "uint32_t";
  case ElementType::U64:
    return "uint64_t";
  }
  llvm_unreachable("unknown element type");
}

/// `text` as a C string literal.
static std::string quoteC(llvm::StringRef text) {
  std::string result = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      result += '\\';
      result += char(c);
    } else if (c < 0x20 || c >= 0x7f || c == '?') {
      // Octal, always three digits, so that a digit after it stays apart;
      // '?' too, against trigraphs.
      char buffer[5];
      snprintf(buffer, sizeof(buffer), "\\%03o", c);
      result += buffer;
    } else {
      result += char(c);
    }
  }
  return result + "\"";
}

/// `name` as the tail of a C identifier (other characters become `_`), or
/// empty when nothing of it is left.
static std::string toIdentifier(llvm::StringRef name) {
  std::string result;
  for (char c : name)
    result += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  if (llvm::all_of(result, [](char c) { return c == '_'; }))
    return "";
  return result;
}

/// For a library of several specializations: their run functions, the
/// shapes of each, and a function that runs the one for given input shapes.
static void
describeSpecializations(llvm::raw_ostream &os,
                        llvm::ArrayRef<ModelMetadata> specializations) {
  os << "\n/* The library holds " << specializations.size()
     << " specializations of the model, one per set of input shapes:\n"
     << " * graph_model_run (and everything above) is specialization 0, "
        "graph_model_run_<i>\n"
     << " * specialization i. graph_model_run_shaped runs the one whose "
        "input shapes are\n"
     << " * shapes[0], shapes[1], ... (of the ranks above) and returns -1 "
        "when there is\n"
     << " * none; its outputs have the shapes of "
        "graph_model_specialization_<i>_output_<j>. */\n"
     << "#define GRAPH_MODEL_NUM_SPECIALIZATIONS " << specializations.size()
     << "\n";
  for (size_t i = 1; i < specializations.size(); ++i)
    os << "int " << getModelRunSymbol(i)
       << "(const void *const *inputs, void *const *outputs);\n";
  auto shapeTable = [&](size_t i, llvm::StringRef kind, size_t j,
                        const TensorSpec &spec) {
    os << "static const int64_t graph_model_specialization_" << i << "_" << kind
       << "_" << j << "[] GRAPH_MODEL_UNUSED = {";
    if (spec.shape.empty())
      os << "0";
    llvm::interleave(
        spec.shape, os, [&](int64_t dim) { os << dim << "LL"; }, ", ");
    os << "};\n";
  };
  for (auto [i, metadata] : llvm::enumerate(specializations)) {
    for (auto [j, spec] : llvm::enumerate(metadata.signature.inputs))
      shapeTable(i, "input", j, spec);
    for (auto [j, spec] : llvm::enumerate(metadata.signature.outputs))
      shapeTable(i, "output", j, spec);
  }
  os << "static inline int graph_model_run_shaped(const int64_t *const "
        "*shapes,\n"
     << "                                         const void *const *inputs,\n"
     << "                                         void *const *outputs) {\n";
  for (auto [i, metadata] : llvm::enumerate(specializations)) {
    os << "  if (1";
    for (auto [j, spec] : llvm::enumerate(metadata.signature.inputs))
      for (size_t d = 0; d < spec.shape.size(); ++d)
        os << " && shapes[" << j << "][" << d << "] == " << spec.shape[d]
           << "LL";
    os << ")\n    return " << getModelRunSymbol(i) << "(inputs, outputs);\n";
  }
  os << "  return -1;\n}\n";
}

std::string mlir::graph::compiler::generateCHeader(
    llvm::ArrayRef<ModelMetadata> specializations, llvm::StringRef source) {
  const ModelMetadata &metadata = specializations.front();
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string sourceComment = source.str();
  // Keep the comment closed whatever the file is called.
  for (size_t pos; (pos = sourceComment.find("*/")) != std::string::npos;)
    sourceComment.replace(pos, 2, "*_/");
  os << "/* The C interface of the model compiled from " << sourceComment
     << ".\n"
     << " * Generated by graph-compile (" << metadata.compiler
     << "); do not edit.\n"
     << " *\n"
     << " * Link the shared library or object file that graph-compile made, "
        "then call\n"
     << " *   graph_model_run(inputs, outputs)\n"
     << " * with inputs[i] and outputs[j] pointing at the dense, C-order "
        "elements of\n"
     << " * input i and output j (below), the outputs allocated by the "
        "caller. It\n"
     << " * returns 0. Booleans are one byte each, float16 values their "
        "IEEE bits.\n"
     << " */\n"
     << "#ifndef GRAPH_MODEL_H\n#define GRAPH_MODEL_H\n\n"
     << "#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "int " << kModelRunSymbol
     << "(const void *const *inputs, void *const *outputs);\n"
     << "/* The model's description as JSON (names, shapes, CPU features). "
        "*/\n"
     << "extern const char " << kModelMetadataSymbol << "[];\n\n"
     << "#define GRAPH_MODEL_ABI_VERSION " << metadata.abiVersion << "\n"
     << "#define GRAPH_MODEL_NUM_INPUTS " << metadata.signature.inputs.size()
     << "\n"
     << "#define GRAPH_MODEL_NUM_OUTPUTS " << metadata.signature.outputs.size()
     << "\n";

  auto describe = [&](llvm::StringRef kind, llvm::ArrayRef<TensorSpec> specs) {
    std::string upper = kind.upper();
    llvm::StringMap<unsigned> identifiers;
    for (const TensorSpec &spec : specs)
      ++identifiers[toIdentifier(spec.name)];
    for (auto [i, spec] : llvm::enumerate(specs)) {
      std::string prefix = "GRAPH_MODEL_" + upper + "_" + std::to_string(i);
      os << "\n/* " << kind << " " << i << ": " << getName(spec.elementType)
         << " " << formatShape(spec.shape) << " */\n";
      os << "#define " << prefix << "_NAME " << quoteC(spec.name) << "\n";
      os << "#define " << prefix << "_DTYPE \"" << getName(spec.elementType)
         << "\"\n";
      os << "#define " << prefix << "_RANK " << spec.shape.size() << "\n";
      os << "#define " << prefix << "_SHAPE {";
      llvm::interleave(
          spec.shape, os, [&](int64_t dim) { os << dim << "LL"; }, ", ");
      os << "}\n";
      os << "#define " << prefix << "_NUM_ELEMENTS " << spec.numElements
         << "LL\n";
      os << "#define " << prefix << "_BYTES " << spec.getByteSize() << "LL\n";
      if (spec.hasRunTimeShape()) {
        // The shape above is the bound: graph_model_run writes each
        // run-time extent to the output these name (-1: a fixed size) and
        // leaves the elements in the bound's layout, zeros past the extents.
        os << "#define " << prefix << "_EXTENT_OUTPUTS {";
        llvm::interleave(
            spec.extentOutputs, os, [&](int64_t index) { os << index; }, ", ");
        os << "}\n";
      }
      os << "typedef " << getCType(spec.elementType) << " graph_model_" << kind
         << "_" << i << "_t;\n";
      // The index by name, where the name makes a distinct identifier.
      std::string identifier = toIdentifier(spec.name);
      if (!identifier.empty() && identifiers[identifier] == 1)
        os << "#define GRAPH_MODEL_" << upper << "_" << identifier << " " << i
           << "\n";
    }
  };
  describe("input", metadata.signature.inputs);
  describe("output", metadata.signature.outputs);

  // The same as tables indexed by position, for code that loops over the
  // tensors. C has no empty initializer: an empty table holds one dummy.
  os << "\n/* Tables by position (the macros above, for loops). */\n"
     << "#if defined(__GNUC__)\n"
     << "#define GRAPH_MODEL_UNUSED __attribute__((unused))\n"
     << "#else\n#define GRAPH_MODEL_UNUSED\n#endif\n";
  auto tables = [&](llvm::StringRef kind, llvm::ArrayRef<TensorSpec> specs) {
    auto table = [&](llvm::StringRef type, llvm::StringRef name,
                     llvm::StringRef dummy, auto element) {
      os << "static const " << type << " graph_model_" << kind << "_" << name
         << "[] GRAPH_MODEL_UNUSED = {";
      if (specs.empty())
        os << dummy;
      for (auto [i, spec] : llvm::enumerate(specs)) {
        os << (i ? ", " : "");
        element(i, spec);
      }
      os << "};\n";
    };
    for (auto [i, spec] : llvm::enumerate(specs)) {
      os << "static const int64_t graph_model_" << kind << "_shape_" << i
         << "[] GRAPH_MODEL_UNUSED = {";
      if (spec.shape.empty())
        os << "0";
      llvm::interleave(
          spec.shape, os, [&](int64_t dim) { os << dim << "LL"; }, ", ");
      os << "};\n";
    }
    table("char *const", "names", "0",
          [&](size_t, const TensorSpec &spec) { os << quoteC(spec.name); });
    table("char *const", "dtypes", "0", [&](size_t, const TensorSpec &spec) {
      os << '"' << getName(spec.elementType) << '"';
    });
    table("int", "ranks", "0",
          [&](size_t, const TensorSpec &spec) { os << spec.shape.size(); });
    table("int64_t *const", "shapes", "0", [&](size_t i, const TensorSpec &) {
      os << "graph_model_" << kind << "_shape_" << i;
    });
    table("int64_t", "num_elements", "0", [&](size_t, const TensorSpec &spec) {
      os << spec.numElements << "LL";
    });
    table("int64_t", "bytes", "0", [&](size_t, const TensorSpec &spec) {
      os << spec.getByteSize() << "LL";
    });
  };
  tables("input", metadata.signature.inputs);
  tables("output", metadata.signature.outputs);
  if (specializations.size() > 1)
    describeSpecializations(os, specializations);
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* GRAPH_MODEL_H */\n";
  return text;
}
