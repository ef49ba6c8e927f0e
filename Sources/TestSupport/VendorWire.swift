import Foundation
import LanguageModels
import VendorHTTP

/// The server side of each vendor's wire format, written from the vendors' API references
/// independently of the clients, so a client that drifts from the format fails its tests.
///
/// Usage in replies is computed from the request the way ``TokenCount`` estimates it (one
/// token per four characters of the messages and schema received; the same for the answer),
/// so estimates and recorded usage can be compared.
public enum VendorWire {
    /// The system and user messages and the schema of a request in `provider`'s format.
    public struct Prompt: Sendable {
        public var system: String
        public var user: String
        public var schema: JSONValue?
        public var model: String
    }

    public static func prompt(of request: RecordedRequest, provider: Provider) -> Prompt? {
        guard let json = request.json else { return nil }
        switch provider {
        case .openai, .openaiCompatible, .local:
            let messages = json["messages"]?.arrayValue ?? []
            let system = messages.first { $0["role"]?.stringValue == "system" }?["content"]?.stringValue ?? ""
            guard let user = messages.first(where: { $0["role"]?.stringValue == "user" })?["content"]?.stringValue else { return nil }
            return Prompt(system: system, user: user, schema: json["response_format"]?["json_schema"]?["schema"], model: json["model"]?.stringValue ?? "")
        case .anthropic:
            guard let user = json["messages"]?[0]?["content"]?.stringValue else { return nil }
            return Prompt(system: json["system"]?.stringValue ?? "", user: user, schema: json["tools"]?[0]?["input_schema"], model: json["model"]?.stringValue ?? "")
        case .gemini:
            guard let user = json["contents"]?[0]?["parts"]?[0]?["text"]?.stringValue else { return nil }
            let model = request.uri.split(separator: "/").last.map { String($0.split(separator: ":").first ?? "") } ?? ""
            return Prompt(
                system: json["systemInstruction"]?["parts"]?[0]?["text"]?.stringValue ?? "", user: user,
                schema: json["generationConfig"]?["responseSchema"], model: model
            )
        }
    }

    public static func inputTokens(_ prompt: Prompt) -> Int {
        TokenCount.approximate(prompt.system) + TokenCount.approximate(prompt.user) + (prompt.schema.map { TokenCount.approximate($0.canonicalText) } ?? 0)
    }

    /// A 200 reply carrying `answer` (JSON text for structured requests) in `provider`'s format;
    /// streamed in pieces, as the vendor would, when the request asks for a stream.
    public static func success(_ provider: Provider, answer: String, for request: RecordedRequest, delay: Duration = .zero) -> LoopbackReply {
        if asksForStream(request) {
            var reply = streamed(provider, pieces: pieces(of: answer, every: 24))
            reply.delay = delay
            return reply
        }
        let prompt = prompt(of: request, provider: provider)
        let input = prompt.map(inputTokens) ?? 0
        let output = TokenCount.approximate(answer)
        let model = prompt?.model ?? "model"
        let body: JSONValue
        switch provider {
        case .openai, .openaiCompatible, .local:
            body = [
                "id": "chatcmpl-loopback", "object": "chat.completion", "created": 1_700_000_000, "model": .string(model),
                "choices": [[
                    "index": 0, "finish_reason": "stop",
                    "message": ["role": "assistant", "content": .string(answer), "refusal": nil],
                ]],
                "usage": ["prompt_tokens": .number(Double(input)), "completion_tokens": .number(Double(output)), "total_tokens": .number(Double(input + output))],
            ]
        case .anthropic:
            // A structured request is answered with a tool_use block; an answer that is not
            // JSON can only come back as text, which is what a confused model does.
            let toolName = request.json?["tool_choice"]?["name"]?.stringValue
            let block: JSONValue
            if let toolName, let input = JSONValue(parsing: answer) {
                block = ["type": "tool_use", "id": "toolu_loopback", "name": .string(toolName), "input": input]
            } else {
                block = ["type": "text", "text": .string(answer)]
            }
            body = [
                "id": "msg_loopback", "type": "message", "role": "assistant", "model": .string(model),
                "content": [block], "stop_reason": .string(toolName == nil ? "end_turn" : "tool_use"), "stop_sequence": nil,
                "usage": ["input_tokens": .number(Double(input)), "output_tokens": .number(Double(output))],
            ]
        case .gemini:
            body = [
                "candidates": [[
                    "content": ["role": "model", "parts": [["text": .string(answer)]]],
                    "finishReason": "STOP", "index": 0,
                ]],
                "usageMetadata": [
                    "promptTokenCount": .number(Double(input)), "candidatesTokenCount": .number(Double(output)),
                    "totalTokenCount": .number(Double(input + output)),
                ],
                "modelVersion": .string(model),
            ]
        }
        return LoopbackReply(status: 200, json: body, delay: delay)
    }

    /// Whether `request` asks for its answer as a stream (`"stream": true`, or Gemini's
    /// `:streamGenerateContent`).
    public static func asksForStream(_ request: RecordedRequest) -> Bool {
        request.json?["stream"] == true || request.uri.contains(":streamGenerateContent")
    }

