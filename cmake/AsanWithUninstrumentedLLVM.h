//===- AsanWithUninstrumentedLLVM.h - No poisoning by LLVM --*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Included first in every C++ file of an AddressSanitizer build. LLVM's
// headers take an instrumented file for an instrumented LLVM: the inline
// BumpPtrAllocator code compiled into our files poisons each new slab and
// unpoisons only what it hands out itself, but Debian's libLLVM and libMLIR
// are not instrumented, and their own copy of the allocator hands out the
// rest of the slab without unpoisoning it. The first slab of an MLIRContext's
// attribute storage that our code started (the graph dialect's enum
// attributes are constructed here) then reported every later write into it
// by libMLIR as use-after-poison. The poisoning macros become no-ops, as
// they are for an uninstrumented LLVM; everything else stays checked.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_CMAKE_ASANWITHUNINSTRUMENTEDLLVM_H
#define GRAPH_CMAKE_ASANWITHUNINSTRUMENTEDLLVM_H

#include <sanitizer/asan_interface.h>

#define __asan_poison_memory_region(addr, size) ((void)(addr), (void)(size))
#define __asan_unpoison_memory_region(addr, size) ((void)(addr), (void)(size))

#endif // GRAPH_CMAKE_ASANWITHUNINSTRUMENTEDLLVM_H
