// A small OpenAI-compatible chat server for a local GGUF model, on node-llama-cpp's prebuilt
// llama.cpp binaries (no compiler needed). node-llama-cpp's own CLI has no HTTP server, so
// this answers the part of OpenAI's API MARSA uses:
//
//   POST /v1/chat/completions  messages, max_tokens (or max_completion_tokens), temperature,
//                              response_format json_schema / json_object (held to the schema
//                              by a llama.cpp grammar); tools are refused with HTTP 400
//   GET  /v1/models            the one model served
//   GET  /health               {"status": "ok"} once the model is loaded
//
// One request at a time (one context sequence; the others wait their turn); a client that
// goes away stops its generation. A prompt that does not fit the context is answered 400 with
// code context_length_exceeded, as OpenAI does, and max_tokens is cut to what still fits.
// Each answer is logged to stderr: tokens in and out, seconds, why it stopped, its start.
//
//   node server.mjs --model PATH.gguf [--host 127.0.0.1] [--port 8089] [--threads 1]
//                   [--context-size 4096] [--name smollm2-135m-instruct]

import http from "node:http";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";

import { getLlama, LlamaChatSession } from "node-llama-cpp";

const { values: opts } = parseArgs({
    options: {
        model: { type: "string" },
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: "8089" },
        threads: { type: "string", default: "1" },
        "context-size": { type: "string", default: "4096" },
        name: { type: "string" },
    },
});
if (!opts.model) {
    console.error("usage: node server.mjs --model PATH.gguf [--port 8089] [--threads 1]");
    process.exit(2);
}
const threads = Number(opts.threads);
const contextSize = Number(opts["context-size"]);
const modelName = opts.name ?? path.basename(opts.model, ".gguf");
const DEFAULT_MAX_TOKENS = 512;

// build: "never": the prebuilt binary or a clear error, never a 10-minute compile.
const llama = await getLlama({ gpu: false, build: "never", maxThreads: threads, logLevel: "warn" });
const model = await llama.loadModel({ modelPath: opts.model });
const context = await model.createContext({ contextSize, threads, sequences: 1 });
const sequence = context.getSequence();
const grammars = new Map();
let queue = Promise.resolve();

class RequestError extends Error {
    constructor(message, code = null, status = 400) {
        super(message);
        this.code = code;
        this.status = status;
    }
}

function textOf(content) {
    // OpenAI content is a string or a list of parts ({type: "text", text}).
    if (typeof content === "string") return content;
    if (Array.isArray(content)) {
        return content.map((part) => (part && part.type === "text" ? part.text : "")).join("");
    }
    return "";
}

function history(messages) {
    if (!Array.isArray(messages) || messages.length === 0) {
        throw new RequestError("messages must be a non-empty list");
    }
    const last = messages[messages.length - 1];
    if (last.role !== "user") throw new RequestError("the last message must be the user's");
    const system = messages.filter((m) => m.role === "system" || m.role === "developer");
    const items = [];
    if (system.length) items.push({ type: "system", text: system.map((m) => textOf(m.content)).join("\n\n") });
    for (const m of messages.slice(0, -1)) {
        if (m.role === "user") items.push({ type: "user", text: textOf(m.content) });
        else if (m.role === "assistant") items.push({ type: "model", response: [textOf(m.content)] });
        else if (m.role === "system" || m.role === "developer") continue;
        else throw new RequestError(`messages of role ${m.role} are not supported by this server`);
    }
    return { items, prompt: textOf(last.content) };
}

async function grammarFor(format) {
    if (!format || format.type === "text") return undefined;
    if (format.type === "json_object") return llama.getGrammarFor("json");
    if (format.type !== "json_schema" || !format.json_schema?.schema) {
        throw new RequestError(`response_format ${JSON.stringify(format.type)} is not supported`);
    }
    const key = JSON.stringify(format.json_schema.schema);
    if (!grammars.has(key)) {
        try {
            grammars.set(key, await llama.createGrammarForJsonSchema(format.json_schema.schema));
        } catch (err) {
            throw new RequestError(`response_format json_schema is not supported here: ${err.message}`);
        }
    }
    return grammars.get(key);
}

