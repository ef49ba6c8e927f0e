import Foundation
import Testing
import TestSupport

/// `storyvoice serve` with cloud voices: each user's own stored key unlocks them for that user
/// alone; automatic casting stays on free voices; a line cast with a cloud voice is spoken by
/// the vendor's API with that user's key (a loopback server speaking OpenAI's wire format).
@Suite struct ServerCloudVoiceTests {
    struct Voice: Decodable { var id: String; var cost_per_1000_characters: Double }
    struct Voices: Decodable { var voices: [Voice] }
    struct Story: Decodable { var id: UUID; var analysis_state: String }
    struct StoryList: Decodable { var stories: [Story] }
    struct Line: Decodable { var index: Int; var speaker: String?; var voice: String }
    struct Lines: Decodable { var segments: [Line] }

    @Test func aUsersKeyUnlocksCloudVoicesForThemAlone() async throws {
        let key = "sk-ada-own-key-99887766"
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.openAIAudio(SpeechWire.pcm(samples: 12_000)) }) { vendor in
            let scratch = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let server = ServerProcess(dataDirectory: scratch.appendingPathComponent("data"), environment: [
                "STORYVOICE_ENGINES": "espeak-ng,openai", "OPENAI_BASE_URL": vendor.baseURL + "/v1",
                // The server's own key must never be used for a user.
                "OPENAI_API_KEY": "sk-server-must-not-be-used",
            ])
            try await server.start()
            defer { server.kill() }
            let ada = try await server.register("ada@example.com")
            let bob = try await server.register("bob@example.com")
            #expect(!(try await server.get("/api/voices", token: ada, as: Voices.self)).voices.contains { $0.id.hasPrefix("openai:") })

            let (_, saved) = try await server.request("PUT", "/api/settings", token: ada, body: Data(#"{"api_keys":{"openai":"\#(key)"}}"#.utf8))
            #expect(saved == 200)
            let adaVoices = try await server.get("/api/voices", token: ada, as: Voices.self).voices
            let onyx = try #require(adaVoices.first { $0.id == "openai:onyx" })
            #expect(onyx.cost_per_1000_characters > 0)
            #expect(!(try await server.get("/api/voices", token: bob, as: Voices.self)).voices.contains { $0.id.hasPrefix("openai:") })

            let story = try #require(try await server.get("/api/stories", token: ada, as: StoryList.self).stories.first)
            try await server.waitUntil("the welcome story is analysed") {
                try await server.get("/api/stories/\(story.id)", token: ada, as: Story.self).analysis_state == "analyzed"
            }
            let lines = try await server.get("/api/stories/\(story.id)/segments", token: ada, as: Lines.self).segments
            #expect(!lines.contains { $0.voice.hasPrefix("openai:") }, "automatic casting keeps to free voices")

            let line = try #require(lines.first { $0.speaker != nil })
            let speaker = try #require(line.speaker)
            let (_, cast) = try await server.request("PUT", "/api/stories/\(story.id)/cast/\(speaker)", token: ada, body: Data(#"{"voice":"openai:onyx"}"#.utf8))
            #expect(cast == 200)
            let (audio, status) = try await server.request("GET", "/api/stories/\(story.id)/segments/\(line.index)/audio", token: ada)
            #expect(status == 200 && audio.starts(with: Array("RIFF".utf8)))
            let spoken = try #require(vendor.requests.last)
            #expect(spoken.uri == "/v1/audio/speech")
            #expect(spoken.header("authorization") == "Bearer \(key)")
            #expect(spoken.json?["voice"]?.stringValue == "onyx")
        }
    }
}
