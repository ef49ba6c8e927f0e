import CallWorkflows
import DatabaseTestSupport
import Foundation
import Persistence
import Testing

/// Placing and streaming calls on a real database, without HTTP.
@Suite("Phone calls, without HTTP")
struct PhoneCallsTests {
    @Test("a call's stream token admits one stream, even when several present it at once", arguments: Backend.available)
    func streamTokenWorksOnce(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let user = try await UserRepository(database: database.database).create(email: "caller@example.com", passwordHash: "h").id
            let calls = PhoneCalls(database: database.database, services: CallServices())
            let ticket = try await calls.startBrowserCall(userID: user, scenarioID: "default")

            // Before this was one conditional write, each of several streams read the token
            // unused and all were admitted to one call.
            let grants = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { await calls.authorizeStream(token: ticket.token, callSid: nil) != nil } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(grants == 1)
            #expect(await calls.authorizeStream(token: ticket.token, callSid: nil) == nil)
            let call = try #require(try await CallRepository(database: database.database).call(id: ticket.callID))
            #expect(call.status == "in-progress" && call.streamTokenHash == nil)

            // Its end is recorded on the same row.
            await calls.streamEnded(callID: String(ticket.callID), secondsConnected: 12.4)
            let ended = try #require(try await CallRepository(database: database.database).call(id: ticket.callID))
            #expect(ended.status == "completed" && ended.durationSeconds == 12 && ended.counts && ended.endedAt != nil)
        }
    }
}
