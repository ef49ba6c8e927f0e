import Dispatch
import Foundation
import Journeys
import Testing
import TestSupport

/// `storyvoice journey` as a user runs it: the binary `swift build` put in `.build/debug`.
enum JourneyCLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Exit status, standard output and standard error. The process is waited for on a Dispatch
    /// thread, never on the cooperative pool the other tests share; `timeout` stops a hung run.
    static func run(_ arguments: [String], environment extra: [String: String] = [:], timeout: Int = Int(loopbackTimeout) + 120) async throws -> (status: Int32, out: String, err: String) {
        let executable = ProcessInfo.processInfo.environment["STORYVOICE_BIN"] ?? root.appendingPathComponent(".build/debug/storyvoice").path
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STORYVOICE_OSRM_URL_") && !$0.key.hasPrefix("STORYVOICE_NOMINATIM") }
        // A loopback router answers on the test process's cooperative pool, which a loaded
        // machine can hold far past the default 10 s: only the timeout test sets a short one.
        environment["STORYVOICE_JOURNEY_TIMEOUT"] = String(loopbackTimeout)
        environment.merge(extra) { _, new in new }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=5", String(timeout), executable, "journey"] + arguments
        process.currentDirectoryURL = root
        process.environment = environment
        let out = try FileHandle(forUpdating: scratchFile()), err = try FileHandle(forUpdating: scratchFile())
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        func text(_ handle: FileHandle) throws -> String {
            try handle.seek(toOffset: 0)
            return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        }
        return (process.terminationStatus, try text(out), try text(err))
    }

    private static func scratchFile() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("journey-cli-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }
}

@Suite(.serialized) struct JourneyCLITests {
    @Test func planPrintsThePlacesRouteAndPlanOffline() async throws {
        let result = try await JourneyCLI.run(["plan", "Oxford, UK", "Cambridge, UK", "--mode", "driving"])
        #expect(result.status == 0, "\(result.err)")
        for phrase in ["Oxford (Oxford, England, United Kingdom)", "Cambridge (Cambridge, England, United Kingdom)", "driving", "km (estimated offline", "parts of about 145 words", "GeoNames (CC BY 4.0)"] {
            #expect(result.out.contains(phrase), "\(phrase) in \(result.out)")
        }
    }

    @Test func planAsJSONHasTheDocumentedFields() async throws {
        let result = try await JourneyCLI.run(["plan", "Oxford, UK", "Abingdon, UK", "--mode", "cycling", "--format", "json", "--words-per-minute", "160"])
        #expect(result.status == 0, "\(result.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let duration = try #require(json["duration_s"] as? Double)
        #expect(json["parts"] as? Int == Int((duration / 60).rounded(.up)))
        #expect((json["distance_m"] as? Double).map { (5_000...20_000).contains($0) } == true)
        #expect(json["words_per_part"] as? Int == 160)
        #expect(json["mode"] as? String == "cycling")
        #expect(json["source"] as? String == "estimate")
        #expect((json["start"] as? [String: Any])?["lat"] as? Double == 51.75222)
        #expect(try JSONDecoder().decode(JourneyPlan.self, from: Data(result.out.utf8)).start.name == "Oxford")
    }

