import Calls
import Foundation
import Logging
import NIOHTTP1
import VendorHTTP

/// The server's Twilio account: never from a client, never logged (`Secret`).
public struct TwilioConfiguration: Sendable {
    public var accountSID: String
    public var authToken: Secret
    /// The system number every call comes from.
    public var fromNumber: PhoneNumber
    /// Where Twilio reaches this server (`https://calls.example.com`): the status callback and
    /// the media stream's `wss://` address are made from it.
    public var publicBaseURL: String
    /// Twilio's REST API; a loopback server in tests.
    public var apiBaseURL: String

    public init(accountSID: String, authToken: Secret, fromNumber: PhoneNumber, publicBaseURL: String, apiBaseURL: String = "https://api.twilio.com") {
        self.accountSID = accountSID
        self.authToken = authToken
        self.fromNumber = fromNumber
        self.publicBaseURL = publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL
        self.apiBaseURL = apiBaseURL.hasSuffix("/") ? String(apiBaseURL.dropLast()) : apiBaseURL
    }

    /// The status callback Twilio posts to, and the URL its signature covers.
    public var statusCallbackURL: String { publicBaseURL + "/call-end-webhook" }

    /// The media stream's address: the public URL with `wss` (or `ws`) for `https` (`http`).
    public var mediaStreamURL: String {
        let socketBase = publicBaseURL.hasPrefix("https://")
            ? "wss://" + publicBaseURL.dropFirst("https://".count)
            : "ws://" + publicBaseURL.dropFirst("http://".count)
        return socketBase + "/media-stream"
    }
}

/// A call as Twilio's REST API describes it.
public struct TwilioCall: Decodable, Sendable, Equatable {
    public var sid: String
    public var status: String
}

/// Why Twilio refused: its own error code and message (e.g. 21211, "The 'To' number … is not a
/// valid phone number."), or how the request failed on the way.
public struct TwilioError: Error, Sendable, Equatable {
    public var code: Int?
    public var message: String
    public var status: Int?

    public init(code: Int?, message: String, status: Int?) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// Twilio's codes for a number it cannot call: invalid, not a mobile/landline it can reach,
    /// or in a country the account is not permitted to call.
    public var isAboutTheNumber: Bool {
        guard let code else { return false }
        return [21211, 21214, 21215, 21216, 21217, 21219, 21401, 21407, 21408, 21421, 21610, 13223, 13224].contains(code)
    }

    /// Whether Twilio refused this server's account (its credentials or permissions): the
    /// operator's to mend, so the caller is not shown the details.
    public var isAboutTheAccount: Bool {
        status == 401 || status == 403 || code == 20003 || code == 20005
    }

    /// What the person placing the call is told.
    public var messageForCaller: String {
        isAboutTheAccount ? "The phone service refused this server's account; the server's operator can see why in its log." : message
    }
}

/// Twilio's REST API for the calls we place: create one (`POST …/Calls.json`) and end one
/// (`POST …/Calls/{Sid}.json` with `Status=completed`).
public struct TwilioClient: Sendable {
    public let configuration: TwilioConfiguration
    private let transport: VendorTransport
    private let logger: Logger

    public init(configuration: TwilioConfiguration, timeout: Double = 30, logger: Logger = Logger(label: "storyvoice.twilio")) {
        self.configuration = configuration
        // Creating a call is not idempotent: a retry after a timeout could ring the phone
        // twice. Only a 429 (nothing was created) is safe to retry, and the transport retries
        // 5xx and timeouts too, so creation is sent once; ending is retried (see `endCall`).
        self.transport = VendorTransport(key: configuration.authToken, timeout: timeout, retry: .none, limiter: Self.limiter)
        self.logger = logger
    }

    private static let limiter = ConcurrencyLimiter(limit: 8)

