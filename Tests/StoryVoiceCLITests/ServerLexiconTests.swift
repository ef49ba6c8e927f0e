import Foundation
import Testing

/// A story's pronunciation lexicon on `storyvoice serve`: setting it makes exactly the rendered
/// lines that contain the word stale, and the story's text is untouched.
@Suite struct ServerLexiconTests {
    struct Story: Decodable { var id: UUID; var analysis_state: String; var text: String? }
    struct StoryList: Decodable { var stories: [Story] }
    struct Line: Decodable { var index: Int; var text: String; var cached: Bool }
    struct Lines: Decodable { var segments: [Line] }

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
    }
}
