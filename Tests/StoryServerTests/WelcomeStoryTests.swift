import DatabaseTestSupport
import Foundation
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("Welcome story")
struct WelcomeStoryTests {
    typealias StoryList = StoriesAPITests.StoryList

    @Test("every new account finds the welcome story in its library, analysed and ready to play", arguments: Backend.available)
    func newAccountsGetTheSample(_ backend: Backend) async throws {
        try await withNarrationServer(backend, adjust: { $0.welcomeStory = sampleStoryFile }) { app, config, _ in
            let worker = app.startWorker(config)
            defer { worker.cancel() }
            let first = try await app.register("first@example.com").access_token
            let second = try await app.register("second@example.com").access_token

            let mine = try await app.send(.GET, "/api/stories", token: first).content.decode(StoryList.self).stories
            let theirs = try await app.send(.GET, "/api/stories", token: second).content.decode(StoryList.self).stories
            #expect(mine.map(\.title) == ["The Open Window"])
            #expect(theirs.count == 1)
            #expect(theirs.first?.id != mine.first?.id, "each account gets its own copy")

            let id = try #require(mine.first?.id)
            var state = ""
            for _ in 0..<500 where state != "analyzed" {
                state = try await app.send(.GET, "/api/stories/\(id)", token: first).content.decode(StoriesAPITests.Story.self).analysis_state
                if state != "analyzed" { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(state == "analyzed")
            let playback = try await app.send(.GET, "/api/stories/\(id)/segments", token: first)
            #expect(playback.status == .ok)
            #expect(try playback.content.decode(PlaybackList.self).segments.count > 20)
        }
    }

    @Test("an unreadable welcome story never stops anyone from registering")
    func missingFileStillRegisters() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-story-\(UUID().uuidString).txt")
        try await withNarrationServer(adjust: { $0.welcomeStory = missing }) { app, _, _ in
            let token = try await app.register("ada@example.com").access_token
            #expect(try await app.send(.GET, "/api/stories", token: token).content.decode(StoryList.self).stories.isEmpty)
        }
    }
}
