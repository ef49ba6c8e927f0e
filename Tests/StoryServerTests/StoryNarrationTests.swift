import DatabaseTestSupport
import Foundation
import Jobs
import NIOCore
import Platform
import StoryModel
import Persistence
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

/// The sample story every story-screen test uses (and `make run`'s welcome story).
let sampleStoryFile = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples/the-open-window.txt")
let sampleStory = try! String(contentsOf: sampleStoryFile, encoding: .utf8)

struct AnalysisReply: Decodable {
    var state: String
    var analysis: StoryAnalysis?
    var cast: Cast?
    var overrides: CastOverrides
}

struct PlaybackLine: Decodable {
    var index: Int
    var segment: Int
    var speaker: String?
    var speaker_name: String
    var voice: String
    var text: String
    var cached: Bool
    var audio_url: String
}

struct PlaybackList: Decodable { var segments: [PlaybackLine] }

struct JobReply: Decodable {
    var id: UUID
    var status: String
    var result: String?
    var error: String?
}

/// A server with the narration double and a worker that the test starts and stops.
func withNarrationServer(
    _ backend: Backend = .sqlite, stallAfter: Int? = nil,
    adjust: (inout ServerConfig) -> Void = { _ in },
    _ body: (Application, ServerConfig, NarrationDouble) async throws -> Void
) async throws {
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-double-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let narration = try NarrationDouble(cacheDirectory: cache, stallAfter: stallAfter)
    try await withServer(backend, adjust: { $0.narration = narration; adjust(&$0) }) { app, config, _ in
        try await body(app, config, narration)
    }
}

extension Application {
    /// Starts a worker with the story jobs; cancel the task to stop it (as SIGTERM would).
    func startWorker(_ config: ServerConfig) -> Task<Void, Never> {
        let worker = JobWorker(
            queue: JobQueue(database: appDatabase), registry: config.standardJobHandlers(),
            configuration: .init(concurrency: 1, pollInterval: .milliseconds(10)), logger: logger)
        return Task { await worker.run() }
    }

    /// Polls the job until `done` holds for it.
    func waitForJob(_ id: UUID, token: String, until done: (JobReply) -> Bool = { ["succeeded", "failed"].contains($0.status) }) async throws -> JobReply {
        while true {
            let job = try await send(.GET, "/api/jobs/\(id)", token: token).content.decode(JobReply.self)
            if done(job) { return job }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func createSample(_ token: String) async throws -> UUID {
        let body = try String(decoding: JSONEncoder().encode(["text": sampleStory, "title": "The Open Window"]), as: UTF8.self)
        let created = try await send(.POST, "/api/stories", token: token, json: body)
        struct Created: Decodable { var id: UUID }
        return try created.content.decode(Created.self).id
    }

    /// Imports the sample and analyses it with a worker.
    func analyzedSample(_ token: String, _ config: ServerConfig) async throws -> UUID {
        let story = try await createSample(token)
        let worker = startWorker(config)
        defer { worker.cancel() }
        let queued = try await send(.POST, "/api/stories/\(story)/analyze", token: token)
        #expect(queued.status == .accepted)
        let job = try await waitForJob(try queued.content.decode(JobReply.self).id, token: token)
        #expect(job.status == "succeeded", "\(job.error ?? "")")
        worker.cancel()
        await worker.value
        return story
    }

    func analysis(_ story: UUID, _ token: String) async throws -> AnalysisReply {
        try await send(.GET, "/api/stories/\(story)/analysis", token: token).content.decode(AnalysisReply.self)
    }
}

@Suite("Story narration API")
struct StoryNarrationTests {
    @Test("analysis stores characters and a full cast", arguments: Backend.available)
    func analyze(_ backend: Backend) async throws {
        try await withNarrationServer(backend) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let fresh = try await app.createSample(ada)
            #expect(try await app.analysis(fresh, ada).analysis == nil)
            #expect(try await app.analysis(fresh, ada).state == "not_analyzed")
            let story = try await app.analyzedSample(ada, config)
            let reply = try await app.analysis(story, ada)
            // The opening lines are rendered ahead, so pressing play starts at once.
            let lines = try await app.send(.GET, "/api/stories/\(story)/segments", token: ada).content.decode(PlaybackList.self).segments
            #expect(lines.prefix(3).map(\.cached) == [true, true, false])
            #expect(reply.state == "analyzed")
            let analysis = try #require(reply.analysis)
            #expect(analysis.characters.contains { $0.name == "Mrs. Sappleton" })
            #expect(!analysis.segments.isEmpty)
            let cast = try #require(reply.cast)
            #expect(Set(cast.characters.keys) == Set(analysis.characters.map(\.id)))
        }
    }

    @Test("voice choices survive re-analysis; restoring one brings back the default")
    func overrides() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let character = try #require(try await app.analysis(story, ada).analysis?.characters.first).id
            let set = try await app.send(.PUT, "/api/stories/\(story)/cast/\(character)", token: ada,
                                         json: #"{"voice":"test:bass","rate":1.2,"pitch":-2,"volume":0.9}"#)
            #expect(set.status == .ok, "\(set.body.string)")
            #expect(try await app.send(.PUT, "/api/stories/\(story)/cast/narrator", token: ada, json: #"{"voice":"test:alto"}"#).status == .ok)
            #expect(try await app.send(.PUT, "/api/stories/\(story)/cast/\(character)", token: ada, json: #"{"voice":"nope:x"}"#).errorCode == "unknown_voice")
            #expect(try await app.send(.PUT, "/api/stories/\(story)/cast/\(character)", token: ada, json: #"{"voice":"test:bass","rate":9}"#).status == .unprocessableEntity)

            // Re-analysis keeps them: they are keyed by the analysis' stable ids.
            let worker = app.startWorker(config)
            let job = try await app.send(.POST, "/api/stories/\(story)/analyze", token: ada).content.decode(JobReply.self)
            #expect(try await app.waitForJob(job.id, token: ada).status == "succeeded")
            worker.cancel()
            await worker.value
            var cast = try #require(try await app.analysis(story, ada).cast)
            #expect(cast.characters[character]?.voice == "test:bass")
            #expect(cast.characters[character]?.rate == 1.2)
            #expect(cast.characters[character]?.pitch == -2)
            #expect(cast.narrator.voice == "test:alto")

            #expect(try await app.send(.DELETE, "/api/stories/\(story)/cast/narrator", token: ada).status == .ok)
            let restored = try await app.send(.DELETE, "/api/stories/\(story)/cast/\(character)", token: ada).content.decode(AnalysisReply.self)
            cast = try #require(restored.cast)
            #expect(cast.narrator.voice == "test:bass")
            #expect(cast.characters[character]?.rate == 1)
            #expect(restored.overrides == CastOverrides())
        }
    }

