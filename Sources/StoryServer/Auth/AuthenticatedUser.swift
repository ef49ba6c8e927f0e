import Foundation
import Vapor

/// The signed-in user of a request.
struct AuthenticatedUser: Authenticatable {
    var id: UUID
    var email: String
}

extension Request {
    /// The signed-in user; routes behind `RequireUserMiddleware` always have one.
    func requireUser() throws -> AuthenticatedUser {
        guard let user = auth.get(AuthenticatedUser.self) else {
            throw APIError.unauthorized("Sign in first: send Authorization: Bearer <access token>.")
        }
        return user
    }
}
