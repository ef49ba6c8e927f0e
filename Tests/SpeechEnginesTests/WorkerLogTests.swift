import Foundation
@testable import ProcessWorkers
import Testing

/// Issue 46: the standard-error logs of workers whose StoryVoice was killed stayed in the
/// temporary directory. Logs are named after the process that started the worker, and a server
/// or worker that starts sweeps those whose process is gone.
@Suite struct WorkerLogTests {
    func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-worker-logs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The id of a process that has exited.
    func deadProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func namesAreReadBack() {
        #expect(WorkerLogs.owner(ofLog: WorkerLogs.name(label: "local-model", owner: 4242)) == .process(4242))
        #expect(WorkerLogs.owner(ofLog: "storyvoice-piper-\(UUID().uuidString).log") == .unnamed)
        for other in ["storyvoice-notes.log", "storyvoice-\(UUID().uuidString).log", "piper-\(UUID().uuidString).log",
                      "storyvoice-\(UUID().uuidString).ffmetadata", "storyvoice-piper-pid12-not-a-uuid.log"] {
            #expect(WorkerLogs.owner(ofLog: other) == nil, "\(other)")
        }
    }

    @Test func logsOfProcessesThatAreGoneAreSweptAndTheRestKept() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, age: TimeInterval = 0) throws -> URL {
            let url = directory.appendingPathComponent(name)
            try Data("Traceback (most recent call last):\n".utf8).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
            return url
        }
        let killed = try file(WorkerLogs.name(label: "piper", owner: try deadProcess()))
        let running = try file(WorkerLogs.name(label: "whisper"), age: 7 * 86_400)
        let oldUnnamed = try file("storyvoice-piper-\(UUID().uuidString).log", age: 2 * 86_400)
        let newUnnamed = try file("storyvoice-piper-\(UUID().uuidString).log", age: 60)
        let unrelated = try file("storyvoice-notes.log", age: 7 * 86_400)

        let freed = WorkerLogs.sweep(in: directory)
        #expect(freed == 2 * 35)
        #expect(!FileManager.default.fileExists(atPath: killed.path), "its process is gone")
        #expect(!FileManager.default.fileExists(atPath: oldUnnamed.path), "a day old, with no owner to ask")
        #expect(FileManager.default.fileExists(atPath: running.path), "this process is running, however old its log")
        #expect(FileManager.default.fileExists(atPath: newUnnamed.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
    }

    @Test func aWorkersLogIsNamedAfterItsOwnerSurvivesASweepAndGoesWithIt() async throws {
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path))
        var worker: JSONLinesWorker? = try await JSONLinesWorker.start(
            executable: "/bin/sh", arguments: ["-c", #"echo '{"ready": true}'; cat > /dev/null"#], label: "sweep-test")
        let logs = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { !before.contains($0) && $0.hasPrefix("storyvoice-sweep-test-") }
        #expect(logs.count == 1)
        let log = try #require(logs.first)
        #expect(WorkerLogs.owner(ofLog: log) == .process(getpid()))
        WorkerLogs.sweep()
        #expect(FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent(log).path))
        #expect(worker?.isRunning == true)
        worker = nil
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent(log).path))
    }
}
