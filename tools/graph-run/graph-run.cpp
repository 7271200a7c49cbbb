//===- graph-run.cpp - Compile a graph model and run it on the CPU -*- C++
//-*-===//

#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::errs() << "graph-run: not implemented yet\n";
  return 1;
}
