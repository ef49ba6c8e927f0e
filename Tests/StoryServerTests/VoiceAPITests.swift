import Foundation
import LanguageModels
import Audio
import NIOCore
import Platform
@testable import StoryServer
import SpeechEngines
import StoryWorkflows
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// Voice chat over HTTP: a real recording (spoken by espeak-ng) through the server's real
/// transcriber (faster-whisper), the user's model in OpenAI's streaming wire format on a
/// loopback server, and the test narration's voices speaking the reply.
@Suite("Voice chat API", .serialized)
struct VoiceAPITests {
    static let key = "sk-user-stored-voice-0123456789"
    static let whisper = WhisperTranscriber.Configuration.locate().map(WhisperTranscriber.init)

    /// Answers every streamed request with `pieces`, in OpenAI's server-sent events.
    static func streaming(_ pieces: [String]) -> LoopbackServer.Handler {
        { _ in
            func chunk(_ text: String?, finish: String? = nil) -> String {
                let delta: JSONValue = text.map { ["content": .string($0)] } ?? [:]
                return JSONValue.object(["choices": [["index": 0, "delta": delta, "finish_reason": finish.map { .string($0) } ?? .null]]]).canonicalText
            }
            return .events(pieces.map { chunk($0) } + [chunk(nil, finish: "stop"), "[DONE]"])
        }
    }

    func withVoiceServer(_ handler: @escaping LoopbackServer.Handler, _ body: (Application, LoopbackServer, String) async throws -> Void) async throws {
        let whisper = try #require(Self.whisper, "faster-whisper is not installed: run scripts/setup")
        try await LoopbackServer.withServer(handler: handler) { model in
            try await withNarrationServer(adjust: { config in
                config.transcriber = whisper
                config.models = ModelAccess(
                    factory: LanguageModelFactory(environment: ["OPENAI_BASE_URL": model.baseURL + "/v1"], timeout: loopbackTimeout, retry: RetryPolicy(maxAttempts: 1)),
                    box: config.models.box, cacheDirectory: config.dataDirectory.url.appendingPathComponent("llm"))
            }) { app, _, _ in
                let ada = try await app.register("ada@example.com").access_token
                _ = try await app.send(.PUT, "/api/settings", token: ada, json: #"{"api_keys":{"openai":"\#(Self.key)"}}"#)
                try await body(app, model, ada)
            }
        }
    }

    /// `text` spoken by espeak-ng, as a WAV file's bytes.
    static func spoken(_ text: String) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("question-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        let espeak = Process()
        espeak.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        espeak.arguments = ["-w", file.path, text]
        try espeak.run()
        espeak.waitUntilExit()
        return Array(try Data(contentsOf: file))
    }

    /// The multipart body of a turn: the recording and the form's fields.
    static func form(audio: [UInt8], fields: [String: String]) -> (HTTPHeaders, ByteBuffer) {
        let boundary = "voice-boundary-42"
        var bytes: [UInt8] = []
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"question.wav\"\r\nContent-Type: audio/wav\r\n\r\n".utf8)
        bytes += audio + Array("\r\n--\(boundary)--\r\n".utf8)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
        return (headers, ByteBuffer(bytes: bytes))
    }

