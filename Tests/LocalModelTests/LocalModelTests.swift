import AsyncHTTPClient
import Foundation
@testable import LanguageModels
@testable import LocalModel
import ProcessWorkers
import Testing
import VendorHTTP

#if canImport(Glibc)
import Glibc
#endif

/// The model on this machine, for real: one server for the suite (loading it takes seconds),
/// short requests so the suite fits a two-core CI run.
@Suite("The local language model", .serialized)
struct LocalModelTests {
    static let server: LocalModelServer? = LocalModelSetup.located().map { LocalModelServer(setup: $0) }
    static let factory = LanguageModelFactory(local: server)

    func model() throws -> LocalLanguageModel {
        try #require(Self.server, "the local model is not installed: run scripts/setup")
        return try Self.factory.makeLocalModel()
    }

    @Test("a schema-constrained request answers valid JSON of exactly the requested shape")
    func constrainedJSON() async throws {
        let schema = ResponseSchema(name: "character", schema: [
            "type": "object",
            "properties": [
                "name": ["type": "string"],
                "mood": ["type": "string", "enum": ["happy", "sad", "angry", "calm"]],
                "age": ["type": "integer"],
            ],
            "required": ["name", "mood", "age"],
            "additionalProperties": false,
        ])
        let request = CompletionRequest(
            system: "You describe story characters as JSON.",
            user: "Describe the old fisherman who waits calmly on the pier every morning.",
            schema: schema, maxOutputTokens: 60)
        let answer = try await model().complete(request)
        let json = try #require(answer.json, "not JSON: \(answer.text)")
        #expect(json.objectValue.map { Set($0.keys) } == ["name", "mood", "age"])
        #expect(json["name"]?.stringValue?.isEmpty == false)
        #expect(["happy", "sad", "angry", "calm"].contains(json["mood"]?.stringValue ?? ""))
        #expect(json["age"]?.intValue != nil)
        #expect(answer.provider == .local)
        #expect(answer.usage.outputTokens > 0)
    }

    @Test("a reply streams in pieces that add up to the answer")
    func streams() async throws {
        var pieces: [String] = []
        var finished: CompletionResponse?
        // Greedy (temperature 0), so the reply is the same every run; its words are the model's.
        let request = CompletionRequest(
            system: "You greet people warmly.", user: "Greet a listener in one sentence of about ten words.", temperature: 0, maxOutputTokens: 60)
        for try await event in try model().stream(request) {
            switch event {
            case .text(let piece): pieces.append(piece)
            case .finished(let response): finished = response
            }
        }
        #expect(pieces.count > 1)
        #expect(finished?.text == pieces.joined())
        let problems = AnswerCheck(words: 1...60).problems(in: finished?.text ?? "")
        #expect(problems.isEmpty, "\(finished?.text ?? "")")
    }

    @Test("a request cancelled mid-answer frees the model: it stops generating and answers the next at once")
    func cancellationFreesTheModel() async throws {
        let model = try model()
        let before = try await Self.tokensPredicted()
        let long = CompletionRequest(system: "You write long stories.", user: "Write a very long story about a lighthouse.", temperature: 0.7, maxOutputTokens: 1500)
        let listener = Task {
            var pieces = 0
            for try await event in model.stream(long) {
                if case .text = event { pieces += 1 }
                if pieces == 5 { return pieces }
            }
            return pieces
        }
        #expect(try await listener.value == 5)
        let short = try await model.complete(CompletionRequest(system: "You answer in one word.", user: "What colour is the sea?", maxOutputTokens: 30))
        #expect(!short.text.isEmpty)
        // Generation stopped with the hang-up: far fewer tokens than the long request allowed.
        let spent = try await Self.tokensPredicted() - before
        #expect(spent < 300, "\(spent) tokens were generated after the cancelled request")
    }

    @Test("a server killed mid-answer is started again and the answer goes on from where it stopped")
    func restartsAfterACrash() async throws {
        let model = try model()
        let server = try #require(Self.server)
        _ = try await model.complete(CompletionRequest(system: "You answer in one word.", user: "Say yes.", maxOutputTokens: 30))
        let first = try #require(await server.processID)
        let request = CompletionRequest(system: "You answer briefly.", user: "Count from one to twenty in words, separated by commas.", maxOutputTokens: 200)
        var pieces: [String] = []
        var response: CompletionResponse?
        for try await event in model.stream(request) {
            switch event {
            case .text(let piece):
                pieces.append(piece)
                if pieces.count == 3 { kill(first, SIGKILL) }
            case .finished(let finished):
                response = finished
            }
        }
        let answer = try #require(response)
        // The text streamed is the answer whole: what came before the crash and what the new
        // server wrote after it, once each.
        #expect(answer.text == pieces.joined())
        #expect(pieces.count > 3)
        let second = try #require(await server.processID)
        #expect(second != first)
    }

