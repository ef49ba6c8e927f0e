import DatabaseTestSupport
import Foundation
import Narration
import Platform
import StoryModel
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("Novel-sized playback: pages of lines, chapters, cancelled jobs, voice changes")
struct PlaybackPagingTests {
    struct Page: Decodable {
        struct Line: Decodable { var index: Int; var chapter: Int?; var text: String }
        var total: Int
        var from: Int
        var segments: [Line]
    }

    struct Chapters: Decodable {
        struct Entry: Decodable { var index: Int; var title: String; var first_line: Int; var line_count: Int }
        var chapters: [Entry]
    }

    @Test("a page of lines is the same as that slice of the whole list, with its chapter")
    func pages() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let all = try await app.send(.GET, "/api/stories/\(story)/segments", token: ada).content.decode(Page.self)
            #expect(all.total == all.segments.count)
            #expect(all.total > 10)

            let page = try await app.send(.GET, "/api/stories/\(story)/segments?from=5&count=4", token: ada).content.decode(Page.self)
            #expect(page.total == all.total)
            #expect(page.from == 5)
            #expect(page.segments.map(\.index) == [5, 6, 7, 8])
            #expect(page.segments.map(\.text) == all.segments[5..<9].map(\.text))

            let tail = try await app.send(.GET, "/api/stories/\(story)/segments?from=\(all.total - 2)&count=50", token: ada)
                .content.decode(Page.self)
            #expect(tail.segments.count == 2)
            let past = try await app.send(.GET, "/api/stories/\(story)/segments?from=\(all.total + 10)", token: ada).content.decode(Page.self)
            #expect(past.segments.isEmpty)
            #expect(try await app.send(.GET, "/api/stories/\(story)/segments?from=-1", token: ada).errorCode == "invalid_query")

