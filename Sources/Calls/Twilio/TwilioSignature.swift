import Crypto
import Foundation

/// Twilio's `X-Twilio-Signature`: base64 of HMAC-SHA1, keyed by the account's auth token, over
/// the full request URL followed by each POST parameter's name and value, sorted by name.
/// (https://www.twilio.com/docs/usage/security#validating-requests)
public enum TwilioSignature {
    public static func sign(url: String, parameters: [(name: String, value: String)], authToken: String) -> String {
        let sorted = parameters.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        let payload = sorted.reduce(url) { $0 + $1.name + $1.value }
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Data(payload.utf8), using: SymmetricKey(data: Data(authToken.utf8)))
        return Data(mac).base64EncodedString()
    }

    /// Compares in constant time, so a forger learns nothing from how long a refusal takes.
    public static func isValid(
        _ signature: String, url: String, parameters: [(name: String, value: String)], authToken: String
    ) -> Bool {
        let expected = Array(sign(url: url, parameters: parameters, authToken: authToken).utf8)
        let given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
