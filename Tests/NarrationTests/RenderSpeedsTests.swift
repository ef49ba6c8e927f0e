import Foundation
import Testing
@testable import Narration

@Suite struct RenderSpeedsTests {
    @Test func theLatestMeasurementCountsAsMuchAsAllBeforeItAndShortWorkNotAtAll() {
        var speeds = MeasuredSpeeds()
        speeds.record("kokoro", speech: 600, seconds: 300)
        #expect(speeds["kokoro"] == 2)
        speeds.record("kokoro", speech: 2400, seconds: 300)
        #expect(abs(speeds["kokoro"]! - 4) < 1e-9)
        // Ten seconds is mostly a worker starting.
        speeds.record("kokoro", speech: 10, seconds: 10)
        speeds.record("piper", speech: 0, seconds: 100)
        #expect(abs(speeds["kokoro"]! - 4) < 1e-9 && speeds["piper"] == nil)
    }

    @Test func speedsSurviveInTheirFileAndABrokenFileMeansNone() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("speeds-\(UUID().uuidString)/render-speeds.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        RenderSpeedLog(file: file).record("hibari", speech: 6000, seconds: 60)
        #expect(RenderSpeedLog(file: file).current["hibari"] == 100)
        try Data("{not json".utf8).write(to: file)
        #expect(RenderSpeedLog(file: file).current.speeds.isEmpty)
    }
}
