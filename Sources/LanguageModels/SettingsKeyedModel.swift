import Foundation

/// A model whose key comes from the user's Settings only (the server's users): its errors say
/// to add or update the key in Settings, never to set an environment variable the server does
/// not read for them (`LanguageModelError.keyFromSettingsOnly`).
public struct SettingsKeyedModel: LanguageModel {
    public let base: any LanguageModel

    public init(_ base: any LanguageModel) {
        self.base = base
    }

    public var provider: Provider { base.provider }
    public var model: String { base.model }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        do {
            return try await base.complete(request)
        } catch {
            throw Self.fromSettings(error)
        }
    }

    public func stream(_ request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error> {
        .producing { yield in
            do {
                for try await event in base.stream(request) { yield(event) }
            } catch {
                throw Self.fromSettings(error)
            }
        }
    }

    static func fromSettings(_ error: any Error) -> any Error {
        guard var error = error as? LanguageModelError else { return error }
        error.keyFromSettingsOnly = true
        return error
    }
}
