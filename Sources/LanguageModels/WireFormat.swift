import VendorHTTP
/// How one vendor's HTTP API spells a completion: where to send it, which headers carry the
/// key, how the body looks, and where the answer and usage are in the reply.
protocol WireFormat: Sendable {
    /// The request URL for `model`, given the configured base URL (no trailing slash).
    func url(base: String, model: String) -> String
    /// The vendor's authentication and version headers (the only place the key goes).
    func headers(key: Secret?) -> [(name: String, value: String)]
    func body(for request: CompletionRequest, model: String) -> JSONValue
    /// The answer text, usage and answering model from a 200 reply.
    func parse(_ reply: JSONValue, request: CompletionRequest) throws(WireFormatError) -> (text: String, usage: TokenUsage, model: String?)
    /// The human message in an error reply, if the vendor's error shape is there.
    func errorMessage(_ reply: JSONValue) -> String?
}

/// A 200 reply that does not hold an answer where the wire format says.
struct WireFormatError: Error, Sendable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// OpenAI Chat Completions (`POST /v1/chat/completions`), also spoken by Ollama, llama.cpp and vLLM.
struct OpenAIChatFormat: WireFormat {
    /// OpenAI's own API takes `max_completion_tokens`; compatible servers widely take only `max_tokens`.
    var compatible: Bool
    /// The server is llama.cpp's (the model on this machine), which takes its own sampling fields.
    var llamaCpp = false

    /// llama.cpp's DRY sampling at the values its author recommends: runs of more than two
    /// tokens already in the context are penalised by 0.8 × 1.75^(length − 2).
    static let dry: [String: JSONValue] = ["dry_multiplier": 0.8, "dry_base": 1.75, "dry_allowed_length": 2]

    func url(base: String, model: String) -> String {
        // OPENAI_BASE_URL conventionally ends in /v1 already (as the OpenAI SDKs expect).
        (base.hasSuffix("/v1") ? base : base + "/v1") + "/chat/completions"
    }

    func headers(key: Secret?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("content-type", "application/json")]
        if let key, !key.value.isEmpty { headers.append(("authorization", "Bearer \(key.value)")) }
        return headers
    }

    func body(for request: CompletionRequest, model: String) -> JSONValue {
        var body: [String: JSONValue] = [
            "model": .string(model),
            "messages": .array(
                [["role": "system", "content": .string(request.system)]]
                    + request.history.map { ["role": .string($0.role.rawValue), "content": .string($0.text)] }
                    + [["role": "user", "content": .string(request.user)]]
                    + (compatible ? request.continuing.map { [["role": "assistant", "content": .string($0)]] } ?? [] : [])
            ),
            "temperature": .number(request.temperature),
            (compatible ? "max_tokens" : "max_completion_tokens"): .number(Double(request.maxOutputTokens)),
        ]
        if let schema = request.schema {
            body["response_format"] = [
                "type": "json_schema",
                "json_schema": ["name": .string(schema.name), "strict": true, "schema": schema.schema],
            ]
        }
        if llamaCpp, request.discouragesRepetition { body.merge(Self.dry) { _, dry in dry } }
        return .object(body)
    }

    func parse(_ reply: JSONValue, request: CompletionRequest) throws(WireFormatError) -> (text: String, usage: TokenUsage, model: String?) {
        guard let message = reply["choices"]?[0]?["message"] else { throw WireFormatError("no choices[0].message") }
        if let refusal = message["refusal"]?.stringValue { throw WireFormatError("the model refused: \(refusal)") }
        guard let content = message["content"]?.stringValue else { throw WireFormatError("no message content") }
        if reply["choices"]?[0]?["finish_reason"]?.stringValue == "length" {
            throw WireFormatError("the answer was cut off at the output token limit")
        }
        let usage = TokenUsage(
            inputTokens: reply["usage"]?["prompt_tokens"]?.intValue ?? 0,
            outputTokens: reply["usage"]?["completion_tokens"]?.intValue ?? 0
        )
        return (content, usage, reply["model"]?.stringValue)
    }

    func errorMessage(_ reply: JSONValue) -> String? {
        reply["error"]?["message"]?.stringValue ?? reply["error"]?.stringValue
    }
}

