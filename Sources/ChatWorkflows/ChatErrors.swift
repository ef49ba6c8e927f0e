import Platform

/// The chat stories' refusals that several use cases share (`ServiceError`, the one error type).
extension ServiceError {
    static let conversationNotFound = ServiceError(.notFound, code: "conversation_not_found", "No chat story with this id.")
    static let exportNotFound = ServiceError(.notFound, code: "export_not_found", "No export with this id.")
}
