import AppStore
import AppStoreTestSupport
import CallWorkflows
import Calls
import DatabaseTestSupport
import Foundation
import NIOCore
@testable import StoryServer
import Telephony
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// What the calls API suites share: a server with a loopback Twilio and a test App Store CA,
/// and requests as the iPhone app sends them.
protocol CallsAPITesting {}

extension CallsAPITesting {
    static var mobile: HTTPHeaders { ["X-App-Type": "mobile", "User-Agent": "Speech-Assistant-Mobile-iOS/1.0"] }

    /// A server whose Twilio is `wire` (on `twilio`) and whose App Store trusts `ca`.
    func withCallsServer(
        _ backend: Backend = .sqlite, workers: Int = 0, twilio: Bool = true, adjust: (inout ServerConfig) -> Void = { _ in },
        _ body: (Application, ServerConfig, TwilioWire, AppStoreTestCA) async throws -> Void
    ) async throws {
        let wire = TwilioWire()
        let ca = try AppStoreTestCA.make()
        try await LoopbackServer.withServer(handler: wire.handler) { server in
            try await withServer(backend, adjust: { config in
                config.inProcessWorkers = workers
                config.workerConfiguration.pollInterval = .milliseconds(50)
                config.calls = CallServices(
                    twilio: twilio ? TwilioClient(configuration: TwilioConfiguration(
                        accountSID: wire.accountSID, authToken: Secret(wire.authToken), fromNumber: try! PhoneNumber("+15005550006"),
                        publicBaseURL: "https://calls.example.com", apiBaseURL: server.baseURL), timeout: loopbackTimeout) : nil,
                    appStore: try! ca.verifier())
                adjust(&config)
            }) { app, config, _ in
                try await body(app, config, wire, ca)
            }
        }
    }

    /// A second server on the same database and configuration, as a second process would be:
    /// its own connection pool, job workers and blocking threads (SQLite's busy handler spins
    /// on a thread of the pool while it waits for another connection's lock; one pool for
    /// both servers' four connections could leave no thread for the lock's holder).
    func withPeer(_ config: ServerConfig, _ body: (Application) async throws -> Void) async throws {
        try await withApp(configure: { app in
            app.threadPool = NIOThreadPool(numberOfThreads: 2)
            app.logger.logLevel = .critical
            try await configure(app, config)
        }, body)
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: TestingHTTPResponse) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: response.body))
    }

    func registerMobile(_ app: Application, _ email: String) async throws -> String {
        let response = try await app.send(.POST, "/auth/register", json: #"{"email":"\#(email)","password":"correct horse battery"}"#, headers: Self.mobile)
        #expect(response.status == .ok)
        return try decode(MobileClient.AuthResponse.self, response).access_token
    }

    /// The app's own `makeCall(phoneNumber:scenario:)` ("Make a Call"), step for step: it asks
    /// check-call-permission first and compares the status with its own word.
    func appMakeCall(_ app: Application, token: String, phoneNumber: String, scenario: String) async throws -> MobileClient.CallResponse {
        var headers = Self.mobile
        headers.bearerAuthorization = BearerAuthorization(token: token)
        let permission = try decode(MobileClient.CallPermission.self, try await app.send(.POST, "/mobile/check-call-permission", headers: headers))
        if !permission.can_make_call {
            if permission.status == "trial_calls_exhausted" { throw MobileClient.CallError.trialExhausted }
            throw MobileClient.CallError.permissionDenied(permission.details.message ?? "Cannot make call")
        }
        let response = try await app.send(
            .POST, "/mobile/make-call", json: #"{"phone_number":"\#(phoneNumber)","scenario":"\#(scenario)"}"#, headers: headers)
        if response.status == .paymentRequired {
            throw MobileClient.CallError.paymentRequired(try decode(MobileClient.PaymentRequiredError.self, response))
        }
        return try decode(MobileClient.CallResponse.self, response)
    }

    /// Twilio's status callback for `sid`, signed as Twilio signs it.
    func callback(_ app: Application, _ config: ServerConfig, _ wire: TwilioWire, sid: String, status: String, duration: Int?, signature: String? = nil) async throws -> TestingHTTPResponse {
        var fields = [("AccountSid", wire.accountSID), ("CallSid", sid), ("CallStatus", status), ("To", "+14155550100"), ("From", "+15005550006")]
        if let duration { fields.append(("CallDuration", String(duration))) }
        let signed = TwilioSignature.sign(
            url: "https://calls.example.com/call-end-webhook", parameters: fields.map { (name: $0.0, value: $0.1) }, authToken: wire.authToken)
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }.joined(separator: "&")
        var headers: HTTPHeaders = ["X-Twilio-Signature": signature ?? signed]
        headers.contentType = .urlEncodedForm
        return try await app.send(.POST, "/call-end-webhook", headers: headers, body: ByteBuffer(string: body))
    }
}
