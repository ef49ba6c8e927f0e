import Foundation
import Synchronization
import Testing
import TestSupport
import VendorHTTP

/// A journey told by `storyvoice worker` processes beside `storyvoice serve --workers 0`, with
/// the user's own model (OpenAI's wire format) and a Gemini voice on the user's own key (Gemini's
/// `generateContent` wire format, 24 kHz PCM), both on one loopback server. The first worker is
/// killed while part 2 is being written; a second one takes the job over when its lease runs
/// out and finishes the story, keeping part 1 as it was told.
@Suite(.serialized) struct JourneyWorkerTests {
    struct Sentence: Decodable, Equatable { var text: String; var audio_url: String; var duration_s: Double }
    struct Part: Decodable { var number: Int; var status: String; var sentences: [Sentence] }
    struct Journey: Decodable { var id: String; var status: String; var error: String?; var parts: [Part] }

    static let geminiKey = "AIza-ada-own-gemini-key-4455"
    /// One second of Gemini's audio (24,000 samples at its 24 kHz) for every sentence.
    static let secondOfSpeech = SpeechWire.pcm(samples: 24_000)

    @Test func aJourneyToldByWorkerProcessesInGeminisVoiceSurvivesAKilledWorker() async throws {
        let gate = Gate()
        let handler: LoopbackServer.Handler = { request in
            if request.uri.contains(":generateContent") { return SpeechWire.geminiAudio(Self.secondOfSpeech) }
            // Part 2 waits until the test has killed the worker asking for it.
            if Self.asksForPartTwo(request) { await gate.wait() }
            return await JourneyModel.handler(request)
        }
        try await LoopbackServer.withServer(handler: handler) { vendor in
            let scratch = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let server = ServerProcess(dataDirectory: scratch.appendingPathComponent("data"), environment: [
                "STORYVOICE_ENGINES": "espeak-ng,gemini", "GEMINI_BASE_URL": vendor.baseURL, "OPENAI_BASE_URL": vendor.baseURL + "/v1",
            ], workers: 0)
            try await server.start()
            defer { server.kill() }
            let ada = try await server.register("ada@example.com")
            let keys = #"{"api_keys":{"openai":"\#(JourneyModel.key)","gemini":"\#(Self.geminiKey)"}}"#
            #expect(try await server.request("PUT", "/api/settings", token: ada, body: Data(keys.utf8)).1 == 200)
            let start = #"{"start":"51.7520,-1.2577","end":"51.7530,-1.2577","mode":"walking","style":"noir","voice":"gemini:Kore","model":"openai:gpt-4o-mini"}"#
            let id = try await server.post("/api/journeys", json: start, token: ada, as: Journey.self).id

            let first = try server.startWorker()
            defer { ServerProcess.stop(first) }
            var journey = try await server.get("/api/journeys/\(id)", token: ada, as: Journey.self)
            try await server.waitUntil("the first worker has told part 1 and is asking for part 2") {
                guard first.isRunning else { throw ServerProcess.ServerExited(status: first.terminationStatus) }
                journey = try await server.get("/api/journeys/\(id)", token: ada, as: Journey.self)
                return journey.parts.first?.status == "ready" && vendor.requests.contains(where: Self.asksForPartTwo)
            }
            let partOne = try #require(journey.parts.first).sentences
            ServerProcess.stop(first)
            gate.open()

            let second = try server.startWorker()
            defer { ServerProcess.stop(second) }
            try await server.waitUntil("the second worker finishes the story") {
                guard second.isRunning else { throw ServerProcess.ServerExited(status: second.terminationStatus) }
                journey = try await server.get("/api/journeys/\(id)", token: ada, as: Journey.self)
                return ["complete", "failed"].contains(journey.status)
            }
            #expect(journey.status == "complete", "\(journey.error ?? "")")
            #expect(journey.parts.map(\.status) == ["ready", "ready"])
            #expect(journey.parts.first?.sentences == partOne, "part 1 is kept as it was told")
            #expect(vendor.requests.filter { Self.userMessage($0).contains("Begin the story now") }.count == 1, "part 1 was written once")

            // Every sentence is Gemini's second of audio, asked for with ada's key and her words.
            let spoken = vendor.requests.filter { $0.uri.contains(":generateContent") }
            #expect(spoken.allSatisfy { $0.uri.hasPrefix("/v1beta/models/gemini-2.5-flash-preview-tts:generateContent") })
            #expect(spoken.allSatisfy { $0.header("x-goog-api-key") == Self.geminiKey })
            #expect(spoken.allSatisfy { $0.json?["generationConfig"]?["speechConfig"]?["voiceConfig"]?["prebuiltVoiceConfig"]?["voiceName"]?.stringValue == "Kore" })
            let asked = Set(spoken.compactMap { $0.json?["contents"]?[0]?["parts"]?[0]?["text"]?.stringValue })
            for part in journey.parts {
                #expect(part.sentences.count >= 3)
                for sentence in part.sentences {
                    #expect(asked.contains(sentence.text), "\(sentence.text)")
                    #expect(abs(sentence.duration_s - 1) < 0.05, "\(sentence.duration_s)")
                    let (audio, status) = try await server.request("GET", sentence.audio_url, token: ada)
                    #expect(status == 200 && audio.starts(with: Array("RIFF".utf8)))
                }
            }
        }
    }

    static func userMessage(_ request: RecordedRequest) -> String {
        request.json?["messages"]?.arrayValue?.last?["content"]?.stringValue ?? ""
    }

    static func asksForPartTwo(_ request: RecordedRequest) -> Bool {
        userMessage(request).contains("Write part 2")
    }
}

/// Closed until opened; every waiter then goes on.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
