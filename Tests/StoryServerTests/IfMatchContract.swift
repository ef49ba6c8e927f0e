import Foundation
@testable import StoryServer
import Testing
import VaporTesting

/// What every versioned resource promises (stories, chat stories): an edit sent with `If-Match`
/// applies only to the version it names; a stale, weak or foreign tag answers 412
/// `stale_version` and changes nothing; `*` or no header edits the latest.
enum IfMatchContract {
    /// `seen` is the resource's ETag as first read; `rename(name, ifMatch)` edits one field to
    /// `name`; `current()` reads that field back.
    static func check(
        seen: String, rename: (String, String?) async throws -> TestingHTTPResponse, current: () async throws -> String?
    ) async throws {
        let first = try await rename("First tab", seen)
        #expect(first.status == .ok)
        let next = try #require(first.headers.first(name: .eTag))
        #expect(next != seen)

        // The second tab still holds the old version: refused, and the first tab's edit stays.
        let stale = try await rename("Second tab", seen)
        #expect(stale.status == .preconditionFailed)
        #expect(stale.errorCode == "stale_version")
        #expect(stale.errorMessage?.contains("Reload") == true)
        #expect(try await current() == "First tab")
        // A weak tag (strong comparison) or one that is no version never matches.
        #expect(try await rename("Weak", "W/\(next)").status == .preconditionFailed)
        #expect(try await rename("Nonsense", "\"abc\"").status == .preconditionFailed)
        #expect(try await rename("Current", next).status == .ok)
        #expect(try await rename("Any", "*").status == .ok)
        #expect(try await rename("Latest", nil).status == .ok)
        #expect(try await current() == "Latest")
    }

    static func headers(ifMatch: String?) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let ifMatch { headers.replaceOrAdd(name: .ifMatch, value: ifMatch) }
        return headers
    }
}
