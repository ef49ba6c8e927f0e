import Foundation
import Testing

/// A user who prefers the best voices hears Kokoro for the narrator and every character of the
/// welcome story; by default ("fastest") the same server gives Kokoro only to roles that still let
/// the story render ten times faster than it plays, never to the narrator.
@Suite struct ServerVoicesPreferenceTests {
    struct Line: Decodable { var voice: String; var speaker: String? }
    struct Lines: Decodable { var segments: [Line] }

    @Test func preferringTheBestCastsKokoroToEveryRole() async throws {
        let kokoro = CLI.repositoryRoot.appendingPathComponent(".models/kokoro/kokoro-v1.0.int8.onnx")
        try #require(FileManager.default.fileExists(atPath: kokoro.path), "Kokoro is not installed; run scripts/setup")
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = ServerProcess(dataDirectory: scratch.appendingPathComponent("data"), environment: ["STORYVOICE_ENGINES": "espeak-ng,kokoro"])
        try await server.start()
        defer { server.kill() }
        let (token, story) = try await server.readerWithAnalysedWelcomeStory("listener@example.com")

        let fastest = try await server.get("/api/stories/\(story)/segments", token: token, as: Lines.self).segments
        #expect(fastest.filter { $0.speaker == nil }.allSatisfy { $0.voice.hasPrefix("espeak-ng:") })
        struct Estimates: Decodable {
            struct Entry: Decodable { var voices: String; var seconds: Double; var audio_seconds: Double }
            var estimates: [Entry]
        }
        let estimates = try await server.get("/api/stories/\(story)/render/estimate", token: token, as: Estimates.self).estimates
        let quick = try #require(estimates.first { $0.voices == "fastest" })
        #expect(quick.seconds <= quick.audio_seconds / 10 + 0.5, "\(quick)")

        let (_, status) = try await server.request("PUT", "/api/settings", token: token, body: Data(#"{"narration":{"voices":"best"}}"#.utf8))
        #expect(status == 200)
        let best = try await server.get("/api/stories/\(story)/segments", token: token, as: Lines.self).segments
        let notNeural = best.filter { !$0.voice.hasPrefix("kokoro:") }
        #expect(notNeural.isEmpty, "\(Set(notNeural.map { "\($0.speaker ?? "narrator") → \($0.voice)" }))")
        #expect(Set(best.compactMap(\.speaker)).count >= 3)
    }
}
