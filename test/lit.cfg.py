# -*- Python -*-

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GRAPH"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.graph_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%graph_libs", config.graph_libs_dir))
config.substitutions.append(("%graph_src", config.graph_src_root))
config.substitutions.append(("%graph_obj", config.graph_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx", config.cmake_cxx_compiler))
# The system C compiler, for the C programs that use compiled models.
config.substitutions.append(("%cc", config.cmake_c_compiler))
config.substitutions.append(("%mlir_cmake_dir", config.mlir_cmake_dir))
config.substitutions.append(("%build_generator", config.cmake_generator))
# Debian's Python packages (numpy, onnx) are seen only by this interpreter.
config.substitutions.append(("%python", "/usr/bin/python3"))
# The graph_compiler package in the build tree (python/), when it is built.
if getattr(config, "graph_python", "0") in ("1", "ON", "TRUE"):
    config.available_features.add("python-package")
config.substitutions.append(
    ("%graph_python_path", os.path.join(config.graph_obj_root, "python_packages")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# graph-run's compile cache: one for the test suite in the build tree, not the
# user's (tests of the cache itself name their own with --cache-dir).
config.environment["XDG_CACHE_HOME"] = os.path.join(config.graph_obj_root,
                                                    "test", "cache")
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Sanitizer builds (GRAPH_ENABLE_SANITIZERS): every report fails the test.
# The stock mlir-opt is not instrumented; to load an instrumented GraphPlugin
# it needs the AddressSanitizer runtime preloaded. A downstream project links
# the instrumented libraries with the same flags.
sanitizers = [s for s in config.graph_sanitizers.split(";") if s]
mlir_opt_prefix = ""
if "address" in sanitizers:
    config.available_features.add("asan")
    # Leaks at exit are not errors here: MLIR keeps registrations and
    # contexts alive on purpose.
    config.environment["ASAN_OPTIONS"] = \
        "detect_leaks=0:abort_on_error=0:allocator_may_return_null=1"
    import subprocess
    runtime = subprocess.run(
        [config.cmake_cxx_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        stdout=subprocess.PIPE, text=True).stdout.strip()
    mlir_opt_prefix = "env LD_PRELOAD=%s " % runtime
if "undefined" in sanitizers:
    config.available_features.add("ubsan")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
if sanitizers:
    config.available_features.add("sanitizers")
config.substitutions.append(("%sanitizer_flags", config.graph_sanitizer_flags))

# lit runs the longest tests first from the times of the last run in the
# build directory, and without one (a fresh clone, as CI has) from
# test/.lit_test_times.txt, the default build's times checked in: with two
# workers the long end-to-end tests then overlap the short ones instead of
# running last, alone. Refresh it from a run of the whole default suite:
# cp build/test/.lit_test_times.txt test/.

# The suites that run one code path over many cases (ONNX's backend tests,
# the operator tests at each x86 level, the random-graph campaign) run every
# N-th case with `--param sample=N`, and the longest end-to-end tests are
# left out of a sampled run (UNSUPPORTED: sanitizers && sampled). The
# sanitizer build, where a run is 3-5x slower, samples one case in 8 by
# default (CI's time limit); the default build runs everything, and so does
# scripts/test-sanitizers.sh --full (sample=1).
sample = lit_config.params.get("sample", "8" if sanitizers else "1")
# The checks that repeat, on another configuration, a path every case
# already takes (the operator tests at each x86 level, the lower levels of
# packed-convs and padded-chains, ONNX's backend tests at -O0 beside -O3)
# take their own `--param repeat_sample=N` (default: `sample`): every case
# still runs at the host's level and at -O3, and at each repeat one case in
# N, each x86 level from another offset. scripts/test.sh sets 2 for CI's
# time limit; --full, 1.
repeat_sample = lit_config.params.get("repeat_sample", sample)
for name, value in (("sample", sample), ("repeat_sample", repeat_sample)):
    if not value.isdigit() or int(value) < 1:
        lit_config.fatal("--param %s=N needs a positive integer, not '%s'"
                         % (name, value))
config.substitutions.append(("%repeat_sample", repeat_sample))
config.substitutions.append(("%sample", sample))
if int(sample) > 1:
    config.available_features.add("sampled")
    lit_config.note("a sampled run: one case in %s of the long suites, and "
                    "the longest end-to-end tests left out (--param sample=1 "
                    "runs everything)" % sample)
if int(repeat_sample) > 1:
    lit_config.note("the lower x86 levels and -O0 of ONNX's backend tests run "
                    "one case in %s (--param repeat_sample=1 runs every case)"
                    % repeat_sample)
if config.graph_fuzzers == "1":
    config.available_features.add("fuzzers")

tool_dirs = [config.graph_tools_dir, config.llvm_tools_dir]
tools = [
    "graph-capi-test",
    "graph-compile",
    "graph-opt",
    "graph-run",
    "graph-translate",
    "graph-viz",
    # The stock upstream driver, for the plugin tests.
    ToolSubst("%mlir_opt", mlir_opt_prefix +
              os.path.join(config.llvm_tools_dir, "mlir-opt")),
    ToolSubst("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")),
]
if config.graph_fuzzers == "1":
    tools += ["graph-fuzz-mlir", "graph-fuzz-onnx", "graph-fuzz-npy"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The standard runner libraries, for running lowered code under mlir-runner.
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(llvm_lib_dir, "libmlir_runner_utils" + config.llvm_shlib_ext)))
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(llvm_lib_dir, "libmlir_c_runner_utils" + config.llvm_shlib_ext)))

# graph-viz lays graphs out with Graphviz's dot; its page is checked in a
# real browser, Debian's chromium (scripts/setup.sh installs both).
if shutil.which("dot"):
    config.available_features.add("graphviz")
else:
    lit_config.note("Graphviz 'dot' not found: the graph-viz tests that "
                    "render pages are skipped (UNSUPPORTED)")
if shutil.which("chromium") or shutil.which("chromium-browser"):
    config.available_features.add("chromium")
else:
    lit_config.note("chromium not found: the graph-viz browser tests are "
                    "skipped (UNSUPPORTED)")

# The x86 vector extensions of this machine, for the tests that run code for
# each instruction-set level the host can execute (REQUIRES: host-cpu-avx2).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                for flag in ("avx512f", "avx2", "avx", "fma", "sse4_2"):
                    if flag in flags:
                        config.available_features.add("host-cpu-" + flag)
                break
except OSError:
    pass
