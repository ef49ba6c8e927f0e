import Foundation
import Testing

/// A story's pronunciation lexicon on `storyvoice serve`: setting it makes exactly the rendered
/// lines that contain the word stale, and the story's text is untouched.
@Suite struct ServerLexiconTests {
    struct Story: Decodable { var id: UUID; var analysis_state: String; var text: String? }
    struct StoryList: Decodable { var stories: [Story] }
    struct Line: Decodable { var index: Int; var text: String; var cached: Bool; var voice: String; var speaker: String? }
    struct Lines: Decodable { var segments: [Line] }
    struct Voice: Decodable { var id: String; var engine: String }
    struct Voices: Decodable { var voices: [Voice] }

    @Test func aLexiconEntryMakesExactlyTheLinesWithTheWordStale() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = ServerProcess(dataDirectory: scratch.appendingPathComponent("data"))
        try await server.start()
        defer { server.kill() }
        let token = try await server.register("reader@example.com")
        let story = try #require(try await server.get("/api/stories", token: token, as: StoryList.self).stories.first)
        try await server.waitUntil("the welcome story is analysed") {
            try await server.get("/api/stories/\(story.id)", token: token, as: Story.self).analysis_state == "analyzed"
        }

        // Render every line, as playing the whole story would.
        let lines = try await server.get("/api/stories/\(story.id)/segments", token: token, as: Lines.self).segments
        for line in lines where !line.cached {
            let (_, status) = try await server.request("GET", "/api/stories/\(story.id)/segments/\(line.index)/audio", token: token)
            #expect(status == 200)
        }
        #expect(try await server.get("/api/stories/\(story.id)/segments", token: token, as: Lines.self).segments.allSatisfy(\.cached))

        let (_, saved) = try await server.request("PUT", "/api/stories/\(story.id)/lexicon", token: token, body: Data(#"{"entries":{"Nuttel":"Nuttle"}}"#.utf8))
        #expect(saved == 200)
        let after = try await server.get("/api/stories/\(story.id)/segments", token: token, as: Lines.self).segments
        let withWord = Set(after.filter { $0.text.range(of: #"\bNuttel\b"#, options: [.regularExpression, .caseInsensitive]) != nil }.map(\.index))
        #expect(!withWord.isEmpty)
        #expect(Set(after.filter { !$0.cached }.map(\.index)) == withWord)
        #expect(try await server.get("/api/stories/\(story.id)", token: token, as: Story.self).text?.contains("Nuttle") == false)

        let (_, invalid) = try await server.request("PUT", "/api/stories/\(story.id)/lexicon", token: token, body: Data(#"{"entries":{"":"x"}}"#.utf8))
        #expect(invalid == 422)

        // Phonemes for the narrator's engine, as the web app's box sends them: only the lines
        // with the word that a voice of that engine speaks are rendered again; lines whose
        // engine reads no phonemes keep the respelling they already have.
        for line in after where !line.cached {
            let (_, status) = try await server.request("GET", "/api/stories/\(story.id)/segments/\(line.index)/audio", token: token)
            #expect(status == 200)
        }
        let engines = Dictionary(uniqueKeysWithValues: try await server.get("/api/voices", token: token, as: Voices.self).voices.map { ($0.id, $0.engine) })
        let narrator = try #require(after.first { $0.speaker == nil && withWord.contains($0.index) })
        let engine = try #require(engines[narrator.voice])
        let phonemes = ["espeak-ng": "n'Vt@l", "piper": "nˈʌtəl", "hibari": "nˈʌtəl", "kokoro": "nˈʌtəl"]
        try #require(phonemes[engine] != nil, "the narrator speaks with \(engine), which reads no phonemes")
        let text = "Nuttel = Nuttle | \(engine) [[\(phonemes[engine]!)]]"
        let body = try JSONEncoder().encode(["text": text])
        let (_, phonemesSaved) = try await server.request("PUT", "/api/stories/\(story.id)/lexicon", token: token, body: body)
        #expect(phonemesSaved == 200)
        let withPhonemes = try await server.get("/api/stories/\(story.id)/segments", token: token, as: Lines.self).segments
        let voiceOf = Dictionary(uniqueKeysWithValues: withPhonemes.map { ($0.index, $0.voice) })
        let spokenByEngine = withWord.filter { voiceOf[$0].flatMap { engines[$0] } == engine }
        #expect(spokenByEngine.contains(narrator.index))
        #expect(Set(withPhonemes.filter { !$0.cached }.map(\.index)) == spokenByEngine)
        let (audio, status) = try await server.request("GET", "/api/stories/\(story.id)/segments/\(narrator.index)/audio", token: token)
        #expect(status == 200 && audio.count > 10_000, "a line read from phonemes: \(audio.count) bytes")
    }
}
