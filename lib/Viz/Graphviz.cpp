//===- Graphviz.cpp - Layout with Graphviz's dot --------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each graph goes through a temporary file: `dot -Tsvg in.dot -o out.svg`.
// Processes are started up to the job limit and waited for in order.
//
//===----------------------------------------------------------------------===//

#include "graph/Viz/Graphviz.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>

using namespace mlir;
using namespace mlir::graph::viz;

namespace {
/// One layout: its files and, once started, its process.
struct Job {
  SmallString<128> dotFile, svgFile, errFile;
  llvm::sys::ProcessInfo process;
};
} // namespace

static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static llvm::Expected<std::string> finish(Job &job, size_t index) {
  std::string waitError;
  llvm::sys::ProcessInfo result =
      llvm::sys::Wait(job.process, /*SecondsToWait=*/std::nullopt, &waitError);
  if (result.ReturnCode != 0) {
    std::string message = waitError;
    if (auto err = llvm::MemoryBuffer::getFile(job.errFile))
      message = (*err)->getBuffer().trim().str();
    return makeError("Graphviz 'dot' failed on graph " + Twine(index) + ": " +
                     message);
  }
  auto svg = llvm::MemoryBuffer::getFile(job.svgFile);
  if (!svg)
    return makeError("cannot read the output of Graphviz 'dot': " +
                     svg.getError().message());
  StringRef text = (*svg)->getBuffer();
  // Drop the XML prolog and DOCTYPE: the page embeds the <svg> element.
  size_t start = text.find("<svg");
  if (start == StringRef::npos)
    return makeError("Graphviz 'dot' wrote no SVG for graph " + Twine(index));
  return text.drop_front(start).str();
}

llvm::Expected<std::vector<std::string>>
mlir::graph::viz::renderSvgs(ArrayRef<std::string> dots, unsigned jobs) {
  llvm::ErrorOr<std::string> dot = llvm::sys::findProgramByName("dot");
  if (!dot)
    return makeError("Graphviz 'dot' not found on PATH (install the "
                     "'graphviz' package)");
  if (jobs == 0)
    jobs = std::max(1u, llvm::hardware_concurrency().compute_thread_count());

  std::vector<Job> all(dots.size());
  std::deque<size_t> running;
  // On every exit: no process left behind, no temporary file either.
  llvm::scope_exit cleanUp([&] {
    for (size_t index : running)
      llvm::sys::Wait(all[index].process, /*SecondsToWait=*/std::nullopt);
    for (Job &job : all)
      for (StringRef file : {job.dotFile, job.svgFile, job.errFile})
        if (!file.empty())
          llvm::sys::fs::remove(file);
  });

  std::vector<std::string> svgs(dots.size());
  auto waitOldest = [&]() -> llvm::Error {
    size_t index = running.front();
    running.pop_front();
    llvm::Expected<std::string> svg = finish(all[index], index);
    if (!svg)
      return svg.takeError();
    svgs[index] = std::move(*svg);
    return llvm::Error::success();
  };

  for (auto [index, text] : llvm::enumerate(dots)) {
    Job &job = all[index];
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "graph-viz", "dot", fd, job.dotFile))
      return makeError("cannot create a temporary file: " + ec.message());
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << text;
      if (os.has_error())
        return makeError("cannot write a temporary file: " +
                         os.error().message());
    }
    for (auto [file, suffix] :
         {std::pair{&job.svgFile, "svg"}, std::pair{&job.errFile, "err"}})
      if (std::error_code ec =
              llvm::sys::fs::createTemporaryFile("graph-viz", suffix, *file))
        return makeError("cannot create a temporary file: " + ec.message());

    if (running.size() >= jobs)
      if (llvm::Error err = waitOldest())
        return std::move(err);
    SmallVector<StringRef> args = {*dot, "-Tsvg", job.dotFile, "-o",
                                   job.svgFile};
    std::optional<StringRef> redirects[] = {StringRef(""), StringRef(""),
                                            StringRef(job.errFile)};
    std::string execError;
    bool failed = false;
    job.process = llvm::sys::ExecuteNoWait(*dot, args, std::nullopt, redirects,
                                           0, &execError, &failed);
    if (failed)
      return makeError("cannot run Graphviz 'dot': " + execError);
    running.push_back(index);
  }
  while (!running.empty())
    if (llvm::Error err = waitOldest())
      return std::move(err);
  return svgs;
}