/// A wire format that can also stream the answer as server-sent events.
protocol StreamingWireFormat: WireFormat {
    /// Whether `request` can be streamed (its answer arrives as text pieces).
    func streams(_ request: CompletionRequest) -> Bool
    /// The streaming request's URL (most vendors: the same as `url`).
    func streamingURL(base: String, model: String) -> String
    func streamingBody(for request: CompletionRequest, model: String) -> JSONValue
    /// What one `data:` payload of the stream adds to the answer. A `finishReason` of `length`
    /// means the answer was cut off at the token limit.
    func chunk(_ payload: JSONValue) throws(WireFormatError) -> StreamChunk
}

extension StreamingWireFormat {
    func streams(_ request: CompletionRequest) -> Bool { true }
    func streamingURL(base: String, model: String) -> String { url(base: base, model: model) }
}

/// One event of a streamed answer.
struct StreamChunk: Sendable, Hashable {
    var text: String?
    var finishReason: String?
    var usage: TokenUsage?
    var model: String?
}

extension OpenAIChatFormat: StreamingWireFormat {
    /// `stream_options.include_usage` asks for a last chunk holding the usage (OpenAI, llama.cpp, vLLM).
    func streamingBody(for request: CompletionRequest, model: String) -> JSONValue {
        guard case .object(var body) = self.body(for: request, model: model) else { return self.body(for: request, model: model) }
        body["stream"] = true
        body["stream_options"] = ["include_usage": true]
        return .object(body)
    }

    func chunk(_ payload: JSONValue) throws(WireFormatError) -> StreamChunk {
        if let message = errorMessage(payload) { throw WireFormatError(message) }
        let choice = payload["choices"]?[0]
        if let refusal = choice?["delta"]?["refusal"]?.stringValue { throw WireFormatError("the model refused: \(refusal)") }
        let usage = payload["usage"].flatMap { usage -> TokenUsage? in
            guard let input = usage["prompt_tokens"]?.intValue, let output = usage["completion_tokens"]?.intValue else { return nil }
            return TokenUsage(inputTokens: input, outputTokens: output)
        }
        return StreamChunk(
            text: choice?["delta"]?["content"]?.stringValue, finishReason: choice?["finish_reason"]?.stringValue,
            usage: usage, model: payload["model"]?.stringValue)
    }
}

/// Anthropic Messages (`POST /v1/messages`); structured output through one forced tool.
struct AnthropicMessagesFormat: WireFormat {
    static let version = "2023-06-01"

    func url(base: String, model: String) -> String {
        (base.hasSuffix("/v1") ? base : base + "/v1") + "/messages"
    }

    func headers(key: Secret?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("content-type", "application/json"),
            ("anthropic-version", Self.version),
        ]
        if let key { headers.append(("x-api-key", key.value)) }
        return headers
    }

    func body(for request: CompletionRequest, model: String) -> JSONValue {
        var body: [String: JSONValue] = [
            "model": .string(model),
            "system": .string(request.system),
            "messages": .array(
                request.history.map { ["role": .string($0.role.rawValue), "content": .string($0.text)] }
                    + [["role": "user", "content": .string(request.user)]]
            ),
            "max_tokens": .number(Double(request.maxOutputTokens)),
            "temperature": .number(request.temperature),
        ]
        if let schema = request.schema {
            body["tools"] = [[
                "name": .string(schema.name),
                "description": "Record the answer in this exact structure.",
                "input_schema": schema.schema,
            ]]
            body["tool_choice"] = ["type": "tool", "name": .string(schema.name)]
        }
        return .object(body)
    }

    func parse(_ reply: JSONValue, request: CompletionRequest) throws(WireFormatError) -> (text: String, usage: TokenUsage, model: String?) {
        guard let blocks = reply["content"]?.arrayValue else { throw WireFormatError("no content blocks") }
        if reply["stop_reason"]?.stringValue == "max_tokens" {
            throw WireFormatError("the answer was cut off at the output token limit")
        }
        let text: String
        if let schema = request.schema {
            guard let input = blocks.first(where: { $0["type"]?.stringValue == "tool_use" && $0["name"]?.stringValue == schema.name })?["input"] else {
                throw WireFormatError("no tool_use block named \(schema.name)")
            }
            text = input.canonicalText
        } else {
            text = blocks.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.joined()
        }
        let usage = TokenUsage(
            inputTokens: reply["usage"]?["input_tokens"]?.intValue ?? 0,
            outputTokens: reply["usage"]?["output_tokens"]?.intValue ?? 0
        )
        return (text, usage, reply["model"]?.stringValue)
    }

    func errorMessage(_ reply: JSONValue) -> String? {
        reply["error"]?["message"]?.stringValue
    }
}

