import Foundation
import JWT

/// The claims of an access token: whose it is and until when it is good.
struct AccessTokenPayload: JWTPayload {
    var subject: SubjectClaim
    var expiration: ExpirationClaim
    var issuedAt: IssuedAtClaim
    /// Distinguishes access tokens from any other JWT signed with a key from the same secret.
    var type: String
    /// The sign-in (refresh-token family) it belongs to: signing out, or a stolen refresh token
    /// being reused, ends that sign-in and with it this token, before it expires.
    var session: String?

    static let accessType = "access"

    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case expiration = "exp"
        case issuedAt = "iat"
        case type = "typ"
        case session = "sid"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try expiration.verifyNotExpired()
        guard type == Self.accessType else {
            throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "not an access token")
        }
    }
}
