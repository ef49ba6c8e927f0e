import ArgumentParser
import Foundation
import Logging
import Persistence
import Platform
import StoryModel
import StoryText
import StoryWorkflows

extension Bench {
    /// Line audio as the player asks for it, through the same use case the server's route
    /// calls (`Stories.lineAudio`: the story row, one settings query, the kept plan, the
    /// cached WAV), on a real SQLite database and the local engines. The reference is the same
    /// requests with the plan cache off, which re-plans the whole book per line as the route
    /// did before.
    struct Lines: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Requests per second for cached lines' audio in a long story, with and without the plan cache.")

        @Option(help: "Dialogue lines in the generated story (each comes with a line of narration).")
        var lines = 1000

        @Option(help: "Requests to time in each setting.")
        var requests = 200

        func run() async throws {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-bench-lines-\(UUID.random().uuidString)")
            let data = DataDirectory(url: scratch)
            try data.create()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let store = try StoryDatabase(location: .sqlite(path: scratch.appendingPathComponent("bench.sqlite").path), logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
            do {
                try await store.migrate()
                try await measure(store.database, data)
                await store.shutdown()
            } catch {
                await store.shutdown()
                throw error
            }
        }

        private func measure(_ database: AppDatabase, _ data: DataDirectory) async throws {
            let narration = try await LocalNarration.make(dataDirectory: data.url)
            let models = ModelAccess.make(environment: [:], secret: try ServerSecret(key: .init(size: .bits256)), dataDirectory: data)
            let owner = try await UserRepository(database: database).create(email: "bench@example.com", passwordHash: "-").id
            let library = StoryLibrary(dataDirectory: data)
            var story = try await library.add(try ImportedText.paste(text: Self.story(lines), title: "Bench", author: nil), ownerID: owner, database: database)
            let document = try StoryContent(story, dataDirectory: data).document
            try story.store(analysis: StoryAnalyzer().analyze(document))
            let analysisJSON = story.analysisJSON
            story = try await StoryRepository(database: database).update(id: story.id, ownerID: owner) { story in
                story.analysisJSON = analysisJSON
                story.analysisState = .analyzed
            } ?? story

            func stories(_ plans: PlanCache) -> Stories {
                Stories(database: database, dataDirectory: data, narration: narration, models: models, plans: plans, ownerID: owner)
            }
            let warm = stories(PlanCache())
            let planned = try await warm.playbackLines(story).lines.count
            let window = min(40, planned)
            for n in 0..<window { _ = try await warm.lineAudio(story, line: n) }  // rendered once, so both runs read the cache

            let clock = ContinuousClock()
            func timed(_ use: Stories) async throws -> Double {
                let elapsed = try await clock.measure {
                    for request in 0..<requests {
                        let fresh = try await StoryRepository(database: database).find(id: story.id, ownerID: owner)!
                        _ = try await use.lineAudio(fresh, line: request % window)
                    }
                }
                return Double(requests) / elapsed.seconds
            }
            let before = try await timed(stories(PlanCache(capacity: 0)))
            let after = try await timed(stories(PlanCache()))
            print("story: \(planned) planned lines (\(document.text.unicodeScalars.count) characters), \(requests) requests over its first \(window) lines, cached audio")
            print(String(format: "plan per request (before): %8.1f requests/s", before))
            print(String(format: "plan reused (after):       %8.1f requests/s", after))
            print(String(format: "ratio after / before: %.1f×", after / before))
            print("per request now: 1 story query, 1 settings query; the decode and the plan only when the story or the user's keys change")
        }

        /// `count` tagged dialogue lines, each followed by a sentence of narration.
        static func story(_ count: Int) -> String {
            let names = ["Ada", "Ben", "Cora", "Dev"]
            return (0..<count).map { index in
                "“This is line \(index) of the story,” said \(names[index % names.count]). The room was quiet for a moment."
            }.joined(separator: "\n\n")
        }
    }
}

extension Bench {
    /// The line list's text slicing, as `GET /api/stories/{id}/segments` does it, on stories of
    /// one-word lines: indexed once (now) against walking the string from its start for every
    /// line (before, quadratic: 54 s for 375 KB). The old way is timed on the first lines only
    /// and extrapolated, since on 19 MB it would run for hours.
    struct Segments: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Line-list text slicing: indexed once vs. walked per line.")

        @Option(help: "Story sizes in KB.")
        var sizes: [Int] = [375, 19_000]

        func run() async throws {
            for kilobytes in sizes {
                let words = kilobytes * 1000 / 8
                let text = (0..<words).map { "w\($0 % 100_000)" }.joined(separator: "\n\n")
                var spans: [(Int, Int)] = []
                var offset = 0
                for line in text.split(separator: "\n\n", omittingEmptySubsequences: false) {
                    let length = line.unicodeScalars.count
                    spans.append((offset, offset + length))
                    offset += length + 2
                }
                let clock = ContinuousClock()
                var total = 0
                let indexed = clock.measure {
                    let scalars = ScalarText(text)
                    for (start, end) in spans { total &+= scalars.string(start, end).utf8.count }
                }
                let sample = min(spans.count, max(10, 200_000_000 / max(1, offset)))
                let walked = clock.measure {
                    for (start, end) in spans.suffix(sample) { total &+= Self.walk(text, start, end).utf8.count }
                }
                // The walk costs in proportion to the offset; the last lines cost the most, so
                // the whole is about half the last lines' rate times the number of lines.
                let estimate = walked.seconds / Double(sample) * Double(spans.count) / 2
                print(String(format: "%6d KB, %9d lines: indexed once %8.3f s; walked per line ≈ %10.1f s (from the last %d lines); %d bytes",
                             kilobytes, spans.count, indexed.seconds, estimate, sample, total))
            }
        }

        /// What the route did before: index from the start of the string for every line.
        static func walk(_ text: String, _ start: Int, _ end: Int) -> String {
            let scalars = text.unicodeScalars
            guard let lower = scalars.index(scalars.startIndex, offsetBy: start, limitedBy: scalars.endIndex),
                  let upper = scalars.index(scalars.startIndex, offsetBy: end, limitedBy: scalars.endIndex), lower <= upper else { return "" }
            return String(scalars[lower..<upper])
        }
    }
}
