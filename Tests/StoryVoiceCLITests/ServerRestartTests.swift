import AsyncHTTPClient
import Audio
import Foundation
import Synchronization
import NIOCore
import Testing

/// `storyvoice serve` as a user runs it, killed with SIGKILL in the middle of an export and
/// started again: the export finishes without synthesizing the lines it had already rendered.
@Suite(.serialized) struct ServerRestartTests {
    struct Tokens: Decodable { var access_token: String }
    struct Story: Decodable { var id: UUID; var title: String; var analysis_state: String }
    struct StoryList: Decodable { var stories: [Story] }
    struct Job: Decodable { var id: UUID; var status: String; var progress: Double; var result: String?; var error: String? }
    struct RenderResult: Decodable { var synthesized: Int; var cache_hits: Int }

    @Test func anExportKilledMidwayFinishesAfterARestartWithoutRedoingLines() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // festival (~20x real time) rather than espeak-ng (~300x): with espeak-ng the whole book
        // could be rendered between two progress reports, leaving nothing for the restart.
        let server = ServerProcess(dataDirectory: scratch.appendingPathComponent("data"), environment: ["STORYVOICE_ENGINES": "festival"])

        try await server.start()
        let token = try await server.register("reader@example.com")
        let story = try #require(try await server.get("/api/stories", token: token, as: StoryList.self).stories.first,
                                 "the welcome story is in the new account's library")
        try await server.waitUntil("the welcome story is analysed") {
            try await server.get("/api/stories/\(story.id)", token: token, as: Story.self).analysis_state == "analyzed"
        }

        let job = try await server.post("/api/stories/\(story.id)/render", json: #"{"format":"m4b"}"#, token: token, as: Job.self)
        try await server.waitUntil("the export is a quarter done") {
            try await server.get("/api/jobs/\(job.id)", token: token, as: Job.self).progress >= 0.25
        }
        server.kill()
        let renderedBeforeKill = try server.cachedLines()
        #expect(renderedBeforeKill > 0)

        try await server.start()
        defer { server.kill() }
        var finished = try await server.get("/api/jobs/\(job.id)", token: token, as: Job.self)
        try await server.waitUntil("the export finishes after the restart") {
            finished = try await server.get("/api/jobs/\(job.id)", token: token, as: Job.self)
            return ["succeeded", "failed"].contains(finished.status)
        }
        #expect(finished.status == "succeeded", "\(finished.error ?? "")")
        let result = try JSONDecoder().decode(RenderResult.self, from: Data(try #require(finished.result).utf8))
        #expect(result.cache_hits >= renderedBeforeKill, "every line rendered before the kill is reused")
        #expect(result.synthesized > 0, "the kill came before the end")

        let book = scratch.appendingPathComponent("book.m4b")
        try await server.download("/api/stories/\(story.id)/audio", token: token, to: book)
        let probe = try await AudioProber.probe(book)
        #expect(probe.durationSeconds > 60)
    }
}

/// `storyvoice serve --workers 0` queues work it never runs; a `storyvoice worker` process on the
/// same data directory analyses the welcome story and exports it.
@Suite(.serialized) struct WorkerProcessTests {
    struct Jobs: Decodable { var jobs: [ServerRestartTests.Job] }

    @Test func aWorkerInItsOwnProcessRunsTheServersJobs() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = ServerProcess(dataDirectory: scratch.appendingPathComponent("data"), workers: 0)
        try await server.start()
        defer { server.kill() }
        let token = try await server.register("reader@example.com")
        let story = try #require(try await server.get("/api/stories", token: token, as: ServerRestartTests.StoryList.self).stories.first)
        // No worker anywhere yet: the welcome story's analysis waits in the queue.
        let queued = try await server.get("/api/jobs", token: token, as: Jobs.self).jobs
        #expect(queued.count == 1 && queued.allSatisfy { $0.status == "queued" }, "\(queued)")
        #expect(try await server.get("/api/stories/\(story.id)", token: token, as: ServerRestartTests.Story.self).analysis_state != "analyzed")

        let worker = try server.startWorker()
        defer { ServerProcess.stop(worker) }
        try await server.waitUntil("the worker analyses the welcome story") {
            guard worker.isRunning else { throw ServerProcess.ServerExited(status: worker.terminationStatus) }
            return try await server.get("/api/stories/\(story.id)", token: token, as: ServerRestartTests.Story.self).analysis_state == "analyzed"
        }

        // MP3 here (the restart test exports M4B), so both formats are encoded for real through the server.
        let job = try await server.post("/api/stories/\(story.id)/render", json: #"{"format":"mp3"}"#, token: token, as: ServerRestartTests.Job.self)
        var finished = job
        try await server.waitUntil("the worker exports the story") {
            guard worker.isRunning else { throw ServerProcess.ServerExited(status: worker.terminationStatus) }
            finished = try await server.get("/api/jobs/\(job.id)", token: token, as: ServerRestartTests.Job.self)
            return ["succeeded", "failed"].contains(finished.status)
        }
        #expect(finished.status == "succeeded", "\(finished.error ?? "")")
        let book = scratch.appendingPathComponent("book.mp3")
        try await server.download("/api/stories/\(story.id)/audio", token: token, to: book)
        let probe = try await AudioProber.probe(book)
        #expect(probe.codec == "mp3" && probe.durationSeconds > 60, "\(probe)")
    }
}

/// One `storyvoice serve` process on a data directory, restartable.
final class ServerProcess: @unchecked Sendable {
    let port: Int
    let dataDirectory: URL
    /// Added to the test's own environment. espeak-ng alone by default: fast enough that the
    /// tests stay short, slow enough for a render to be killed midway.
    let environment: [String: String]
    /// Job workers inside the server; 0 leaves the jobs to `storyvoice worker` processes.
    let workers: Int
    /// Where the server is started from: the checkout (as `make run` does), or elsewhere, with
    /// no `STORYVOICE_PUBLIC_DIR`, to prove the web app travels with the binary.
    let workingDirectory: URL?
    /// The server's limit on open files (`prlimit --nofile`), when a test needs one.
    let fileLimit: Int?
    private var process: Process?
    /// The server's standard output and error, shown when a wait times out (a test that fails
    /// says whether the server died and what it said last); removed when the server is killed.
    private let log = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-server-\(UUID().uuidString).log")

    /// Ports below Linux's ephemeral range (32768–60999), so an outgoing connection elsewhere in
    /// the test process can never hold the port the server wants.
    init(port: Int = Int.random(in: 20_000..<32_000), dataDirectory: URL, environment: [String: String] = ["STORYVOICE_ENGINES": "espeak-ng"], workers: Int = 1,
         workingDirectory: URL? = nil, fileLimit: Int? = nil) {
        self.port = port
        self.fileLimit = fileLimit
        self.workingDirectory = workingDirectory
        self.dataDirectory = dataDirectory
        self.environment = environment
        self.workers = workers
    }

    /// A test that fails half-way must not leave a server rendering in the background.
    deinit { kill() }

    /// The running server's process id.
    var processIdentifier: Int32? { process?.processIdentifier }

    func start() async throws {
        let process = try Self.launch(
            ["serve", "--port", "\(port)", "--lease-seconds", "3", "--workers", "\(workers)",
             "--welcome-story", workingDirectory == nil ? "examples/the-open-window.txt" : CLI.repositoryRoot.path + "/examples/the-open-window.txt"],
            dataDirectory: dataDirectory, environment: environment, workingDirectory: workingDirectory, fileLimit: fileLimit, log: log)
        self.process = process
        try await waitUntil("the server answers /health") {
            guard process.isRunning else { throw ServerExited(status: process.terminationStatus) }
            return (try? await self.request("GET", "/health").1) == 200
        }
    }

    /// `storyvoice ARGUMENTS` on `dataDirectory`, as a user starts it from the repository.
    static func launch(
        _ arguments: [String], dataDirectory: URL, environment extra: [String: String], workingDirectory: URL? = nil, fileLimit: Int? = nil,
        log: URL? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        if let fileLimit {
            // prlimit sets the limit on itself and then execs the server (same process id).
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(fileLimit):\(fileLimit)", CLI.executable.path] + arguments
        }
        process.currentDirectoryURL = workingDirectory ?? CLI.repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["STORYVOICE_DATA_DIR"] = dataDirectory.path
        environment["STORYVOICE_PUBLIC_DIR"] = nil
        if workingDirectory == nil { environment["STORYVOICE_PUBLIC_DIR"] = CLI.repositoryRoot.appendingPathComponent("Public").path }
        environment.merge(extra) { _, new in new }
        // It exits when this test process does, however that ends (its stdin's pipe closes).
        environment["STORYVOICE_EXIT_WITH_STDIN"] = "1"
        let lifeline = Pipe()
        process.environment = environment
        process.standardInput = lifeline
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let log, FileManager.default.createFile(atPath: log.path, contents: nil), let handle = try? FileHandle(forWritingTo: log) {
            process.standardOutput = handle
            process.standardError = handle
        }
        try process.run()
        lifelines.withLock { $0.append(lifeline) }
        return process
    }

    /// The write ends of the started processes' stdin pipes, held until this process ends.
    private static let lifelines = Mutex<[Pipe]>([])

    /// Starts `storyvoice worker` with the server's settings (and so its database), on the
    /// server's data directory or on its own (a worker on another machine).
    func startWorker(dataDirectory: URL? = nil) throws -> Process {
        try Self.launch(["worker", "--lease-seconds", "3"], dataDirectory: dataDirectory ?? self.dataDirectory, environment: environment)
    }

    /// SIGKILL: no shutdown, no released leases, as in a crash or power cut.
    func kill() {
        guard let process else { return }
        Self.stop(process)
        self.process = nil
        try? FileManager.default.removeItem(at: log)
    }

    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Rendered lines in the server's segment cache.
    func cachedLines() throws -> Int {
        let segments = dataDirectory.appendingPathComponent("segments")
        guard let files = FileManager.default.enumerator(at: segments, includingPropertiesForKeys: nil) else { return 0 }
        return files.compactMap { $0 as? URL }.filter { $0.pathExtension == "wav" }.count
    }

    func register(_ email: String) async throws -> String {
        try await post("/auth/register", json: #"{"email":"\#(email)","password":"correct horse battery"}"#, as: ServerRestartTests.Tokens.self).access_token
    }

    func get<T: Decodable>(_ path: String, token: String, as type: T.Type) async throws -> T {
        let (data, status) = try await request("GET", path, token: token)
        guard status == 200 else { throw UnexpectedStatus(path: path, status: status, body: String(decoding: data, as: UTF8.self)) }
        return try JSONDecoder().decode(T.self, from: data)
    }

    func post<T: Decodable>(_ path: String, json: String, token: String? = nil, as type: T.Type) async throws -> T {
        let (data, status) = try await request("POST", path, token: token, body: Data(json.utf8))
        guard (200..<300).contains(status) else { throw UnexpectedStatus(path: path, status: status, body: String(decoding: data, as: UTF8.self)) }
        return try JSONDecoder().decode(T.self, from: data)
    }

    func download(_ path: String, token: String, to file: URL) async throws {
        let (data, status) = try await request("GET", path, token: token)
        guard status == 200 else { throw UnexpectedStatus(path: path, status: status, body: "") }
        try data.write(to: file)
    }

    /// A new reader's welcome story, once its analysis has finished: (token, story id).
    func readerWithAnalysedWelcomeStory(_ email: String) async throws -> (token: String, story: UUID) {
        struct Story: Decodable { var id: UUID; var analysis_state: String }
        struct StoryList: Decodable { var stories: [Story] }
        let token = try await register(email)
        guard let story = try await get("/api/stories", token: token, as: StoryList.self).stories.first else {
            throw UnexpectedStatus(path: "/api/stories", status: 200, body: "no welcome story")
        }
        try await waitUntil("the welcome story is analysed") {
            try await get("/api/stories/\(story.id)", token: token, as: Story.self).analysis_state == "analyzed"
        }
        return (token, story.id)
    }

    func waitUntil(_ what: String, timeout: Duration = .seconds(300), _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TimedOut(what: what, server: serverState())
    }

    /// Whether the server still runs, and the end of what it wrote.
    private func serverState() -> String {
        let state = switch process {
        case .some(let process) where process.isRunning: "running"
        case .some(let process): "exited with status \(process.terminationStatus)"
        case .none: "not started"
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return "server \(state); its last output:\n" + output.suffix(3_000)
    }

    /// One request over AsyncHTTPClient with a deadline: a server that stops answering fails
    /// the test instead of hanging it.
    func request(_ method: String, _ path: String, token: String? = nil, body: Data? = nil) async throws -> (Data, Int) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .RAW(value: method)
        // A fresh connection each time: the server is killed and restarted on the same port.
        request.headers.add(name: "Connection", value: "close")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 1 << 30)
        return (Data(bytes.readableBytesView), Int(response.status.code))
    }

    struct ServerExited: Error { var status: Int32 }
    struct UnexpectedStatus: Error { var path: String; var status: Int; var body: String }
    struct TimedOut: Error, CustomStringConvertible {
        var what: String
        var server = ""
        var description: String { "timed out waiting until \(what); \(server)" }
    }
}