/// Google Gemini `POST /v1beta/models/{model}:generateContent`, JSON answers via `responseSchema`.
struct GeminiGenerateContentFormat: WireFormat {
    func url(base: String, model: String) -> String {
        let root = base.hasSuffix("/v1beta") ? String(base.dropLast("/v1beta".count)) : base
        return root + "/v1beta/models/\(model):generateContent"
    }

    func headers(key: Secret?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("content-type", "application/json")]
        if let key { headers.append(("x-goog-api-key", key.value)) }
        return headers
    }

    func body(for request: CompletionRequest, model: String) -> JSONValue {
        var generationConfig: [String: JSONValue] = [
            "temperature": .number(request.temperature),
            "maxOutputTokens": .number(Double(request.maxOutputTokens)),
        ]
        if let schema = request.schema {
            generationConfig["responseMimeType"] = "application/json"
            generationConfig["responseSchema"] = GeminiSchema.convert(schema.schema)
        }
        return [
            "systemInstruction": ["parts": [["text": .string(request.system)]]],
            // Gemini names the assistant's turns "model".
            "contents": .array(
                request.history.map { ["role": .string($0.role == .user ? "user" : "model"), "parts": [["text": .string($0.text)]]] }
                    + [["role": "user", "parts": [["text": .string(request.user)]]]]
            ),
            "generationConfig": .object(generationConfig),
        ]
    }

    func parse(_ reply: JSONValue, request: CompletionRequest) throws(WireFormatError) -> (text: String, usage: TokenUsage, model: String?) {
        guard let candidate = reply["candidates"]?[0] else {
            let blocked = reply["promptFeedback"]?["blockReason"]?.stringValue
            throw WireFormatError(blocked.map { "the prompt was blocked (\($0))" } ?? "no candidates")
        }
        if candidate["finishReason"]?.stringValue == "MAX_TOKENS" {
            throw WireFormatError("the answer was cut off at the output token limit")
        }
        guard let parts = candidate["content"]?["parts"]?.arrayValue else { throw WireFormatError("no content parts") }
        let text = parts.compactMap { $0["text"]?.stringValue }.joined()
        let usage = TokenUsage(
            inputTokens: reply["usageMetadata"]?["promptTokenCount"]?.intValue ?? 0,
            outputTokens: reply["usageMetadata"]?["candidatesTokenCount"]?.intValue ?? 0
        )
        return (text, usage, reply["modelVersion"]?.stringValue)
    }

    func errorMessage(_ reply: JSONValue) -> String? {
        reply["error"]?["message"]?.stringValue
    }
}

extension AnthropicMessagesFormat: StreamingWireFormat {
    /// A structured answer comes as a forced tool's input, streamed as JSON fragments this does
    /// not read: it is asked for whole.
    func streams(_ request: CompletionRequest) -> Bool { request.schema == nil }

    func streamingBody(for request: CompletionRequest, model: String) -> JSONValue {
        guard case .object(var body) = self.body(for: request, model: model) else { return self.body(for: request, model: model) }
        body["stream"] = true
        return .object(body)
    }

