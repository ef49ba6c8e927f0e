import Calls
import Crypto
import FluentKit
import Foundation
import Logging
import Persistence
import Telephony

/// Calls placed, tracked and ended: through Twilio to a phone, or from the web app's browser
/// call page over the same media-stream protocol.
public struct PhoneCalls: Sendable {
    public let database: any Database
    public let services: CallServices
    let logger: Logger

    public init(database: any Database, services: CallServices, logger: Logger = Logger(label: "storyvoice.calls")) {
        self.database = database
        self.services = services
        self.logger = logger
    }

    var accounts: CallAccounts { CallAccounts(database: database, now: services.now) }
    var scenarios: CallScenarios { CallScenarios(database: database, now: services.now) }

    // MARK: Placing a call

    /// Checks the plan, the number and the scenario, records the call (charged at once, so two
    /// requests at once cannot both take the last call), and asks Twilio to place it. A call
    /// Twilio refuses is given back.
    ///
    /// - Parameter development: the development server's `/test/test-call`: no plan check, and
    ///   the call is not counted.
    public func makeCall(userID: UUID, phoneNumber: String, scenarioID: String, development: Bool = false) async throws -> MakeCallResponse {
        let number: PhoneNumber
        do { number = try PhoneNumber(phoneNumber) } catch { throw CallError.invalid(error) }
        guard let scenario = try await scenarios.scenario(id: scenarioID, for: userID) else { throw CallError.unknownScenario(scenarioID) }
        if !development { try await requirePermission(userID) }
        guard let twilio = services.twilio else { throw CallError.twilioNotConfigured }
        let token = Self.newToken()
        let record = try await reserve(
            userID: userID, number: number.e164, scenarioID: scenario.id, channel: "twilio", token: token, counted: !development)
        let twiml = CallTwiML.connectStream(
            url: twilio.configuration.mediaStreamURL, parameters: [(name: "call_token", value: token), (name: "scenario", value: scenario.id)])
        let call: TwilioCall
        do {
            // Twilio hangs up by itself a little after our limit, should our own end fail.
            call = try await twilio.createCall(to: number, twiml: twiml, timeLimit: record.durationLimit + 15)
        } catch {
            try await giveBack(record, status: "failed", message: error.message)
            if error.isAboutTheNumber { throw CallError(.invalid, code: "invalid_phone_number", "Twilio cannot call \(number): \(error.message)") }
            throw CallError(.upstream, code: "telephony_failed", "The call could not be placed: \(error.message) Nothing was counted.")
        }
        record.callSID = call.sid
        try await record.save(on: database)
        let allowance = try await accounts.ledger(of: userID).allowance(at: services.now())
        return MakeCallResponse(callSid: record.callSID ?? "", status: record.status, durationLimit: record.durationLimit, usageStats: .init(allowance))
    }

    /// A call from the web app's call page: the same checks and counting, no phone.
    public func startBrowserCall(userID: UUID, scenarioID: String) async throws -> BrowserCallTicket {
        guard let scenario = try await scenarios.scenario(id: scenarioID, for: userID) else { throw CallError.unknownScenario(scenarioID) }
        try await requirePermission(userID)
        let token = Self.newToken()
        let record = try await reserve(userID: userID, number: "browser", scenarioID: scenario.id, channel: "browser", token: token)
        return BrowserCallTicket(
            callID: record.id ?? 0, token: token, mediaStreamPath: "/media-stream", durationLimit: record.durationLimit,
            scenario: ScenarioView(scenario))
    }

    func requirePermission(_ userID: UUID) async throws {
        let permission = try await accounts.permission(of: userID)
        guard permission.canMakeCall else {
            throw CallError(.paymentRequired, code: permission.status.rawValue, permission.details.message,
                            payment: PaymentRequired(permission: permission, now: services.now()))
        }
    }

    /// Records the call, then replays the ledger with it: if it was not paid for (another
    /// request took the last call in between), it is removed and refused.
    private func reserve(
        userID: UUID, number: String, scenarioID: String, channel: String, token: String, counted: Bool = true
    ) async throws -> PhoneCallRecord {
        let now = services.now()
        let limit = try await accounts.ledger(of: userID).allowance(at: now).durationLimit
        let record = PhoneCallRecord(
            userID: userID, phoneNumber: number, scenarioID: scenarioID, channel: channel, durationLimit: limit,
            streamTokenHash: Self.hash(token), now: now)
        record.counts = counted
        try await record.create(on: database)
        guard counted else { return record }
        let ledger = try await accounts.ledger(of: userID)
        if ledger.charges().first(where: { $0.call.id == record.id })?.charge == .unpaid {
            try await record.delete(on: database)
            try await requirePermission(userID)
            throw CallError(.conflict, code: "call_in_progress", "Another call was being placed at the same moment; try again.")
        }
        return record
    }