    @Test("a server that cannot run a line of its own ends with StoryVoice's end of its input, and on SIGTERM")
    func frozenServerEnds() async throws {
        let setup = try #require(Self.server?.setup, "the local model is not installed: run scripts/setup")
        for ending in ["end of input", "SIGTERM"] {
            let input = try ChildProcess.makePipe(), output = try ChildProcess.makePipe(), null = try ChildProcess.openNull()
            let server = try ChildProcess.spawn(
                executable: setup.python, arguments: setup.serveArguments, environment: ["STORYVOICE_LOCAL_LLM_KEY": "test"],
                standardInput: input.read.fileDescriptor, standardOutput: output.write.fileDescriptor, standardError: null.fileDescriptor)
            defer { server.send(signal: SIGKILL) }
            try input.read.close()
            try output.write.close()
            let descriptor = output.read.fileDescriptor
            let ready = await Task.detached { Self.firstLine(of: descriptor) }.value
            #expect(ready.contains("\"ready\": true"), "\(ending): \(ready)")
            // Stopped, the process runs nothing: not its threads, not a Python signal handler.
            // (A server once outlived StoryVoice with every thread stuck in a lock wait.)
            kill(server.processIdentifier, SIGSTOP)
            if ending == "SIGTERM" {
                // Linux keeps any signal but SIGKILL pending while a process is stopped; once it
                // runs again the kernel's default action ends it before any of its code runs, so
                // it dies of SIGTERM itself. A Python handler would have exited on its own terms.
                server.terminate()
                kill(server.processIdentifier, SIGCONT)
            } else {
                try input.write.close()
            }
            for _ in 0..<600 where server.isRunning { try await Task.sleep(for: .milliseconds(100)) }
            #expect(!server.isRunning, "a frozen server outlived \(ending)")
            if ending == "SIGTERM" { #expect(server.status == .signaled(SIGTERM), "\(server.exitDescription)") }
        }
    }

    @Test("a prompt longer than the model reads is refused with what to do, before it is sent")
    func promptOverTheContext() async throws {
        let huge = String(repeating: "The waves rolled in and out again. ", count: 2000)
        let error = await #expect(throws: LanguageModelError.self) {
            _ = try await model().complete(CompletionRequest(system: "Summarise.", user: huge, maxOutputTokens: 100))
        }
        #expect(error?.description.contains("shorten it") == true, "\(String(describing: error))")
    }

    /// The first line a process writes to `descriptor` (blocks: call it off the cooperative pool).
    static func firstLine(of descriptor: Int32) -> String {
        var bytes: [UInt8] = [], byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// llama.cpp's count of generated tokens (its Prometheus `/metrics`).
    static func tokensPredicted() async throws -> Int {
        let server = try #require(server)
        let endpoint = try await server.endpoint()
        var request = HTTPClientRequest(url: endpoint.baseURL.replacingOccurrences(of: "/v1", with: "") + "/metrics")
        request.headers.add(name: "Authorization", value: "Bearer \(endpoint.key.value)")
        request.headers.add(name: "Connection", value: "close")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("llamacpp:tokens_predicted_total") }, "no metrics: \(text.prefix(200))")
        return Int(Double(line.split(separator: " ").last ?? "") ?? -1)
    }
}

@Suite("A broken local model")
struct BrokenLocalModelTests {
    static func setup(model file: String) throws -> LocalModelSetup {
        var setup = try #require(LocalModelSetup.located(), "run scripts/setup")
        setup.modelFile = file
        return setup
    }

    @Test("a missing model file is refused with what to do")
    func missingFile() async throws {
        let server = LocalModelServer(setup: try Self.setup(model: "/nonexistent/model.gguf"))
        let error = await #expect(throws: LanguageModelError.self) { _ = try await server.endpoint() }
        #expect(error?.description.contains("/nonexistent/model.gguf") == true, "\(String(describing: error))")
        #expect(error?.description.contains("scripts/setup") == true)
        let check = await LocalModelCheck.run(try Self.setup(model: "/nonexistent/model.gguf"))
        #expect(check.problem?.contains("cannot read") == true, "\(String(describing: check.problem))")
    }

    @Test("a truncated or damaged model file is refused with what to do")
    func damagedFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The bundled file's name, so the check knows which SHA-256 it must have.
        let damaged = folder.appendingPathComponent("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
        var bytes = Data("GGUF".utf8)
        bytes.append(Data(repeating: 7, count: 4096))
        try bytes.write(to: damaged)
        let check = await LocalModelCheck.run(try Self.setup(model: damaged.path))
        #expect(check.problem?.contains("damaged") == true, "\(String(describing: check.problem))")
        let server = LocalModelServer(setup: try Self.setup(model: damaged.path))
        let error = await #expect(throws: LanguageModelError.self) { _ = try await server.endpoint() }
        #expect(error?.description.contains(damaged.path) == true, "\(String(describing: error))")
        #expect(error?.description.contains("storyvoice doctor") == true)
    }
}

@Suite("The local model's prompts")
struct LocalModelPromptTests {
    @Test("a schema is put in words after the user's message, so that requests with one opening and different schemas share the server's prompt cache")
    func schemaAfterTheUserMessage() {
        let schema = ResponseSchema(name: "story_beats", schema: ["type": "object", "properties": ["part_3": ["type": "string"]]])
        let request = CompletionRequest(system: "Plans are made here.", user: "The trip.\n\nAnswer with a beat.", schema: schema, maxOutputTokens: 40)
        let described = LocalLanguageModel.describingSchema(request)
        #expect(described.system == "Plans are made here.")
        #expect(described.user.hasPrefix("The trip.\n\nAnswer with a beat.\n\nAnswer with one JSON object only"))
        #expect(described.user.hasSuffix(schema.schema.canonicalText))
        let plain = CompletionRequest(system: "Plans are made here.", user: "The trip.", maxOutputTokens: 40)
        #expect(LocalLanguageModel.describingSchema(plain) == plain)
    }
}