function promptTokens(messages) {
    // The chat template adds a few tokens per message around the text.
    return messages.reduce((n, m) => n + model.tokenize(textOf(m.content)).length + 8, 0);
}

async function complete(body, signal) {
    if (body.tools?.length) throw new RequestError("tools are not supported by this server");
    const { items, prompt } = history(body.messages);
    const grammar = await grammarFor(body.response_format);
    const needed = promptTokens(body.messages);
    const room = contextSize - needed;
    if (room < 16) {
        throw new RequestError(
            `context_length_exceeded: the prompt needs about ${needed} tokens; the context holds ${contextSize}`,
            "context_length_exceeded",
        );
    }
    const asked = body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_MAX_TOKENS;
    const maxTokens = Math.max(1, Math.min(asked, room));
    await sequence.clearHistory(); // each request stands alone, so its token counts are its own
    const before = sequence.tokenMeter.getState();
    const session = new LlamaChatSession({ contextSequence: sequence, autoDisposeSequence: false });
    try {
        session.setChatHistory(items);
        const started = performance.now();
        const out = await session.promptWithMeta(prompt, {
            maxTokens,
            temperature: body.temperature ?? 0,
            grammar,
            signal,
            stopOnAbortSignal: true,
        });
        const used = sequence.tokenMeter.diff(before);
        const text = out.responseText;
        console.error(
            `${new Date().toISOString()} ${used.usedInputTokens} in, ${used.usedOutputTokens} out, ` +
                `${((performance.now() - started) / 1000).toFixed(1)}s, ${out.stopReason}` +
                `${grammar ? ", json_schema" : ""}: ${JSON.stringify(text.slice(0, 160))}`,
        );
        return {
            id: `chatcmpl-${Date.now()}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: modelName,
            choices: [
                {
                    index: 0,
                    message: { role: "assistant", content: text },
                    finish_reason: out.stopReason === "maxTokens" ? "length" : "stop",
                },
            ],
            usage: {
                prompt_tokens: used.usedInputTokens,
                completion_tokens: used.usedOutputTokens,
                total_tokens: used.usedInputTokens + used.usedOutputTokens,
            },
        };
    } finally {
        session.dispose({ disposeSequence: false });
    }
}

function send(res, status, payload) {
    if (res.writableEnded || res.destroyed) return;
    const data = JSON.stringify(payload);
    res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) });
    res.end(data);
}

function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        req.on("data", (c) => chunks.push(c));
        req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        req.on("error", reject);
    });
}

const server = http.createServer(async (req, res) => {
    const url = req.url.split("?")[0].replace(/\/+$/, "");
    if (req.method === "GET" && url === "/health") return send(res, 200, { status: "ok", model: modelName });
    if (req.method === "GET" && url === "/v1/models") {
        return send(res, 200, { object: "list", data: [{ id: modelName, object: "model", owned_by: "local" }] });
    }
    if (req.method !== "POST" || url !== "/v1/chat/completions") {
        return send(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: "not_found" } });
    }
    let body;
    try {
        body = JSON.parse(await readBody(req));
    } catch {
        return send(res, 400, { error: { message: "the body is not JSON", type: "invalid_request_error" } });
    }
    if (body.stream) {
        return send(res, 400, { error: { message: "stream is not supported by this server", type: "invalid_request_error" } });
    }
    const aborter = new AbortController();
    res.on("close", () => {
        if (!res.writableEnded) aborter.abort();
    });
    // One generation at a time: the next request starts when this one ends, however it ends.
    const turn = queue.then(async () => {
        if (aborter.signal.aborted) return;
        try {
            send(res, 200, await complete(body, aborter.signal));
        } catch (err) {
            const status = err instanceof RequestError ? err.status : 500;
            const type = status === 400 ? "invalid_request_error" : "server_error";
            send(res, status, { error: { message: String(err.message ?? err), type, param: null, code: err.code ?? null } });
        }
    });
    queue = turn.catch(() => {});
    await turn;
});

server.listen(Number(opts.port), opts.host, () => {
    console.error(
        `serving ${modelName} (${opts.model}) on http://${opts.host}:${opts.port}/v1 ` +
            `with ${threads} thread(s), context ${contextSize} tokens`,
    );
});
