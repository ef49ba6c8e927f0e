import Foundation
@testable import StoryServer
import Testing
import VaporTesting

/// A spray of logins, each with a new email, from many addresses: password hashing must not
/// starve the database. Before, bcrypt ran on the thread pool SQLite uses too, and signed-in
/// requests failed with 500 (`connectionRequestTimeout`) while the spray lasted.
@Suite("Login spray")
struct LoginSprayTests {
    @Test("a spray of slow logins gets 401 or 503, never 500, while a signed-in user's requests are answered")
    func sprayDoesNotStarveTheDatabase() async throws {
        try await withServer(adjust: { config in
            config.bcryptCost = 13  // about half a second a hash: a spray queues seconds of work
            config.trustForwardedFor = true
            config.passwordHasher = PasswordHasher(threads: 1, maxWaiting: 6)
        }) { app, _, _ in
            let token = try await app.register("reader@example.com").access_token
            let tester = try app.testing()
            let replies = try await withThrowingTaskGroup(of: (String, HTTPStatus, String?).self) { group in
                for index in 0..<48 {
                    group.addTask {
                        var headers = HTTPHeaders()
                        headers.contentType = .urlEncodedForm
                        headers.replaceOrAdd(name: "X-Forwarded-For", value: "198.51.100.\(index)")
                        let body = ByteBuffer(string: "username=spray\(index)%40example.com&password=wrong-password")
                        let reply = try await tester.sendRequest(.POST, "/auth/login", headers: headers, body: body)
                        return ("login", reply.status, reply.headers.first(name: .retryAfter))
                    }
                }
                for _ in 0..<6 {
                    group.addTask {
                        var headers = HTTPHeaders()
                        headers.bearerAuthorization = BearerAuthorization(token: token)
                        return ("stories", try await tester.sendRequest(.GET, "/api/stories", headers: headers).status, nil)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(!replies.contains { $0.1 == .internalServerError }, "\(replies.map { "\($0.0) \($0.1.code)" })")
            #expect(replies.filter { $0.0 == "stories" }.allSatisfy { $0.1 == .ok })
            let logins = replies.filter { $0.0 == "login" }
            #expect(logins.allSatisfy { $0.1 == .unauthorized || ($0.1 == .serviceUnavailable && $0.2 != nil) })
            // The queue was bounded: most of the spray was turned away without a hash.
            #expect(logins.filter { $0.1 == .serviceUnavailable }.count >= 30)
        }
    }

    @Test("one address is limited across emails: the hashing request past the limit in a window gets 429")
    func oneAddressIsLimitedAcrossEmails() async throws {
        // A window far longer than the test: on a loaded machine, 31 logins can take over a minute.
        try await withServer(adjust: { $0.loginRateWindow = 3600 }) { app, config, _ in
            var statuses: [HTTPStatus] = []
            for index in 0...config.hashingRequestsPerAddress {
                var headers = HTTPHeaders()
                headers.contentType = .urlEncodedForm
                let body = ByteBuffer(string: "username=guess\(index)%40example.com&password=wrong-password")
                statuses.append(try await app.testing().sendRequest(.POST, "/auth/login", headers: headers, body: body).status)
            }
            #expect(statuses.prefix(config.hashingRequestsPerAddress).allSatisfy { $0 == .unauthorized })
            #expect(statuses.last == .tooManyRequests)
        }
    }
}
