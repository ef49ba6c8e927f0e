import Calls
import Crypto
import Foundation
import Logging
import Persistence
import Platform
import Telephony

/// Calls placed, tracked and ended: through Twilio to a phone, or from the web app's browser
/// call page over the same media-stream protocol.
public struct PhoneCalls: Sendable {
    public let database: AppDatabase
    public let services: CallServices
    let logger: Logger

    public init(database: AppDatabase, services: CallServices, logger: Logger = Logger(label: "storyvoice.calls")) {
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
        do { number = try PhoneNumber(phoneNumber) } catch { throw ServiceError.invalidCall(error) }
        guard let scenario = try await scenarios.scenario(id: scenarioID, for: userID) else { throw ServiceError.unknownScenario(scenarioID) }
        if !development { try await requirePermission(userID) }
        guard let twilio = services.twilio else { throw ServiceError.twilioNotConfigured }
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
            if error.isAboutTheNumber { throw ServiceError(.badRequest, code: "invalid_phone_number", "Twilio cannot call \(number): \(error.message)") }
            logger.error("Twilio did not place a call", metadata: ["error": "\(error.message)", "status": "\(error.status.map(String.init) ?? "-")"])
            throw ServiceError(.upstream, code: "telephony_failed", "The call could not be placed: \(error.messageForCaller) Nothing was counted.")
        }
        let placed = try await CallRepository(database: database).updateCall(id: record.id) { $0.callSID = call.sid } ?? record
        let allowance = try await accounts.ledger(of: userID).allowance(at: services.now())
        return MakeCallResponse(callSid: call.sid, status: placed.status, durationLimit: record.durationLimit, usageStats: .init(allowance))
    }

    /// A call from the web app's call page: the same checks and counting, no phone.
    public func startBrowserCall(userID: UUID, scenarioID: String) async throws -> BrowserCallTicket {
        guard let scenario = try await scenarios.scenario(id: scenarioID, for: userID) else { throw ServiceError.unknownScenario(scenarioID) }
        try await requirePermission(userID)
        let token = Self.newToken()
        let record = try await reserve(userID: userID, number: "browser", scenarioID: scenario.id, channel: "browser", token: token)
        return BrowserCallTicket(
            callID: record.id, token: token, mediaStreamPath: "/media-stream", durationLimit: record.durationLimit,
            scenario: ScenarioView(scenario))
    }

    func requirePermission(_ userID: UUID) async throws {
        try Self.require(try await accounts.ledger(of: userID), at: services.now())
    }

    /// Refuses with the 402 the app shows when `ledger` leaves nothing to call with at `time`.
    static func require(_ ledger: CallLedger, at time: Date) throws {
        let permission = ledger.allowance(at: time).permission(trialEndsAt: ledger.trialEndsAt)
        guard permission.canMakeCall else {
            throw ServiceError(.paymentRequired, code: permission.status.rawValue, permission.details.message,
                            detail: PaymentRequired(permission: permission, now: time).detail)
        }
    }

    /// Records the call, charged at once: the plan is read and the call inserted under the
    /// user's lock for calls, so requests at once, on any server process, take turns, and each
    /// sees the calls the earlier ones recorded. The call is stamped no earlier than any call
    /// already recorded, so replaying the ledger charges it last and never moves an earlier
    /// call's charge (a call stamped before another but recorded after it was once found paid
    /// for by the later call's allowance, and both went through).
    private func reserve(
        userID: UUID, number: String, scenarioID: String, channel: String, token: String, counted: Bool = true
    ) async throws -> PhoneCallRow {
        // The account first (its trial may start now), outside the lock: the lock's transaction
        // uses one connection only.
        _ = try await CallRepository(database: database).account(for: userID, appType: "mobile_consumer", now: services.now())
        let now = services.now
        return try await UserLock(database: database).serialized(userID, scope: Self.lockScope) { database in
            let ledger = try await CallAccounts(database: database, now: now).ledger(of: userID)
            let stamp = max(now(), ledger.calls.last?.placedAt ?? .distantPast)
            if counted { try Self.require(ledger, at: stamp) }
            return try await CallRepository(database: database).insertCall(NewPhoneCall(
                userID: userID, phoneNumber: number, scenarioID: scenarioID, channel: channel,
                durationLimit: ledger.allowance(at: stamp).durationLimit, streamTokenHash: Self.hash(token), counts: counted, createdAt: stamp))
        }
    }

    /// The `UserLock` scope of placing calls.
    static let lockScope = "calls"

    private func giveBack(_ record: PhoneCallRow, status: String, message: String?) async throws {
        let now = services.now()
        try await CallRepository(database: database).updateCall(id: record.id) { record in
            record.status = status
            record.counts = false
            record.errorMessage = message
            record.endedAt = now
            record.streamTokenHash = nil
        }
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
        guard let twilio = services.twilio else { throw ServiceError.twilioNotConfigured }
        let configuration = twilio.configuration
        guard let signature, TwilioSignature.isValid(
            signature, url: configuration.statusCallbackURL, parameters: parameters, authToken: configuration.authToken.value)
        else {
            throw ServiceError(.forbidden, code: "invalid_signature", "The X-Twilio-Signature does not match this request.")
        }
        func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
        guard value("AccountSid") == configuration.accountSID, let sid = value("CallSid"), let status = value("CallStatus") else {
            throw ServiceError(.badRequest, code: "invalid_callback", "The callback has no CallSid and CallStatus for this account.")
        }
        let repository = CallRepository(database: database)
        guard let call = try await repository.call(sid: sid) else {
            logger.notice("a status callback for an unknown call", metadata: ["call_sid": "\(sid)"])
            return
        }
        let now = services.now(), seconds = value("CallDuration").flatMap(Int.init) ?? 0
        try await repository.updateCall(id: call.id) { record in
            // Callbacks may arrive out of order; a final status is never replaced by an earlier one.
            guard Self.finalStatuses[record.status] == nil else { return }
            record.status = status
            if let connected = Self.finalStatuses[status] {
                record.durationSeconds = seconds
                record.counts = record.counts && connected
                record.endedAt = now
                record.streamTokenHash = nil
            }
        }
    }

    // MARK: The media stream's hooks

    /// The grant for a stream whose `start` carries this call's token; the token works once.
    public func authorizeStream(token: String?, callSid: String?) async -> MediaStreamGrant? {
        guard let token, !token.isEmpty else { return nil }
        do {
            let repository = CallRepository(database: database)
            let hash = Self.hash(token)
            guard let record = try await repository.call(streamTokenHash: hash) else { return nil }
            // A Twilio call's stream must come from that call.
            if record.channel == "twilio", let expected = record.callSID, callSid != expected { return nil }
            guard let scenario = try await scenarios.scenario(id: record.scenarioID, for: record.userID) else { return nil }
            // Used once: of two streams presenting it at once, one is admitted.
            guard try await repository.useStreamToken(hash, of: record.id) else { return nil }
            if record.channel == "browser" { try await repository.updateCall(id: record.id) { $0.status = "in-progress" } }
            return MediaStreamGrant(callID: String(record.id), scenario: scenario, durationLimit: record.durationLimit)
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
            let now = services.now()
            guard let id = Int(callID), try await CallRepository(database: database).call(id: id)?.channel == "browser" else { return }
            try await CallRepository(database: database).updateCall(id: id) { record in
                record.status = agentSpoke ? "completed" : "failed"
                record.counts = record.counts && agentSpoke
                record.durationSeconds = min(record.durationLimit, Int(secondsConnected.rounded()))
                record.endedAt = now
            }
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
