import AppStore
import Testing

/// The ``AppStoreError`` that `body` throws; an issue is recorded when it succeeds or throws
/// anything else.
func refusal<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T) async -> AppStoreError? {
    do {
        let value = try await body()
        Issue.record("accepted: \(value)", sourceLocation: sourceLocation)
    } catch let error as AppStoreError {
        return error
    } catch {
        Issue.record("not an AppStoreError: \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

extension AppStoreError {
    var isUntrustedChain: Bool { if case .untrustedChain = self { true } else { false } }
    var isBadSignature: Bool { if case .badSignature = self { true } else { false } }
    var isMalformed: Bool { if case .malformed = self { true } else { false } }
    var chainReason: String? { if case .untrustedChain(let why) = self { why } else { nil } }
}