    private func giveBack(_ record: PhoneCallRecord, status: String, message: String?) async throws {
        record.status = status
        record.counts = false
        record.errorMessage = message
        record.endedAt = services.now()
        record.streamTokenHash = nil
        try await record.save(on: database)
    }

    // MARK: History

    public func history(userID: UUID, limit: Int) async throws -> CallHistory {
        let repository = CallRepository(database: database)
        let calls = try await repository.recentCalls(of: userID, limit: max(1, min(limit, 100)))
        return CallHistory(callHistory: calls.map(CallHistoryItem.init), totalCalls: try await repository.callCount(of: userID))
    }

    // MARK: Twilio's status callback

    /// Twilio's final call statuses, and whether a call that ended so was connected.
    static let finalStatuses: [String: Bool] = ["completed": true, "busy": false, "no-answer": false, "failed": false, "canceled": false]

    /// `POST /call-end-webhook`: Twilio's status callback, signed with the account's auth token
    /// over `statusCallbackURL` and the form parameters. A bad signature changes nothing.
    public func statusCallback(parameters: [(name: String, value: String)], signature: String?) async throws {
        guard let twilio = services.twilio else { throw CallError.twilioNotConfigured }
        let configuration = twilio.configuration
        guard let signature, TwilioSignature.isValid(
            signature, url: configuration.statusCallbackURL, parameters: parameters, authToken: configuration.authToken.value)
        else {
            throw CallError(.forbidden, code: "invalid_signature", "The X-Twilio-Signature does not match this request.")
        }
        func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
        guard value("AccountSid") == configuration.accountSID, let sid = value("CallSid"), let status = value("CallStatus") else {
            throw CallError(.invalid, code: "invalid_callback", "The callback has no CallSid and CallStatus for this account.")
        }
        guard let record = try await CallRepository(database: database).call(sid: sid) else {
            logger.notice("a status callback for an unknown call", metadata: ["call_sid": "\(sid)"])
            return
        }
        // Callbacks may arrive out of order; a final status is never replaced by an earlier one.
        guard Self.finalStatuses[record.status] == nil else { return }
        record.status = status
        if let connected = Self.finalStatuses[status] {
            let seconds = value("CallDuration").flatMap(Int.init) ?? 0
            record.durationSeconds = seconds
            record.counts = record.counts && connected
            record.endedAt = services.now()
            record.streamTokenHash = nil
        }
        try await record.save(on: database)
    }

    // MARK: The media stream's hooks

    /// The grant for a stream whose `start` carries this call's token; the token works once.
    public func authorizeStream(token: String?, callSid: String?) async -> MediaStreamGrant? {
        guard let token, !token.isEmpty else { return nil }
        do {
            let repository = CallRepository(database: database)
            guard let record = try await repository.call(streamTokenHash: Self.hash(token)), let id = record.id else { return nil }
            // A Twilio call's stream must come from that call.
            if record.channel == "twilio", let expected = record.callSID, callSid != expected { return nil }
            guard let scenario = try await scenarios.scenario(id: record.scenarioID, for: record.$user.id) else { return nil }
            record.streamTokenHash = nil
            if record.channel == "browser" { record.status = "in-progress" }
            try await record.save(on: database)
            return MediaStreamGrant(callID: String(id), scenario: scenario, durationLimit: record.durationLimit)
        } catch {
            logger.error("a media stream could not be authorised: \(error)")
            return nil
        }
    }

    /// Ends a Twilio call that reached its plan's limit, through the REST API, without a word.
    public func limitReached(callSid: String) async {
        do {
            try await services.twilio?.endCall(sid: callSid)
        } catch {
            logger.error("a call at its limit could not be ended; Twilio's TimeLimit will end it", metadata: ["call_sid": "\(callSid)", "error": "\(error.message)"])
        }
    }

    /// Records how a browser call went (a Twilio call's end comes from its status callback). A
    /// call in which the agent never spoke is given back, like a phone call nobody answered.
    public func streamEnded(callID: String, secondsConnected: Double, agentSpoke: Bool = true) async {
        do {
            guard let id = Int(callID), let record = try await CallRepository(database: database).call(id: id), record.channel == "browser" else { return }
            record.status = agentSpoke ? "completed" : "failed"
            record.counts = record.counts && agentSpoke
            record.durationSeconds = min(record.durationLimit, Int(secondsConnected.rounded()))
            record.endedAt = services.now()
            try await record.save(on: database)
        } catch {
            logger.error("a browser call's end could not be recorded: \(error)")
        }
    }

    static func newToken() -> String {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        return bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