    @Test func planUsesTheConfiguredServices() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.nominatim) { geocoding in
            try await LoopbackServer.withServer(handler: Loopbacks.osrm) { routing in
                let result = try await JourneyCLI.run(
                    ["plan", "Oxford, UK", "Cambridge, UK", "--format", "json"],
                    environment: ["STORYVOICE_OSRM_URL_DRIVING": routing.baseURL, "STORYVOICE_NOMINATIM_URL": geocoding.baseURL]
                )
                #expect(result.status == 0, "\(result.err)")
                let plan = try JSONDecoder().decode(JourneyPlan.self, from: Data(result.out.utf8))
                #expect(plan.route.distanceMeters == 135_000)
                #expect(plan.parts == 110)
                #expect(plan.route.source == .router)
                #expect(plan.start.label == "Oxford, Oxfordshire, England, United Kingdom")
            }
        }
    }

    @Test(arguments: [
        (["plan", "Qwzxyvillebury", "Cambridge"], "No place called “Qwzxyvillebury”"),
        (["plan", "Oxford", "Oxford, UK"], "The start and the destination are both “Oxford”"),
        (["plan", "Oxford, UK", "London, UK", "--mode", "walking"], "a journey story can be at most 4 h 00 min"),
        (["plan", "Oxford", "Cambridge", "--mode", "flying"], "flying"),
    ])
    func badInputIsExplained(arguments: [String], phrase: String) async throws {
        let result = try await JourneyCLI.run(arguments)
        #expect(result.status != 0)
        #expect(result.err.contains(phrase), "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test func aFiveHourRouteIsRefused() async throws {
        let legs = [TestSupport.OSRMWire.Leg(from: "Oxford", to: "Cambridge", distance: 300_000, duration: 5 * 3600)]
        try await LoopbackServer.withServer(handler: OSRMWire.handler(stops: Loopbacks.stops, legs: legs)) { routing in
            let result = try await JourneyCLI.run(["plan", "Oxford, UK", "Cambridge, UK"], environment: ["STORYVOICE_OSRM_URL_DRIVING": routing.baseURL])
            #expect(result.status != 0)
            #expect(result.err.contains("This trip takes 5 h 00 min driving"), "\(result.err)")
        }
    }

    @Test func noRouteIsExplained() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.osrm) { routing in
            let result = try await JourneyCLI.run(["plan", "Oxford, UK", "Reykjavik"], environment: ["STORYVOICE_OSRM_URL_DRIVING": routing.baseURL])
            #expect(result.status != 0)
            #expect(result.err.contains("There is no driving route from Oxford to Reykjavík"), "\(result.err)")
        }
    }

    @Test func aRouterThatIsDownOrSlowIsNamed() async throws {
        let down = try await Loopbacks.stoppedServerURL()
        let refused = try await JourneyCLI.run(["plan", "Oxford, UK", "Cambridge, UK"], environment: ["STORYVOICE_OSRM_URL_DRIVING": down])
        #expect(refused.status != 0)
        #expect(refused.err.contains("Could not reach the driving router at \(down)"), "\(refused.err)")
        try await LoopbackServer.withServer(handler: { _ in Loopbacks.slowReply }) { routing in
            let slow = try await JourneyCLI.run(
                ["plan", "Oxford, UK", "Cambridge, UK"], environment: ["STORYVOICE_OSRM_URL_DRIVING": routing.baseURL, "STORYVOICE_JOURNEY_TIMEOUT": "0.5"]
            )
            #expect(slow.status != 0)
            #expect(slow.err.contains("The driving router at \(routing.baseURL) did not answer within 1 s"), "\(slow.err)")
        }
    }

    @Test func findShowsEachPlace() async throws {
        let result = try await JourneyCLI.run(["find", "Oxford, UK", "Cambridge, MA", "51.5,-0.12", "Qwzxyvillebury"])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first?.contains("Oxford, England, United Kingdom\t51.75222, -1.25596") == true)
        #expect(result.err.contains("Qwzxyvillebury"))
    }

    /// The whole product on this machine: the model scripts/setup installs writes a two-part
    /// story (part 1 streamed, then the outline as structured JSON, then part 2) and espeak-ng
    /// speaks it. Slow engines on a short trip: a 100-second walk.
    @Test func tellWritesTheWholeStoryWithAChapterPerPart() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("journey-\(UUID().uuidString).m4b")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try await JourneyCLI.run(
            ["tell", "51.7520,-1.2577", "51.7530,-1.2577", "--mode", "walking", "--style", "childrens", "--voice", "espeak-ng:en-gb+m1", "-o", output.path],
            timeout: 1800)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("2 parts, told by local:"))
        #expect(run.out.contains("Wrote \(output.path)") && run.out.contains("2 parts"))
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-show_chapters", "-show_entries", "format=duration", "-of", "json", output.path]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        probe.waitUntilExit()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let chapters = try #require(json["chapters"] as? [[String: Any]])
        #expect(chapters.compactMap { ($0["tags"] as? [String: String])?["title"] } == ["Part 1", "Part 2"])
        let duration = Double(((json["format"] as? [String: Any])?["duration"] as? String) ?? "") ?? 0
        // Each part is a minute's worth of words (at least half of it, or it is written again).
        #expect(duration > 40, "\(duration) s")
    }
}