    /// Anthropic's events (`message_start`, `content_block_delta`, `message_delta`, `error`; the
    /// `event:` line repeats the payload's `type`): text comes in `text_delta`s, input tokens at
    /// the start, output tokens and the stop reason at the end.
    func chunk(_ payload: JSONValue) throws(WireFormatError) -> StreamChunk {
        switch payload["type"]?.stringValue {
        case "error":
            throw WireFormatError(errorMessage(payload) ?? "the stream reported an error")
        case "message_start":
            let message = payload["message"]
            return StreamChunk(
                usage: TokenUsage(inputTokens: message?["usage"]?["input_tokens"]?.intValue ?? 0, outputTokens: message?["usage"]?["output_tokens"]?.intValue ?? 0),
                model: message?["model"]?.stringValue)
        case "content_block_delta":
            return StreamChunk(text: payload["delta"]?["type"]?.stringValue == "text_delta" ? payload["delta"]?["text"]?.stringValue : nil)
        case "message_delta":
            let reason = payload["delta"]?["stop_reason"]?.stringValue
            return StreamChunk(
                finishReason: reason == "max_tokens" ? "length" : reason,
                usage: payload["usage"].map { TokenUsage(inputTokens: $0["input_tokens"]?.intValue ?? 0, outputTokens: $0["output_tokens"]?.intValue ?? 0) })
        default:  // ping, content_block_start/stop, message_stop
            return StreamChunk()
        }
    }
}

extension GeminiGenerateContentFormat: StreamingWireFormat {
    /// `:streamGenerateContent?alt=sse`: each event is a whole `GenerateContentResponse` holding
    /// the next piece of the answer.
    func streamingURL(base: String, model: String) -> String {
        url(base: base, model: model).replacingOccurrences(of: ":generateContent", with: ":streamGenerateContent") + "?alt=sse"
    }

    func streamingBody(for request: CompletionRequest, model: String) -> JSONValue {
        body(for: request, model: model)
    }

    func chunk(_ payload: JSONValue) throws(WireFormatError) -> StreamChunk {
        if let message = errorMessage(payload) { throw WireFormatError(message) }
        let candidate = payload["candidates"]?[0]
        if candidate == nil, let blocked = payload["promptFeedback"]?["blockReason"]?.stringValue {
            throw WireFormatError("the prompt was blocked (\(blocked))")
        }
        let text = candidate?["content"]?["parts"]?.arrayValue?.compactMap { $0["text"]?.stringValue }.joined()
        let reason = candidate?["finishReason"]?.stringValue
        let usage = payload["usageMetadata"].map {
            TokenUsage(inputTokens: $0["promptTokenCount"]?.intValue ?? 0, outputTokens: $0["candidatesTokenCount"]?.intValue ?? 0)
        }
        return StreamChunk(text: text, finishReason: reason == "MAX_TOKENS" ? "length" : reason, usage: usage, model: payload["modelVersion"]?.stringValue)
    }
}

/// Gemini's `responseSchema` is a subset of OpenAPI 3.0, not JSON Schema: types are upper-case
/// enum names, `null` in a type list becomes `nullable`, and `additionalProperties`, `$schema`
/// and `title` are refused. Property order is kept with `propertyOrdering`.
enum GeminiSchema {
    static let kept: Set<String> = ["type", "format", "description", "nullable", "enum", "items", "properties", "required", "minItems", "maxItems", "minimum", "maximum", "propertyOrdering", "anyOf"]

    static func convert(_ schema: JSONValue) -> JSONValue {
        guard case .object(let object) = schema else { return schema }
        var result: [String: JSONValue] = [:]
        for (key, value) in object where kept.contains(key) {
            switch key {
            case "type":
                if case .array(let types) = value {
                    let named = types.compactMap(\.stringValue)
                    if named.contains("null") { result["nullable"] = true }
                    if let first = named.first(where: { $0 != "null" }) { result["type"] = .string(first.uppercased()) }
                } else if let name = value.stringValue {
                    result["type"] = .string(name.uppercased())
                }
            case "properties":
                if case .object(let properties) = value {
                    result["properties"] = .object(properties.mapValues(convert))
                    result["propertyOrdering"] = .array(properties.keys.sorted().map { .string($0) })
                }
            case "items":
                result["items"] = convert(value)
            case "anyOf":
                result["anyOf"] = .array((value.arrayValue ?? []).map(convert))
            default:
                result[key] = value
            }
        }
        if result["enum"] != nil, result["type"] == .string("STRING") { result["format"] = "enum" }
        return .object(result)
    }
}