            // The sample is one chapter (its title): every line is in it.
            let chapters = try await app.send(.GET, "/api/stories/\(story)/chapters", token: ada).content.decode(Chapters.self).chapters
            #expect(chapters.count == 1)
            #expect(chapters.first?.first_line == 0)
            #expect(chapters.first?.line_count == all.total)
            #expect(all.segments.allSatisfy { $0.chapter == 0 })
        }
    }

    @Test("a cancelled export stops, and the story can be exported again")
    func cancelExport() async throws {
        try await withNarrationServer(stallAfter: 2) { app, config, narration in
            let ada = try await app.register("ada@example.com").access_token
            let bob = try await app.register("bob@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let job = try await app.send(.POST, "/api/stories/\(story)/render", token: ada, json: "{}").content.decode(JobReply.self).id
            let worker = app.startWorker(config)
            defer { worker.cancel() }
            while narration.synthesizedTexts.count < 2 { try await Task.sleep(for: .milliseconds(10)) }

            #expect(try await app.send(.POST, "/api/jobs/\(job)/cancel", token: bob).status == .notFound)
            let cancelled = try await app.send(.POST, "/api/jobs/\(job)/cancel", token: ada)
            #expect(cancelled.status == .ok)
            #expect(try cancelled.content.decode(JobReply.self).status == "cancelled")
            // The stalled handler is stopped: the worker is free for the next job.
            narration.stall(after: nil)
            let again = try await app.send(.POST, "/api/stories/\(story)/render", token: ada, json: "{}").content.decode(JobReply.self).id
            #expect(try await app.waitForJob(again, token: ada).status == "succeeded")
            #expect(try await app.waitForJob(job, token: ada) { _ in true }.status == "cancelled")
            #expect(try await app.send(.POST, "/api/jobs/\(again)/cancel", token: ada).errorCode == "job_finished")
        }
    }

    @Test("cancelling a first analysis leaves the story not analysed")
    func cancelAnalysis() async throws {
        try await withNarrationServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.createSample(ada)
            // No worker runs: the job stays queued until cancelled.
            let job = try await app.send(.POST, "/api/stories/\(story)/analyze", token: ada).content.decode(JobReply.self).id
            #expect(try await app.analysis(story, ada).state == "analyzing")
            #expect(try await app.send(.POST, "/api/jobs/\(job)/cancel", token: ada).status == .ok)
            #expect(try await app.analysis(story, ada).state == "not_analyzed")
        }
    }

    @Test("the lines after the one asked for are rendered in the background, from wherever the listener jumps")
    func rendersAhead() async throws {
        try await withNarrationServer { app, config, narration in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            struct Cached: Decodable { struct Line: Decodable { var index: Int; var cached: Bool }; var segments: [Line] }
            func cached(_ range: String) async throws -> [Bool] {
                try await app.send(.GET, "/api/stories/\(story)/segments?\(range)", token: ada).content.decode(Cached.self).segments.map(\.cached)
            }
            let total = try await app.send(.GET, "/api/stories/\(story)/segments", token: ada).content.decode(Page.self).total
            let jump = total - 8
            #expect(try await cached("from=\(jump)&count=8").allSatisfy { !$0 })

            // The listener jumps near the end and asks for one line: the rest follow unasked.
            #expect(try await app.send(.GET, "/api/stories/\(story)/segments/\(jump)/audio", token: ada).status == .ok)
            var rendered = false
            for _ in 0..<1000 where !rendered {
                rendered = try await cached("from=\(jump)&count=8").allSatisfy { $0 }
                if !rendered { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(rendered)
            // Nothing before the jump was rendered for it (only the opening lines the analysis prepared).
            #expect(try await cached("from=10&count=\(jump - 10)").allSatisfy { !$0 })
            #expect(Set(narration.synthesizedTexts).count == narration.synthesizedTexts.count)
        }
    }

    @Test("a novel's page asks for the story without its text and the analysis without its segments")
    func lighterReplies() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let full = try await app.send(.GET, "/api/stories/\(story)", token: ada).body.string
            let light = try await app.send(.GET, "/api/stories/\(story)?text=false", token: ada).body.string
            #expect(full.contains(#""text":"#) && !light.contains(#""text":"#))
            #expect(light.contains(#""character_count":"#))

            let analysis = try await app.send(.GET, "/api/stories/\(story)/analysis", token: ada).body.string
            let lean = try await app.send(.GET, "/api/stories/\(story)/analysis?segments=false", token: ada).body.string
            #expect(analysis.contains(#""segments":"#) && !lean.contains(#""segments":"#))
            #expect(lean.contains(#""characters":"#) && lean.contains(#""cast":"#))
            #expect(lean.utf8.count < analysis.utf8.count)
            #expect(try await app.send(.GET, "/api/stories/\(story)/analysis?segments=no", token: ada).errorCode == "invalid_query")
        }
    }

    @Test("an export's estimate counts only lines still to render, each at its engine's speed")
    func renderEstimate() async throws {
        func line(_ index: Int, _ voice: String, cached: Bool = false) -> PlannedUtterance {
            PlannedUtterance(index: index, segment: index, start: 0, end: 150, kind: .narration, speaker: nil,
                             voice: VoiceAssignment(voice: voice), spokenText: String(repeating: "a", count: 150), pauseBefore: 0, cached: cached)
        }
        let fast = RenderEstimate(preference: .fastest, lines: [line(0, "espeak-ng:en-us"), line(1, "espeak-ng:en-us", cached: true)], cores: 2)
        #expect(fast.lines == 2 && fast.cachedLines == 1 && fast.linesByEngine == ["espeak-ng": 2])
        #expect(abs(fast.audioSeconds - 10) < 0.001)
        let best = RenderEstimate(preference: .best, lines: [line(0, "kokoro:kumo"), line(1, "espeak-ng:en-us", cached: true)], cores: 2)
        // Kokoro (one worker: 1.03x real time on a core, 1.6 cores on two) against espeak-ng (hundreds of times real time, every core).
        #expect(abs(best.renderSeconds - 10 / (1.03 * 1.6)) < 0.01 && fast.renderSeconds < 0.1)
        // Encoding covers the whole book, cached lines too.
        #expect(abs(best.encodingSeconds - 20 / RenderEstimate.encodingSpeed(MeasuredSpeeds())) < 0.001)
        // Speeds this machine measured in its exports win over those assumed.
        let measured = MeasuredSpeeds(speeds: ["kokoro": 5, MeasuredSpeeds.encoding: 40])
        let learned = RenderEstimate(preference: .best, lines: [line(0, "kokoro:kumo"), line(1, "espeak-ng:en-us", cached: true)], cores: 2,
                                     measured: measured)
        #expect(abs(learned.renderSeconds - 2) < 0.001 && abs(learned.encodingSeconds - 0.5) < 0.001 && abs(learned.totalSeconds - 2.5) < 0.001)

        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let reply = try await app.send(.GET, "/api/stories/\(story)/render/estimate", token: ada)
            #expect(reply.status == .ok)
            #expect(reply.body.string.contains(#""chosen":"fastest""#))
            #expect(reply.body.string.contains(#""voices":"best""#))
        }
    }

    @Test("a line travels as Ogg Opus when asked, a fraction of its WAV")
    func compressedLine() async throws {
        try await withNarrationServer(adjust: { $0.ahead = nil }) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let wav = try await app.send(.GET, "/api/stories/\(story)/segments/4/audio", token: ada)
            let opus = try await app.send(.GET, "/api/stories/\(story)/segments/4/audio?format=opus", token: ada)
            #expect(opus.status == .ok)
            #expect(opus.headers.contentType?.type == "audio" && opus.headers.contentType?.subType == "ogg")
            #expect(opus.body.string.hasPrefix("OggS"))
            #expect(opus.body.readableBytes < wav.body.readableBytes)
            #expect(try await app.send(.GET, "/api/stories/\(story)/segments/4/audio?format=flac", token: ada).errorCode == "invalid_query")
        }
    }

    @Test("a voice change reports the other roles it moved")
    func alsoChanged() {
        let before = Cast(narrator: VoiceAssignment(voice: "n", name: "Narrator"), characters: [
            "a": VoiceAssignment(voice: "x", name: "Ann"), "b": VoiceAssignment(voice: "y", name: "Ben"),
            "c": VoiceAssignment(voice: "z", name: "Cy"),
        ])
        var after = before
        after.characters["a"]?.voice = "y"
        after.characters["b"]?.voice = "w"
        let changes = PerformanceReply.VoiceChange.between(before, after, except: "a")
        #expect(changes == [PerformanceReply.VoiceChange(role: "b", name: "Ben", from: "y", to: "w")])
        #expect(PerformanceReply.VoiceChange.between(before, before, except: "a").isEmpty)
    }
}
