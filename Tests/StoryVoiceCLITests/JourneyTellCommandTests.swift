import Audio
import Foundation
import Testing
import TestSupport

/// `storyvoice journey tell` as a user runs it: the journey told whole by the model (a loopback
/// server in OpenAI's wire format) and written as an audiobook with a chapter per part, through
/// JourneyWorkflows' `JourneyRecording` (the command only parses and prints).
struct JourneyTellCommandTests {
    @Test func aWalkIsToldAndWrittenWithAChapterPerPart() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let book = scratch.appendingPathComponent("walk.m4b")
        try await LoopbackServer.withServer(handler: JourneyModel.handler) { model in
            let run = try await CLI.run(
                ["journey", "tell", "51.7520,-1.2577", "51.7530,-1.2577", "--mode", "walking", "--style", "noir", "--voice", "espeak-ng:en-gb+m1",
                 "--model", "openai:gpt-4o-mini", "-o", book.path],
                environment: ["OPENAI_API_KEY": JourneyModel.key, "OPENAI_BASE_URL": model.baseURL + "/v1"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("Wrote \(book.path): “\(JourneyModel.title)”, 2 parts"), "\(run.stdout)")
            #expect(run.stderr.contains("told by openai:gpt-4o-mini in espeak-ng:en-gb+m1's voice"), "\(run.stderr)")
        }
        let probe = try await AudioProber.probe(book)
        #expect(probe.chapters.count == 2 && probe.durationSeconds > 5, "\(probe)")
    }
}
