import Foundation
import NIOCore
@testable import StoryServer
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

extension ContractWalk {
    /// Every journeys operation, with the replies it documents: the part of the API walk
    /// (`OpenAPIShapeTests.walk`) for `/api/journeys/…`. A journey needs a model and voices that
    /// speak, so this part walks a server of its own (`withJourneyServer`: the loopback model,
    /// flite) and adds what it found to this walk.
    func walkJourneys() async throws {
        try await withJourneyServer { app, _, ada, _ in
            let walk = ContractWalk(app, contract)
            try await walk.walkJourneys(token: ada)
            absorb(walk)
        }
    }

    private func walkJourneys(token: String) async throws {
        let trip = #""start":"51.7520,-1.2577","end":"51.7530,-1.2577","mode":"walking""#
        try await call(.POST, "/api/journeys/plan", token: token, json: "{\(trip)}", expect: .ok)
        try await call(.POST, "/api/journeys/plan", token: token, json: #"{"start":"Oxford, UK","end":"Cambridge, UK"}"#, expect: .ok)
        try await call(.POST, "/api/journeys/plan", token: token, json: #"{"start":"Qwxzzy Vrrbnk","end":"Oxford, UK"}"#, expect: .unprocessableEntity)
        try await call(.POST, "/api/journeys/plan", token: token, json: #"{"start":"Oxford, UK","end":"Cambridge, UK","mode":"walking"}"#, expect: .unprocessableEntity)
        try await call(.POST, "/api/journeys/plan", token: token, json: #"{"start":"Oxford, UK","end":7}"#, expect: .badRequest)
        try await call(.POST, "/api/journeys/plan", json: "{\(trip)}", expect: .unauthorized)
        try await call(.POST, "/api/journeys/prepare", token: token, json: #"{\#(trip),"model":"openai:gpt-4o-mini"}"#, expect: .accepted)
        try await call(.POST, "/api/journeys/prepare", token: token, json: #"{\#(trip),"style":"custom"}"#, expect: .unprocessableEntity)
        try await call(.POST, "/api/journeys/prepare", token: token, json: #"{"start":7}"#, expect: .badRequest)
        try await call(.POST, "/api/journeys/prepare", json: "{\(trip)}", expect: .unauthorized)
        try await call(.GET, "/api/journeys/styles", token: token, expect: .ok)
        try await call(.GET, "/api/journeys/styles", expect: .unauthorized)

        try await call(.POST, "/api/journeys", token: token, json: #"{\#(trip),"style":"custom"}"#, expect: .unprocessableEntity)
        try await call(.POST, "/api/journeys", token: token, json: #"{\#(trip),"voice":"nobody:none"}"#, expect: .unprocessableEntity)
        try await call(.POST, "/api/journeys", token: token, json: #"{\#(trip),"model":"anthropic:claude-3-5-haiku-latest"}"#, expect: .unprocessableEntity)
        try await call(.POST, "/api/journeys", token: token, json: #"{\#(trip),"style":["noir"]}"#, expect: .badRequest)
        let started = try await call(.POST, "/api/journeys", token: token,
                                     json: #"{\#(trip),"style":"historical","style_description":null,"voice":"flite:slt","model":"openai:gpt-4o-mini"}"#, expect: .created)
        let id = try #require(started.json?["id"]?.stringValue)
        try await call(.GET, "/api/journeys", token: token, expect: .ok)
        try await call(.GET, "/api/journeys/\(id)", token: token, expect: .ok)
        try await call(.GET, "/api/journeys/\(UUID())", token: token, expect: .notFound)
        try await call(.GET, "/api/journeys/\(id)/parts/1/sentences/999/audio", token: token, expect: .notFound)
        try await call(.GET, "/api/journeys/\(id)/audio", token: token, expect: .notFound)

        let told = try await app.waitForJourney(id, token: token, until: JSONValue.finishedTelling)
        #expect(told["status"]?.stringValue == "complete", "\(told["error"]?.stringValue ?? "")")
        try await call(.GET, "/api/journeys/\(id)", token: token, expect: .ok)
        try await call(.GET, "/api/journeys", token: token, expect: .ok)
        try await call(.GET, "/api/journeys/\(id)/parts/2/sentences/0/audio", token: token, expect: .ok)
        try await call(.GET, "/api/journeys/\(id)/parts/2/sentences/0/audio", token: token, headers: ["Range": "bytes=0-9"], expect: .partialContent)
        try await call(.PUT, "/api/journeys/\(id)/playhead", token: token, json: #"{"part":2,"sentence":4}"#, expect: .ok)
        try await call(.PUT, "/api/journeys/\(id)/playhead", token: token, json: #"{"part":9,"sentence":0}"#, expect: .unprocessableEntity)
        try await call(.PUT, "/api/journeys/\(id)/playhead", token: token, json: #"{"part":null}"#, expect: .badRequest)
        try await call(.PUT, "/api/journeys/\(UUID())/playhead", token: token, json: #"{"part":1,"sentence":0}"#, expect: .notFound)

        try await call(.POST, "/api/journeys/\(UUID())/export", token: token, expect: .notFound)
        let export = try await call(.POST, "/api/journeys/\(id)/export", token: token, expect: .accepted)
        let job = try await app.waitForFinishedJob(try #require(export.json?["job"]?["id"]?.stringValue), token: token)
        #expect(job["status"]?.stringValue == "succeeded", "\(job["error"]?.stringValue ?? "")")
        try await call(.GET, "/api/journeys/\(id)/audio", token: token, expect: .ok)
        try await call(.GET, "/api/journeys/\(id)/audio", token: token, headers: ["Range": "bytes=0-9"], expect: .partialContent)
        try await call(.GET, "/api/journeys/\(UUID())/audio", token: token, expect: .notFound)

        try await call(.DELETE, "/api/journeys/\(id)", token: token, expect: .noContent)
        try await call(.DELETE, "/api/journeys/\(id)", token: token, expect: .notFound)
        try await call(.GET, "/api/journeys/\(id)", token: token, expect: .notFound)
    }
}