    /// The server-sent events of a reply, as (name, JSON object).
    static func events(_ body: ByteBuffer) -> [(name: String, data: [String: Any])] {
        String(buffer: body).components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                  let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                  let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
            return (String(name), object)
        }
    }

    @Test("a spoken question: transcribed, answered with the user's model, and each sentence spoken, as events")
    func spokenTurn() async throws {
        try await withVoiceServer(Self.streaming(["Paris is the capital", " of France. It is on", " the Seine."])) { app, model, ada in
            let (headers, body) = Self.form(
                audio: try Self.spoken("What is the capital of France?"),
                fields: ["model": "openai:gpt-4o-mini", "history": #"[{"role":"user","text":"Hi"},{"role":"assistant","text":"Hello!"}]"#])
            let reply = try await app.send(.POST, "/api/voice/turn", token: ada, headers: headers, body: body)
            #expect(reply.status == .ok, "\(reply.body.string)")
            #expect(reply.headers.contentType?.subType == "event-stream")
            let events = Self.events(reply.body)
            let names = events.map(\.name)
            #expect(names.first == "run-start" && names.last == "run-end", "\(names)")
            #expect(!names.contains("error"), "\(events.filter { $0.name == "error" }.map(\.data))")
            let heard = (events.first { $0.name == "stt-end" }?.data["text"] as? String ?? "").lowercased()
            #expect(heard.contains("capital") && heard.contains("france"), "\(heard)")
            #expect(events.filter { $0.name == "tts-start" }.compactMap { $0.data["text"] as? String } == ["Paris is the capital of France.", "It is on the Seine."])
            let audio = events.filter { $0.name == "tts-audio" }.compactMap { ($0.data["audio"] as? String).flatMap { Data(base64Encoded: $0) } }
            #expect(audio.count == 2 && audio.allSatisfy { $0.prefix(4) == Data("RIFF".utf8) })
            // The user's stored key went to their provider, with the conversation so far.
            #expect(model.requests.first?.header("authorization") == "Bearer \(Self.key)")
            #expect(model.requests.first?.json?["messages"]?.arrayValue?.count == 4)
        }
    }

    @Test("each stage alone: a typed reply streams, speech is a WAV, a recording becomes text")
    func stagesAlone() async throws {
        try await withVoiceServer(Self.streaming(["Because the sky scatters", " blue light most."])) { app, _, ada in
            let reply = try await app.send(.POST, "/api/voice/reply", token: ada, json: #"{"text":"Why is the sky blue?","model":"openai:gpt-4o-mini"}"#)
            let events = Self.events(reply.body)
            #expect(events.map(\.name) == ["run-start", "llm-delta", "llm-delta", "llm-end", "run-end"])
            #expect(events.first { $0.name == "llm-end" }?.data["text"] as? String == "Because the sky scatters blue light most.")

            let speech = try await app.send(.POST, "/api/voice/speak", token: ada, json: #"{"text":"Because the sky scatters blue light most."}"#)
            #expect(speech.status == .ok)
            #expect(speech.headers.contentType?.subType == "wav")

            var wav = HTTPHeaders()
            wav.contentType = HTTPMediaType(type: "audio", subType: "wav")
            let text = try await app.send(.POST, "/api/voice/transcribe", token: ada, headers: wav, body: ByteBuffer(bytes: try Self.spoken("Good morning to you.")))
            #expect(text.status == .ok, "\(text.body.string)")
            #expect((try text.content.decode(VoiceController.Transcript.self).text.lowercased()).contains("morning"))

            // A whole turn from a bare recording (the body is the audio), as a phone app may send it.
            let bare = try await app.send(.POST, "/api/voice/turn?model=openai:gpt-4o-mini", token: ada, headers: wav, body: ByteBuffer(bytes: try Self.spoken("Why is the sky blue?")))
            #expect(bare.status == .ok, "\(bare.body.string)")
            #expect(Self.events(bare.body).map(\.name).contains("stt-end"))
        }
    }

    @Test("speech sent while it is spoken: heard piece by piece, then a turn takes the session once; only its owner can use it")
    func listening() async throws {
        try await withVoiceServer(Self.streaming(["Spiders have eight legs."])) { app, model, ada in
            let bob = try await app.register("bob@example.com").access_token
            let started = try await app.send(.POST, "/api/voice/listen", token: ada, json: #"{"sample_rate":16000,"model":"openai:gpt-4o-mini"}"#)
            #expect(started.status == .created, "\(started.body.string)")
            let id = try started.content.decode(VoiceController.ListeningStarted.self).id
            let speech = Resampler.resample(try WAV.decode(Data(Self.spoken("How many legs does a spider have?"))), to: 16_000).samples
                + [Int16](repeating: 0, count: 16_000)
            var octets = HTTPHeaders()
            octets.contentType = .binary
            for start in stride(from: 0, to: speech.count, by: 4_000) {
                let piece = Array(speech[start..<min(start + 4_000, speech.count)]).withUnsafeBytes { Array($0) }  // little-endian here
                let heard = try await app.send(.POST, "/api/voice/listen/\(id)", token: ada, headers: octets, body: ByteBuffer(bytes: piece))
                #expect(heard.status == .ok, "\(heard.body.string)")
            }
            let odd = try await app.send(.POST, "/api/voice/listen/\(id)", token: ada, headers: octets, body: ByteBuffer(bytes: [1, 2, 3]))
            #expect(odd.status == .badRequest)
            // Another user finds no such session, to add to or to answer.
            let intruder = try await app.send(.POST, "/api/voice/listen/\(id)", token: bob, headers: octets, body: ByteBuffer(bytes: [0, 0]))
            #expect(intruder.status == .notFound)
            let stolen = try await app.send(.POST, "/api/voice/turn", token: bob, json: #"{"listening_id":"\#(id)","model":"openai:gpt-4o-mini"}"#)
            #expect(stolen.status == .notFound)
            #expect(model.requests.isEmpty)

            let turn = try await app.send(.POST, "/api/voice/turn", token: ada, json: #"{"listening_id":"\#(id)","model":"openai:gpt-4o-mini"}"#)
            #expect(turn.status == .ok, "\(turn.body.string)")
            let events = Self.events(turn.body)
            let heard = (events.first { $0.name == "stt-end" }?.data["text"] as? String ?? "").lowercased()
            #expect(heard.contains("spider"), "\(events.map(\.name)) \(heard)")
            #expect(events.contains { $0.name == "tts-audio" })
            let again = try await app.send(.POST, "/api/voice/turn", token: ada, json: #"{"listening_id":"\#(id)","model":"openai:gpt-4o-mini"}"#)
            #expect(again.status == .notFound, "a session is taken by one turn")

            // Silence only: nothing heard, nothing sent to the model.
            let quiet = try await app.send(.POST, "/api/voice/listen", token: ada, json: #"{"model":"openai:gpt-4o-mini"}"#)
            let quietID = try quiet.content.decode(VoiceController.ListeningStarted.self).id
            _ = try await app.send(.POST, "/api/voice/listen/\(quietID)", token: ada, headers: octets, body: ByteBuffer(bytes: [UInt8](repeating: 0, count: 64_000)))
            let nothing = Self.events(try await app.send(.POST, "/api/voice/turn", token: ada, json: #"{"listening_id":"\#(quietID)","model":"openai:gpt-4o-mini"}"#).body)
            #expect(nothing.map(\.name) == ["run-start", "stt-start", "error", "run-end"])
            #expect(model.requests.count == 1)

            // Over two minutes is refused, and the session is gone.
            let long = try await app.send(.POST, "/api/voice/listen", token: ada, json: #"{"model":"openai:gpt-4o-mini"}"#)
            let longID = try long.content.decode(VoiceController.ListeningStarted.self).id
            var last: HTTPStatus = .ok
            for _ in 0..<5 where last == .ok {
                last = try await app.send(.POST, "/api/voice/listen/\(longID)", token: ada, headers: octets, body: ByteBuffer(bytes: [UInt8](repeating: 0, count: 1_000_000))).status
            }
            #expect(last == .payloadTooLarge)
        }
    }

    @Test("bad input: no recording, noise that is not audio, a too-short one, an empty question; nothing reaches the model")
    func badInput() async throws {
        try await withVoiceServer(Self.streaming(["unused"])) { app, model, ada in
            var wav = HTTPHeaders()
            wav.contentType = HTTPMediaType(type: "audio", subType: "wav")
            let garbage = try await app.send(.POST, "/api/voice/transcribe", token: ada, headers: wav, body: ByteBuffer(bytes: Array(repeating: 0x5A, count: 4000)))
            #expect(garbage.status == .unsupportedMediaType)
            #expect(garbage.errorCode == "unreadable_audio")
            let empty = try await app.send(.POST, "/api/voice/transcribe", token: ada, headers: wav, body: ByteBuffer())
            #expect(empty.errorCode == "recording_too_short" || empty.status == .badRequest)
            let blank = try await app.send(.POST, "/api/voice/reply", token: ada, json: #"{"text":"   "}"#)
            #expect(blank.status == .unprocessableEntity)
            #expect(blank.errorCode == "empty_text")
            let unknownModel = try await app.send(.POST, "/api/voice/reply", token: ada, json: #"{"text":"Hi","model":"anthropic:claude-3-5-haiku-latest"}"#)
            #expect(unknownModel.errorCode == "missing_key")
            #expect(try await app.send(.POST, "/api/voice/speak", token: ada, json: #"{"text":"Hi","voice":"nobody:none"}"#).errorCode == "unknown_voice")
            #expect(try await app.send(.POST, "/api/voice/reply", json: #"{"text":"Hi"}"#).status == .unauthorized)
            #expect(model.requests.isEmpty)
        }
    }
}

@Suite("Voice chat conversations", .serialized)
struct VoiceConversationAPITests {
    static let reply = ["Because the sky scatters", " blue light most. It is called", " Rayleigh scattering."]

    func turn(_ app: Application, _ token: String, _ text: String, conversation: String) async throws -> [(name: String, data: [String: Any])] {
        let body = JSONValue.object(["text": .string(text), "model": "openai:gpt-4o-mini", "conversation_id": .string(conversation)]).canonicalText
        let response = try await app.send(.POST, "/api/voice/turn", token: token, json: body)
        #expect(response.status == .ok, "\(response.body.string)")
        return VoiceAPITests.events(response.body)
    }

    @Test("turns are kept per user: listed, the history comes from the server, a reply spoken over keeps what was heard, a failed reply keeps the question once")
    func keptConversations() async throws {
        try await VoiceAPITests().withVoiceServer(VoiceAPITests.streaming(Self.reply)) { app, model, ada in
            // A failed reply first: the question is kept, with no half answer.
            model.enqueue(LoopbackReply(status: 500, json: ["error": ["message": "overloaded"]]))
            let failed = try await turn(app, ada, "Why is the sky blue?", conversation: "new")
            #expect(failed.map(\.name).prefix(2) == ["run-start", "conversation"], "\(failed.map(\.name))")
            #expect(failed.contains { $0.name == "error" && $0.data["stage"] as? String == "llm" })
            let id = try #require(failed.first { $0.name == "conversation" }?.data["id"] as? String)

            // Asked again (retry of the reply alone): one question, one reply.
            let events = try await turn(app, ada, "Why is the sky blue?", conversation: id)
            #expect(!events.contains { $0.name == "error" }, "\(events.filter { $0.name == "error" }.map(\.data))")
            let list = try await app.send(.GET, "/api/voice/conversations", token: ada)
            let conversations = try #require(list.json?["conversations"]?.arrayValue)
            #expect(conversations.count == 1)
            #expect(conversations.first?["title"]?.stringValue == "Why is the sky blue?")
            #expect(conversations.first?["messages"] == nil)
            var kept = try await app.send(.GET, "/api/voice/conversations/\(id)", token: ada).json?["messages"]?.arrayValue ?? []
            #expect(kept.compactMap { $0["text"]?.stringValue } == ["Why is the sky blue?", Self.reply.joined()])

            // Spoken over after the first sentence: only that is remembered and sent next time.
            let notHeard = try await app.send(.POST, "/api/voice/conversations/\(id)/heard", token: ada, json: #"{"text":"It was green."}"#)
            #expect(notHeard.status == .unprocessableEntity)
            let heard = try await app.send(.POST, "/api/voice/conversations/\(id)/heard", token: ada, json: #"{"text":"Because the sky scatters blue light most."}"#)
            #expect(heard.status == .ok, "\(heard.body.string)")
            kept = heard.json?["messages"]?.arrayValue ?? []
            #expect(kept.last?["text"]?.stringValue == "Because the sky scatters blue light most.")
            #expect(kept.last?["interrupted"] == .bool(true))
            _ = try await turn(app, ada, "And sunsets?", conversation: id)
            let messages = try #require(model.requests.last?.json?["messages"]?.arrayValue)
            #expect(messages.compactMap { $0["content"]?.stringValue }.suffix(3) == ["Why is the sky blue?", "Because the sky scatters blue light most.", "And sunsets?"])
            #expect(try await app.send(.GET, "/api/voice/conversations/\(id)", token: ada).json?["messages"]?.arrayValue?.count == 4)

            // Another user cannot see, use, mark or delete it.
            let bob = try await app.register("bob@example.com").access_token
            #expect(try await app.send(.GET, "/api/voice/conversations", token: bob).json?["conversations"]?.arrayValue?.isEmpty == true)
            #expect(try await app.send(.GET, "/api/voice/conversations/\(id)", token: bob).status == .notFound)
            #expect(try await app.send(.POST, "/api/voice/conversations/\(id)/heard", token: bob, json: #"{"text":""}"#).status == .notFound)
            #expect(try await app.send(.DELETE, "/api/voice/conversations/\(id)", token: bob).status == .notFound)
            let stolen = try await app.send(.POST, "/api/voice/turn", token: bob, json: #"{"text":"Hi","conversation_id":"\#(id)"}"#)
            #expect(stolen.status == .notFound)

            #expect(try await app.send(.DELETE, "/api/voice/conversations/\(id)", token: ada).status == .noContent)
            #expect(try await app.send(.GET, "/api/voice/conversations/\(id)", token: ada).status == .notFound)
        }
    }
}

@Suite("Voice chat with OpenAI's transcription", .serialized)
struct OpenAITranscriptionTests {
    /// OpenAI's wire format for both: `/v1/audio/transcriptions` answers `{"text"}`, chat
    /// completions stream.
    static let openai: LoopbackServer.Handler = { request in
        if request.uri.hasPrefix("/v1/audio/transcriptions") {
            return LoopbackReply(status: 200, json: ["text": "What is the capital of Peru?"])
        }
        return await VoiceAPITests.streaming(["Lima is the capital of Peru."])(request)
    }

    @Test("a recording heard by OpenAI with the user's key: the multipart request as documented, the text as the question")
    func openAIHears() async throws {
        try await VoiceAPITests().withVoiceServer(Self.openai) { app, model, ada in
            let (headers, body) = VoiceAPITests.form(
                audio: try VoiceAPITests.spoken("What is the capital of Peru?"),
                fields: ["model": "openai:gpt-4o-mini", "transcriber": "openai:whisper-1"])
            let reply = try await app.send(.POST, "/api/voice/turn", token: ada, headers: headers, body: body)
            let events = VoiceAPITests.events(reply.body)
            #expect(!events.contains { $0.name == "error" }, "\(events.filter { $0.name == "error" }.map(\.data))")
            #expect(events.first { $0.name == "stt-end" }?.data["text"] as? String == "What is the capital of Peru?")
            let transcription = try #require(model.requests.first { $0.uri == "/v1/audio/transcriptions" })
            #expect(transcription.method == "POST")
            #expect(transcription.header("authorization") == "Bearer \(VoiceAPITests.key)")
            let type = try #require(transcription.header("content-type"))
            #expect(type.hasPrefix("multipart/form-data; boundary="))
            let text = String(decoding: transcription.body, as: UTF8.self)
            #expect(text.contains("name=\"model\"\r\n\r\nwhisper-1\r\n"))
            #expect(text.contains("name=\"response_format\"\r\n\r\njson\r\n"))
            #expect(text.contains("name=\"file\"; filename=\"speech.wav\"\r\nContent-Type: audio/wav\r\n\r\nRIFF"))
            // The question went to the model as OpenAI heard it.
            let messages = model.requests.last?.json?["messages"]?.arrayValue
            #expect(messages?.last?["content"]?.stringValue == "What is the capital of Peru?")

            // The transcription stage alone, and refusals before any recording is sent.
            var wav = HTTPHeaders()
            wav.contentType = HTTPMediaType(type: "audio", subType: "wav")
            let alone = try await app.send(.POST, "/api/voice/transcribe?transcriber=openai", token: ada, headers: wav,
                                           body: ByteBuffer(bytes: try VoiceAPITests.spoken("Hello.")))
            #expect(alone.json?["text"]?.stringValue == "What is the capital of Peru?")
            let bob = try await app.register("bob@example.com").access_token
            let noKey = try await app.send(.POST, "/api/voice/transcribe?transcriber=openai", token: bob, headers: wav,
                                           body: ByteBuffer(bytes: try VoiceAPITests.spoken("Hello.")))
            #expect(noKey.errorCode == "missing_key")
            let unknown = try await app.send(.POST, "/api/voice/turn?transcriber=deepgram", token: ada, headers: wav,
                                             body: ByteBuffer(bytes: try VoiceAPITests.spoken("Hello.")))
            #expect(unknown.errorCode == "invalid_transcriber")
        }
    }
}
