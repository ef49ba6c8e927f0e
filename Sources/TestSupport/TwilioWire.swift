import Foundation
import Synchronization
import VendorHTTP

/// The server side of Twilio's Calls resource (`/2010-04-01/Accounts/{AccountSid}/Calls.json`),
/// written from Twilio's API reference independently of the client: HTTP Basic auth with the
/// account SID and auth token (20003 otherwise), `To` must be E.164 (21211 otherwise, Twilio's
/// own body), a created call is 201 with the call resource, `Status=completed` ends a call in
/// progress (21220 once it is over, 20404 for an unknown SID).
public final class TwilioWire: Sendable {
    public struct PlacedCall: Sendable {
        public var sid: String
        public var to: String
        public var from: String
        public var twiml: String
        public var statusCallback: String?
        public var statusCallbackEvents: [String]
        public var timeLimit: Int?
        public var status: String
    }

    public let accountSID: String
    public let authToken: String
    private let state = Mutex<[PlacedCall]>([])

    public init(accountSID: String = "AC" + String(repeating: "0", count: 32), authToken: String = "loopback-auth-token-0123456789") {
        self.accountSID = accountSID
        self.authToken = authToken
    }

    public var calls: [PlacedCall] { state.withLock { $0 } }

    public var handler: LoopbackServer.Handler {
        { [self] request in reply(to: request) }
    }

    func reply(to request: RecordedRequest) -> LoopbackReply {
        let expected = "Basic " + Data("\(accountSID):\(authToken)".utf8).base64EncodedString()
        guard request.header("authorization") == expected else {
            return Self.error(status: 401, code: 20003, message: "Authenticate")
        }
        let form = Self.form(request.body)
        let base = "/2010-04-01/Accounts/\(accountSID)/Calls"
        let path = request.uri.split(separator: "?").first.map(String.init) ?? request.uri
        if request.method == "POST", path == base + ".json" { return create(form) }
        if request.method == "POST", path.hasPrefix(base + "/"), path.hasSuffix(".json") {
            let sid = String(path.dropFirst(base.count + 1).dropLast(".json".count))
            return update(sid: sid, form)
        }
        return Self.error(status: 404, code: 20404, message: "The requested resource \(path) was not found")
    }

    private func create(_ form: [(String, String)]) -> LoopbackReply {
        func value(_ name: String) -> String? { form.first { $0.0 == name }?.1 }
        guard let to = value("To"), let from = value("From") else {
            return Self.error(status: 400, code: 21201, message: "No 'To' number is specified")
        }
        guard to.range(of: #"^\+[1-9][0-9]{7,14}$"#, options: .regularExpression) != nil, !to.hasPrefix("+1555") else {
            return Self.error(status: 400, code: 21211, message: "The 'To' number \(to) is not a valid phone number.")
        }
        guard let twiml = value("Twiml") ?? value("Url") else {
            return Self.error(status: 400, code: 21205, message: "Url parameter is required.")
        }
        let sid = "CA" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let call = PlacedCall(
            sid: sid, to: to, from: from, twiml: twiml, statusCallback: value("StatusCallback"),
            statusCallbackEvents: form.filter { $0.0 == "StatusCallbackEvent" }.map(\.1),
            timeLimit: value("TimeLimit").flatMap(Int.init), status: "queued")
        state.withLock { $0.append(call) }
        return LoopbackReply(status: 201, json: resource(call))
    }

    private func update(sid: String, _ form: [(String, String)]) -> LoopbackReply {
        let status = form.first { $0.0 == "Status" }?.1
        let result: PlacedCall?? = state.withLock { calls in
            guard let index = calls.firstIndex(where: { $0.sid == sid }) else { return .none }
            if calls[index].status == "completed" { return .some(nil) }
            if let status { calls[index].status = status }
            return .some(calls[index])
        }
        switch result {
        case .none: return Self.error(status: 404, code: 20404, message: "The requested resource /Calls/\(sid).json was not found")
        case .some(nil): return Self.error(status: 400, code: 21220, message: "Call is not in-progress. Cannot redirect.")
        case .some(let call?): return LoopbackReply(status: 200, json: resource(call))
        }
    }

    /// Marks a call as answered (in progress), as when the phone is picked up.
    public func answer(sid: String) {
        state.withLock { calls in
            if let index = calls.firstIndex(where: { $0.sid == sid }) { calls[index].status = "in-progress" }
        }
    }

    private func resource(_ call: PlacedCall) -> JSONValue {
        [
            "sid": .string(call.sid), "account_sid": .string(accountSID), "to": .string(call.to), "from": .string(call.from),
            "status": .string(call.status), "direction": "outbound-api", "api_version": "2010-04-01",
            "uri": .string("/2010-04-01/Accounts/\(accountSID)/Calls/\(call.sid).json"),
        ]
    }

    /// Twilio's error body.
    public static func error(status: Int, code: Int, message: String) -> LoopbackReply {
        LoopbackReply(status: status, json: [
            "code": .number(Double(code)), "message": .string(message),
            "more_info": .string("https://www.twilio.com/docs/errors/\(code)"), "status": .number(Double(status)),
        ])
    }

    /// The form parameters of an `application/x-www-form-urlencoded` body, in order.
    public static func form(_ body: Data) -> [(String, String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }
}
