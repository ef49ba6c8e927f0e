import Foundation
import Platform
import StoryModel
import StoryText
import StoryWorkflows
import Synchronization
import Testing

/// An export on the real engines (hibari): it says how long is left while it runs, and
/// cancelling it stops the synthesis in flight (the lines being rendered are not finished) and
/// leaves no book or partial file behind. The job queue's side of Cancel (the worker notices
/// within a second and cancels the handler) is `PlaybackPagingTests.cancelExport`.
@Suite(.serialized) struct ExportCancelTests {
    @Test func aCancelledExportStopsItsLinesAndLeavesNoFile() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-export-cancel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let narration = try await LocalNarration.make(dataDirectory: data)
        try #require(await narration.voices().contains { $0.id == "hibari:heart" }, "hibari is not installed; run scripts/setup")

        // A short first line, then seven different paragraphs of one long sentence each (the
        // planner keeps a sentence whole, and renders identical lines once): seconds of work
        // each, even for hibari (long enough that none ends between the first line and the cancel
        // on a loaded machine). When the short line is done, two long ones are in flight.
        let paragraphs = ["It was the first day."] + (2...8).map { day in
            "On day \(day) the morning was cold and grey, " + Array(repeating: "and a hard wind came in from the sea along the coast road", count: 40)
                .joined(separator: ", ") + "."
        }
        let document = StoryDocument(title: "Wind", text: paragraphs.joined(separator: "\n\n"))
        let analysis = StoryAnalyzer().analyze(document)
        let cast = Cast(narrator: VoiceAssignment(voice: "hibari:heart", name: "Narrator"), characters: [:])
        let books = data.appendingPathComponent("renders", isDirectory: true)
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        let output = books.appendingPathComponent("book.m4b")

        let messages = Mutex<[String]>([])
        let export = Task {
            try await narration.render(document, analysis: analysis, cast: cast, to: output) { update in
                messages.withLock { $0.append(update.message) }
            }
        }
        // Once the short first line is rendered, long ones are in flight.
        func rendered() -> Int { Self.cachedLines(in: data.appendingPathComponent("segments")) }
        for _ in 0..<12_000 where rendered() == 0 { try await Task.sleep(for: .milliseconds(10)) }
        let atCancel = rendered()
        try #require(atCancel > 0, "no line was rendered")
        export.cancel()
        await #expect(throws: CancellationError.self) { _ = try await export.value }
        let cancelled = rendered()

        // The lines in flight were stopped, not finished in the background: nothing more is
        // written in the seconds a long line takes. (A line already writing its file when the
        // cancel came may count; on a loaded machine that window is not zero.)
        try await Task.sleep(for: .seconds(5))
        #expect(rendered() == cancelled, "lines finished after the export was cancelled")
        #expect(cancelled <= atCancel + 1, "\(cancelled) lines at the cancel's end, \(atCancel) at its start")
        #expect(try FileManager.default.contentsOfDirectory(atPath: books.path).isEmpty)
        // While it ran, it said how long was left.
        #expect(messages.withLock { $0 }.contains { $0.contains("left") }, "\(messages.withLock { $0 })")
    }

    static func cachedLines(in directory: URL) -> Int {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "wav" }.count
    }
}