    /// Places a call to `to` that runs `twiml` once answered; Twilio posts its progress to the
    /// status callback and hangs up after `timeLimit` seconds whatever we do (a backstop: the
    /// media stream ends calls at their plan's limit itself).
    public func createCall(to: PhoneNumber, twiml: String, timeLimit: Int) async throws(TwilioError) -> TwilioCall {
        let form: [(String, String)] = [
            ("To", to.e164), ("From", configuration.fromNumber.e164), ("Twiml", twiml),
            ("StatusCallback", configuration.statusCallbackURL), ("StatusCallbackMethod", "POST"),
            ("StatusCallbackEvent", "initiated"), ("StatusCallbackEvent", "ringing"),
            ("StatusCallbackEvent", "answered"), ("StatusCallbackEvent", "completed"),
            ("TimeLimit", String(timeLimit)),
        ]
        return try await post(path: "/Calls.json", form: form, retry: false)
    }

    /// Hangs up a call in progress (`Status=completed`); a call already over is not an error.
    public func endCall(sid: String) async throws(TwilioError) {
        do {
            let _: TwilioCall = try await post(path: "/Calls/\(sid).json", form: [("Status", "completed")], retry: true)
        } catch where error.code == 21220 {
            // "Call is not in-progress. Cannot redirect.": it ended on its own first.
        }
    }

    private func post<Answer: Decodable>(path: String, form: [(String, String)], retry: Bool) async throws(TwilioError) -> Answer {
        let url = "\(configuration.apiBaseURL)/2010-04-01/Accounts/\(configuration.accountSID)\(path)"
        let credentials = Data("\(configuration.accountSID):\(configuration.authToken.value)".utf8).base64EncodedString()
        let request = VendorRequest(
            method: .POST, url: url,
            headers: [("Authorization", "Basic \(credentials)"), ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Data(Self.formEncode(form).utf8))
        let sender = retry ? VendorTransport(key: configuration.authToken, timeout: transport.timeout, retry: .standard, limiter: Self.limiter) : transport
        let reply: VendorReply
        do {
            reply = try await sender.send(request, logger: logger, errorMessage: Self.errorMessage)
        } catch {
            throw Self.error(from: error)
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: reply.body)
        } catch {
            throw TwilioError(code: nil, message: "Twilio's answer could not be read.", status: nil)
        }
    }

    /// `application/x-www-form-urlencoded`, names repeated for repeated parameters.
    static func formEncode(_ form: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.map { name, value in
            name.addingPercentEncoding(withAllowedCharacters: allowed)! + "=" + value.addingPercentEncoding(withAllowedCharacters: allowed)!
        }.joined(separator: "&")
    }

    /// Twilio's error body: `{"code": 21211, "message": "…", "more_info": "…", "status": 400}`.
    struct ErrorBody: Decodable {
        var code: Int?
        var message: String
        var status: Int?
    }

    static func errorMessage(_ body: Data) -> String? {
        guard let error = try? JSONDecoder().decode(ErrorBody.self, from: body) else { return nil }
        return "\(error.code.map(String.init) ?? "-")|\(error.message)"
    }

    static func error(from failure: VendorFailure) -> TwilioError {
        let status: Int? = switch failure.kind {
        case .noAccess(let status), .providerError(let status), .requestRejected(let status): status
        case .invalidKey: 401
        case .rateLimited: 429
        default: nil
        }
        if let detail = failure.detail, let bar = detail.firstIndex(of: "|") {
            return TwilioError(code: Int(detail[..<bar]), message: String(detail[detail.index(after: bar)...]), status: status)
        }
        let message = switch failure.kind {
        case .invalidKey: "Twilio refused the account's credentials: check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN."
        case .unreachable: "Twilio could not be reached; try again in a moment."
        case .timeout: "Twilio did not answer in time; try again in a moment."
        case .rateLimited: "Twilio is rate-limiting this account; try again in a minute."
        default: "Twilio refused the request (\(failure.kind))."
        }
        return TwilioError(code: nil, message: message, status: status)
    }
}

/// The TwiML a placed call runs: connect a bidirectional Media Stream to our WebSocket, with
/// the call's one-time token and scenario as stream parameters.
public enum CallTwiML {
    public static func connectStream(url: String, parameters: [(name: String, value: String)]) -> String {
        let tags = parameters.map { #"<Parameter name="\#(escape($0.name))" value="\#(escape($0.value))"/>"# }.joined()
        return #"<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="\#(escape(url))">\#(tags)</Stream></Connect></Response>"#
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}
