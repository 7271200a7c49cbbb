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
config.substitutions.append(("%mlir_cmake_dir", config.mlir_cmake_dir))
config.substitutions.append(("%build_generator", config.cmake_generator))
# Debian's Python packages (numpy, onnx) are seen only by this interpreter.
config.substitutions.append(("%python", "/usr/bin/python3"))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.graph_tools_dir, config.llvm_tools_dir]
tools = [
    "graph-opt",
    "graph-run",
    "graph-translate",
    "graph-viz",
    # The stock upstream driver, for the plugin tests.
    ToolSubst("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")),
    ToolSubst("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")),
]
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
