import DatabaseTestSupport
import Foundation
import Jobs
import NIOCore
import Persistence
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("Server over real HTTP and in-process workers")
struct LiveServerTests {
    @Test("an oversize upload over a real connection answers 413 in the JSON error shape")
    func oversizeOverHTTP() async throws {
        try await withServer(adjust: { $0.maxUploadBytes = 32 * 1024 }) { app, _, _ in
            let token = try await app.register("ada@example.com").access_token
            let live = try app.testing(method: .running(port: 0))
            var headers = HTTPHeaders()
            headers.bearerAuthorization = BearerAuthorization(token: token)
            headers.contentType = .json
            let text = String(repeating: "a", count: 100 * 1024)
            let reply = try await live.sendRequest(.POST, "/api/stories", headers: headers, body: ByteBuffer(string: #"{"text":"\#(text)"}"#))
            #expect(reply.status == .payloadTooLarge)
            #expect(reply.errorCode == "payload_too_large")
        }
    }

    @Test("workers started by configure run queued jobs", arguments: Backend.available)
    func inProcessWorkers(_ backend: Backend) async throws {
        var registry = JobHandlerRegistry()
        registry.register("echo") { job, context in
            try await context.reportProgress(1, message: "echoed")
            return job.payload
        }
        try await withServer(backend, adjust: {
            $0.jobHandlers = registry
            $0.inProcessWorkers = 1
            $0.workerConfiguration = JobWorker.Configuration(workerID: "in-process", pollInterval: .milliseconds(20))
        }) { app, _, _ in
            let token = try await app.register("ada@example.com").access_token
            let owner = try #require(try await UserRepository(database: app.appDatabase).find(email: "ada@example.com")?.id)
            let id = try await JobQueue(database: app.appDatabase).enqueue(kind: "echo", payload: #"{"hello":"world"}"#, ownerID: owner).id
            var finished = false
            for _ in 0..<400 where !finished {
                let reply = try await app.send(.GET, "/api/jobs/\(id)", token: token)
                finished = reply.body.string.contains(#""status":"succeeded""#)
                if !finished { try await Task.sleep(for: .milliseconds(25)) }
            }
            #expect(finished)
            #expect(try await JobQueue(database: app.appDatabase).job(id: id)?.result == #"{"hello":"world"}"#)
        }
    }
}
