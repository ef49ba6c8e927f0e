import Foundation

/// Who waits on a request to the model, and by when. The model on this machine answers one
/// request at a time, so the order it answers in is what a person notices: a caller waiting for
/// the agent's next words, a listener whose next part is due, or nobody in particular.
public struct ModelPriority: Sendable, Hashable, CustomStringConvertible {
    public enum Urgency: Sendable, Hashable {
        /// A person is listening for this answer now (a spoken turn, a call).
        case live
        /// Needed by this time (the journey part a listener reaches next).
        case due(Date)
        /// Nobody waits on it second by second (generation, analysis, parts far ahead).
        case background
    }

    public var urgency: Urgency
    /// Whose request (a user's id): requests of the same urgency are taken in turn across owners,
    /// so one user's book analysis does not starve another's journey.
    public var owner: String?

    public init(_ urgency: Urgency, owner: String? = nil) {
        self.urgency = urgency
        self.owner = owner
    }

    public static let background = ModelPriority(.background)

    public static func live(owner: String? = nil) -> ModelPriority { ModelPriority(.live, owner: owner) }
    public static func due(_ date: Date, owner: String? = nil) -> ModelPriority { ModelPriority(.due(date), owner: owner) }
    public static func background(owner: String?) -> ModelPriority { ModelPriority(.background, owner: owner) }

    public var description: String {
        let who = owner.map { " for \($0.prefix(8))" } ?? ""
        switch urgency {
        case .live: return "live\(who)"
        case .due(let date): return "due in \(Int(date.timeIntervalSinceNow.rounded())) s\(who)"
        case .background: return "background\(who)"
        }
    }
}

/// A model whose requests carry a default priority: the owner when a request names none, and
/// the urgency when a request asks for nothing more urgent than background. So a user's model
/// marks everything it is asked as that user's, and a use case raises only what someone waits on.
public struct PrioritizedModel: LanguageModel {
    public let base: any LanguageModel
    public let priority: ModelPriority

    public init(_ base: any LanguageModel, priority: ModelPriority) {
        self.base = base
        self.priority = priority
    }

    public var provider: Provider { base.provider }
    public var model: String { base.model }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        try await base.complete(prioritized(request))
    }

    public func stream(_ request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error> {
        base.stream(prioritized(request))
    }

    func prioritized(_ request: CompletionRequest) -> CompletionRequest {
        var request = request
        if request.priority.owner == nil { request.priority.owner = priority.owner }
        if request.priority.urgency == .background { request.priority.urgency = priority.urgency }
        return request
    }
}

extension LanguageModel {
    /// This model with `priority` as the default of its requests (see `PrioritizedModel`).
    public func prioritized(_ priority: ModelPriority) -> any LanguageModel {
        PrioritizedModel(self, priority: priority)
    }
}
