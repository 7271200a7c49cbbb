# The GoogleTest unit tests (unittests/), each executable *Tests a suite of
# its own tests.
import os

import lit.formats

config.name = "GRAPH-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.graph_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
if config.graph_sanitizers:
    config.environment["ASAN_OPTIONS"] = "detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