    @Test("edit, add and merge characters")
    func characters() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let before = try #require(try await app.analysis(story, ada).analysis)
            let first = try #require(before.characters.first { $0.lines > 0 })

            let edited = try await app.send(.PATCH, "/api/stories/\(story)/characters/\(first.id)", token: ada,
                                            json: #"{"gender":"female","age_range":"teen","accent":"British","personality":"curious","description":"Vera's visitor, in the country for his nerves"}"#)
            #expect(edited.status == .ok, "\(edited.body.string)")
            let character = try #require(try edited.content.decode(AnalysisReply.self).analysis?.character(id: first.id))
            #expect(character.gender == .female && character.ageRange == .teen)
            #expect(character.accent == "British" && character.personality == "curious")
            #expect(character.description == "Vera's visitor, in the country for his nerves")

            let added = try await app.send(.POST, "/api/stories/\(story)/characters", token: ada, json: #"{"name":"The Aunt","gender":"female"}"#)
            #expect(added.status == .created)
            let aunt = try #require(try added.content.decode(AnalysisReply.self).analysis?.characters.last)
            #expect(aunt.name == "The Aunt")
            #expect(!before.characters.contains { $0.id == aunt.id })

            let merged = try await app.send(.POST, "/api/stories/\(story)/characters/\(first.id)/merge", token: ada, json: #"{"into":"\#(aunt.id)"}"#)
            #expect(merged.status == .ok, "\(merged.body.string)")
            let after = try #require(try merged.content.decode(AnalysisReply.self).analysis)
            #expect(after.character(id: first.id) == nil)
            #expect(after.character(id: aunt.id)?.aliases.contains(first.name) == true)
            #expect(after.character(id: aunt.id)?.lines == first.lines)
            #expect(!after.segments.contains { $0.speaker == first.id })
            #expect(try await app.send(.POST, "/api/stories/\(story)/characters/\(aunt.id)/merge", token: ada, json: #"{"into":"\#(aunt.id)"}"#).status == .unprocessableEntity)
        }
    }

    @Test("reassigning a line's speaker persists and re-renders only that line")
    func reassign() async throws {
        // Only the lines asked for are rendered, so the count of renders is exact.
        try await withNarrationServer(adjust: { $0.ahead = nil }) { app, config, narration in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            var lines = try await app.send(.GET, "/api/stories/\(story)/segments", token: ada).content.decode(PlaybackList.self).segments
            #expect(!lines.isEmpty)
            for line in lines.prefix(12) {
                let audio = try await app.send(.GET, line.audio_url, token: ada)
                #expect(audio.status == .ok)
                #expect(audio.headers.contentType?.description == "audio/wav")
                #expect(audio.body.string.hasPrefix("RIFF"))
            }
            let rendered = narration.synthesizedTexts.count
            #expect(rendered == 12)

            // A narration line (the narrator is test:bass) becomes a line of a woman (test:alto).
            let analysis = try #require(try await app.analysis(story, ada).analysis)
            let target = try #require(lines.prefix(12).first { $0.speaker == nil })
            let speaker = try #require(analysis.characters.first { $0.gender == .female }).id
            let changed = try await app.send(.PATCH, "/api/stories/\(story)/segments/\(target.index)", token: ada, json: #"{"speaker":"\#(speaker)"}"#)
            #expect(changed.status == .ok, "\(changed.body.string)")

            lines = try await app.send(.GET, "/api/stories/\(story)/segments", token: ada).content.decode(PlaybackList.self).segments
            let now = try #require(lines.first { $0.segment == target.segment })
            #expect(now.speaker == speaker)
            #expect(now.voice == "test:alto")
            #expect(!now.cached)
            #expect(lines.prefix(12).filter { !$0.cached }.map(\.segment) == [target.segment])
            #expect(try await app.send(.GET, now.audio_url, token: ada).status == .ok)
            #expect(narration.synthesizedTexts.count == rendered + 1)
            #expect(try await app.send(.PATCH, "/api/stories/\(story)/segments/\(target.index)", token: ada, json: #"{"speaker":"c999"}"#).errorCode == "unknown_character")
            #expect(try await app.send(.GET, "/api/stories/\(story)/segments/100000/audio", token: ada).status == .notFound)
        }
    }

    @Test("an export kept in the bucket: nothing of it stays on the worker, it downloads whole and by range, and goes with its story",
          .enabled(if: TestArtifacts.location != nil, "STORYVOICE_TEST_S3_URL is not set"))
    func exportInBucket() async throws {
        let bucket = try #require(try await TestArtifacts.bucket.store())
        try await withNarrationServer(adjust: { $0.artifacts = bucket }) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let queued = try await app.send(.POST, "/api/stories/\(story)/render", token: ada, json: #"{"format":"mp3"}"#)
            let job = try queued.content.decode(JobReply.self).id
            let worker = app.startWorker(config)
            let done = try await app.waitForJob(job, token: ada)
            worker.cancel()
            await worker.value
            #expect(done.status == "succeeded", "\(done.error ?? "")")

            let renders = config.dataDirectory.rendersDirectory(story: story)
            #expect(!FileManager.default.fileExists(atPath: renders.path), "the worker kept a copy of what it put in the bucket")
            let key = "renders/\(story.uuidString.lowercased())/book.mp3"
            #expect(try await bucket.data("renders/\(story.uuidString.lowercased())/book.timing.json") == Data("[]".utf8))
            let download = try await app.send(.GET, "/api/stories/\(story)/audio", token: ada)
            #expect(download.status == .ok && download.headers.contentType?.description == "audio/mpeg")
            #expect(download.headers.first(name: .contentDisposition)?.contains("The Open Window.mp3") == true)
            #expect(download.headers.first(name: .acceptRanges) == "bytes")
            #expect(download.body.string.hasPrefix("book of"))
            let part = try await app.send(.GET, "/api/stories/\(story)/audio", token: ada, headers: ["Range": "bytes=2-5"])
            #expect(part.status == .partialContent && part.body.string == "ok o")
            #expect(part.headers.first(name: .contentRange) == "bytes 2-5/\(download.body.readableBytes)")

            #expect(try await app.send(.DELETE, "/api/stories/\(story)", token: ada).status == .noContent)
            #expect(try await bucket.size(of: key) == nil)
        }
    }

    @Test("a render stopped mid-way resumes without re-synthesizing finished lines", arguments: Backend.available)
    func resumableRender(_ backend: Backend) async throws {
        try await withNarrationServer(backend, stallAfter: 3) { app, config, narration in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            #expect(try await app.send(.GET, "/api/stories/\(story)/audio", token: ada).errorCode == "not_rendered")
            let lines = try await app.send(.GET, "/api/stories/\(story)/segments", token: ada).content.decode(PlaybackList.self).segments
            let distinct = Set(lines.map { "\($0.voice)|\($0.text.trimmingCharacters(in: .whitespacesAndNewlines))" }).count

            let queued = try await app.send(.POST, "/api/stories/\(story)/render", token: ada, json: #"{"format":"mp3"}"#)
            #expect(queued.status == .accepted)
            let job = try queued.content.decode(JobReply.self).id

            // The worker renders three lines, then is stopped as a shutdown would stop it.
            let first = app.startWorker(config)
            while narration.synthesizedTexts.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
            first.cancel()
            await first.value
            #expect(try await app.waitForJob(job, token: ada) { _ in true }.status == "queued")
            #expect(narration.synthesizedTexts.count == 3)

            narration.stall(after: nil)
            let second = app.startWorker(config)
            let done = try await app.waitForJob(job, token: ada)
            second.cancel()
            await second.value
            #expect(done.status == "succeeded", "\(done.error ?? "")")
            // Every distinct line synthesized exactly once across both runs.
            #expect(narration.synthesizedTexts.count == distinct)
            #expect(Set(narration.synthesizedTexts).count == narration.synthesizedTexts.count)
            #expect(done.result?.contains(#""synthesized":\#(distinct - 3)"#) == true, "\(done.result ?? "")")

            let download = try await app.send(.GET, "/api/stories/\(story)/audio", token: ada)
            #expect(download.status == .ok)
            #expect(download.headers.contentType?.description == "audio/mpeg")
            #expect(download.headers.first(name: .contentDisposition)?.contains("The Open Window.mp3") == true)
            #expect(download.body.string.hasPrefix("book of"))

            // Deleting the story deletes its export.
            let renders = config.dataDirectory.rendersDirectory(story: story)
            #expect(FileManager.default.fileExists(atPath: renders.appendingPathComponent("book.mp3").path))
            #expect(try await app.send(.DELETE, "/api/stories/\(story)", token: ada).status == .noContent)
            #expect(!FileManager.default.fileExists(atPath: renders.path))
        }
    }

    @Test("voices and a spoken preview")
    func voices() async throws {
        try await withNarrationServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let list = try await app.send(.GET, "/api/voices", token: ada)
            #expect(list.body.string.contains("test:alto"))
            let preview = try await app.send(.POST, "/api/voices/preview", token: ada, json: #"{"voice":"test:alto","name":"Vera","pitch":2}"#)
            #expect(preview.status == .ok)
            #expect(preview.headers.contentType?.description == "audio/wav")
            #expect(preview.body.string.hasPrefix("RIFF"))
            #expect(try await app.send(.POST, "/api/voices/preview", token: ada, json: #"{"voice":"none"}"#).errorCode == "unknown_voice")
            #expect(try await app.send(.GET, "/api/voices").status == .unauthorized)
        }
    }

    @Test("without speech engines, voice routes say so")
    func noNarration() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let reply = try await app.send(.GET, "/api/voices", token: ada)
            #expect(reply.status == .serviceUnavailable)
            #expect(reply.errorCode == "narration_unavailable")
        }
    }

    @Test("another user's story answers 404 on every story route")
    func ownerOnly() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let bob = try await app.register("bob@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let character = try #require(try await app.analysis(story, ada).analysis?.characters.first).id
            let base = "/api/stories/\(story)"
            let attempts: [(HTTPMethod, String, String?)] = [
                (.POST, "\(base)/analyze", nil), (.GET, "\(base)/analysis", nil),
                (.POST, "\(base)/characters", #"{"name":"X"}"#),
                (.PATCH, "\(base)/characters/\(character)", #"{"name":"X"}"#),
                (.POST, "\(base)/characters/\(character)/merge", #"{"into":"c1"}"#),
                (.PUT, "\(base)/cast/narrator", #"{"voice":"test:alto"}"#), (.DELETE, "\(base)/cast/narrator", nil),
                (.GET, "\(base)/segments", nil), (.PATCH, "\(base)/segments/0", #"{"speaker":null}"#),
                (.GET, "\(base)/segments/0/audio", nil), (.POST, "\(base)/render", #"{"format":"m4b"}"#), (.GET, "\(base)/audio", nil),
                (.PUT, "\(base)/lexicon", #"{"entries":{"Nuttel":"Nuttle"}}"#), (.GET, "\(base)/bundle", nil),
                (.POST, "\(base)/analyze/estimate", #"{"llm":"openai:gpt-4o-mini"}"#),
                (.POST, "\(base)/cast/suggest", #"{"llm":"openai:gpt-4o-mini"}"#),
            ]
            for (method, path, json) in attempts {
                let reply = try await app.send(method, path, token: bob, json: json)
                #expect(reply.status == .notFound, "\(method) \(path)")
                #expect(reply.errorCode == "not_found", "\(method) \(path)")
            }
            // Nothing of Ada's changed.
            let reply = try await app.analysis(story, ada)
            #expect(reply.overrides == CastOverrides())
            #expect(reply.analysis?.character(id: character)?.name != "X")
        }
    }
}