    /// An error reply in `provider`'s error shape.
    public static func error(_ provider: Provider, status: Int, message: String, retryAfter: String? = nil) -> LoopbackReply {
        let headers: [(name: String, value: String)] = retryAfter.map { [("retry-after", $0)] } ?? []
        let body: JSONValue
        switch provider {
        case .openai, .openaiCompatible, .local:
            let type: String = switch status {
            case 401: "invalid_request_error"
            case 429: "rate_limit_exceeded"
            case 500...: "server_error"
            default: "invalid_request_error"
            }
            body = ["error": ["message": .string(message), "type": .string(type), "param": nil, "code": status == 401 ? "invalid_api_key" : nil]]
        case .anthropic:
            let type: String = switch status {
            case 401: "authentication_error"
            case 403: "permission_error"
            case 404: "not_found_error"
            case 429: "rate_limit_error"
            case 529: "overloaded_error"
            case 500...: "api_error"
            default: "invalid_request_error"
            }
            body = ["type": "error", "error": ["type": .string(type), "message": .string(message)]]
        case .gemini:
            let statusName: String = switch status {
            case 400: "INVALID_ARGUMENT"
            case 401: "UNAUTHENTICATED"
            case 403: "PERMISSION_DENIED"
            case 404: "NOT_FOUND"
            case 429: "RESOURCE_EXHAUSTED"
            default: "INTERNAL"
            }
            body = ["error": ["code": .number(Double(status)), "message": .string(message), "status": .string(statusName)]]
        }
        return LoopbackReply(status: status, json: body, headers: headers)
    }

    /// How the Gemini API answers a key it does not accept: HTTP 400 INVALID_ARGUMENT with a
    /// `google.rpc.ErrorInfo` detail whose reason is `API_KEY_INVALID`.
    public static func geminiInvalidKey() -> LoopbackReply {
        let info: JSONValue = [
            "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
            "domain": "googleapis.com", "metadata": ["service": "generativelanguage.googleapis.com"],
        ]
        return LoopbackReply(status: 400, json: ["error": [
            "code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT",
            "details": .array([info]),
        ]])
    }

    /// A 200 reply whose body stops half-way: the JSON cannot be read.
    public static func truncated(_ provider: Provider, answer: String, for request: RecordedRequest) -> LoopbackReply {
        let full = success(provider, answer: answer, for: request)
        return LoopbackReply(status: 200, body: full.body.prefix(full.body.count / 2))
    }

    /// The path each vendor's API serves completions on.
    public static func path(_ provider: Provider, model: String) -> String {
        switch provider {
        case .openai, .openaiCompatible, .local: "/v1/chat/completions"
        case .anthropic: "/v1/messages"
        case .gemini: "/v1beta/models/\(model):generateContent"
        }
    }
}

extension VendorWire {
    /// A `text/event-stream` reply of `events` (each a whole event: its `event:` and `data:`
    /// lines), sent piece by piece.
    public static func stream(_ events: [String], pause: Duration = .milliseconds(10)) -> LoopbackReply {
        let pieces = events.map { Data(($0 + "\n\n").utf8) }
        var reply = LoopbackReply(status: 200, headers: [("content-type", "text/event-stream")], body: pieces.reduce(Data(), +))
        reply.pieces = pieces
        reply.pieceDelay = pause
        return reply
    }

    /// `text` cut every `length` characters, through words and sentences, as a model's tokens cut it.
    public static func pieces(of text: String, every length: Int) -> [String] {
        var pieces: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            pieces.append(String(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return pieces
    }

    /// `pieces` streamed in `provider`'s format, as its API sends them: OpenAI chat-completion
    /// chunks and `[DONE]`; Anthropic's `message_start` … `content_block_delta` … `message_delta`
    /// (`stop`: its stop_reason, default `end_turn`) … `message_stop`; Gemini's
    /// `GenerateContentResponse`s (`stop`: the last one's finishReason, default `STOP`).
    public static func streamed(_ provider: Provider, pieces: [String], stop: String? = nil, pause: Duration = .milliseconds(10)) -> LoopbackReply {
        func data(_ json: JSONValue) -> String { "data: " + json.canonicalText }
        func event(_ type: String, _ json: JSONValue) -> String { "event: \(type)\n" + data(json) }
        switch provider {
        case .openai, .openaiCompatible, .local:
            func chunk(_ text: String?, finish: String? = nil) -> String {
                let delta: JSONValue = text.map { ["content": .string($0)] } ?? [:]
                return data(["model": "test-model", "choices": [["index": 0, "delta": delta, "finish_reason": finish.map { .string($0) } ?? .null]]])
            }
            return stream(pieces.map { chunk($0) } + [chunk(nil, finish: stop ?? "stop"), "data: [DONE]"], pause: pause)
        case .anthropic:
            return stream(
                [event("message_start", ["type": "message_start", "message": [
                    "id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-test",
                    "stop_reason": nil, "stop_sequence": nil, "usage": ["input_tokens": 25, "output_tokens": 1]]]),
                 event("content_block_start", ["type": "content_block_start", "index": 0, "content_block": ["type": "text", "text": ""]]),
                 event("ping", ["type": "ping"])]
                + pieces.map { event("content_block_delta", ["type": "content_block_delta", "index": 0, "delta": ["type": "text_delta", "text": .string($0)]]) }
                + [event("content_block_stop", ["type": "content_block_stop", "index": 0]),
                   event("message_delta", ["type": "message_delta", "delta": ["stop_reason": .string(stop ?? "end_turn"), "stop_sequence": nil], "usage": ["output_tokens": 15]]),
                   event("message_stop", ["type": "message_stop"])],
                pause: pause)
        case .gemini:
            return stream(pieces.enumerated().map { index, text in
                let last = index == pieces.count - 1
                var candidate: [String: JSONValue] = ["content": ["parts": [["text": .string(text)]], "role": "model"], "index": 0]
                if last { candidate["finishReason"] = .string(stop ?? "STOP") }
                let usage: JSONValue = last ? ["promptTokenCount": 9, "candidatesTokenCount": 3, "totalTokenCount": 12] : ["promptTokenCount": 9, "totalTokenCount": 9]
                return data(["candidates": [.object(candidate)], "usageMetadata": usage, "modelVersion": "gemini-test"])
            }, pause: pause)
        }
    }
}
